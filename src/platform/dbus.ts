// A thin, bounded layer over @homebridge/dbus-native. The library's calls have no timeout and its pending
// callbacks are never settled when a peer dies, so every call here carries a deadline and a closed
// connection rejects everything still in flight.

import { createRequire } from "node:module";
import { settleInSlices, sliceDue } from "./slice.js";
import { cutMark, STRING_CEILING } from "./strings.js";
import { CodedError, NoAnswerError } from "./types.js";

const require = createRequire(import.meta.url);
const dbusNative = require("@homebridge/dbus-native") as DBusNativeModule;
const { marshall: encodeMessage } = require("@homebridge/dbus-native/lib/message") as {
  marshall(message: NativeMessage): Buffer;
};
const DBusBuffer = require("@homebridge/dbus-native/lib/dbus-buffer") as {
  prototype: { buffer: Buffer; pos: number; readString(length: number): string };
};

/**
 * A string the most deskhand carries (STRING_CEILING UTF-16 units) takes at most 3 UTF-8 bytes a
 * unit: a longer one is decoded only that far, at a character's edge, and marked with its whole
 * length, which cutString keeps. Decoding an app's 5 MB name whole held the event loop for 30 to
 * 130 ms a string, on this machine, and everything after would cut it anyway.
 */
const DECODED_BYTES = STRING_CEILING * 3;
DBusBuffer.prototype.readString = function (this: { buffer: Buffer; pos: number }, length: number) {
  const start = this.pos;
  this.pos += length + 1; // D-Bus strings end in a zero byte
  if (length <= DECODED_BYTES) return length === 0 ? "" : this.buffer.toString("utf8", start, start + length);
  let end = start + DECODED_BYTES;
  while (end > start && (this.buffer[end]! & 0xc0) === 0x80) end--;
  return this.buffer.toString("utf8", start, end) + cutMark(utf16Length(this.buffer, start, start + length));
};

/**
 * How many UTF-16 units the UTF-8 bytes decode to: one a character, two for one of 4 bytes. Runs of
 * ASCII are counted four bytes at a time (5 MB in about 2 ms).
 */
function utf16Length(bytes: Buffer, start: number, end: number): number {
  let units = 0;
  let i = start;
  const byteUnits = (byte: number) => ((byte & 0xc0) === 0x80 ? 0 : byte >= 0xf0 ? 2 : 1);
  while (i < end && (bytes.byteOffset + i) % 4 !== 0) units += byteUnits(bytes[i++]!);
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset + i, Math.floor((end - i) / 4));
  for (const word of words) {
    if ((word & 0x80808080) === 0) units += 4;
    else for (let shift = 0; shift < 32; shift += 8) units += byteUnits((word >>> shift) & 0xff);
  }
  for (i += words.length * 4; i < end; i++) units += byteUnits(bytes[i]!);
  return units;
}

export interface NativeMessage {
  destination?: string;
  path: string;
  interface: string;
  member: string;
  signature?: string;
  body?: unknown[];
  serial?: number;
  type?: number;
  flags?: number;
}

interface NativeConnection {
  message(message: NativeMessage): void;
  on(event: "connect" | "end", listener: () => void): void;
  on(event: "error", listener: (error: Error) => void): void;
  removeAllListeners(): void;
  end(): void;
  stream: {
    destroy(): void;
    cork(): void;
    uncork(): void;
    write(data: Buffer): boolean;
    read(size?: number): Buffer | null;
    emit(event: "readable"): boolean;
  };
}

interface NativeBus {
  connection: NativeConnection;
  setMethodCallHandler(
    path: string,
    iface: string,
    member: string,
    handler: [(...args: unknown[]) => unknown, string],
  ): void;
  /** The unique name the bus gave us at Hello. */
  name?: string | null;
  cookies: Record<number, unknown>;
  invoke(
    message: NativeMessage,
    callback: (this: unknown, error: { name: string; message: string } | null, ...body: unknown[]) => void,
  ): void;
}

interface DBusNativeModule {
  createClient(options: { busAddress: string; direct?: boolean }): NativeBus;
}

export interface DBusMethodCall {
  /** Omitted on peer-to-peer connections, where there is no bus to route by name. */
  destination?: string;
  path: string;
  iface: string;
  member: string;
  signature?: string;
  body?: unknown[];
}

/** A signal as received: who sent it, from which object, and its arguments. */
export interface DBusSignal {
  sender: string;
  path: string;
  iface: string;
  member: string;
  body: unknown[];
}

/** D-Bus's message type of a signal. */
const SIGNAL_TYPE = 4;

export class DBusCallError extends Error {
  override readonly name = "DBusCallError";
  constructor(
    readonly dbusName: string,
    message: string,
    readonly call: DBusMethodCall,
  ) {
    super(`${call.iface}.${call.member} on ${call.path}: ${dbusName}: ${message}`);
  }
}

export class DBusTimeoutError extends Error {
  override readonly name = "DBusTimeoutError";
  constructor(
    readonly call: DBusMethodCall,
    readonly timeoutMs: number,
  ) {
    super(`${call.iface}.${call.member} on ${call.path} did not answer within ${timeoutMs} ms`);
  }

