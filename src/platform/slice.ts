// Cooperative time slices. A large read is hundreds of D-Bus replies whose continuations issue the next
// calls, all as microtasks of one socket event, and then layout and rendering of thousands of elements:
// left alone, each runs to its end while no timer fires and no other request is read (33 ms measured
// for LibreOffice Calc). Long work calls `yieldIfDue()` at its natural steps; past SLICE_MS of work
// since the event loop last turned, it waits for the next turn (setImmediate: after pending I/O, so
// pings, deadlines and the release of held input run in between). This is the one place the bound is
// kept; docs/architecture.md states it.

/** How long work runs before it lets the event loop turn. */
export const SLICE_MS = 4;

let sliceStart: number | undefined;

function endSlice(): void {
  sliceStart = undefined;
}

/** Whether the work since the event loop last turned has run its slice. */
export function sliceDue(): boolean {
  const now = performance.now();
  if (sliceStart === undefined) {
    // The first work of this turn: the slice ends when the loop next reaches its check phase.
    sliceStart = now;
    setImmediate(endSlice);
    return false;
  }
  return now - sliceStart >= SLICE_MS;
}

/** Lets the event loop turn when this turn's slice is spent; otherwise returns at once. */
export function yieldIfDue(): Promise<void> | undefined {
  if (!sliceDue()) return undefined;
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * `Promise.all(items.map(start))`, with the event loop let turn between starts when due: starting a
 * thousand reads is itself work (each runs until its first call). A start that fails while later
 * ones wait their turn is held, not reported unhandled, and rejects the whole as Promise.all would.
 */
export async function startAll<T, R>(
  items: readonly T[],
  start: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const started: Promise<R>[] = [];
  for (let i = 0; i < items.length; i++) {
    const turn = yieldIfDue();
    if (turn) await turn;
    const promise = start(items[i]!, i);
    promise.catch(() => undefined);
    started.push(promise);
  }
  return Promise.all(started);
}

const queued: (() => void)[] = [];
let draining = false;

/**
 * Runs `settle` now, or in a later turn when this one's slice is spent, in the order given. A socket
 * event decodes hundreds of replies; settled at once, every continuation (each read's next node, its
 * details, its next calls) would run in the one microtask flush that follows. Settled here, each
 * continuation runs before the next reply is settled, and the loop turns between slices.
 */
export function settleInSlices(settle: () => void): void {
  queued.push(settle);
  if (draining) return;
  draining = true;
  void drain();
}

async function drain(): Promise<void> {
  while (queued.length > 0) {
    if (sliceDue()) {
      await new Promise((resolve) => setImmediate(resolve));
      continue;
    }
    queued.shift()!();
    // The continuation the settlement started runs before the next is taken.
    await undefined;
  }
  draining = false;
}
