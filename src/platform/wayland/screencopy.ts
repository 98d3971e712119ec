// Pixels on wlroots from deskhand's own Wayland connection: zwlr_screencopy_manager_v1 copies a
// region of one output into a wl_shm buffer, a file deskhand makes and passes to the compositor as a
// descriptor (fd-socket.ts), on a Wayland connection of its own, so that a request the compositor
// refuses (which ends a connection) never takes the pointer and keyboard with it. Measured on sway:
// 3.5–13 ms a frame, where spawning grim takes about 60 ms. Where it cannot serve a region (no descriptors, no screencopy, a region across outputs, a
// scaled output, a pixel format it does not read), `unsupported` says why and the caller uses grim.
import { closeSync, existsSync, ftruncateSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RgbaImage } from "../hands.js";
import type { Rect } from "../types.js";
import { readString, WaylandConnection, type WireEvent } from "./wire.js";

/** zwlr_screencopy_manager_v1 and zwlr_screencopy_frame_v1 requests and events. */
const MANAGER = { captureOutputRegion: 1 };
const FRAME = { copy: 0, destroy: 1 };
const FRAME_EVENT = { buffer: 0, flags: 1, ready: 2, failed: 3, bufferDone: 6 };
const Y_INVERT = 1;
/** wl_shm, wl_shm_pool and wl_buffer requests. */
const SHM = { createPool: 0 };
const POOL = { createBuffer: 0, destroy: 1 };
const BUFFER = { destroy: 0 };
/** wl_output's name event (version 4). */
const OUTPUT_NAME = 4;
/** wl_shm formats in memory order on a little-endian machine: ARGB and XRGB are B, G, R, A. */
const FORMATS: Record<number, "bgr" | "rgb"> = { 0: "bgr", 1: "bgr", 875708993: "rgb", 875709016: "rgb" };
/** A frame larger than this is not mapped (grim's own bound in deskhand is the same). */
const MAX_BYTES = 256 << 20;

export interface OutputPlace {
  name: string;
  rect: Rect;
  scale?: number;
}

/** A frame's buffer as the compositor describes it: what deskhand must allocate. */
export interface FrameBuffer {
  format: number;
  width: number;
  height: number;
  stride: number;
}

/** The frame's bytes as RGBA: XRGB/ARGB (B, G, R, X) or XBGR/ABGR (R, G, B, X), rows flipped if inverted. */
export function frameToRgba(bytes: Buffer, buffer: FrameBuffer, yInvert: boolean): RgbaImage {
  const order = FORMATS[buffer.format];
  if (!order) throw new Error(`pixel format 0x${buffer.format.toString(16)} is not read`);
  const { width, height, stride } = buffer;
  if (bytes.length < stride * height) throw new Error("the frame is shorter than its size says");
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    const row = (yInvert ? height - 1 - y : y) * stride;
    for (let x = 0; x < width; x++) {
      const from = row + x * 4;
      const to = (y * width + x) * 4;
      data[to] = bytes[from + (order === "bgr" ? 2 : 0)]!;
      data[to + 1] = bytes[from + 1]!;
      data[to + 2] = bytes[from + (order === "bgr" ? 0 : 2)]!;
      data[to + 3] = 255;
    }
  }
  return { width, height, data };
}

export class WaylandScreencopy {
  /** The frames' files, made at the first capture, in memory where the session has a runtime folder. */
  #folder: string | undefined;
  /** wl_output objects by their name ("HEADLESS-1"), as their name events arrive. */
  readonly #outputs = new Map<string, number>();
  /** Frames are copied one at a time: each has a file of its own, but one is enough. */
  #turn: Promise<unknown> = Promise.resolve();
  #count = 0;

  private constructor(
    private readonly wl: WaylandConnection,
    private readonly manager: number,
    private readonly shm: number,
    private readonly timeoutMs: number,
    private readonly parent: string,
  ) {}

