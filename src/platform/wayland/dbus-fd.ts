// A D-Bus method call that carries a file descriptor, which the D-Bus library deskhand uses cannot
// send: KWin's ScreenShot2 writes its pixels into a descriptor the caller passes. The connection is
// the session bus's UNIX socket opened through fd-socket.ts (which can pass one), the handshake
// asks for descriptor passing (NEGOTIATE_UNIX_FD), and each message is encoded with the library's
// own marshaller: an `h` is a `u` on the wire (an index into the message's descriptors), and the
// header says how many descriptors go with it (field 9). One call at a time, each bounded.
import { createRequire } from "node:module";
import { NoAnswerError } from "../types.js";
import { openWireSocket, type WireSocket } from "./fd-socket.js";

const require = createRequire(import.meta.url);
const marshall = require("@homebridge/dbus-native/lib/marshall") as (
  signature: string,
  data: unknown[],
  offset?: number,
) => Buffer;
const { unmarshall } = require("@homebridge/dbus-native/lib/message") as {
  unmarshall(buffer: Buffer): DecodedMessage;
};

interface DecodedMessage {
  type: number;
  serial: number;
  replySerial?: number;
  errorName?: string;
  signature?: string;
  body?: unknown[];
}

const METHOD_CALL = 1;
const METHOD_RETURN = 2;
const ERROR = 3;
/** Header field codes and their types. */
const FIELDS = {
  path: [1, "o"],
  interface: [2, "s"],
  member: [3, "s"],
  destination: [6, "s"],
  signature: [8, "g"],
  unixFds: [9, "u"],
} as const;
/** The longest message deskhand accepts back: replies here are a few hundred bytes. */
const MAX_MESSAGE = 1 << 20;

export interface FdCall {
  destination: string;
  path: string;
  iface: string;
  member: string;
  /** The signature as the peer declares it, `h` included. */
  signature: string;
  /** The body; the `h` argument's place holds 0, the one descriptor's index. */
  body: unknown[];
  /** The file whose descriptor goes with the call, opened read-write. */
  file: string;
}

/** The path of a `unix:path=…` bus address; undefined for any other kind. */
export function socketPathOf(address: string): string | undefined {
  for (const part of address.split(";")) {
    const match = /^unix:(?:.*,)?path=([^,]+)/.exec(part);
    if (match) return decodeURIComponent(match[1]!);
  }
  return undefined;
}

/** One method call message, little-endian, with one descriptor. */
export function encodeCall(call: FdCall, serial: number): Buffer {
  const body = marshall(call.signature.replaceAll("h", "u"), call.body);
  const fields: [number, [string, unknown]][] = [
    [FIELDS.path[0], [FIELDS.path[1], call.path]],
    [FIELDS.interface[0], [FIELDS.interface[1], call.iface]],
    [FIELDS.member[0], [FIELDS.member[1], call.member]],
    [FIELDS.destination[0], [FIELDS.destination[1], call.destination]],
    [FIELDS.signature[0], [FIELDS.signature[1], call.signature]],
    [FIELDS.unixFds[0], [FIELDS.unixFds[1], 1]],
  ];
  const header = marshall("yyyyuua(yv)", [108, METHOD_CALL, 0, 1, body.length, serial, fields]);
  const padded = Buffer.alloc(Math.ceil(header.length / 8) * 8);
  header.copy(padded);
  return Buffer.concat([padded, body]);
}

/** A bus's `Hello`, which must come first on a message bus. */
function encodeHello(serial: number): Buffer {
  const fields: [number, [string, unknown]][] = [
    [1, ["o", "/org/freedesktop/DBus"]],
    [2, ["s", "org.freedesktop.DBus"]],
    [3, ["s", "Hello"]],
    [6, ["s", "org.freedesktop.DBus"]],
  ];
  const header = marshall("yyyyuua(yv)", [108, METHOD_CALL, 0, 1, 0, serial, fields]);
  const padded = Buffer.alloc(Math.ceil(header.length / 8) * 8);
  header.copy(padded);
  return padded;
}

/** The length of the whole message at the buffer's start, once its fixed header is there. */
function messageLength(buffer: Buffer): number | undefined {
  if (buffer.length < 16) return undefined;
  const le = buffer[0] === 108;
  const bodyLength = le ? buffer.readUInt32LE(4) : buffer.readUInt32BE(4);
  const fieldsLength = le ? buffer.readUInt32LE(12) : buffer.readUInt32BE(12);
  return Math.ceil((16 + fieldsLength) / 8) * 8 + bodyLength;
}

export class DBusFdConnection {
  #buffer = Buffer.alloc(0);
  #serial = 1;
  #waiting = new Map<number, { resolve: (m: DecodedMessage) => void; reject: (e: Error) => void }>();
  #lines: ((line: string) => void)[] = [];
  #authenticated = false;
  #closed: Error | undefined;

