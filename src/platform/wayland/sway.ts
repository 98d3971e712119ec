// Sway's IPC, spoken directly: the i3-ipc framing ("i3-ipc", u32 length, u32 type, JSON) over the
// UNIX socket in SWAYSOCK. It gives every window's con_id, title, pid, rectangles and focus, and runs
// commands (focus, move scratchpad, kill). Every request is bounded; a reply longer than the bound
// is refused, not buffered. Input and pixels on sway are deskhand's own (hands.ts); KDE Plasma's
// KWin has its own window source (kwin.ts).
import { connect, type Socket } from "node:net";
import { NoAnswerError } from "../types.js";
import type { ClientWindow, WindowSource } from "../window-source.js";
import { CompositorUnreachable, peerGone } from "./compositor.js";

const MAGIC = Buffer.from("i3-ipc");
const HEADER = MAGIC.length + 8;
/** No sway reply deskhand asks for is near this; a larger one is a fault, not a tree. */
const MAX_REPLY = 16 << 20;

export const IPC = { command: 0, getWorkspaces: 1, subscribe: 2, getTree: 4, getVersion: 7 } as const;

/** One message in i3-ipc framing. */
export function frame(type: number, payload = ""): Buffer {
  const body = Buffer.from(payload, "utf8");
  const header = Buffer.alloc(HEADER);
  MAGIC.copy(header, 0);
  header.writeUInt32LE(body.length, MAGIC.length);
  header.writeUInt32LE(type, MAGIC.length + 4);
  return Buffer.concat([header, body]);
}

/** The first whole message in `buffer`, and what is left; undefined while it is incomplete. */
export function unframe(buffer: Buffer): { type: number; payload: string; rest: Buffer } | undefined {
  if (buffer.length < HEADER) return undefined;
  if (!buffer.subarray(0, MAGIC.length).equals(MAGIC)) throw new Error("not an i3-ipc message");
  const length = buffer.readUInt32LE(MAGIC.length);
  if (length > MAX_REPLY) throw new Error(`a reply of ${length} bytes is past the ${MAX_REPLY}-byte bound`);
  if (buffer.length < HEADER + length) return undefined;
  return {
    type: buffer.readUInt32LE(MAGIC.length + 4),
    payload: buffer.subarray(HEADER, HEADER + length).toString("utf8"),
    rest: buffer.subarray(HEADER + length),
  };
}

export interface SwayRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A node of sway's tree, as much of it as deskhand reads. */
export interface SwayNode {
  id: number;
  name?: string | null;
  type?: string;
  pid?: number;
  app_id?: string | null;
  /** An XWayland window's X11 properties, its WM_CLASS class among them. */
  window_properties?: { class?: string | null } | null;
  shell?: string;
  focused?: boolean;
  visible?: boolean;
  rect: SwayRect;
  window_rect?: SwayRect;
  nodes?: SwayNode[];
  floating_nodes?: SwayNode[];
  focus?: number[];
}

export interface SwayWindow {
  /** Sway's con_id. */
  id: number;
  title: string;
  pid: number;
  app: string | null;
  /** Its class: the Wayland app_id, or an XWayland window's WM_CLASS class. */
  windowClass: string | null;
  /** Where the window's surface is on screen: the container's rect plus the surface's offset in it. */
  rect: SwayRect;
  focused: boolean;
  /** false for a window moved to the scratchpad (deskhand's minimize and hide). */
  visible: boolean;
  floating: boolean;
  /** An X11 client of sway's XWayland (its toolkit's extents are its own idea of the screen). */
  xwayland: boolean;
}

/** Every application window in the tree (a view with a pid), tiled before floating, in tree order. */
export function swayWindows(tree: SwayNode): SwayWindow[] {
  const out: SwayWindow[] = [];
  const walk = (node: SwayNode, floating: boolean) => {
    if (typeof node.pid === "number" && (node.type === "con" || node.type === "floating_con")) {
      const inner = node.window_rect ?? { x: 0, y: 0, width: node.rect.width, height: node.rect.height };
      out.push({
        id: node.id,
        title: node.name ?? "",
        pid: node.pid,
        app: node.app_id ?? null,
        windowClass: node.app_id ?? node.window_properties?.class ?? null,
        rect: {
          x: node.rect.x + inner.x,
          y: node.rect.y + inner.y,
          width: inner.width,
          height: inner.height,
        },
        focused: node.focused === true,
        visible: node.visible !== false,
        floating: floating || node.type === "floating_con",
        xwayland: node.shell === "xwayland",
      });
    }
    for (const child of node.nodes ?? []) walk(child, floating);
    for (const child of node.floating_nodes ?? []) walk(child, true);
  };
  walk(tree, false);
  return out;
}

export class SwayIpc {
  #socket: Socket;
  #buffer: Buffer = Buffer.alloc(0);
  #waiting: { resolve: (payload: string) => void; reject: (error: Error) => void }[] = [];
  #closed: Error | undefined;

  private constructor(socket: Socket) {
    this.#socket = socket;
    socket.on("data", (chunk) => this.#receive(chunk));
    socket.on("error", (error) =>
      this.#fail(
        peerGone(error)
          ? new CompositorUnreachable("sway", "compositor_gone", `its IPC socket failed (${error.message})`)
          : error,
      ),
    );
    socket.on("close", () =>
      this.#fail(new CompositorUnreachable("sway", "compositor_gone", "it closed its IPC socket")),
    );
  }

