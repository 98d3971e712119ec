// The hands on GNOME Shell: deskhand's Shell extension (data/gnome-shell/service.js) moves a
// Clutter virtual pointer and keyboard, commits text to the focused text input, sets the clipboard,
// lists and acts on windows and writes screenshots, each call carrying the extension's token.
// Keys go as keysyms, which the Shell finds in the session's own layout (shift added where the
// level needs it); a keysym the layout lacks is dropped by the Shell, so only the us keymap's
// characters are sent as keys and others are committed (GTK 3 and 4) or pasted (Qt 5), then read
// back (tools/hands/outside-keymap.ts). What this deskhand holds, the extension lets go the moment
// deskhand's bus connection ends. Measured on GNOME 43: shared/notes/kde-gnome.md §2.

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PNG } from "pngjs";
import {
  AUTO_RELEASE_MS,
  type Hands,
  HandsUnavailable,
  type MouseButton,
  type Point,
  type RgbaImage,
  type WheelDirection,
  type WindowControl,
} from "../hands.js";
import { InputTurns } from "../input-turns.js";
import { type Chord, chordText, loneSurrogateError, type Modifier } from "../keys.js";
import { charKeysym, keyKeysym, MODIFIER_KEYSYMS } from "../keysyms.js";
import type { Rect } from "../types.js";
import { CompositorUnreachable, OPEN_MS } from "./compositor.js";
import { GnomeShell, type ShellWindow, shellClientWindows, shellFrontWindow } from "./gnome-shell.js";
import { usStroke } from "./keymap.js";
import { windowNumber } from "./kwin.js";
import { LOCK_WAIT_MS } from "./pointer-motion.js";
import { HeldKeys, type PointerDevice, PointerSeat } from "./seat.js";
import { waylandSocketPath } from "./socket-path.js";
import { lockName, takeInputLock } from "./typist-lock.js";
import { CompositorControlled, type CompositorWindow, compositorWindowControl } from "./window-control.js";

/** Clutter's button numbers. */
const CLUTTER_BUTTONS: Record<MouseButton, number> = { left: 1, middle: 2, right: 3 };
/** Clutter.ScrollDirection. */
const SCROLL: Record<WheelDirection, number> = { up: 0, down: 1, left: 2, right: 3 };
/** Keys go in runs this long a call. */
const RUN = 64;

type KeyEvent = [number, boolean];

export async function openGnomeHands(
  env: NodeJS.ProcessEnv,
  options: { timeoutMs?: number; autoReleaseMs?: number } = {},
): Promise<Hands> {
  const timeoutMs = options.timeoutMs ?? 2000;
  const shell = await GnomeShell.open(env, Math.max(timeoutMs, OPEN_MS)).catch((error: Error) => {
    throw error instanceof CompositorUnreachable
      ? error
      : new HandsUnavailable(`cannot reach GNOME Shell: ${error.message}`);
  });
  const display = env.WAYLAND_DISPLAY ?? "wayland-0";
  const socketPath = waylandSocketPath(env);
  const lock = lockName(socketPath);
  return new GnomeHands(shell, {
    autoReleaseMs: options.autoReleaseMs ?? AUTO_RELEASE_MS,
    timeoutMs,
    turns: new InputTurns(() => takeInputLock(lock, LOCK_WAIT_MS, display)),
  });
}

interface Settings {
  autoReleaseMs: number;
  timeoutMs: number;
  turns: InputTurns;
}

class GnomeHands extends CompositorControlled implements Hands {
  readonly keyboardMissing = undefined;
  readonly keyable = (char: string) => usStroke(char) !== undefined;
  readonly autoReleaseMs: number;
  readonly #heldKeys: HeldKeys<number[]>;
  protected readonly seat: PointerSeat;
  readonly #folder = mkdtempSync(join(tmpdir(), "deskhand-gnome-pixels-"));
  protected readonly control: WindowControl;

