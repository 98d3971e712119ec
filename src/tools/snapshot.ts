import { z } from "zod";
import { snapshotSince } from "../core/changes.js";
import { renderSnapshot } from "../core/render.js";
import type { SnapshotPage, SnapshotTarget } from "../core/snapshot.js";
import type { ToolContext } from "./context.js";
import { limitsShape, targetSchema } from "./schemas.js";
import { type DataOf, defineTool, READ_ONLY } from "./tool.js";

export const snapshotInput = z.object({
  target: targetSchema,
  ...limitsShape,
  format: z
    .enum(["text", "full", "json"])
    .default("text")
    .describe(
      "text reads like the screen: what is not on screen is folded into one line per subtree (snapshot its ref to " +
        "read it), wrappers and labels that repeat their control's name merged, separators dropped. full: every " +
        "element read, as text. json: every element and field.",
    ),
  bounds: z.boolean().default(false).describe("Show bounds in the text format"),
  view: z
    .enum(["screen", "full"])
    .optional()
    .describe(
      "Override the view the format implies (text: screen; full and json: full), e.g. json of the screen view",
    ),
  since: z
    .string()
    .regex(/^s\d+$/, "a snapshot id looks like s7")
    .optional()
    .describe(
      "Answer with what changed since this earlier snapshot (added, removed, changed, with refs), reading its " +
        "scope with its limits again; the whole snapshot comes instead, with the reason, when that one is no " +
        "longer kept or the changes would not be shorter",
    ),
});

export type SnapshotInput = z.output<typeof snapshotInput>;

export async function runSnapshot(context: ToolContext, input: SnapshotInput): Promise<SnapshotPage> {
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
    const text =
      input.format === "json" ? JSON.stringify(data) : await renderSnapshot(page, { bounds: input.bounds });
    return { data, text };
  },
});

/** A snapshot's reply read as a page of elements: what every call without `since` answers. */
export function pageOf(data: DataOf<typeof snapshotTool>): ReturnType<typeof snapshotData> {
  if (!("elements" in data)) throw new Error("snapshot answered with changes where a page was asked");
  return data;
}
