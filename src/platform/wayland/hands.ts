// The Wayland hands on sway: the pointer is deskhand's own zwlr_virtual_pointer_v1 (it needs no file
// descriptor, and while it lives the seat has a pointer), the keyboard its own zwp_virtual_keyboard_v1
// (keyboard.ts), windows are sway's IPC, pixels come from its own screencopy (screencopy.ts), else
// grim. Where the keyboard cannot open (a Node
// that cannot pass its keymap's descriptor, a compositor without the protocol), every key, chord, text
// and modifier says why and sends nothing. One deskhand sends input at a time (typist-lock.ts).

import { execFile } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { clipboardText, setClipboardText } from "../clipboard.js";
import {
  AUTO_RELEASE_MS,
  type FocusTruth,
  type Hands,
  HandsUnavailable,
  type MouseButton,
  type Point,
  type RgbaImage,
} from "../hands.js";
import { InputTurns } from "../input-turns.js";
import { type Chord, loneSurrogateError } from "../keys.js";
import type { Rect } from "../types.js";
import { windowsAtPoint } from "../window-source.js";
import { goneFrom, OPEN_MS } from "./compositor.js";
import { WaylandKeyboard } from "./keyboard.js";
import { usStroke } from "./keymap.js";
import { BUTTONS, LOCK_WAIT_MS, NOTCH, PRESSED, RELEASED } from "./pointer-motion.js";
import { WaylandScreencopy } from "./screencopy.js";
import { type PointerDevice, PointerSeat, SeatPointer, wheelAxis } from "./seat.js";
import { waylandSocketPath } from "./socket-path.js";
import { SwayIpc, type SwayRect, type SwayWindow, stackedWindows, swayWindows } from "./sway.js";
import { lockName, takeInputLock } from "./typist-lock.js";
import { WaylandConnection } from "./wire.js";

/** zwlr_virtual_pointer_v1 requests. */
const POINTER = { motionAbsolute: 1, button: 2, frame: 4, axisSource: 5, axisDiscrete: 7, destroy: 8 };
const GRIM_TIMEOUT_MS = 10_000;

/** A binary PPM (P6) as RGBA: what grim writes with `-t ppm`. */
export function ppmToRgba(ppm: Buffer): RgbaImage {
  const header = /^P6\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(ppm.subarray(0, 64).toString("latin1"));
  if (header?.[3] !== "255") throw new Error("grim did not write an 8-bit binary PPM");
  const width = Number(header[1]);
  const height = Number(header[2]);
  const pixels = ppm.subarray(header[0].length);
  if (pixels.length < width * height * 3) throw new Error("grim's image is shorter than its size says");
  const data = Buffer.alloc(width * height * 4);
  for (let i = 0, j = 0; i < width * height; i++, j += 3) {
    data[i * 4] = pixels[j]!;
    data[i * 4 + 1] = pixels[j + 1]!;
    data[i * 4 + 2] = pixels[j + 2]!;
    data[i * 4 + 3] = 255;
  }
  return { width, height, data };
}

