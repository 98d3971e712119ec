// The pointer half of every Wayland hands, written once over the device that carries it (sway's
// virtual pointer, KWin's fake input, the Shell extension's Clutter pointer): a click kept apart
// from the one before, a drag in steps, wheel notches, and a held button let go after
// autoReleaseMs even when no other call comes. Each hands gives only its primitives.
import { setTimeout as pause } from "node:timers/promises";
import { ClickSpacing, type MouseButton, type Point, type WheelDirection } from "../hands.js";
import type { Modifier } from "../keys.js";
import { dragSteps, PRESS_MS, STEP_MS } from "./pointer-motion.js";

/** Runs `work` with modifiers held and lets them go after, whatever happens. */
export type Holder = <T>(work: () => Promise<T>) => Promise<T>;

/** What a compositor's pointer can do, one event at a time. */
export interface PointerDevice {
  /** Whether its connection is gone: nothing more is sent. */
  closed(): boolean;
  moveTo(to: Point): unknown;
  button(button: MouseButton, pressed: boolean): unknown;
  notch(direction: WheelDirection): unknown;
  /** Resolves once the compositor has taken what was sent (a Wayland round trip; at once where each event is a call answered). */
  flush(): Promise<void>;
  /** A holder for `modifiers`; throws before anything is sent where they cannot be held (`what` names the input). */
  holder(modifiers: Modifier[], what: string): Holder;
}

export const holdNothing: Holder = (work) => work();

/** Which axis a wheel direction turns, and which way: what each device's notch is sent as. */
export function wheelAxis(direction: WheelDirection): { axis: 0 | 1; sign: 1 | -1 } {
  return {
    axis: direction === "up" || direction === "down" ? 0 : 1,
    sign: direction === "up" || direction === "left" ? -1 : 1,
  };
}

/** The pointer half of a Wayland hands, given by its seat: written once for sway's, KWin's and GNOME's. */
export abstract class SeatPointer {
  protected abstract readonly seat: PointerSeat;

  move(to: Point): Promise<void> {
    return this.seat.move(to);
  }

  click(at: Point, options: { button: MouseButton; count: 1 | 2; modifiers: Modifier[] }): Promise<void> {
    return this.seat.click(at, options);
  }

  drag(from: Point, to: Point, options: { button: MouseButton; modifiers: Modifier[] }): Promise<void> {
    return this.seat.drag(from, to, options);
  }

  wheel(at: Point | undefined, direction: WheelDirection, notches: number): Promise<void> {
    return this.seat.wheel(at, direction, notches);
  }

  buttonDown(at: Point, button: MouseButton): Promise<void> {
    return this.seat.buttonDown(at, button);
  }

  buttonUp(at: Point, button: MouseButton): Promise<void> {
    return this.seat.buttonUp(at, button);
  }
}

export class PointerSeat {
  readonly #held = new Map<MouseButton, NodeJS.Timeout>();
  readonly #clicks = new ClickSpacing();

  constructor(
    private readonly device: PointerDevice,
    private readonly options: {
      /** The hands' own turn: one deskhand sends input at a time. */
      exclusive: <T>(work: () => Promise<T>) => Promise<T>;
      autoReleaseMs: number;
      /** Told after every change to what is held (KWin keeps it on file for the next deskhand). */
      heldChanged?: () => void;
    },
  ) {}

