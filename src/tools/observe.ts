import { z } from "zod";
import { DeskhandError } from "../core/errors.js";
import { observeTargets } from "../core/observe.js";
import { incompleteLines, renderElement } from "../core/render.js";
import type { SnapshotElement, SnapshotPage, SnapshotTarget } from "../core/snapshot.js";
import { placeholderOf } from "../core/value.js";
import { bounded } from "../platform/diagnostics.js";
import { LABELLED_FIELD_ROLES, roleSet } from "../platform/roles.js";
import type { ToolContext } from "./context.js";
import { marksOf, observeWithoutTree, rememberMarks, withPixelTargets } from "./pixels-view.js";
import { limitsShape, targetSchema } from "./schemas.js";
import { rememberView } from "./seen-views.js";
import { snapshotData } from "./snapshot.js";
import { defineTool, READ_ONLY } from "./tool.js";

/**
 * Levels observe reads: deep enough for Qt, which nests a KDE editor's replace bar 20 widgets down;
 * maxNodes, the read ceiling and the deadline bound the read, not the depth.
 */
const OBSERVE_DEPTH = 64;

/** Refs of depth-cut elements named in the header; the rest are counted (all are in `cut_by_depth`). */
const DEPTH_REFS_SHOWN = 8;

/** Empty fields whose hint ("DD/MM/YYYY") is read for observe, at once, each within the bound. */
const PLACEHOLDERS_READ = 12;
const PLACEHOLDERS_WITHIN_MS = 1000;

/**
 * The hint an empty field shows, on its target's line, as a person sees it in the field: its format
 * or its purpose where the name does not say them. Read from the field's attributes, bounded.
 */
async function withPlaceholders<T extends { label: string; ref?: string | undefined }>(
  context: ToolContext,
  elements: readonly SnapshotElement[],
  targets: T[],
): Promise<T[]> {
  const backend = await context.backend();
  if (!backend.readAttributes) return targets;
  const byRef = new Map(elements.map((e) => [e.ref, e]));
  const empty = targets
    .filter((t) => {
      const e = t.ref === undefined ? undefined : byRef.get(t.ref);
      return e && LABELLED_FIELD_ROLES.has(e.role) && !e.value;
    })
    .slice(0, PLACEHOLDERS_READ);
  if (empty.length === 0) return targets;
  const read = await Promise.all(
    empty.map((t) =>
      bounded(backend.readAttributes!(context.refs.lookup(t.ref!).handle), PLACEHOLDERS_WITHIN_MS, "a hint")
        .catch(() => undefined)
        .then((attributes) => [t.ref, placeholderOf(attributes)] as const),
    ),
  );
  const hints = new Map(read.filter(([, p]) => p !== undefined));
  return targets.map((t) => {
    const hint = t.ref === undefined ? undefined : hints.get(t.ref);
    return hint
      ? { ...t, label: t.label.replace(" [ref=", ` placeholder ${JSON.stringify(hint)} [ref=`) }
      : t;
  });
}

/** The header line naming what maxDepth cut, and the call that reads on. */
function belowDepth(refs: string[]): string {
  const more = refs.length > DEPTH_REFS_SHOWN ? ` +${refs.length - DEPTH_REFS_SHOWN} more` : "";
  const shown = refs.slice(0, DEPTH_REFS_SHOWN).join(", ");
  return `# below maxDepth: snapshot {target: {kind: "element", ref}} reads ${shown}${more}`;
}

const TEXT_ROLES = roleSet("label", "static", "heading", "paragraph", "status bar", "alert", "caption");

/** Cuts made the same way at every read: a view after one compares with the listing before. */
const STABLE_CUTS = new Set(["tableRows", "maxText"]);

