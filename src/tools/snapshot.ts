import { z } from "zod";
import { snapshotSince } from "../core/changes.js";
import { renderSnapshot } from "../core/render.js";
import type { SnapshotPage, SnapshotTarget } from "../core/snapshot.js";
import type { ToolContext } from "./context.js";
import { foldedPixelLines } from "./pixels-view.js";
import { limitsShape, targetSchema } from "./schemas.js";
import { type DataOf, defineTool, READ_ONLY } from "./tool.js";

const snapshotInput = z.object({
  target: targetSchema,
  ...limitsShape,
  format: z
    .enum(["text", "full", "json"])
    .default("text")
    .describe("text: the screen, the rest folded; full: all; json: all fields"),
  bounds: z.boolean().default(false).describe("Show bounds in text"),
  view: z.enum(["screen", "full"]).optional().describe("Override the format's view"),
  since: z
    .string()
    .regex(/^s\d+$/, "a snapshot id looks like s7")
    .optional()
    .describe("Only changes since this snapshot id"),
});

export type SnapshotInput = z.output<typeof snapshotInput>;

async function runSnapshot(context: ToolContext, input: SnapshotInput): Promise<SnapshotPage> {
  const { target, format, bounds: _bounds, since: _since, view, ...limits } = input;
  if (target.kind === "cursor") return context.snapshots.continue(target.cursor);
  return context.snapshots.take(
    target as SnapshotTarget,
    limits,
    view ?? (format === "text" ? "screen" : "full"),
  );
}

export function snapshotData(page: SnapshotPage) {
  const { truncatedBy, treeIncomplete, ...rest } = page;
  return {
    ...rest,
    truncated_by: truncatedBy,
    ...(treeIncomplete ? { tree_incomplete: treeIncomplete } : {}),
  };
}

export const snapshotTool = defineTool({
  name: "snapshot",
  group: "read",
  title: "Snapshot a window",
  description:
    "A window or a ref's subtree as text, a line per element: role, name, ref, states, value. Cuts are named; a cursor pages on. Read shallow, then snapshot a ref.",
  level: "L1",
  annotations: READ_ONLY,
  input: snapshotInput,
  async handler(context, input) {
    if (input.since !== undefined) {
      const reply = await snapshotSince(context.snapshots, input.since, () => runSnapshot(context, input));
      if (reply.kind === "changes") {
        const { text, ...report } = reply.report;
        return { data: report, text };
      }
      return {
        data: { ...snapshotData(reply.page), since_fallback: reply.fallback },
        text: `# since ${input.since}: ${reply.fallback}\n${await renderSnapshot(reply.page, { bounds: input.bounds })}`,
      };
    }
    const page = await runSnapshot(context, input);
    const data = snapshotData(page);
    if (input.format === "json") return { data, text: JSON.stringify(data) };
    // The screen view reads what pixels-only surfaces show, folded to a line each.
    const pixels = page.view === "screen" ? await foldedPixelLines(context, page) : [];
    const text = await renderSnapshot(page, { bounds: input.bounds });
    return { data, text: pixels.length ? `${text}\n${pixels.join("\n")}` : text };
  },
});

/** A snapshot's reply read as a page of elements: what every call without `since` answers. */
export function pageOf(data: DataOf<typeof snapshotTool>): ReturnType<typeof snapshotData> {
  if (!("elements" in data)) throw new Error("snapshot answered with changes where a page was asked");
  return data;
}
