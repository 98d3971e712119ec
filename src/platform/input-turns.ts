// One deskhand sends input to a display at a time, and within one deskhand one call at a time: two
// calls at once (two MCP sessions, or two requests of one) would interleave their keys, and the
// display's lock, taken by this same process, would let both in. Calls of this process take turns
// here, then the display's lock is taken (X11: a selection; Wayland: an abstract socket). Calls
// inside a piece of work that holds it run at once.
import { AsyncLocalStorage } from "node:async_hooks";

/** Takes the display's lock (waiting for another deskhand, bounded); what lets it go. */
export type TakeLock = () => Promise<() => unknown>;

/** When this process last sent synthetic input (Date.now() time): its effects' events may be on their way. */
let lastInputAt = 0;

export function lastInputSent(): number {
  return lastInputAt;
}

export class InputTurns {
  /** Calls of this process wait their turn here before asking for the display's lock. */
  #turn: Promise<void> = Promise.resolve();
  /** Set inside the call chain that holds the input: a nested run there runs at once. */
  readonly #holding = new AsyncLocalStorage<true>();

  constructor(private readonly take: TakeLock) {}

  /** Whether this call chain holds the input now. */
  get inside(): boolean {
    return this.#holding.getStore() === true;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.inside) return work();
    let release!: () => void;
    const before = this.#turn;
    this.#turn = new Promise<void>((resolve) => {
      release = resolve;
    });
    await before;
    try {
      const unlock = await this.take();
      try {
        lastInputAt = Date.now();
        return await this.#holding.run(true, work);
      } finally {
        lastInputAt = Date.now();
        await unlock();
      }
    } finally {
      release();
    }
  }
}
