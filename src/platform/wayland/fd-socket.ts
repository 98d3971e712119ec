// A UNIX socket that can send a file descriptor with a message (SCM_RIGHTS), from plain Node. The
// public `net` module cannot; libuv can, on a pipe opened in IPC mode, and Node's own child_process
// channel uses exactly that. This reaches it through `process.binding` (deprecated, DEP0111, but
// present in Node 20 and 22). Every piece is checked when the socket opens: if one is missing, the
// socket opens without descriptors and says why, and only what needs one (the keyboard's keymap)
// is unavailable. Only writes go through here, in order; reads use an ordinary net.Socket on the
// same handle.
import { closeSync, openSync } from "node:fs";
import { connect, Socket, type SocketConstructorOpts } from "node:net";
import { NoAnswerError } from "../types.js";

interface UvPipe {
  connect(request: object, path: string): number;
  open(fd: number): number;
  writeBuffer(request: object, data: Buffer, send?: UvPipe): number;
  close(callback?: () => void): void;
}
interface Bindings {
  Pipe: new (type: number) => UvPipe;
  PipeConnectWrap: new () => { oncomplete?: (status: number) => void };
  WriteWrap: new () => Record<string, unknown>;
  /** Set by each write: whether it completes later (its oncomplete is then called). */
  streamBaseState: Int32Array;
  kLastWriteWasAsync: number;
  constants: { SOCKET: number; IPC: number };
}

function bindings(): Bindings | string {
  try {
    const binding = (process as unknown as { binding(name: string): Record<string, unknown> }).binding;
    const pipe = binding("pipe_wrap") as Partial<Bindings>;
    const stream = binding("stream_wrap") as Partial<Bindings>;
    if (
      !pipe.Pipe ||
      !pipe.PipeConnectWrap ||
      !pipe.constants ||
      !stream.WriteWrap ||
      !stream.streamBaseState ||
      stream.kLastWriteWasAsync === undefined
    )
      return `this Node (${process.version}) has no IPC pipe binding`;
    return {
      ...(pipe as Bindings),
      WriteWrap: stream.WriteWrap,
      streamBaseState: stream.streamBaseState,
      kLastWriteWasAsync: stream.kLastWriteWasAsync,
    };
  } catch (error) {
    return `this Node (${process.version}) hides its IPC pipe binding: ${(error as Error).message}`;
  }
}

export interface WireSocket {
  /** Reads arrive here as on any socket. */
  readonly socket: Socket;
  /** Why descriptors cannot be sent on this socket; undefined when they can. */
  readonly noDescriptors: string | undefined;
  /**
   * Writes `data`; with `file`, the file's descriptor goes with it (only when noDescriptors is unset),
   * opened read-only, or read-write for a buffer the compositor writes into.
   */
  write(data: Buffer, file?: string, mode?: "r" | "r+"): void;
}

/** Connects to the UNIX socket at `path` within `timeoutMs`, able to pass descriptors where Node lets it. */
export async function openWireSocket(path: string, timeoutMs: number): Promise<WireSocket> {
  const uv = bindings();
  if (typeof uv === "string") return plainSocket(await connectPlain(path, timeoutMs), uv);
  const handle = new uv.Pipe(uv.constants.IPC);
  await new Promise<void>((resolve, reject) => {
    const request = new uv.PipeConnectWrap();
    const timer = setTimeout(() => {
      handle.close();
      reject(
        new NoAnswerError(`the Wayland display ${path} did not answer within ${timeoutMs} ms`, timeoutMs),
      );
    }, timeoutMs);
    request.oncomplete = (status: number) => {
      clearTimeout(timer);
      if (status < 0) {
        handle.close();
        reject(new Error(`cannot connect to ${path} (libuv error ${status})`));
      } else resolve();
    };
    const error = handle.connect(request, path);
    if (error) {
      clearTimeout(timer);
      reject(new Error(`cannot connect to ${path} (libuv error ${error})`));
    }
  });
  // Node's own option for wrapping a libuv handle; its types leave it out.
  const socket = new Socket({ handle } as unknown as SocketConstructorOpts);
  let failed: Error | undefined;
  return {
    socket,
    noDescriptors: undefined,
    write(data, file, mode = "r") {
      if (failed) throw failed;
      let carrier: UvPipe | undefined;
      // libuv aborts the process on a handle closed twice: one close, whichever path comes first.
      const closeCarrier = () => {
        carrier?.close();
        carrier = undefined;
      };
      if (file !== undefined) {
        // libuv sends a handle's descriptor: a pipe handle opened on the file's descriptor carries it.
        const fd = openSync(file, mode);
        carrier = new uv.Pipe(uv.constants.SOCKET);
        const opened = carrier.open(fd);
        if (opened) {
          closeCarrier();
          closeSync(fd);
          throw new Error(`cannot pass ${file} to the compositor (libuv error ${opened})`);
        }
      }
      const request = new uv.WriteWrap();
      request.handle = handle;
      // The kernel takes its own reference to the descriptor when libuv's sendmsg runs, which may be
      // later, when the socket is writable: the carrier (and with it the descriptor) closes after.
      request.oncomplete = (status: number) => {
        closeCarrier();
        if (status < 0 && !failed) {
          failed = new Error(`a write to the Wayland display failed (libuv error ${status})`);
          socket.destroy(failed);
        }
      };
      const error = carrier ? handle.writeBuffer(request, data, carrier) : handle.writeBuffer(request, data);
      if (error) {
        closeCarrier();
        throw new Error(`a write to the Wayland display failed (libuv error ${error})`);
      }
      if (!uv.streamBaseState[uv.kLastWriteWasAsync]) closeCarrier();
    },
  };
}

function connectPlain(path: string, timeoutMs: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(path);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(
        new NoAnswerError(`the Wayland display ${path} did not answer within ${timeoutMs} ms`, timeoutMs),
      );
    }, timeoutMs);
    socket.once("connect", () => {
      clearTimeout(timer);
      resolve(socket);
    });
    socket.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

function plainSocket(socket: Socket, reason: string): WireSocket {
  return {
    socket,
    noDescriptors: reason,
    write(data, file) {
      if (file !== undefined) throw new Error(`cannot pass a file descriptor: ${reason}`);
      socket.write(data);
    },
  };
}
