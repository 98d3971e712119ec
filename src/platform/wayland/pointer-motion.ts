// How deskhand's Wayland pointers move and press, whichever device carries them (sway's virtual
// pointer, KWin's fake input): evdev button codes, a press held as a person holds one, a drag in
// small steps, one wheel notch. One home for both hands.
import type { MouseButton, Point } from "../hands.js";

/** Lock wait: how long a call waits for another deskhand's input to end before it gives up. */
export const LOCK_WAIT_MS = 30_000;
/** evdev's BTN_LEFT, BTN_RIGHT, BTN_MIDDLE. */
export const BUTTONS: Record<MouseButton, number> = { left: 0x110, right: 0x111, middle: 0x112 };
export const PRESSED = 1;
export const RELEASED = 0;
/** Between press and release, and between the moves of a drag: what toolkits take for a person. */
export const PRESS_MS = 30;
export const STEP_MS = 15;
/** One wheel notch, in the axis' own units (libinput's 15 degrees). */
export const NOTCH = 15;
const DRAG_STEPS = 12;

/** The points a drag passes through after its start, its end last. */
export function dragSteps(from: Point, to: Point): Point[] {
  return Array.from({ length: DRAG_STEPS }, (_, i) => ({
    x: from.x + ((to.x - from.x) * (i + 1)) / DRAG_STEPS,
    y: from.y + ((to.y - from.y) * (i + 1)) / DRAG_STEPS,
  }));
}
