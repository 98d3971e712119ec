// Fake hands for unit tests of the input chain (gate, focus, covered points, moved elements): a
// desktop of window rectangles in stacking order, a window manager whose answer to each activation
// is set by the test, and a record of every input that was actually sent.
import type { FocusTruth, Hands, MouseButton, Point, RgbaImage } from "../hands.js";
import { AUTO_RELEASE_MS } from "../hands.js";
import { type Chord, chordText, type Modifier } from "../keys.js";
import type { Rect } from "../types.js";

export interface FakeHandsWindow {
  id: number;
  rect: Rect;
  /** What the window manager answers when asked to activate it: "front" by default. */
  activates?: FocusTruth;
}

export interface FakeHandsDesktop {
  /** Bottom to top: the last is in front. */
  windows: FakeHandsWindow[];
  active?: number;
  screen?: { width: number; height: number };
}

export class FakeHands implements Hands {
  readonly name = "fake";
  readonly autoReleaseMs = AUTO_RELEASE_MS;
  /** Every input sent, in order ("click left 1 at 10,20", "chord ctrl+s", "type 5 characters"). */
  readonly sent: string[] = [];
  /** Every activation asked for, by window id. */
  readonly activations: number[] = [];
  closed = false;

  /** The clipboard's text, as an app's copy left it. */
  clipboard: string | undefined;

  constructor(readonly desktop: FakeHandsDesktop) {}

  async readClipboard(): Promise<string | undefined> {
    return this.clipboard;
  }

  async writeClipboard(text: string): Promise<void> {
    this.sent.push(`clipboard ${[...text].length} characters`);
    this.clipboard = text;
  }

  async activeWindow(): Promise<number | undefined> {
    return this.desktop.active;
  }

  async windowAt(point: Point): Promise<number | undefined> {
    const hits = this.desktop.windows.filter(
      ({ rect: r }) =>
        point.x >= r.x && point.y >= r.y && point.x < r.x + r.width && point.y < r.y + r.height,
    );
    return hits.at(-1)?.id;
  }

  async activate(windowId: number): Promise<FocusTruth> {
    this.activations.push(windowId);
    const window = this.desktop.windows.find((w) => w.id === windowId);
    const truth = window?.activates ?? (window ? "front" : "unknown");
    if (truth === "front" && window) {
      this.desktop.active = windowId;
      // Raised: now on top of the stack.
      this.desktop.windows = [...this.desktop.windows.filter((w) => w !== window), window];
    }
    return truth;
  }

  async minimize(): Promise<{ minimized: boolean | "unknown" }> {
    return { minimized: "unknown" };
  }
  async hide(windowId: number): Promise<{ windows: number[]; hidden: boolean | "unknown" }> {
    return { windows: [windowId], hidden: "unknown" };
  }
  async show(windowId: number): Promise<{ windows: number[]; focus: FocusTruth }> {
    return { windows: [windowId], focus: await this.activate(windowId) };
  }
  async closeWindow(): Promise<{ closed: boolean | "unknown" }> {
    return { closed: "unknown" };
  }

  async move(to: Point): Promise<void> {
    this.sent.push(`move to ${to.x},${to.y}`);
  }
  async click(
    at: Point,
    options: { button: MouseButton; count: 1 | 2; modifiers: Modifier[] },
  ): Promise<void> {
    this.sent.push(`click ${options.button} ${options.count} at ${at.x},${at.y}`);
  }
  async drag(from: Point, to: Point, options: { button: MouseButton }): Promise<void> {
    this.sent.push(`drag ${options.button} ${from.x},${from.y} to ${to.x},${to.y}`);
  }
  async wheel(at: Point | undefined, direction: string, notches: number): Promise<void> {
    this.sent.push(`wheel ${direction} ${notches}${at ? ` at ${at.x},${at.y}` : ""}`);
  }
  async chord(chord: Chord, count: number): Promise<void> {
    this.sent.push(`chord ${chordText(chord)} ×${count}`);
  }
  async type(text: string): Promise<{ remapped: number }> {
    this.sent.push(`type ${[...text].length} characters`);
    return { remapped: 0 };
  }
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    return work();
  }
  async buttonDown(at: Point, button: MouseButton): Promise<void> {
    this.sent.push(`button down ${button} at ${at.x},${at.y}`);
  }
  async buttonUp(at: Point, button: MouseButton): Promise<void> {
    this.sent.push(`button up ${button} at ${at.x},${at.y}`);
  }
  async keyDown(chord: Chord): Promise<void> {
    this.sent.push(`key down ${chordText(chord)}`);
  }
  async keyUp(chord: Chord): Promise<void> {
    this.sent.push(`key up ${chordText(chord)}`);
  }
  held(): { buttons: MouseButton[]; keys: string[] } {
    return { buttons: [], keys: [] };
  }
  async serverHeld(): Promise<{ buttons: MouseButton[]; keycodes: number[] }> {
    return { buttons: [], keycodes: [] };
  }

  async screen(): Promise<Rect> {
    return { x: 0, y: 0, ...(this.desktop.screen ?? { width: 1280, height: 800 }) };
  }
  async capture(rect: Rect): Promise<RgbaImage> {
    return { width: rect.width, height: rect.height, data: Buffer.alloc(rect.width * rect.height * 4) };
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}