export async function openWaylandHands(
  env: NodeJS.ProcessEnv,
  options: {
    timeoutMs?: number;
    autoReleaseMs?: number;
    /** The X11 hands, for XTEST on XWayland's own display (the desktops table gives them). */
    xwayland?: XWaylandHands;
  } = {},
): Promise<Hands> {
  const timeoutMs = options.timeoutMs ?? 2000;
  if (!env.SWAYSOCK)
    throw new HandsUnavailable(
      "this is a Wayland session without sway's IPC (SWAYSOCK is not set): deskhand's Wayland hands need sway",
    );
  const ipc = await SwayIpc.open(env.SWAYSOCK, Math.max(timeoutMs, OPEN_MS)).catch((error: Error) => {
    throw (
      goneFrom(error, "sway", "its IPC socket refuses connections") ??
      new HandsUnavailable(`cannot reach sway's IPC: ${error.message}`)
    );
  });
  let wl: WaylandConnection;
  try {
    wl = await WaylandConnection.open(env, Math.max(timeoutMs, OPEN_MS));
  } catch (error) {
    ipc.close();
    throw (
      goneFrom(error, "sway", "its Wayland display refuses connections") ??
      new HandsUnavailable(`cannot reach the Wayland display: ${(error as Error).message}`)
    );
  }
  const autoReleaseMs = options.autoReleaseMs ?? AUTO_RELEASE_MS;
  const started = Date.now();
  const time = () => (Date.now() - started) >>> 0;
  let pointer: number;
  let layout: Rect;
  try {
    const manager = wl.bind("zwlr_virtual_pointer_manager_v1", 2);
    pointer = wl.newId();
    wl.send(manager, 0, [{ o: 0 }, { o: pointer }]);
    layout = layoutOf(await ipc.request<{ rect: SwayRect; active?: boolean }[]>(3, "", timeoutMs));
    await wl.roundtrip(timeoutMs);
  } catch (error) {
    wl.close();
    ipc.close();
    throw new HandsUnavailable(
      `the compositor has no virtual pointer for deskhand: ${(error as Error).message}`,
    );
  }
  // Without a keyboard the hands still point, look and manage windows; keys say why they cannot.
  const keyboard = await WaylandKeyboard.open(wl, { time, autoReleaseMs, timeoutMs }).catch(
    (error: Error) => `${error.message}: nothing was typed; set a field's text with act set_value`,
  );
  // Pixels from deskhand's own screencopy where it serves; grim otherwise, and where it does not.
  const screencopy = await WaylandScreencopy.open(env, timeoutMs);
  const display = env.WAYLAND_DISPLAY ?? "wayland-0";
  const socketPath = waylandSocketPath(env);
  return new WaylandHands(ipc, wl, pointer, keyboard, screencopy, {
    layout,
    autoReleaseMs,
    timeoutMs,
    time,
    lock: lockName(socketPath),
    display,
    env,
    xwayland: options.xwayland,
  });
}

/** Opens hands on an X display: XWayland's, for the X11 apps sway shows. */
export type XWaylandHands = (options: {
  display: string | undefined;
  timeoutMs: number;
  autoReleaseMs: number;
}) => Promise<Hands>;

/** The rectangle the active outputs span in sway's layout: its origin is negative where one lies left or above. */
function layoutOf(outputs: { rect: SwayRect; active?: boolean }[]): Rect {
  const rects = outputs.filter((o) => o.active !== false).map((o) => o.rect);
  if (rects.length === 0) return { x: 0, y: 0, width: 1, height: 1 };
  const x = Math.min(...rects.map((r) => r.x));
  const y = Math.min(...rects.map((r) => r.y));
  return {
    x,
    y,
    width: Math.max(...rects.map((r) => r.x + r.width)) - x,
    height: Math.max(...rects.map((r) => r.y + r.height)) - y,
  };
}

interface Settings {
  layout: Rect;
  autoReleaseMs: number;
  timeoutMs: number;
  /** Milliseconds since the hands opened: the timestamps of every event. */
  time: () => number;
  /** The input lock's name for this session, and the display it names in errors. */
  lock: string;
  display: string;
  /** The session's environment: grim must reach the same display. */
  env: NodeJS.ProcessEnv;
  xwayland: XWaylandHands | undefined;
}

class WaylandHands extends SeatPointer implements Hands {
  readonly recovered = undefined;
  readonly keyboardMissing: string | undefined;
  readonly autoReleaseMs: number;
  readonly #keyboard: WaylandKeyboard | undefined;
  /** The outputs' extent as last read: sway changes it when an output is scaled, added or moved. */
  #layout: Rect;
  readonly #timeoutMs: number;
  readonly #turns: InputTurns;
  protected readonly seat: PointerSeat;
  /** XTEST on XWayland's own X display, opened the first time an X11 app there needs it; or why not. */
  #xwayland: Promise<Hands | string> | undefined;