  /** A screencopy on a connection of its own to the session's display, or why there is none. */
  static async open(env: NodeJS.ProcessEnv, timeoutMs: number): Promise<WaylandScreencopy | string> {
    let wl: WaylandConnection;
    try {
      wl = await WaylandConnection.open(env, timeoutMs);
    } catch (error) {
      return `cannot reach the Wayland display: ${(error as Error).message}`;
    }
    const why = screencopyUnavailable(wl);
    if (why) {
      wl.close();
      return why;
    }
    try {
      const runtime = env.XDG_RUNTIME_DIR && existsSync(env.XDG_RUNTIME_DIR) ? env.XDG_RUNTIME_DIR : tmpdir();
      return await WaylandScreencopy.#bound(wl, timeoutMs, runtime);
    } catch (error) {
      wl.close();
      return `the compositor did not set up screencopy: ${(error as Error).message}`;
    }
  }

  static async #bound(wl: WaylandConnection, timeoutMs: number, parent: string): Promise<WaylandScreencopy> {
    const manager = wl.bind("zwlr_screencopy_manager_v1", 3);
    const shm = wl.bind("wl_shm", 1);
    const copy = new WaylandScreencopy(wl, manager, shm, timeoutMs, parent);
    for (const global of wl.allGlobals.filter((g) => g.iface === "wl_output")) {
      if (global.version < 4) continue;
      const id = wl.bind("wl_output", 4, global, (event) => {
        if (event.opcode === OUTPUT_NAME) copy.#outputs.set(readString(event.body, 0).value, id);
      });
    }
    await wl.roundtrip(timeoutMs);
    return copy;
  }

  /**
   * Why `region` cannot be copied here, given the outputs sway lays out; undefined when it can. A
   * region must lie within one output at scale 1 (the frame is then the region, pixel for pixel).
   */
  unsupported(region: Rect, outputs: OutputPlace[]): string | undefined {
    const output = containing(region, outputs);
    if (!output) return "the region is not within one output";
    if ((output.scale ?? 1) !== 1) return `output ${output.name} is scaled (${output.scale})`;
    if (!this.#outputs.has(output.name)) return `output ${output.name} was not named by the compositor`;
    return undefined;
  }

  capture(region: Rect, outputs: OutputPlace[]): Promise<RgbaImage> {
    const run = this.#turn.then(() => this.#capture(region, outputs));
    this.#turn = run.catch(() => undefined);
    return run;
  }

  async #capture(region: Rect, outputs: OutputPlace[]): Promise<RgbaImage> {
    const why = this.unsupported(region, outputs);
    if (why) throw new Error(why);
    const output = containing(region, outputs)!;
    const wl = this.wl;
    this.#folder ??= mkdtempSync(join(this.parent, "deskhand-screencopy-"));
    const file = join(this.#folder, `frame-${this.#count++}`);
    const ids: { pool?: number; buffer?: number } = {};
    let frame = 0;
    try {
      const done = new Promise<{ buffer: FrameBuffer; yInvert: boolean }>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`the compositor copied no frame within ${this.timeoutMs} ms`)),
          this.timeoutMs,
        );
        const shmBuffers: FrameBuffer[] = [];
        let yInvert = false;
        const copy = () => {
          const buffer = shmBuffers.find((b) => FORMATS[b.format]);
          try {
            this.#copyInto(file, buffer, frame, ids);
          } catch (error) {
            clearTimeout(timer);
            return reject(error);
          }
          finish = (event) => {
            clearTimeout(timer);
            if (event === "ready") resolve({ buffer: buffer!, yInvert });
            else reject(new Error("the compositor failed to copy the frame"));
          };
        };
        let finish: ((event: "ready" | "failed") => void) | undefined;
        frame = wl.newId((event: WireEvent) => {
          const u = (i: number) => event.body.readUInt32LE(i * 4);
          if (event.opcode === FRAME_EVENT.buffer)
            shmBuffers.push({ format: u(0), width: u(1), height: u(2), stride: u(3) });
          else if (event.opcode === FRAME_EVENT.flags) yInvert = (u(0) & Y_INVERT) !== 0;
          else if (event.opcode === FRAME_EVENT.bufferDone) copy();
          else if (event.opcode === FRAME_EVENT.ready) finish?.("ready");
          else if (event.opcode === FRAME_EVENT.failed) {
            if (finish) finish("failed");
            else {
              clearTimeout(timer);
              reject(new Error("the compositor could not copy that region"));
            }
          }
        });
        wl.send(this.manager, MANAGER.captureOutputRegion, [
          { o: frame },
          { i: 0 },
          { o: this.#outputs.get(output.name)! },
          { i: region.x - output.rect.x },
          { i: region.y - output.rect.y },
          { i: region.width },
          { i: region.height },
        ]);
      });
      const { buffer, yInvert } = await done;
      if (buffer.width !== region.width || buffer.height !== region.height)
        throw new Error(`the frame is ${buffer.width}x${buffer.height}, not the region's size`);
      return frameToRgba(readFileSync(file), buffer, yInvert);
    } finally {
      if (!wl.closed) {
        if (ids.buffer) wl.send(ids.buffer, BUFFER.destroy, []);
        if (ids.pool) wl.send(ids.pool, POOL.destroy, []);
        if (frame) wl.send(frame, FRAME.destroy, []);
      }
      if (frame) wl.forget(frame);
      rmSync(file, { force: true });
    }
  }

  /**
   * Has the compositor copy the frame into a buffer backed by `file`, in the first format deskhand
   * reads; the pool's and buffer's ids go into `ids`, for the caller to destroy.
   */
  #copyInto(
    file: string,
    buffer: FrameBuffer | undefined,
    frame: number,
    ids: { pool?: number; buffer?: number },
  ): void {
    if (!buffer) throw new Error("the compositor offered no pixel format deskhand reads");
    const bytes = buffer.stride * buffer.height;
    if (bytes > MAX_BYTES) throw new Error(`a frame of ${bytes} bytes is larger than deskhand maps`);
    const fd = openSync(file, "w+", 0o600);
    try {
      ftruncateSync(fd, bytes);
    } finally {
      closeSync(fd);
    }
    const wl = this.wl;
    ids.pool = wl.newId();
    wl.sendFile(this.shm, SHM.createPool, [{ o: ids.pool }, { i: bytes }], file, "r+");
    ids.buffer = wl.newId();
    wl.send(ids.pool, POOL.createBuffer, [
      { o: ids.buffer },
      { i: 0 },
      { i: buffer.width },
      { i: buffer.height },
      { i: buffer.stride },
      { u: buffer.format },
    ]);
    wl.send(frame, FRAME.copy, [{ o: ids.buffer }]);
  }

  get closed(): boolean {
    return this.wl.closed;
  }

  close(): void {
    this.wl.close();
    if (this.#folder) rmSync(this.#folder, { recursive: true, force: true });
  }
}

/** Why this connection cannot copy the screen itself; undefined when it can (doctor asks too). */
export function screencopyUnavailable(wl: WaylandConnection): string | undefined {
  if (wl.noDescriptors) return `its buffers are passed as file descriptors: ${wl.noDescriptors}`;
  const manager = wl.globals.get("zwlr_screencopy_manager_v1");
  if (!manager) return "the compositor offers no screencopy (zwlr_screencopy_manager_v1)";
  // Version 3 says when every buffer type was offered (buffer_done); before it, a frame may be missed.
  if (manager.version < 3) return `the compositor's screencopy is version ${manager.version}, not 3`;
  if (!wl.globals.has("wl_shm")) return "the compositor offers no wl_shm";
  return undefined;
}

function containing(region: Rect, outputs: OutputPlace[]): OutputPlace | undefined {
  return outputs.find(
    (o) =>
      region.x >= o.rect.x &&
      region.y >= o.rect.y &&
      region.x + region.width <= o.rect.x + o.rect.width &&
      region.y + region.height <= o.rect.y + o.rect.height,
  );
}
