// The tool calls a server is running, so that stopping it (SIGTERM) answers every one: those that
// finish within the drain get their own result, the rest an error saying the server stopped while
// they ran and what is known of their effect; a call that arrives while it stops gets one too.
import { setTimeout as sleep } from "node:timers/promises";

/** How long a stopping server waits for the calls in flight before it answers them itself. */
export const DRAIN_MS = 10_000;
// Time for the answers to leave through the transport before it closes.
const FLUSH_MS = 100;

export class CallsInFlight {
  readonly #running = new Set<Promise<unknown>>();
  #release!: () => void;
  readonly #released = new Promise<void>((resolve) => {
    this.#release = resolve;
  });
  stopping = false;

  get count(): number {
    return this.#running.size;
  }

  /** Runs a call; if the server stops before it ends, it is answered with `stopped()` instead. */
  run<T>(work: () => Promise<T>, stopped: () => T): Promise<T> {
    const running = work();
    this.#running.add(running);
    running.then(
      () => this.#running.delete(running),
      () => this.#running.delete(running),
    );
    return Promise.race([running, this.#released.then(stopped)]);
  }

  /** Waits up to `ms` for the calls in flight; those still running are then answered as stopped. */
  async drain(ms = DRAIN_MS): Promise<void> {
    this.stopping = true;
    if (this.#running.size > 0) await Promise.race([Promise.allSettled([...this.#running]), sleep(ms)]);
    const cut = this.#running.size;
    this.#release();
    if (cut > 0) await sleep(FLUSH_MS);
  }
}