export const observeTool = defineTool({
  name: "observe",
  group: "read",
  title: "Observe targets",
  description:
    "What can be acted on in a window, in screen order: index, ref, label, actions; `context` has the visible text.",
  level: "L1",
  annotations: READ_ONLY,
  input: z.object({
    target: targetSchema,
    ...limitsShape,
    maxDepth: limitsShape.maxDepth.default(OBSERVE_DEPTH),
    maxNodes: limitsShape.maxNodes.default(1000),
    visibleOnly: limitsShape.visibleOnly.default(true),
    actions: limitsShape.actions.default(true),
    maxTargets: z.number().int().min(1).max(1000).default(100),
    includeTree: z.boolean().default(false).describe("Also the snapshot"),
    items: z.boolean().default(false).describe("List table and list rows too"),
    pixels: z.boolean().default(true).describe("OCR pixels-only areas"),
  }),
  async handler(context, input) {
    const { target, maxTargets, includeTree, items, pixels, ...limits } = input;
    if (target.kind === "cursor") {
      throw new DeskhandError(
        "invalid_params",
        "observe reads a window afresh and cannot continue a snapshot cursor",
        "Pass a window target, or use `snapshot` with the cursor.",
      );
    }
    // Items asked for: a table's rows are read too, as many as its targets can show.
    // visibleOnly false lists what is off screen as targets too, each, not as one folded line.
    const read = {
      ...limits,
      ...(items ? { tableRows: Math.max(limits.tableRows, Math.min(maxTargets, 200)) } : {}),
      ...(limits.visibleOnly ? {} : { unfold: true }),
    };
    const page = await context.snapshots
      .take(target as SnapshotTarget, read, "screen")
      .catch(async (error) => {
        const untreed = pixels ? await observeWithoutTree(context, error) : undefined;
        if (untreed) return untreed;
        throw error;
      });
    if (!("elements" in page)) return page;
    const observed = observeTargets(page.elements, { items, maxTargets });
    const fromPixels = pixels ? await withPixelTargets(context, page, observed.targets) : undefined;
    const targets = await withPlaceholders(context, page.elements, fromPixels?.targets ?? observed.targets);
    rememberMarks(context, page.snapshotId, marksOf(page, targets));
    const context_ = contextLines(page.elements, observed.targets);
    const leftOut = {
      off_screen: page.counts.hidden + page.counts.folded,
      merged: page.counts.merged,
      separators: page.counts.separators,
      ...observed.left_out,
    };
    const truncatedBy: string[] = [...page.truncatedBy];
    if (observed.total > observed.targets.length) truncatedBy.push("maxTargets");
    if (fromPixels?.data?.cut_lines) truncatedBy.push("pixels");
    const data: Record<string, unknown> = {
      snapshotId: page.snapshotId,
      app: page.windows[0]?.app ?? null,
      windows: page.windows,
      visible: targets.map((t) => t.label),
      context: context_,
      targets,
      ...(observed.focused ? { focused: observed.focused } : {}),
      ...(fromPixels?.data ? { pixels: fromPixels.data } : {}),
      ...(observed.cut_by_depth ? { cut_by_depth: observed.cut_by_depth } : {}),
      ...(page.treeIncomplete ? { tree_incomplete: page.treeIncomplete } : {}),
      truncated_by: truncatedBy,
      left_out: leftOut,
    };
    if (includeTree) data.tree = snapshotData(page);
    // One window seen: the next act's view is said against it (view.ts). Table rows and long texts
    // are cut the same way every time, so a view compares like with like; a listing that stops at
    // maxTargets is remembered as cut (what is past its end is not called gone); a read cut short
    // (depth, nodes, time) might call what it missed gone.
    const comparable = truncatedBy.every((cut) => STABLE_CUTS.has(cut) || cut === "maxTargets");
    if (page.windows.length === 1 && !observed.cut_by_depth && comparable)
      rememberView(context, page.windows[0]!.id, {
        targets: targets.map((t) => t.label),
        context: context_,
        ...(truncatedBy.includes("maxTargets") ? { cut: true } : {}),
      });
    const lines = observeLines({
      page,
      observed,
      targets,
      truncatedBy,
      leftOut,
      context: context_,
      notes: fromPixels?.notes ?? [],
      tree: includeTree,
    });
    return { data, text: lines.join("\n") };
  },
});

/**
 * The window's texts a person reads beside its targets, each once: a label whose words a target
 * already shows (a field's inferred label, a check box's own text) is said on the target.
 */
function contextLines(elements: SnapshotElement[], listed: { ref: string }[]): string[] {
  const onTargets = new Set(listed.map((t) => t.ref));
  const shownOnce = new Set(
    elements
      .filter((e) => onTargets.has(e.ref))
      .flatMap((e) => [e.name, e.inferredLabel, e.description].filter((w): w is string => !!w))
      .map((w) => w.trim().replace(/[:：]$/, "")),
  );
  // So is a key ("Producer:") whose value label carries it (~"Producer").
  for (const e of elements)
    if (TEXT_ROLES.has(e.role) && e.name && e.inferredLabel) shownOnce.add(e.inferredLabel);
  return elements
    .filter((e) => TEXT_ROLES.has(e.role) && (e.name || e.value))
    .filter(
      (e) => e.inferredLabel !== undefined || !shownOnce.has((e.name ?? "").trim().replace(/[:：]$/, "")),
    )
    .map(
      (e) =>
        `${e.role} ${JSON.stringify(e.name || e.value)}${e.inferredLabel ? ` ~${JSON.stringify(e.inferredLabel)}` : ""}`,
    );
}

/** observe's text: the heading, what was cut and left out, the targets, the context, the tree. */
function observeLines(o: {
  page: SnapshotPage;
  observed: ReturnType<typeof observeTargets>;
  targets: { index: number; label: string }[];
  truncatedBy: string[];
  leftOut: Record<string, number>;
  context: string[];
  notes: string[];
  tree: boolean;
}): string[] {
  const { page, observed, targets, truncatedBy, leftOut } = o;
  const leftOutParts = [
    leftOut.off_screen ? `${leftOut.off_screen} off screen (visibleOnly: false shows them)` : "",
    leftOut.merged ? `${leftOut.merged} wrappers and repeated labels` : "",
    leftOut.nothing_to_do
      ? `${leftOut.nothing_to_do} with nothing to do (progress bars, split panes, unnamed and only focusable)`
      : "",
    leftOut.in_tables ? `${leftOut.in_tables} inside folded tables, lists and rows` : "",
  ].filter(Boolean);
  return [
    `# observe ${page.snapshotId} · ${targets.length} targets${observed.total > observed.targets.length ? ` of ${observed.total + targets.length - observed.targets.length}` : ""}, in reading order`,
    ...(truncatedBy.length ? [`# truncated_by: ${truncatedBy.join(", ")}`] : []),
    // A window that exposes nothing (Chromium without renderer accessibility) is said, with the fix.
    ...incompleteLines(page.treeIncomplete),
    ...(leftOutParts.length ? [`# left out: ${leftOutParts.join(", ")}`] : []),
    ...o.notes,
    ...(observed.cut_by_depth ? [belowDepth(observed.cut_by_depth)] : []),
    ...targets.map((t) => `${t.index}. ${t.label}`),
    ...(o.context.length ? ["# context", ...o.context] : []),
    ...(o.tree ? ["# tree", ...page.elements.map((e) => renderElement(e))] : []),
  ];
}