  constructor(
    private readonly shell: GnomeShell,
    private readonly settings: Settings,
  ) {
    super();
    this.autoReleaseMs = settings.autoReleaseMs;
    this.seat = new PointerSeat(this.#device(), {
      exclusive: (work) => this.exclusive(work),
      autoReleaseMs: settings.autoReleaseMs,
    });
    this.#heldKeys = new HeldKeys(
      settings.autoReleaseMs,
      (keysyms) => this.#keys([...keysyms].reverse().map((k) => [k, false])),
      () => this.closed,
    );
    this.control = compositorWindowControl<ShellWindow & CompositorWindow>({
      windows: async () => (await shell.windows()).map((w) => ({ ...w, number: windowNumber(String(w.id)) })),
      clientWindows: shellClientWindows,
      front: shellFrontWindow,
      act: (w, action) => shell.act(w.id, action),
    });
  }

  readonly name = "wayland (GNOME Shell): deskhand's Shell extension";

  get closed(): boolean {
    return this.shell.closed;
  }

  exclusive<T>(work: () => Promise<T>): Promise<T> {
    return this.settings.turns.run(work);
  }

  #moveTo(to: Point): Promise<unknown> {
    return this.shell.call("Pointer", "dd", [to.x, to.y]);
  }

  #button(button: MouseButton, pressed: boolean): Promise<unknown> {
    return this.shell.call("Button", "ub", [CLUTTER_BUTTONS[button], pressed]);
  }

  #keys(events: KeyEvent[]): Promise<unknown> {
    return this.shell.call("Keys", "a(ub)", [events]);
  }

  /** A chord's keysyms, modifiers first (the Shell adds shift where a character's level needs it). */
  #keysyms(chord: Chord): number[] {
    return [...chord.modifiers.map((m) => MODIFIER_KEYSYMS[m]), ...(chord.key ? [keyKeysym(chord.key)] : [])];
  }

  #stroke(keysyms: number[]): KeyEvent[] {
    return [
      ...keysyms.map((k): KeyEvent => [k, true]),
      ...[...keysyms].reverse().map((k): KeyEvent => [k, false]),
    ];
  }

  async #holding<T>(modifiers: Modifier[], work: () => Promise<T>): Promise<T> {
    const keysyms = modifiers.map((m) => MODIFIER_KEYSYMS[m]);
    if (keysyms.length) await this.#keys(keysyms.map((k) => [k, true]));
    try {
      return await work();
    } finally {
      if (keysyms.length && !this.closed) await this.#keys([...keysyms].reverse().map((k) => [k, false]));
    }
  }

  /** The Shell's Clutter pointer, for the seat that clicks, drags and scrolls with it. */
  #device(): PointerDevice {
    return {
      closed: () => this.closed,
      moveTo: (to) => this.#moveTo(to),
      button: (button, pressed) => this.#button(button, pressed),
      notch: (direction) => this.shell.call("Scroll", "uu", [SCROLL[direction], 1]),
      // Each event is a call the Shell answers once it is done.
      flush: async () => {},
      holder: (modifiers) => (work) => this.#holding(modifiers, work),
    };
  }

  async chord(chord: Chord, count: number): Promise<void> {
    const stroke = this.#stroke(this.#keysyms(chord));
    await this.exclusive(async () => {
      for (let sent = 0; sent < count; sent += RUN)
        await this.#keys(Array.from({ length: Math.min(RUN, count - sent) }, () => stroke).flat());
    });
  }

  async type(text: string): Promise<{ remapped: number }> {
    const lone = loneSurrogateError(text);
    if (lone) throw new Error(`the text ${lone}`);
    const outside = [...text].find((c) => !usStroke(c));
    if (outside !== undefined)
      throw new HandsUnavailable(
        `${JSON.stringify(outside)} is outside the keymap GNOME Shell is sent keys in: nothing was typed; set the text with act set_value`,
      );
    const chars = [...text];
    return this.exclusive(async () => {
      for (let i = 0; i < chars.length; i += RUN)
        await this.#keys(chars.slice(i, i + RUN).flatMap((c) => this.#stroke([charKeysym(c)])));
      return { remapped: 0 };
    });
  }

  /**
   * Text outside the keymap: committed where a text input has the focus (GTK 3 and 4), else put on
   * the clipboard and pasted with ctrl+v (Qt 5), the clipboard's earlier text put back after.
   */
  readonly paste = (text: string, arrived: () => Promise<boolean>): Promise<boolean> =>
    this.exclusive(async () => {
      const [committed] = await this.shell.call<[boolean]>("Commit", "s", [text]);
      if (committed) return arrived();
      const [earlier] = await this.shell.call<[string]>("Clipboard");
      await this.shell.call("SetClipboard", "s", [text]);
      try {
        await this.#keys(this.#stroke([MODIFIER_KEYSYMS.ctrl, charKeysym("v")]));
        return await arrived();
      } finally {
        await this.shell.call("SetClipboard", "s", [earlier]).catch(() => undefined);
      }
    });

  /** The Shell's clipboard: St.Clipboard answers "" where it holds no text. */
  async readClipboard(): Promise<string | undefined> {
    const [text] = await this.shell.call<[string]>("Clipboard");
    return text === "" ? undefined : text;
  }

  async writeClipboard(text: string): Promise<void> {
    await this.shell.call("SetClipboard", "s", [text]);
  }

  async keyDown(chord: Chord): Promise<void> {
    const name = chordText(chord);
    if (this.#heldKeys.has(name)) return;
    const keysyms = this.#keysyms(chord);
    this.#heldKeys.hold(name, keysyms);
    await this.exclusive(() => this.#keys(keysyms.map((k) => [k, true])));
  }

  keyUp(chord: Chord): Promise<void> {
    return this.#heldKeys.release(chordText(chord));
  }

  held(): { buttons: MouseButton[]; keys: string[] } {
    return { buttons: this.seat.heldButtons(), keys: this.#heldKeys.names() };
  }

  /** The Shell answers no query for what a seat holds: this is deskhand's own account. */
  async serverHeld(): Promise<{ buttons: MouseButton[]; keycodes: number[] }> {
    return { buttons: this.seat.heldButtons(), keycodes: [] };
  }

  async screen(): Promise<Rect> {
    const { x, y, width, height } = await this.shell.screen();
    return { x, y, width, height };
  }

  /** The region as the Shell's PNG, one pixel per point (a scaled screen's pixels are averaged down). */
  async capture(region: Rect): Promise<RgbaImage> {
    const file = join(this.#folder, "capture.png");
    const area = [region.x, region.y, region.width, region.height].map(Math.round);
    await this.shell.call("Capture", "iiiis", [...area, file], this.settings.timeoutMs * 5);
    try {
      const png = PNG.sync.read(readFileSync(file));
      return perPoint({ width: png.width, height: png.height, data: png.data }, area[2]!, area[3]!);
    } finally {
      rmSync(file, { force: true });
    }
  }

  async close(): Promise<void> {
    // Nothing stays held: every held key and button is released before the connection goes (and
    // the extension lets go of the rest once it does).
    await this.#heldKeys.releaseAll();
    await this.seat.close();
    this.shell.close();
    rmSync(this.#folder, { recursive: true, force: true });
  }
}

/** An image of a scaled screen's pixels as one pixel per point: each point the mean of its pixels. */
export function perPoint(image: RgbaImage, width: number, height: number): RgbaImage {
  const factor = image.width / width;
  if (factor <= 1 || !Number.isInteger(factor) || image.height !== height * factor) return image;
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      for (let c = 0; c < 4; c++) {
        let sum = 0;
        for (let dy = 0; dy < factor; dy++)
          for (let dx = 0; dx < factor; dx++)
            sum += image.data[((y * factor + dy) * image.width + x * factor + dx) * 4 + c]!;
        data[(y * width + x) * 4 + c] = Math.round(sum / (factor * factor));
      }
  return { width, height, data };
}
