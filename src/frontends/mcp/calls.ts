// The tool calls a server is running, so that stopping it (SIGTERM) answers every one: those that
// finish within the drain get their own result, the rest an error saying the server stopped while
// they ran and what is known of their effect; a call that arrives while it stops gets one too.
import { setTimeout as sleep } from "node:timers/promises";

/** How long a stopping server waits for the calls in flight before it answers them itself. */
export const DRAIN_MS = 10_000;
/**
 * The most a stop may take, whatever hangs after the drain (closing connections to a loaded bus):
 * the process exits by then, inside the 15 s stop timeout docs/remote.md gives units and pods.
 */
const STOP_MS = 13_000;
// Time for the answers to leave through the transport before it closes.
const FLUSH_MS = 100;

export class CallsInFlight {
  readonly #running = new Set<Promise<unknown>>();
  /**
   * What answers each running call as stopped. A set each call leaves when it ends, not reactions on
   * one promise that stays pending for the server's life: those were never freed, and held every
   * call's context (about 40 KB a call over stdio).
   */
  readonly #onStop = new Set<() => void>();
  stopping = false;
  readonly #halt = new AbortController();

  /** Aborted when the server starts to stop: a call in flight starts nothing new (a run, its next step). */
  get halted(): AbortSignal {
    return this.#halt.signal;
  }

  get count(): number {
    return this.#running.size;
  }

  /** Runs a call; if the server stops before it ends, it is answered with `stopped()` instead. */
  run<T>(work: () => Promise<T>, stopped: () => T): Promise<T> {
    const running = work();
    this.#running.add(running);
    return new Promise<T>((resolve, reject) => {
      const onStop = () => {
        try {
          resolve(stopped());
        } catch (error) {
          reject(error);
        }
      };
      this.#onStop.add(onStop);
      const end = () => {
        this.#running.delete(running);
        this.#onStop.delete(onStop);
      };
      running.then(
        (value) => {
          end();
          resolve(value);
        },
        (error) => {
          end();
          reject(error);
        },
      );
    });
  }

  /** Waits up to `ms` for the calls in flight; those still running are then answered as stopped. */
  async drain(ms = DRAIN_MS): Promise<void> {
    this.stopping = true;
    this.#halt.abort();
    if (this.#running.size > 0) await Promise.race([Promise.allSettled([...this.#running]), sleep(ms)]);
    const cut = this.#running.size;
    for (const answer of [...this.#onStop]) answer();
    if (cut > 0) await sleep(FLUSH_MS);
  }
}

/** Exits with `status` at STOP_MS from now unless the process has ended before. */
export function exitBy(status: number): void {
  setTimeout(() => process.exit(status), STOP_MS).unref();
}
