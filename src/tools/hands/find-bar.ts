// A find bar: a bar of a window holding a one-line field to search with, and what goes with it (a
// Close, next and previous buttons, "Match case"). Its Close hides the bar and loses nothing; Enter
// in its field searches. One home for what makes one, read from the tree without acting on the app.
import { inferLabelsOf } from "../../core/labels.js";
import { placeholderOf } from "../../core/value.js";
import { everyNode } from "../../platform/nodes.js";
import { EDITABLE_ROLES, WINDOW_ROLES } from "../../platform/roles.js";
import type { RawNode } from "../../platform/types.js";
import { BUTTON_ROLES } from "../../safety/classify.js";
import { matchLabel } from "../../safety/committing-words.js";
import type { ToolContext } from "../context.js";

/** How long the labels beside a bar's fields may take to place. */
const LABELS_WITHIN_MS = 800;
/** A field's containers looked at for its bar, nearest first (a combo box holding it not counted). */
const BAR_LEVELS = 3;
/** Fields whose placeholder is read: a find bar has one or two. */
const PLACEHOLDERS_READ = 4;

/** Whether a label's words search ("Find:", "Search…", "Match case"): one reading for every rule. */
export const searches = (label: string | undefined) => !!label && !!matchLabel(label).searches;
/** Whether a label's words replace what a search found ("Replace with:", "Substituir por:"). */
export const replaces = (label: string | undefined) => !!label && !!matchLabel(label).edits;
// Qt's line edit says "editable" and not "single line"; a text of many lines says "multi line".
const oneLine = (n: RawNode) =>
  EDITABLE_ROLES.has(n.role) &&
  !n.states?.includes("multi line") &&
  !!(n.states?.includes("single line") || n.states?.includes("editable"));

/** The one-line fields of a bar. */
export const barFields = (bar: RawNode): RawNode[] => everyNode(bar).filter(oneLine);

/** What names a field, as a person reads it: its name, the label beside it, its description. */
const fieldLabels = (n: RawNode) => [n.name, n.inferredLabel, n.description];

/**
 * Whether a bar is a find bar: it holds a one-line field, and its words search (a label "Find:", a
 * field named or placeholdered "Search", a button "Find next", a check box "Match case"), or it is
 * a tool bar that also holds a Close (Mousepad's names nothing else: a window's Close is never in a
 * tool bar beside a field). The labels beside its fields
 * are placed first (bounds are read; nothing is acted on).
 */
export async function isFindBar(
  context: ToolContext,
  bar: RawNode,
  windowId: number | null,
): Promise<boolean> {
  const fields = barFields(bar);
  if (fields.length === 0) return false;
  const nodes = everyNode(bar);
  const closes = (n: RawNode) => BUTTON_ROLES.has(n.role) && !!n.name && !!matchLabel(n.name).closes;
  if (bar.role === "tool bar" && nodes.some(closes)) return true;
  const backend = await context.backend();
  await inferLabelsOf(backend, [{ node: bar, windowId }], LABELS_WITHIN_MS).catch(() => undefined);
  if (nodes.some((n) => fieldLabels(n).some(searches))) return true;
  const placeholder = async (n: RawNode) =>
    searches(placeholderOf(await backend.readAttributes?.(n.handle).catch(() => undefined)));
  return (await Promise.all(fields.slice(0, PLACEHOLDERS_READ).map(placeholder))).some(Boolean);
}

/**
 * Whether Enter in the field at the end of `path` (the window's root first) only searches: the field
 * is in a find bar, and is its one field, or the label beside it (or beside the combo box holding
 * it) searches. A bar of two fields (find and replace) leaves the other unread.
 */
export async function searchesInBar(
  context: ToolContext,
  path: RawNode[],
  windowId: number,
): Promise<boolean> {
  const field = path.at(-1);
  if (!field) return false;
  const holder = path.at(-2)?.role === "combo box" ? path.at(-2) : undefined;
  const bars = path.slice(0, holder ? -2 : -1).reverse();
  for (const bar of bars.slice(0, BAR_LEVELS)) {
    if (WINDOW_ROLES.has(bar.role)) return false;
    if (!(await isFindBar(context, bar, windowId))) continue;
    // A field with a label of its own is that label's, whatever else the bar holds. A combo box is
    // named for what it holds, not what it is for: only the label beside it counts.
    const own = [...fieldLabels(field), holder?.inferredLabel, holder?.description].filter(
      (l): l is string => !!l?.trim(),
    );
    if (own.length > 0) return own.some(searches);
    return barFields(bar).length === 1;
  }
  return false;
}
