// The hands: synthetic pointer and keyboard input, screen pixels and window management. Separate from
// the accessibility backend, since a desktop may have one without the other. Each piece is a small
// capability interface; X11, sway, KWin and GNOME Shell implement them (each says what it cannot do),
// and the fake backend records what it was asked to do.

import type { Chord, Modifier } from "./keys.js";
import type { Rect } from "./types.js";
import { CodedError } from "./types.js";

export type MouseButton = "left" | "middle" | "right";
export type WheelDirection = "up" | "down" | "left" | "right";

export interface Point {
  x: number;
  y: number;
}

export interface PointerInput {
  move(to: Point): Promise<void>;
  click(at: Point, options: { button: MouseButton; count: 1 | 2; modifiers: Modifier[] }): Promise<void>;
  drag(from: Point, to: Point, options: { button: MouseButton; modifiers: Modifier[] }): Promise<void>;
  wheel(at: Point | undefined, direction: WheelDirection, notches: number): Promise<void>;
}

export interface KeyboardInput {
  chord(chord: Chord, count: number): Promise<void>;
  /** Types text as key presses; characters missing from the keymap go through a temporary remap. */
  type(text: string): Promise<{ remapped: number }>;
  /**
   * Runs `work` (a focus click and the typing after it, say) as the only deskhand sending input on
   * the display: no other one moves, clicks, remaps or types until it ends. Calls inside it take the
   * lock again freely.
   */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
}

/**
 * Toolkits count a press that comes within their double-click time (GTK and Qt 400 ms, Java 500 ms)
 * and a few pixels (GTK 5, Java 4) of the last one as its second or third click: two quick single
 * clicks in a text field select a word, three the whole line, and typing then replaced it (issue 36).
 */
const MULTI_CLICK_MS = 600;
const MULTI_CLICK_PX = 16;

/** Keeps each click apart from the one before, so that it counts as a click of its own. */
export class ClickSpacing {
  #last: { at: Point; button: MouseButton; time: number } | undefined;

  /** How long to wait before pressing `button` at `at`: 0 unless it would join the last click. */
  waitBefore(at: Point, button: MouseButton, now = Date.now()): number {
    const last = this.#last;
    if (!last || last.button !== button) return 0;
    const near = Math.abs(last.at.x - at.x) <= MULTI_CLICK_PX && Math.abs(last.at.y - at.y) <= MULTI_CLICK_PX;
    return near ? Math.max(0, last.time + MULTI_CLICK_MS - now) : 0;
  }

  clicked(at: Point, button: MouseButton, now = Date.now()): void {
    this.#last = { at, button, time: now };
  }
}

/** How long what is held stays held with no release: every hands' default. */
export const AUTO_RELEASE_MS = 10_000;

/**
 * Press-and-hold primitives. Whatever is held is released by the device itself after `autoReleaseMs`
 * if no release comes, even when no other call follows.
 */
export interface HeldInput {
  readonly autoReleaseMs: number;
  buttonDown(at: Point, button: MouseButton): Promise<void>;
  buttonUp(at: Point, button: MouseButton): Promise<void>;
  keyDown(chord: Chord): Promise<void>;
  keyUp(chord: Chord): Promise<void>;
  /** What deskhand holds now, by its own account. */
  held(): { buttons: MouseButton[]; keys: string[] };
  /** What the display server says is held now: the ground truth for the auto-release. */
  serverHeld(): Promise<{ buttons: MouseButton[]; keycodes: number[] }>;
}

export interface RgbaImage {
  width: number;
  height: number;
  /** 4 bytes a pixel, rows without padding. */
  data: Buffer;
}

export interface ScreenCapture {
  /**
   * The rectangle every screen (monitor, output) together spans, in global points: its origin is
   * negative where one lies left of or above the first.
   */
  screen(): Promise<Rect>;
  /** The region's pixels one per point, `region.width` × `region.height`, on a scaled screen too. */
  capture(region: Rect): Promise<RgbaImage>;
}

