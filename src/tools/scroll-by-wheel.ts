// A scroll whose bar the toolkit accepts and does not move (the Java wrapper leaves a JTable's scroll
// pane where it was) is done as a person does it: the wheel over the element, through the gate as
// any wheel, and each bar read again to say whether it moved.
import { setTimeout as sleep } from "node:timers/promises";
import type { ActionReport, ScrollAmount } from "../platform/types.js";
import { callTool } from "./call.js";
import type { ToolContext } from "./context.js";
import { wheelTool } from "./hands/pointer.js";

/** Notches of the wheel for a small step and a large one (a notch moves a few lines). */
const NOTCHES: Record<ScrollAmount, number> = {
  no_amount: 0,
  small_increment: 1,
  small_decrement: 1,
  large_increment: 5,
  large_decrement: 5,
};
/** How often a bar is read again after the wheel; five times at most. */
const SETTLE_MS = 200;

type Target = { ref: string; intent: string };
type Amounts = { horizontal: ScrollAmount; vertical: ScrollAmount };

/**
 * After a scroll by its bars' Value: where a bar did not move, the wheel turns over the element for
 * each axis asked, and the bars are read again. The report stands where it moved or has no bars.
 */
export async function wheelIfNotMoved(
  context: ToolContext,
  target: Target,
  amounts: Amounts,
  report: ActionReport,
): Promise<ActionReport> {
  if (report.seen !== false || !report.scrollBars) return report;
  const turned: string[] = [];
  for (const axis of ["horizontal", "vertical"] as const) {
    const amount = amounts[axis];
    const notches = NOTCHES[amount];
    if (notches === 0) continue;
    const forward = amount.endsWith("increment");
    const direction = axis === "vertical" ? (forward ? "down" : "up") : forward ? "right" : "left";
    const output = await callTool(context, wheelTool, {
      ref: target.ref,
      direction,
      notches,
      intent: target.intent,
    });
    const status = output.ok ? (output.output.data as { status?: string }).status : undefined;
    // Refused or failed: the first route's report stands, with why the wheel did not turn.
    if (status !== "done")
      return {
        ...report,
        detail: `the scroll bar did not move (the toolkit accepted the value and ignored it), and the wheel over it was not turned: ${whyNot(output)}`,
      };
    turned.push(`${notches} notch${notches === 1 ? "" : "es"} ${direction}`);
  }
  // The toolkit moves its bar a moment after the wheel; a loaded machine takes longer.
  let moved: boolean | undefined;
  for (const deadline = Date.now() + SETTLE_MS * 5; ; ) {
    await sleep(SETTLE_MS);
    moved = await barsMoved(context, report.scrollBars);
    if (moved !== false || Date.now() > deadline) break;
  }
  return {
    route: `${report.route} (not moved), then the wheel over it: ${turned.join(", ")}`,
    outcome: report.outcome,
    ...(moved === undefined ? {} : { seen: moved }),
    ...(moved === false ? { detail: "the scroll bar did not move under the wheel either" } : {}),
  };
}

/** Whether every bar asked moved toward its wanted value; undefined where one could not be read. */
async function barsMoved(
  context: ToolContext,
  bars: NonNullable<ActionReport["scrollBars"]>,
): Promise<boolean | undefined> {
  const backend = await context.backend();
  const values = await Promise.all(
    bars.map((bar) =>
      backend.describe(bar.handle, { maxText: 0 }).then(
        (node) => Number(node.value),
        () => Number.NaN,
      ),
    ),
  );
  if (values.some((v) => Number.isNaN(v))) return undefined;
  return bars.every((bar, i) => Math.sign(values[i]! - bar.before) === Math.sign(bar.wanted - bar.before));
}

function whyNot(output: Awaited<ReturnType<typeof callTool>>): string {
  if (!output.ok) return output.error.message;
  const data = output.output.data as { reason?: string; status?: string };
  return data.reason ?? data.status ?? "no answer";
}
