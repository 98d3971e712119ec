import { z } from "zod";
import { renderSnapshot } from "../core/render.js";
import type { SnapshotPage, SnapshotTarget } from "../core/snapshot.js";
import type { ToolContext } from "./context.js";
import { limitsShape, targetSchema } from "./schemas.js";
import { defineTool, READ_ONLY } from "./tool.js";

export const snapshotInput = z.object({
  target: targetSchema,
  ...limitsShape,
  format: z.enum(["text", "json"]).default("text").describe("Text is compact; json carries every field"),
  bounds: z.boolean().default(false).describe("Show bounds in the text format"),
});

export type SnapshotInput = z.output<typeof snapshotInput>;

export async function runSnapshot(context: ToolContext, input: SnapshotInput): Promise<SnapshotPage> {
  const { target, format: _format, bounds: _bounds, ...limits } = input;
  if (target.kind === "cursor") return context.snapshots.continue(target.cursor);
  return context.snapshots.take(target as SnapshotTarget, limits);
}

export function snapshotData(page: SnapshotPage): Record<string, unknown> {
  const { truncatedBy, treeIncomplete, ...rest } = page;
  return {
    ...rest,
    truncated_by: truncatedBy,
    ...(treeIncomplete ? { tree_incomplete: treeIncomplete } : {}),
  };
}

export const snapshotTool = defineTool({
  name: "snapshot",
  title: "Snapshot a window",
  description:
    "Read a window (or the subtree under a ref) as text: one line per element with role, name, ref, key states " +
    "and value. Bounded: limits come back with their ceilings and every cut is named in truncated_by. When " +
    "maxNodes cuts the answer, pass the returned cursor as target {kind:'cursor'} for the next page. Read in " +
    "rings: a shallow snapshot first, then snapshot a ref to go deeper.",
  level: "L1",
  annotations: READ_ONLY,
  input: snapshotInput,
  async handler(context, input) {
    const page = await runSnapshot(context, input);
    const data = snapshotData(page);
    const text =
      input.format === "json" ? JSON.stringify(data) : renderSnapshot(page, { bounds: input.bounds });
    return { data, text };
  },
});