  async #moveTo(to: Point): Promise<void> {
    await this.device.moveTo(to);
  }

  async #button(button: MouseButton, pressed: boolean): Promise<void> {
    await this.device.button(button, pressed);
  }

  move(to: Point): Promise<void> {
    return this.options.exclusive(async () => {
      await this.#moveTo(to);
      await this.device.flush();
    });
  }

  async click(
    at: Point,
    options: { button: MouseButton; count: 1 | 2; modifiers: Modifier[] },
  ): Promise<void> {
    const hold = this.#holder(options.modifiers, "a click");
    await this.options.exclusive(async () => {
      await this.#moveTo(at);
      await this.device.flush();
      const apart = this.#clicks.waitBefore(at, options.button);
      if (apart > 0) await pause(apart);
      await hold(async () => {
        for (let i = 0; i < options.count; i++) {
          await this.#button(options.button, true);
          await pause(PRESS_MS);
          await this.#button(options.button, false);
          if (i + 1 < options.count) await pause(PRESS_MS);
        }
      });
      await this.device.flush();
      this.#clicks.clicked(at, options.button);
    });
  }

  async drag(from: Point, to: Point, options: { button: MouseButton; modifiers: Modifier[] }): Promise<void> {
    const hold = this.#holder(options.modifiers, "a drag");
    await this.options.exclusive(async () => {
      await this.#moveTo(from);
      await this.device.flush();
      await hold(async () => {
        await this.#button(options.button, true);
        try {
          for (const step of dragSteps(from, to)) {
            await pause(STEP_MS);
            await this.#moveTo(step);
          }
          await pause(PRESS_MS);
        } finally {
          if (!this.device.closed()) await this.#button(options.button, false);
        }
      });
      await this.device.flush();
    });
  }

  wheel(at: Point | undefined, direction: WheelDirection, notches: number): Promise<void> {
    return this.options.exclusive(async () => {
      if (at) await this.#moveTo(at);
      for (let i = 0; i < notches; i++) {
        await this.device.notch(direction);
        await pause(STEP_MS);
      }
      await this.device.flush();
    });
  }

  async buttonDown(at: Point, button: MouseButton): Promise<void> {
    await this.options.exclusive(async () => {
      await this.#moveTo(at);
      await this.#button(button, true);
      await this.device.flush();
    });
    clearTimeout(this.#held.get(button));
    const timer = setTimeout(() => {
      this.#held.delete(button);
      this.#letGo(button);
      this.options.heldChanged?.();
    }, this.options.autoReleaseMs);
    timer.unref();
    this.#held.set(button, timer);
    this.options.heldChanged?.();
  }

  async buttonUp(at: Point, button: MouseButton): Promise<void> {
    clearTimeout(this.#held.get(button));
    this.#held.delete(button);
    this.options.heldChanged?.();
    await this.options.exclusive(async () => {
      await this.#moveTo(at);
      await this.#button(button, false);
      await this.device.flush();
    });
  }

  /** The buttons held now, by deskhand's own account (no compositor answers what a seat holds). */
  heldButtons(): MouseButton[] {
    return [...this.#held.keys()];
  }

  /** Lets every held button go: before the device goes, nothing stays held. */
  async close(): Promise<void> {
    for (const [button, timer] of this.#held) {
      clearTimeout(timer);
      this.#letGo(button);
    }
    this.#held.clear();
    if (!this.device.closed()) await this.device.flush().catch(() => undefined);
  }

  #holder(modifiers: Modifier[], what: string): Holder {
    return modifiers.length
      ? this.device.holder(modifiers, `${what} with ${modifiers.join("+")} held`)
      : holdNothing;
  }

  /** A release that nobody waits for: a device gone meanwhile has let go itself. */
  #letGo(button: MouseButton): void {
    if (this.device.closed()) return;
    try {
      Promise.resolve(this.device.button(button, false)).catch(() => undefined);
    } catch {
      // The connection closed between the check and the send.
    }
  }
}

/**
 * The chords keyDown holds, each let go by itself after autoReleaseMs even when no other call
 * comes; `keys` is what the device needs to let one go (its codes, a modifier mask).
 */
export class HeldKeys<Keys> {
  readonly #held = new Map<string, { keys: Keys; timer: NodeJS.Timeout }>();

  constructor(
    private readonly autoReleaseMs: number,
    /** Sends the release; not called once the device has closed. */
    private readonly letGo: (keys: Keys) => unknown,
    private readonly closed: () => boolean,
    private readonly changed?: () => void,
  ) {}

  has(name: string): boolean {
    return this.#held.has(name);
  }

  /** On file before the keys go down: a death between the two still leaves them to release. */
  hold(name: string, keys: Keys): void {
    clearTimeout(this.#held.get(name)?.timer);
    const timer = setTimeout(() => void this.release(name).catch(() => undefined), this.autoReleaseMs);
    timer.unref();
    this.#held.set(name, { keys, timer });
    this.changed?.();
  }

  async release(name: string): Promise<void> {
    const held = this.#held.get(name);
    if (!held) return;
    clearTimeout(held.timer);
    this.#held.delete(name);
    try {
      if (!this.closed()) await this.letGo(held.keys);
    } finally {
      this.changed?.();
    }
  }

  names(): string[] {
    return [...this.#held.keys()];
  }

  values(): Keys[] {
    return [...this.#held.values()].map((h) => h.keys);
  }

  async releaseAll(): Promise<void> {
    for (const name of this.names()) await this.release(name).catch(() => undefined);
  }
}