  private constructor(private readonly wire: WireSocket) {
    wire.socket.on("data", (chunk: Buffer) => this.#receive(chunk));
    wire.socket.on("error", (error) => this.#fail(error));
    wire.socket.on("close", () => this.#fail(new Error("the session bus closed the connection")));
  }

  /** A connection to the bus at `address` that can pass descriptors, or why there cannot be one. */
  static async open(address: string, timeoutMs: number): Promise<DBusFdConnection> {
    const path = socketPathOf(address);
    if (!path)
      throw new Error(
        `the session bus's address ${address} names no socket path deskhand can pass a file through`,
      );
    const wire = await openWireSocket(path, timeoutMs);
    if (wire.noDescriptors) {
      wire.socket.destroy();
      throw new Error(wire.noDescriptors);
    }
    const connection = new DBusFdConnection(wire);
    try {
      await connection.#handshake(timeoutMs);
    } catch (error) {
      connection.close();
      throw error;
    }
    return connection;
  }

  get closed(): boolean {
    return this.#closed !== undefined;
  }

  async #handshake(timeoutMs: number): Promise<void> {
    const uid = Buffer.from(String(process.getuid?.() ?? 0)).toString("hex");
    this.wire.write(Buffer.from(`\0AUTH EXTERNAL ${uid}\r\n`));
    const ok = await this.#line(timeoutMs);
    if (!ok.startsWith("OK ")) throw new Error(`the session bus refused deskhand: ${ok}`);
    this.wire.write(Buffer.from("NEGOTIATE_UNIX_FD\r\n"));
    const agreed = await this.#line(timeoutMs);
    if (agreed !== "AGREE_UNIX_FD") throw new Error(`the session bus passes no file descriptors: ${agreed}`);
    this.wire.write(Buffer.from("BEGIN\r\n"));
    this.#authenticated = true;
    const serial = this.#serial++;
    const reply = this.#reply(serial, timeoutMs, "Hello");
    this.wire.write(encodeHello(serial));
    await reply;
  }

  /** Calls the method with the file's descriptor; the reply's body, or the peer's error thrown. */
  async call(call: FdCall, timeoutMs: number): Promise<unknown[]> {
    if (this.#closed) throw this.#closed;
    const serial = this.#serial++;
    const reply = this.#reply(serial, timeoutMs, `${call.iface}.${call.member}`);
    this.wire.write(encodeCall(call, serial), call.file, "r+");
    const message = await reply;
    if (message.type === ERROR)
      throw new Error(
        `${call.iface}.${call.member}: ${message.errorName}: ${String(message.body?.[0] ?? "")}`,
      );
    return message.body ?? [];
  }

  #reply(serial: number, timeoutMs: number, what: string): Promise<DecodedMessage> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiting.delete(serial);
        reject(new NoAnswerError(`${what} did not answer within ${timeoutMs} ms`, timeoutMs));
      }, timeoutMs);
      this.#waiting.set(serial, {
        resolve: (message) => {
          clearTimeout(timer);
          resolve(message);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
    });
  }

  #line(timeoutMs: number): Promise<string> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new NoAnswerError(`the session bus did not answer within ${timeoutMs} ms`, timeoutMs)),
        timeoutMs,
      );
      this.#lines.push((line) => {
        clearTimeout(timer);
        resolve(line);
      });
      this.#receive(Buffer.alloc(0));
    });
  }

  #receive(chunk: Buffer): void {
    this.#buffer = Buffer.concat([this.#buffer, chunk]);
    if (!this.#authenticated) {
      const end = this.#buffer.indexOf("\r\n");
      if (end < 0 || this.#lines.length === 0) return;
      const line = this.#buffer.subarray(0, end).toString("latin1");
      this.#buffer = this.#buffer.subarray(end + 2);
      this.#lines.shift()!(line);
      return;
    }
    try {
      for (
        let length = messageLength(this.#buffer);
        length !== undefined;
        length = messageLength(this.#buffer)
      ) {
        if (length > MAX_MESSAGE) throw new Error(`a message of ${length} bytes is past the bound`);
        if (this.#buffer.length < length) return;
        const message = unmarshall(this.#buffer.subarray(0, length));
        this.#buffer = this.#buffer.subarray(length);
        if (message.type !== METHOD_RETURN && message.type !== ERROR) continue;
        const waiting = this.#waiting.get(message.replySerial ?? -1);
        this.#waiting.delete(message.replySerial ?? -1);
        waiting?.resolve(message);
      }
    } catch (error) {
      this.#fail(error as Error);
    }
  }

  #fail(error: Error): void {
    if (this.#closed) return;
    this.#closed = error;
    this.wire.socket.destroy();
    for (const waiting of this.#waiting.values()) waiting.reject(error);
    this.#waiting.clear();
  }

  close(): void {
    this.#fail(new Error("closed"));
  }
}

/** An `a{sv}` as the library decodes it (pairs, each value a variant), as a plain object. */
export function variantMap(pairs: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const pair of (pairs as [string, [unknown, unknown[]]][]) ?? []) out[pair[0]] = pair[1][1][0];
  return out;
}