  get waitedMs(): number {
    return this.timeoutMs;
  }
}

class DBusClosedError extends CodedError {
  override readonly name = "DBusClosedError";
  readonly code = "backend_unavailable";
  readonly next =
    "Call again: the next call connects to the accessibility bus anew. Apps started before the restart may need restarting to appear.";
  override get said(): string {
    return `${this.message}: the accessibility bus stopped or restarted`;
  }
  constructor(readonly address: string) {
    super(`the D-Bus connection to ${address} is closed`);
  }
}

/**
 * Encoded read calls, kept to be sent again with a new serial. The library encodes a message field by
 * field through generic signature code: about 30 µs a call, most of deskhand's CPU in a 900-node read.
 * A snapshot asks the same objects the same questions each time, so a repeat costs one copy. Only
 * calls that read (`Get…`) with numbers or short strings in the body are kept: text written to an app
 * is never held here.
 */
export class MessageTemplates {
  static readonly MAX_ENTRIES = 2_000;
  #byKey = new Map<string, Buffer>();

  get size(): number {
    return this.#byKey.size;
  }

  encode(message: NativeMessage): Buffer {
    const key = MessageTemplates.keyOf(message);
    if (key === undefined) return encodeMessage(message);
    const template = this.#byKey.get(key);
    if (template === undefined) {
      const encoded = encodeMessage(message);
      if (this.#byKey.size >= MessageTemplates.MAX_ENTRIES) this.#byKey.clear();
      this.#byKey.set(key, encoded);
      return encoded;
    }
    const out = Buffer.allocUnsafe(template.length);
    template.copy(out);
    // The fixed header is little-endian (the library always writes "l"); the serial is bytes 8–11.
    out.writeUInt32LE(message.serial ?? 0, 8);
    return out;
  }

  static keyOf(message: NativeMessage): string | undefined {
    if (message.type !== 1 || message.flags || !message.member.startsWith("Get")) return undefined;
    let key = `${message.destination ?? ""} ${message.path} ${message.interface} ${message.member} ${message.signature ?? ""}`;
    for (const value of message.body ?? []) {
      if (typeof value === "number") key += ` ${value}`;
      else if (typeof value === "string" && value.length <= 64) key += ` ${JSON.stringify(value)}`;
      else return undefined;
    }
    return key;
  }
}

export interface OpenOptions {
  /** Peer-to-peer socket (an application's own): no bus, so no Hello. */
  direct?: boolean;
  timeoutMs?: number;
}

export class DBusConnection {
  #pending = new Map<number, (error: Error) => void>();
  #closed = false;
  #corked = false;

