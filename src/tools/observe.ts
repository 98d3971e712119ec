import { z } from "zod";
import { affordances, isTarget } from "../core/affordances.js";
import { DeskhandError } from "../core/errors.js";
import { renderElement } from "../core/render.js";
import type { SnapshotElement, SnapshotTarget } from "../core/snapshot.js";
import { limitsShape, targetSchema } from "./schemas.js";
import { snapshotData } from "./snapshot.js";
import { defineTool, READ_ONLY } from "./tool.js";

const TEXT_ROLES = new Set(["label", "static", "heading", "paragraph", "status bar", "alert", "caption"]);

function label(element: SnapshotElement, actions: string[]): string {
  // An unnamed field's label, inferred from its place: marked, since the app never said so.
  const name = element.name
    ? ` ${JSON.stringify(element.name)}`
    : element.inferredLabel
      ? ` ~${JSON.stringify(element.inferredLabel)}`
      : "";
  const value = element.value !== undefined ? ` = ${JSON.stringify(element.value.slice(0, 80))}` : "";
  return `${element.role}${name}${value} [ref=${element.ref}; actions=${actions.join(",")}]`;
}

export const observeTool = defineTool({
  name: "observe",
  title: "Observe targets",
  description:
    "What can be acted on in a window, in screen order: index, ref, label, actions; `context` has the visible text.",
  level: "L1",
  annotations: READ_ONLY,
  input: z.object({
    target: targetSchema,
    ...limitsShape,
    maxNodes: limitsShape.maxNodes.default(1000),
    visibleOnly: limitsShape.visibleOnly.default(true),
    actions: limitsShape.actions.default(true),
    maxTargets: z.number().int().min(1).max(1000).default(100),
    includeTree: z.boolean().default(false).describe("Also the snapshot"),
  }),
  async handler(context, input) {
    const { target, maxTargets, includeTree, ...limits } = input;
    if (target.kind === "cursor") {
      throw new DeskhandError(
        "invalid_params",
        "observe reads a window afresh and cannot continue a snapshot cursor",
        "Pass a window target, or use `snapshot` with the cursor.",
      );
    }
    const page = await context.snapshots.take(target as SnapshotTarget, limits, "screen");
    const all = page.elements.filter(isTarget);
    const targets = all.slice(0, maxTargets).map((element, index) => {
      const actions = affordances(element);
      return { index, ref: element.ref, label: label(element, actions), actions };
    });
    const context_ = page.elements
      .filter((e) => TEXT_ROLES.has(e.role) && (e.name || e.value))
      .map((e) => `${e.role} ${JSON.stringify(e.name || e.value)}`);
    const leftOut = {
      off_screen: page.counts.hidden + page.counts.folded,
      merged: page.counts.merged,
      separators: page.counts.separators,
    };
    const truncatedBy: string[] = [...page.truncatedBy];
    if (all.length > targets.length) truncatedBy.push("maxTargets");
    const data: Record<string, unknown> = {
      snapshotId: page.snapshotId,
      app: page.windows[0]?.app ?? null,
      windows: page.windows,
      visible: targets.map((t) => t.label),
      context: context_,
      targets,
      truncated_by: truncatedBy,
      left_out: leftOut,
    };
    if (includeTree) data.tree = snapshotData(page);
    const lines = [
      `# observe ${page.snapshotId} · ${targets.length} targets${all.length > targets.length ? ` of ${all.length}` : ""}`,
      ...(truncatedBy.length ? [`# truncated_by: ${truncatedBy.join(", ")}`] : []),
      ...(leftOut.off_screen + leftOut.merged > 0
        ? [
            `# left out: ${leftOut.off_screen} elements not on screen (visibleOnly: false folds them in instead), ${leftOut.merged} wrappers and labels repeating their control's name`,
          ]
        : []),
      ...targets.map((t) => `${t.index}. ${t.label}`),
      ...(context_.length ? ["# context", ...context_] : []),
      ...(includeTree ? ["# tree", ...page.elements.map((e) => renderElement(e))] : []),
    ];
    return { data, text: lines.join("\n") };
  },
});