  /** Connects to the socket in SWAYSOCK (or `path`), within `timeoutMs`. */
  static open(path: string, timeoutMs = 2000): Promise<SwayIpc> {
    return new Promise((resolve, reject) => {
      const socket = connect(path);
      const timer = setTimeout(() => {
        socket.destroy();
        reject(
          new NoAnswerError(`sway's IPC socket ${path} did not answer within ${timeoutMs} ms`, timeoutMs),
        );
      }, timeoutMs);
      socket.once("connect", () => {
        clearTimeout(timer);
        resolve(new SwayIpc(socket));
      });
      socket.once("error", (error) => {
        clearTimeout(timer);
        reject(
          peerGone(error)
            ? new CompositorUnreachable(
                "sway",
                "compositor_gone",
                `its IPC socket ${path} refuses connections (${(error as NodeJS.ErrnoException).code})`,
              )
            : error,
        );
      });
    });
  }

  /** One request and its reply (sway answers in order), parsed, within `timeoutMs`. */
  request<T>(type: number, payload = "", timeoutMs = 2000): Promise<T> {
    if (this.#closed) return Promise.reject(this.#closed);
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        // The reply may still come; the connection is dropped so it cannot answer a later request.
        this.#fail(new NoAnswerError(`sway did not answer within ${timeoutMs} ms`, timeoutMs));
      }, timeoutMs);
      this.#waiting.push({
        resolve: (text) => {
          clearTimeout(timer);
          try {
            resolve(JSON.parse(text) as T);
          } catch (error) {
            reject(error as Error);
          }
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      this.#socket.write(frame(type, payload));
    });
  }

  tree(timeoutMs?: number): Promise<SwayNode> {
    return this.request<SwayNode>(IPC.getTree, "", timeoutMs);
  }

  version(timeoutMs?: number): Promise<{ human_readable: string }> {
    return this.request(IPC.getVersion, "", timeoutMs);
  }

  /** A command; sway answers one result per command, and a failed one is thrown with sway's words. */
  async command(text: string, timeoutMs?: number): Promise<void> {
    const results = await this.request<{ success: boolean; error?: string }[]>(IPC.command, text, timeoutMs);
    const failed = results.find((r) => !r.success);
    if (failed) throw new Error(`sway refused "${text}": ${failed.error ?? "no reason given"}`);
  }

  close(): void {
    this.#fail(new Error("closed"));
  }

  get closed(): boolean {
    return this.#closed !== undefined;
  }

  #receive(chunk: Buffer): void {
    this.#buffer = Buffer.concat([this.#buffer, chunk]);
    try {
      for (let message = unframe(this.#buffer); message; message = unframe(this.#buffer)) {
        this.#buffer = message.rest;
        // Events (the high bit of the type) answer no request.
        if (message.type & 0x80000000) continue;
        this.#waiting.shift()?.resolve(message.payload);
      }
    } catch (error) {
      this.#fail(error as Error);
    }
  }

  #fail(error: Error): void {
    if (this.#closed) return;
    this.#closed = error;
    this.#socket.destroy();
    for (const waiting of this.#waiting.splice(0)) waiting.reject(error);
  }
}

/**
 * The visible windows as X11 lists them, bottom to top: tiled windows first, floating ones above
 * them, the focused floating one on top of those. Focus does not lift a tile above a floating window:
 * sway draws floating windows over the tiles whatever has the focus (measured: a click at a tile's
 * button under a floating window, after focusing the tile, landed on the floating one). One stacking
 * rule for the backend's window list and the hands' covered-point check.
 */
export function stackedWindows(tree: SwayNode): ClientWindow[] {
  // A hidden window (in the scratchpad) is listed as X11 lists a minimized one, at the bottom with
  // no place on screen: it can be shown again, and it covers nothing.
  const order = (w: SwayWindow) => (!w.visible ? -1 : w.floating ? (w.focused ? 3 : 2) : w.focused ? 1 : 0);
  return swayWindows(tree)
    .map((w, i) => ({ w, i }))
    .sort((a, b) => order(a.w) - order(b.w) || a.i - b.i)
    .map(({ w }, stackIndex) => ({
      id: w.id,
      title: w.title,
      pid: w.pid,
      rect: w.visible ? w.rect : null,
      csdMargins: null,
      stackIndex,
      ...(w.windowClass ? { windowClass: w.windowClass } : {}),
      ...(w.xwayland ? { xwayland: true as const } : {}),
    }));
}

/**
 * Sway as the AT-SPI backend's window source. Windows are sway's con_ids; a window's place is its
 * surface's (no client-side shadow: the sandbox's windows are tiled with sway's own borders).
 * Stacking: tiled windows first, floating ones above them (stackedWindows). The pointer's
 * place is not something sway's IPC gives, so the window under it cannot be told.
 */
export function swayWindowSource(ipc: SwayIpc, timeoutMs: number): WindowSource {
  const windows = async () => stackedWindows(await ipc.tree(timeoutMs));
  return {
    kind: "sway",
    server: "sway's IPC",
    clientWindows: windows,
    async activeWindow() {
      return swayWindows(await ipc.tree(timeoutMs)).find((w) => w.focused)?.id;
    },
    windowUnderPointer: async () => undefined,
    windowRelativeExtents: true,
    get closed() {
      return ipc.closed;
    },
    close: () => ipc.close(),
  };
}