/**
 * "front": the window manager now reports it active. "not_front": it has handled the request and
 * reports another. "unknown": cannot say (no window manager, or none answered within
 * WINDOW_MANAGER_ANSWER_MS).
 */
export type FocusTruth = "front" | "not_front" | "unknown";

/**
 * How long a window manager may take to handle a request before deskhand says it cannot tell. A busy
 * one is not saying no: openbox reloads its key bindings on every keymap change (two typists
 * borrowing keycodes), and on a loaded machine that backlog took it past a fixed 1.5 s.
 */
export const WINDOW_MANAGER_ANSWER_MS = 20_000;

export interface WindowControl {
  activeWindow(): Promise<number | undefined>;
  /** The top-most managed window containing the point, by the window manager's stacking order. */
  windowAt(point: Point): Promise<number | undefined>;
  /** Brings the window forward; "front" once the app has had time to take the focus as well. */
  activate(windowId: number): Promise<FocusTruth>;
  minimize(windowId: number): Promise<{ minimized: boolean | "unknown" }>;
  /** Hides every window of the window's application (X11 has no app-level hide: they are minimized). */
  hide(windowId: number): Promise<{ windows: number[]; hidden: boolean | "unknown" }>;
  /** Restores and raises every window of the window's application, then activates this one. */
  show(windowId: number): Promise<{ windows: number[]; focus: FocusTruth }>;
  closeWindow(windowId: number): Promise<{ closed: boolean | "unknown" }>;
}

export interface Hands extends PointerInput, KeyboardInput, HeldInput, ScreenCapture, WindowControl {
  readonly name: string;
  /**
   * What a deskhand that is gone had left held or borrowed on the display, released and given back
   * when these hands opened; undefined when nothing was.
   */
  readonly recovered?: string | undefined;
  /** True once the display connection is gone; the caller opens new hands. */
  readonly closed: boolean;
  /** Why these hands cannot send keys, where they cannot (a Wayland session without a virtual keyboard). */
  readonly keyboardMissing?: string | undefined;
  /**
   * Where only the keys of the compositor's own keymap can be sent (KWin's fake input): whether a
   * character is one of them. Others are written into the focused text instead (tools/hands/pieces.ts).
   */
  readonly keyable?: (char: string) => boolean;
  /**
   * Puts `text` on the clipboard and presses ctrl+v, waits for `arrived` (the field shows it), then
   * puts back the clipboard's earlier text; whether it arrived. Where the hands can paste.
   */
  paste?(text: string, arrived: () => Promise<boolean>): Promise<boolean>;
  /** The clipboard's text; undefined where it holds none (nothing, or only an image). */
  readClipboard(): Promise<string | undefined>;
  /** Puts `text` on the clipboard, as a copy in an app would. */
  writeClipboard(text: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * What code above the platform looks with: pixels, which window is where, what is held. Named one by
 * one, so a capability added to Hands is hidden here until someone decides it only reads. Input and
 * window changes come only from the gate (tools/guard.ts), once a call is allowed.
 */
export type SeeingHands = Pick<
  Hands,
  | "name"
  | "recovered"
  | "closed"
  | "keyboardMissing"
  | "screen"
  | "capture"
  | "activeWindow"
  | "windowAt"
  | "held"
  | "serverHeld"
  | "autoReleaseMs"
  | "readClipboard"
  // Taking the display's input turn sends nothing: the plan that reads and judges holds it too.
  | "exclusive"
>;

/** The hands cannot reach the display: no DISPLAY, no XTEST, or no window manager. */
export class HandsUnavailable extends CodedError {
  override readonly name = "HandsUnavailable";
  readonly code = "hands_unavailable";
  readonly next =
    "Run inside `deskhand sandbox run`, or on an X11 desktop with XTEST; `deskhand doctor` shows what is missing.";
}