  private constructor(
    readonly address: string,
    private readonly bus: NativeBus,
  ) {
    bus.connection.on("end", () => this.#markClosed());
    bus.connection.on("error", () => this.#markClosed());
    const templates = new MessageTemplates();
    const stream = bus.connection.stream;
    bus.connection.message = (message) => {
      stream.write(templates.encode(message));
    };
    DBusConnection.#decodeInSlices(stream);
  }

  /**
   * The library decodes, in one loop, every message the socket has buffered: hundreds of replies in a
   * large read. Each message is read with `stream.read`; when this turn's slice is spent, that read
   * says "nothing yet" (the loop keeps its place) and decoding resumes on the next turn of the loop.
   * Node emits "readable" again only once the buffer was drained, so the resumption emits it.
   */
  static #decodeInSlices(stream: NativeConnection["stream"]): void {
    const read = stream.read.bind(stream);
    let resuming = false;
    stream.read = (size?: number) => {
      if (!sliceDue()) return read(size);
      if (!resuming) {
        resuming = true;
        setImmediate(() => {
          resuming = false;
          stream.emit("readable");
        });
      }
      return null;
    };
  }

  static open(address: string, options: OpenOptions = {}): Promise<DBusConnection> {
    const timeoutMs = options.timeoutMs ?? 2000;
    return new Promise((resolve, reject) => {
      let bus: NativeBus;
      try {
        bus = dbusNative.createClient({ busAddress: address, direct: options.direct ?? false });
      } catch (error) {
        reject(new Error(`cannot connect to D-Bus at ${address}: ${(error as Error).message}`));
        return;
      }
      const timer = setTimeout(() => {
        bus.connection.stream.destroy();
        reject(
          new NoAnswerError(
            `D-Bus at ${address} did not complete its handshake within ${timeoutMs} ms`,
            timeoutMs,
          ),
        );
      }, timeoutMs);
      bus.connection.on("error", (error) => {
        clearTimeout(timer);
        reject(new Error(`cannot connect to D-Bus at ${address}: ${error.message}`));
      });
      bus.connection.on("connect", () => {
        clearTimeout(timer);
        const connection = new DBusConnection(address, bus);
        if (options.direct) {
          resolve(connection);
          return;
        }
        // On a message bus the library sends Hello itself; a round trip proves we were admitted.
        connection
          .call(
            {
              destination: "org.freedesktop.DBus",
              path: "/org/freedesktop/DBus",
              iface: "org.freedesktop.DBus",
              member: "GetId",
            },
            timeoutMs,
          )
          .then(
            () => resolve(connection),
            (error: Error) => {
              connection.close();
              reject(error);
            },
          );
      });
    });
  }

  get uniqueName(): string | undefined {
    return this.bus.name ?? undefined;
  }

  /** Listeners this connection holds on its socket: the soak checks they do not grow. */
  get socketListeners(): number {
    const stream = this.bus.connection as unknown as { listenerCount?(event: string): number };
    return ["data", "end", "error", "message"].reduce((n, e) => n + (stream.listenerCount?.(e) ?? 0), 0);
  }

  get closed(): boolean {
    return this.#closed;
  }

  call(call: DBusMethodCall, timeoutMs: number): Promise<unknown[]> {
    if (this.#closed) return Promise.reject(new DBusClosedError(this.address));
    return new Promise((resolve, reject) => {
      const message: NativeMessage = {
        path: call.path,
        interface: call.iface,
        member: call.member,
      };
      if (call.destination) message.destination = call.destination;
      if (call.signature) {
        message.signature = call.signature;
        message.body = call.body ?? [];
      }
      // Calls made in one tick leave in one write: a 900-call read was spending an eighth of its CPU
      // in one socket write per message.
      if (!this.#corked) {
        this.#corked = true;
        this.bus.connection.stream.cork();
        setImmediate(() => {
          this.#corked = false;
          this.bus.connection.stream.uncork();
        });
      }
      let serial = -1;
      const timer = setTimeout(() => {
        this.#pending.delete(serial);
        delete this.bus.cookies[serial];
        reject(new DBusTimeoutError(call, timeoutMs));
      }, timeoutMs);
      const settle = () => {
        clearTimeout(timer);
        this.#pending.delete(serial);
      };
      try {
        this.bus.invoke(message, (error, ...body) => {
          settle();
          settleInSlices(() => {
            if (error) reject(new DBusCallError(error.name, error.message, call));
            else resolve(body);
          });
        });
      } catch (error) {
        // The marshaller asserts on a body that does not fit the signature, synchronously.
        clearTimeout(timer);
        reject(new Error(`cannot encode ${call.iface}.${call.member}: ${(error as Error).message}`));
        return;
      }
      serial = message.serial ?? -1;
      this.#pending.set(serial, (closedError) => {
        settle();
        reject(closedError);
      });
    });
  }

  /**
   * Calls `listener` with each signal this connection receives (those its match rules let through),
   * until the returned function is called.
   */
  onSignal(listener: (signal: DBusSignal) => void): () => void {
    const handler = (message: NativeMessage & { sender?: string }) => {
      if (message.type !== SIGNAL_TYPE) return;
      listener({
        sender: message.sender ?? "",
        path: message.path,
        iface: message.interface,
        member: message.member,
        body: message.body ?? [],
      });
    };
    const connection = this.bus.connection as unknown as {
      on(event: "message", listener: typeof handler): void;
      removeListener(event: "message", listener: typeof handler): void;
    };
    connection.on("message", handler);
    return () => connection.removeListener("message", handler);
  }

  /**
   * Answers calls of `iface.member` on `path` from other peers (a KWin script reporting back), with
   * an empty reply. Only what this connection's owner asked for is served.
   */
  serve(path: string, iface: string, member: string, handler: (...args: unknown[]) => void): void {
    this.bus.setMethodCallHandler(path, iface, member, [
      (...args: unknown[]) => {
        handler(...args);
        return undefined;
      },
      "",
    ]);
  }

  close(): void {
    if (this.#closed) return;
    this.#markClosed();
    try {
      this.bus.connection.end();
      this.bus.connection.stream.destroy();
    } catch {
      // Already gone: nothing left to release.
    }
  }

  #markClosed(): void {
    if (this.#closed && this.#pending.size === 0) return;
    this.#closed = true;
    const error = new DBusClosedError(this.address);
    for (const reject of [...this.#pending.values()]) reject(error);
    this.#pending.clear();
  }
}

/** The bus itself, which answers for its names and connections. */
const BUS_NAME = "org.freedesktop.DBus";
const BUS_PATH = "/org/freedesktop/DBus";

export async function nameHasOwner(
  connection: DBusConnection,
  name: string,
  timeoutMs: number,
): Promise<boolean> {
  const [owned] = await connection.call(
    {
      destination: BUS_NAME,
      path: BUS_PATH,
      iface: BUS_NAME,
      member: "NameHasOwner",
      signature: "s",
      body: [name],
    },
    timeoutMs,
  );
  return Boolean(owned);
}

export async function connectionPid(
  connection: DBusConnection,
  busName: string,
  timeoutMs: number,
): Promise<number> {
  const [pid] = await connection.call(
    {
      destination: BUS_NAME,
      path: BUS_PATH,
      iface: BUS_NAME,
      member: "GetConnectionUnixProcessID",
      signature: "s",
      body: [busName],
    },
    timeoutMs,
  );
  return Number(pid);
}
