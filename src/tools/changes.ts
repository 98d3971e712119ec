// `include_changes`: the window is read before an action and again after it, and the receipt carries
// what the action changed, in the compact text of `snapshot {since}`. One helper for `act` and every
// input tool, so the rule lives in one place.
import { setTimeout as sleep } from "node:timers/promises";
import { baseline, type ChangeReport, changesFrom } from "../core/changes.js";
import { SNAPSHOT_DEFAULTS } from "../core/limits.js";
import type { ToolContext } from "./context.js";

/** After the action, before the re-read: apps redraw and update their tree asynchronously. */
const SETTLE_MS = 150;

export interface ChangesWatch {
  /** The changes since the watch began, or why they could not be read. */
  finish(): Promise<{ data: Record<string, unknown>; text: string }>;
}

function failed(error: unknown): { data: Record<string, unknown>; text: string } {
  const reason = error instanceof Error ? error.message : String(error);
  return { data: { changes_unavailable: reason }, text: `# changes: not read (${reason})` };
}

/** Reads the window as it is now; `finish` reads it again and answers the difference. */
export async function watchChanges(context: ToolContext, windowId: number): Promise<ChangesWatch> {
  const store = context.snapshots;
  let before: Awaited<ReturnType<typeof baseline>> | undefined;
  let error: unknown;
  try {
    before = await baseline(store, { kind: "window", id: windowId }, SNAPSHOT_DEFAULTS);
  } catch (caught) {
    error = caught;
  }
  return {
    async finish() {
      if (!before) return failed(error);
      await sleep(SETTLE_MS);
      try {
        const refs = new Map<string, string>();
        const { report } = await changesFrom(store, before, "the action", refs, "after the action");
        const { text, ...data } = report as ChangeReport;
        return { data: { changes: data }, text };
      } catch (caught) {
        return failed(caught);
      }
    },
  };
}
