// The Wayland wire protocol, as little of it as deskhand's hands need: the 8-byte header (object
// id; size << 16 | opcode), arguments as u32, i32, 24.8 fixed, padded strings and new ids; the
// registry, binding a global, and sync round trips; a request carrying a file's descriptor (the
// keyboard's keymap), where fd-socket.ts can pass one. Every wait is bounded.

import { NoAnswerError } from "../types.js";
import { openWireSocket, type WireSocket } from "./fd-socket.js";
import { waylandSocketPath } from "./socket-path.js";

export type Arg =
  | { u: number }
  | { i: number }
  | { fixed: number }
  | { s: string }
  /** An object id or a new id (0 for a null object). */
  | { o: number };

/** One request in wire format. */
export function encode(object: number, opcode: number, args: Arg[]): Buffer {
  const parts: Buffer[] = [];
  for (const arg of args) {
    const word = Buffer.alloc(4);
    if ("u" in arg) word.writeUInt32LE(arg.u >>> 0);
    else if ("i" in arg) word.writeInt32LE(arg.i | 0);
    else if ("fixed" in arg) word.writeInt32LE(Math.round(arg.fixed * 256));
    else if ("o" in arg) word.writeUInt32LE(arg.o >>> 0);
    else {
      const bytes = Buffer.from(`${arg.s}\0`, "utf8");
      word.writeUInt32LE(bytes.length);
      const padded = Buffer.alloc(Math.ceil(bytes.length / 4) * 4);
      bytes.copy(padded);
      parts.push(word, padded);
      continue;
    }
    parts.push(word);
  }
  const body = Buffer.concat(parts);
  const header = Buffer.alloc(8);
  header.writeUInt32LE(object);
  header.writeUInt32LE(((8 + body.length) << 16) | opcode, 4);
  return Buffer.concat([header, body]);
}

export interface WireEvent {
  object: number;
  opcode: number;
  body: Buffer;
}

/** The first whole event in `buffer`, and what is left; undefined while it is incomplete. */
export function decode(buffer: Buffer): { event: WireEvent; rest: Buffer } | undefined {
  if (buffer.length < 8) return undefined;
  const size = buffer.readUInt32LE(4) >>> 16;
  if (size < 8) throw new Error(`a Wayland event of ${size} bytes is malformed`);
  if (buffer.length < size) return undefined;
  return {
    event: {
      object: buffer.readUInt32LE(0),
      opcode: buffer.readUInt32LE(4) & 0xffff,
      body: buffer.subarray(8, size),
    },
    rest: buffer.subarray(size),
  };
}

/** A string argument at `offset` of an event's body, and where the next argument starts. */
export function readString(body: Buffer, offset: number): { value: string; next: number } {
  const length = body.readUInt32LE(offset);
  const value = body.subarray(offset + 4, offset + 4 + Math.max(0, length - 1)).toString("utf8");
  return { value, next: offset + 4 + Math.ceil(length / 4) * 4 };
}

const DISPLAY = 1;

export class WaylandConnection {
  #wire: WireSocket;
  #buffer: Buffer = Buffer.alloc(0);
  #nextId = 2;
  #listeners = new Map<number, (event: WireEvent) => void>();
  #error: Error | undefined;
  readonly globals = new Map<string, { name: number; version: number }>();
  /** Every global of an interface, in the order offered (there is one wl_output per monitor). */
  readonly allGlobals: { iface: string; name: number; version: number }[] = [];

  private constructor(wire: WireSocket) {
    this.#wire = wire;
    const socket = wire.socket;
    socket.on("data", (chunk) => this.#receive(chunk));
    socket.on("error", (error) => this.#fail(error));
    socket.on("close", () => this.#fail(new Error("the compositor closed the Wayland connection")));
    // wl_display.error: the compositor's reason for ending the connection.
    this.#listeners.set(DISPLAY, (event) => {
      if (event.opcode === 0) {
        const { value } = readString(event.body, 8);
        this.#fail(new Error(`the compositor refused a request: ${value}`));
      }
    });
  }

  /** Connects to $XDG_RUNTIME_DIR/$WAYLAND_DISPLAY and reads the registry, within `timeoutMs`. */
  static async open(env: NodeJS.ProcessEnv, timeoutMs = 2000): Promise<WaylandConnection> {
    const wire = await openWireSocket(waylandSocketPath(env), timeoutMs);
    const connection = new WaylandConnection(wire);
    try {
      const registry = connection.newId((event) => {
        if (event.opcode !== 0) return; // global_remove is not followed: the globals deskhand binds stay.
        const name = event.body.readUInt32LE(0);
        const { value, next } = readString(event.body, 4);
        const version = event.body.readUInt32LE(next);
        connection.globals.set(value, { name, version });
        connection.allGlobals.push({ iface: value, name, version });
      });
      connection.send(DISPLAY, 1, [{ o: registry }]);
      connection.registry = registry;
      await connection.roundtrip(timeoutMs);
      return connection;
    } catch (error) {
      connection.close();
      throw error;
    }
  }

  registry = 0;

  get closed(): boolean {
    return this.#error !== undefined;
  }

  newId(listener?: (event: WireEvent) => void): number {
    const id = this.#nextId++;
    if (listener) this.#listeners.set(id, listener);
    return id;
  }

  send(object: number, opcode: number, args: Arg[]): void {
    if (this.#error) throw this.#error;
    this.#wire.write(encode(object, opcode, args));
  }

  /** Why this connection cannot pass a file descriptor; undefined when it can. */
  get noDescriptors(): string | undefined {
    return this.#wire.noDescriptors;
  }

  /** A request whose fd argument is `file`'s descriptor (fds go beside the message, not in it). */
  sendFile(object: number, opcode: number, args: Arg[], file: string, mode: "r" | "r+" = "r"): void {
    if (this.#error) throw this.#error;
    this.#wire.write(encode(object, opcode, args), file, mode);
  }

  /** Binds a global by its interface name (or one global of it), at most at `version`; its new object id. */
  bind(
    iface: string,
    version: number,
    global = this.globals.get(iface),
    listener?: (event: WireEvent) => void,
  ): number {
    if (!global) throw new Error(`the compositor offers no ${iface}`);
    const id = this.newId(listener);
    this.send(this.registry, 0, [
      { u: global.name },
      { s: iface },
      { u: Math.min(version, global.version) },
      { o: id },
    ]);
    return id;
  }

  /** Waits until the compositor has handled every request sent so far. */
  roundtrip(timeoutMs = 2000): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new NoAnswerError(`the compositor did not answer within ${timeoutMs} ms`, timeoutMs)),
        timeoutMs,
      );
      const callback = this.newId(() => {
        clearTimeout(timer);
        this.#listeners.delete(callback);
        resolve();
      });
      try {
        this.send(DISPLAY, 0, [{ o: callback }]);
      } catch (error) {
        clearTimeout(timer);
        reject(error as Error);
      }
    });
  }

  /** Stops delivering events to an object the caller is done with. */
  forget(id: number): void {
    this.#listeners.delete(id);
  }

  close(): void {
    this.#fail(new Error("closed"));
  }

  #receive(chunk: Buffer): void {
    this.#buffer = Buffer.concat([this.#buffer, chunk]);
    try {
      for (let next = decode(this.#buffer); next; next = decode(this.#buffer)) {
        this.#buffer = next.rest;
        this.#listeners.get(next.event.object)?.(next.event);
      }
    } catch (error) {
      this.#fail(error as Error);
    }
  }

  #fail(error: Error): void {
    if (this.#error) return;
    this.#error = error;
    this.#wire.socket.destroy();
  }
}
