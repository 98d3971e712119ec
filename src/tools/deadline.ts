// A caller's deadline: the call is answered by it whatever the app does, and nothing acts after it.
// The call runs on with its signal aborted at the deadline; the gate (guard.ts) hands out no acting
// surface once it is, so an app that answers late is read, never acted on.
import { DeskhandError } from "../core/errors.js";
import type { DeadlineProbe, ToolContext } from "./context.js";

export type ByDeadline<T> = { met: true; value: T } | { met: false; actingGiven: boolean; ms: number };

/** Runs `run` in a scope whose signal aborts at `ms` (or when the caller cancels); answers by then. */
export async function byDeadline<T>(
  context: ToolContext,
  ms: number,
  run: (scoped: ToolContext) => Promise<T>,
): Promise<ByDeadline<T>> {
  const timer = new AbortController();
  const signal = context.signal ? AbortSignal.any([context.signal, timer.signal]) : timer.signal;
  const probe: DeadlineProbe = { signal, actingGiven: false };
  const scoped: ToolContext = Object.assign(Object.create(context) as ToolContext, {
    signal,
    deadline: probe,
  });
  let timeout: NodeJS.Timeout | undefined;
  const passed = new Promise<ByDeadline<T>>((resolve) => {
    timeout = setTimeout(() => {
      timer.abort();
      resolve({ met: false, actingGiven: probe.actingGiven, ms });
    }, ms);
  });
  const ran = run(scoped).then((value) => ({ met: true as const, value }));
  // The run goes on past the deadline (reads answer late); its failure then is nobody's to hear.
  ran.catch(() => undefined);
  try {
    return await Promise.race([ran, passed]);
  } finally {
    clearTimeout(timeout);
  }
}

/** Thrown where an input would be made after its caller's deadline or cancellation: nothing was done. */
export function callerGone(signal: AbortSignal): DeskhandError {
  const why =
    signal.reason instanceof Error && signal.reason.name === "AbortError" ? "cancelled the call" : "gave up";
  return new DeskhandError(
    "timeout",
    `the caller ${why} before this input was made (its deadline passed): nothing was done`,
    "Read the window again before acting: the app may be busy.",
  );
}