  constructor(
    private readonly ipc: SwayIpc,
    private readonly wl: WaylandConnection,
    private readonly pointer: number,
    keyboard: WaylandKeyboard | string,
    /** deskhand's own screencopy, or why there is none (grim then takes every picture). */
    private readonly screencopy: WaylandScreencopy | string,
    private readonly settings: Settings,
  ) {
    super();
    this.#keyboard = typeof keyboard === "string" ? undefined : keyboard;
    this.keyboardMissing = typeof keyboard === "string" ? keyboard : undefined;
    this.autoReleaseMs = settings.autoReleaseMs;
    this.#layout = settings.layout;
    this.#timeoutMs = settings.timeoutMs;
    this.#turns = new InputTurns(() => takeInputLock(settings.lock, LOCK_WAIT_MS, settings.display));
    this.seat = new PointerSeat(this.#device(), {
      exclusive: (work) => this.exclusive(work),
      autoReleaseMs: settings.autoReleaseMs,
    });
  }

  get name(): string {
    const pixels =
      typeof this.screencopy === "string"
        ? `grim (no screencopy: ${this.screencopy})`
        : "screencopy, else grim";
    return `wayland (sway): virtual pointer, ${this.#keyboard ? "virtual keyboard" : "no keyboard"}, sway IPC, ${pixels}`;
  }

  get closed(): boolean {
    return this.wl.closed || this.ipc.closed;
  }

  #time(): number {
    return this.settings.time();
  }

  /** The keyboard, or HandsUnavailable saying why there is none (before anything is sent). */
  #keys(what?: string): WaylandKeyboard {
    if (this.#keyboard) return this.#keyboard;
    throw new HandsUnavailable(what ? `${what}: ${this.keyboardMissing}` : this.keyboardMissing!);
  }

  #send(opcode: number, args: Parameters<WaylandConnection["send"]>[2]): void {
    this.wl.send(this.pointer, opcode, args);
  }

  /** The outputs' extent now, the last one read where sway does not answer. */
  async #currentLayout(): Promise<Rect> {
    const outputs = await this.ipc
      .request<{ rect: SwayRect; active?: boolean }[]>(3, "", this.#timeoutMs)
      .catch(() => undefined);
    if (outputs) this.#layout = layoutOf(outputs);
    return this.#layout;
  }

  async #moveTo(to: Point): Promise<void> {
    // A point is given against the layout as it is now: a scale set since the last move changes it.
    await this.#currentLayout();
    // The pointer's absolute position is given within the layout's box, from its top-left corner.
    const x = Math.max(0, Math.min(this.#layout.width - 1, Math.round(to.x) - this.#layout.x));
    const y = Math.max(0, Math.min(this.#layout.height - 1, Math.round(to.y) - this.#layout.y));
    this.#send(POINTER.motionAbsolute, [
      { u: this.#time() },
      { u: x },
      { u: y },
      { u: this.#layout.width },
      { u: this.#layout.height },
    ]);
    this.#send(POINTER.frame, []);
  }

  /** The virtual pointer's events, for the seat that clicks, drags and scrolls with them. */
  #device(): PointerDevice {
    return {
      closed: () => this.wl.closed,
      moveTo: (to) => this.#moveTo(to),
      button: (button, pressed) => {
        this.#send(POINTER.button, [
          { u: this.#time() },
          { u: BUTTONS[button] },
          { u: pressed ? PRESSED : RELEASED },
        ]);
        this.#send(POINTER.frame, []);
      },
      notch: (direction) => {
        const { axis, sign } = wheelAxis(direction);
        this.#send(POINTER.axisSource, [{ u: 0 }]);
        this.#send(POINTER.axisDiscrete, [
          { u: this.#time() },
          { u: axis },
          { fixed: sign * NOTCH },
          { i: sign },
        ]);
        this.#send(POINTER.frame, []);
      },
      flush: () => this.wl.roundtrip(this.#timeoutMs),
      holder: (modifiers, what) => {
        const keyboard = this.#keys(what);
        return (work) => keyboard.holding(modifiers, work);
      },
    };
  }

  async chord(chord: Chord, count: number): Promise<void> {
    const keyboard = this.#keys();
    await this.exclusive(async () => {
      const outside = chord.key?.kind === "char" && !usStroke(chord.key.char) ? chord.key.char : undefined;
      const x11 = await this.#xwaylandRoute(outside);
      await (x11 ? x11.chord(chord, count) : keyboard.chord(chord, count));
    });
  }

  async type(text: string): Promise<{ remapped: number }> {
    const lone = loneSurrogateError(text);
    if (lone) throw new Error(`the text ${lone}`);
    const keyboard = this.#keys();
    return this.exclusive(async () => {
      const x11 = await this.#xwaylandRoute([...text].find((c) => !usStroke(c)));
      return x11 ? x11.type(text) : keyboard.type(text);
    });
  }

  /**
   * Characters outside the us keymap go on spare keys of a swapped keymap, which a Wayland client
   * reads at once; XWayland passes it to no X11 app that acts on it (Java typed "Zo  xw" for
   * "Zoë ✓ xw", whatever the wait). Into an X11 app there they go by XTEST on XWayland's own display,
   * with keycodes borrowed there as on any X server (measured: "Zoë 日本 ✓" exact in Swing); XWayland
   * gives its X focus to the window sway focused. Without that display it is refused before any key.
   * Any key for an X11 app opens that display first: what a killed deskhand left held or borrowed
   * there is given back before the key. Undefined: the Wayland keyboard types it.
   */
  async #xwaylandRoute(outside: string | undefined): Promise<Hands | undefined> {
    const focused = (await this.#windows()).find((w) => w.focused);
    if (!focused?.xwayland) return undefined;
    // The X11 hands check XTEST and give back what a gone deskhand left (saying so on stderr).
    const open = this.settings.xwayland;
    this.#xwayland ??= open
      ? open({
          display: this.settings.env.DISPLAY,
          timeoutMs: this.#timeoutMs,
          autoReleaseMs: this.autoReleaseMs,
        }).catch((error: Error) => `XWayland's display cannot be used (${error.message})`)
      : Promise.resolve("these hands were opened without a way to reach XWayland's display");
    const opened = await this.#xwayland;
    const live = typeof opened !== "string" && !opened.closed;
    if (typeof opened !== "string" && !live) this.#xwayland = undefined;
    if (outside === undefined) return undefined;
    if (live) return opened;
    throw new HandsUnavailable(
      `${JSON.stringify(outside)} is outside the us keymap, and the window in front (${JSON.stringify(focused.title)}) is an X11 app under XWayland, which does not take a swapped keymap, and ${typeof opened === "string" ? opened : "XWayland's display closed"}: nothing was typed; set the text with act set_value`,
    );
  }

  exclusive<T>(work: () => Promise<T>): Promise<T> {
    return this.#turns.run(work);
  }

  async keyDown(chord: Chord): Promise<void> {
    const keyboard = this.#keys();
    await this.exclusive(() => keyboard.keyDown(chord));
  }

  async keyUp(chord: Chord): Promise<void> {
    const keyboard = this.#keys();
    await this.exclusive(() => keyboard.keyUp(chord));
  }

  held(): { buttons: MouseButton[]; keys: string[] } {
    return { buttons: this.seat.heldButtons(), keys: this.#keyboard?.heldKeys() ?? [] };
  }

  /** Wayland has no query for what a seat holds: this is deskhand's own account. */
  async serverHeld(): Promise<{ buttons: MouseButton[]; keycodes: number[] }> {
    return { buttons: this.seat.heldButtons(), keycodes: [] };
  }

  /** Read from sway each time: an output scaled, added or moved since changes it. */
  screen(): Promise<Rect> {
    return this.#currentLayout();
  }

  /** A region within one unscaled output by screencopy; any other, or when screencopy fails, by grim. */
  async capture(region: Rect): Promise<RgbaImage> {
    await this.#currentLayout();
    const copy = this.screencopy;
    if (typeof copy !== "string" && !copy.closed) {
      const outputs = await this.ipc
        .request<{ name: string; rect: SwayRect; scale?: number; active?: boolean }[]>(3, "", this.#timeoutMs)
        .then((list) => list.filter((o) => o.active !== false))
        .catch(() => undefined);
      if (outputs && !copy.unsupported(region, outputs)) {
        try {
          return await copy.capture(region, outputs);
        } catch {
          // grim takes this one; a broken screencopy connection stays closed and grim takes the rest.
        }
      }
    }
    return this.#grim(region);
  }

  #grim(region: Rect): Promise<RgbaImage> {
    const geometry = `${region.x},${region.y} ${region.width}x${region.height}`;
    return new Promise((resolve, reject) => {
      execFile(
        "grim",
        // -s 1: one pixel per point on a scaled output too (grim's default is the output's scale),
        // so a screenshot's pixels map to the points input takes.
        ["-g", geometry, "-s", "1", "-t", "ppm", "-"],
        { encoding: "buffer", maxBuffer: 256 << 20, timeout: GRIM_TIMEOUT_MS, env: this.settings.env },
        (error, stdout) => {
          if (error)
            return reject(
              new HandsUnavailable(
                (error as NodeJS.ErrnoException).code === "ENOENT"
                  ? "screenshots on Wayland need grim (apt-get install grim)"
                  : `grim could not capture ${geometry}: ${error.message}`,
              ),
            );
          try {
            resolve(ppmToRgba(stdout));
          } catch (problem) {
            reject(problem as Error);
          }
        },
      );
    });
  }

  readClipboard(): Promise<string | undefined> {
    return clipboardText(this.settings.env);
  }

  writeClipboard(text: string): Promise<void> {
    return setClipboardText(this.settings.env, text);
  }

  async #windows(): Promise<SwayWindow[]> {
    return swayWindows(await this.ipc.tree(this.#timeoutMs));
  }

  async activeWindow(): Promise<number | undefined> {
    return (await this.#windows()).find((w) => w.focused)?.id;
  }

  /** The front-most window holding the point, by sway's stacking (stackedWindows). */
  async windowAt(point: Point): Promise<number | undefined> {
    return windowsAtPoint(stackedWindows(await this.ipc.tree(this.#timeoutMs)), point)[0]?.id;
  }

  async activate(windowId: number): Promise<FocusTruth> {
    await this.ipc.command(`[con_id=${windowId}] focus`, this.#timeoutMs);
    const focused = await this.activeWindow();
    return focused === windowId ? "front" : focused === undefined ? "unknown" : "not_front";
  }

  async minimize(windowId: number): Promise<{ minimized: boolean | "unknown" }> {
    await this.ipc.command(`[con_id=${windowId}] move scratchpad`, this.#timeoutMs);
    const window = (await this.#windows()).find((w) => w.id === windowId);
    return { minimized: window ? !window.visible : "unknown" };
  }

  async hide(windowId: number): Promise<{ windows: number[]; hidden: boolean | "unknown" }> {
    const all = await this.#windows();
    const pid = all.find((w) => w.id === windowId)?.pid;
    const ids = all.filter((w) => w.pid === pid && w.visible).map((w) => w.id);
    for (const id of ids) await this.ipc.command(`[con_id=${id}] move scratchpad`, this.#timeoutMs);
    const after = await this.#windows();
    return { windows: ids, hidden: ids.every((id) => after.find((w) => w.id === id)?.visible === false) };
  }

  async show(windowId: number): Promise<{ windows: number[]; focus: FocusTruth }> {
    const all = await this.#windows();
    const pid = all.find((w) => w.id === windowId)?.pid;
    const ids = all.filter((w) => w.pid === pid && !w.visible).map((w) => w.id);
    // `scratchpad show` floats a window; `floating disable` puts it back among the tiles (a comma
    // carries the criteria on to the next command; a second criteria there is refused).
    for (const id of ids)
      await this.ipc.command(`[con_id=${id}] scratchpad show, floating disable`, this.#timeoutMs);
    return { windows: ids.length ? ids : [windowId], focus: await this.activate(windowId) };
  }

  async closeWindow(windowId: number): Promise<{ closed: boolean | "unknown" }> {
    await this.ipc.command(`[con_id=${windowId}] kill`, this.#timeoutMs);
    for (let i = 0; i < 20; i++) {
      if (!(await this.#windows()).some((w) => w.id === windowId)) return { closed: true };
      await sleep(100);
    }
    return { closed: "unknown" };
  }

  async close(): Promise<void> {
    if (typeof this.screencopy !== "string") this.screencopy.close();
    const xwayland = await this.#xwayland;
    if (xwayland && typeof xwayland !== "string") await xwayland.close();
    // Nothing stays held: every held button is released before the pointer goes.
    await this.#keyboard?.close();
    await this.seat.close();
    if (!this.wl.closed) {
      this.wl.send(this.pointer, POINTER.destroy, []);
      await this.wl.roundtrip(500).catch(() => undefined);
    }
    this.wl.close();
    this.ipc.close();
  }
}
