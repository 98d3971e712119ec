// Labels a person reads beside a field the application never linked to it. A field with no name and
// no relation (a GTK 3 find-and-replace form: its labels come after its entries in the tree) takes the
// nearest label to its left, on its line, or above it, within the same container. Shown marked as
// inferred (~"Search for"), never as the application's own name; `find {label}` and fill_form's
// `label` use it. Taking fields in tree order had typed a search into the replace field. A named
// field takes the key ("Title:") on its line too, where its name is something else. An unnamed table
// cell (a check box or icon column) takes its column's header.

import { bounded } from "../platform/diagnostics.js";
import { LABELLED_FIELD_ROLES, roleSet, TABLE_ROLES } from "../platform/roles.js";
import type { AccessibilityReader, RawNode, Rect } from "../platform/types.js";

const LABEL_ROLES = roleSet("label", "static");
/** A label farther than this from its field is not taken as its label. */
const MAX_GAP = 240;
/** Slack for a label that overlaps its field's edge by a pixel or two. */
const SLACK = 4;

const isUnnamedField = (node: RawNode): boolean =>
  LABELLED_FIELD_ROLES.has(node.role) && !(node.name ?? "").trim();
/** A field the app named, maybe after something else than the label a person reads beside it. */
const isNamedField = (node: RawNode): boolean =>
  LABELLED_FIELD_ROLES.has(node.role) && !!(node.name ?? "").trim();

const isLabel = (node: RawNode): boolean => LABEL_ROLES.has(node.role) && !!(node.name ?? "").trim();

/** A label that names what follows it: "Producer:", "作成者：". */
const KEY_END = /[:：]$/;
const isKey = (node: RawNode): boolean => isLabel(node) && KEY_END.test((node.name ?? "").trim());
/** A label that shows a value: named, not itself a key. */
const isValue = (node: RawNode): boolean => isLabel(node) && !isKey(node);
const keyWord = (node: RawNode): string => node.name!.trim().replace(KEY_END, "").trim();

/** Boxes a toolkit puts around a field and its hidden parts (flatten's wrappers are another, wider set). */
const FIELD_BOXES = roleSet("filler", "panel", "section");
const showing = (node: RawNode) => node.states?.includes("showing") !== false;

/**
 * The one unnamed field a nameless wrapper shows, which reads as a field of the wrapper's container:
 * LibreOffice boxes each dialog combo box with its hidden parts, its label outside the box.
 */
function boxedField(node: RawNode): RawNode | undefined {
  if (!FIELD_BOXES.has(node.role) || (node.name ?? "").trim()) return undefined;
  const fields = node.children.filter((c) => isUnnamedField(c) && showing(c));
  return fields.length === 1 ? fields[0] : undefined;
}

/** An unnamed field among a container's children: the child itself or the one its box shows. */
const unnamedFieldIn = (child: RawNode): RawNode | undefined =>
  isUnnamedField(child) ? child : boxedField(child);

/** Parents with an unnamed field among their children, and the nodes whose areas inference needs. */
function labelCandidates(roots: RawNode[]): RawNode[] {
  const needed: RawNode[] = [];
  const stack = [...roots];
  while (stack.length > 0) {
    const node = stack.pop()!;
    // A property pane: keys ("Producer:") beside the labels that show their values.
    const pairs = node.children.some(isKey) && node.children.some(isValue);
    const keyed = node.children.some(isKey) && node.children.some(isNamedField);
    if (node.children.some(unnamedFieldIn) || pairs || keyed)
      for (const child of node.children) {
        const field = unnamedFieldIn(child);
        if (field) needed.push(field);
        else if (isLabel(child) || (keyed && isNamedField(child))) needed.push(child);
      }
    stack.push(...node.children);
  }
  return needed;
}

function gapToField(label: Rect, field: Rect): { gap: number; left: boolean } | undefined {
  const verticalOverlap =
    Math.min(label.y + label.height, field.y + field.height) - Math.max(label.y, field.y);
  const horizontalOverlap =
    Math.min(label.x + label.width, field.x + field.width) - Math.max(label.x, field.x);
  // On the field's line, ending before it starts.
  if (verticalOverlap >= Math.min(label.height, field.height) / 2 && label.x + label.width <= field.x + SLACK)
    return { gap: field.x - (label.x + label.width), left: true };
  // Above it, over part of its width.
  if (horizontalOverlap > 0 && label.y + label.height <= field.y + SLACK)
    return { gap: field.y - (label.y + label.height), left: false };
  return undefined;
}

/**
 * Sets `inferredLabel` on each unnamed field whose container holds a label to its left or above;
 * areas must have been read (`labelCandidates` says which).
 */
export function inferLabels(roots: RawNode[]): number {
  let inferred = 0;
  const stack = [...roots];
  while (stack.length > 0) {
    const node = stack.pop()!;
    stack.push(...node.children);
    const labels = node.children.filter((c) => isLabel(c) && c.bounds);
    if (labels.length === 0) continue;
    for (const child of node.children) {
      if (isNamedField(child)) {
        if (keyBeside(child, labels)) inferred++;
        continue;
      }
      const field = unnamedFieldIn(child);
      if (!field?.bounds) continue;
      let best: { label: RawNode; gap: number; left: boolean } | undefined;
      for (const label of labels) {
        const at = gapToField(label.bounds!, field.bounds);
        if (!at || at.gap > MAX_GAP) continue;
        // The nearer wins; at the same distance, the one on the field's line.
        if (!best || at.gap < best.gap || (at.gap === best.gap && at.left && !best.left))
          best = { label, ...at };
      }
      if (best) {
        field.inferredLabel = best.label.name!.trim().replace(/:$/, "");
        inferred++;
      }
    }
    // A value label takes the key on its line, to its left, as its inferred label: what it is the
    // value of ("Producer" for "heldout-pdf 2.7"), which its own name does not say.
    for (const value of labels) {
      if (!isValue(value)) continue;
      const key = keyLeftOf(value.bounds!, labels);
      if (key) {
        value.inferredLabel = keyWord(key);
        inferred++;
      }
    }
  }
  return inferred;
}

/**
 * A named field whose name is something else than the key on its line to its left ("Title:" beside
 * an entry GTK named after its section's heading) takes that key as its inferred label too: a person
 * reads it there, and `find {label}` finds the field by it. Only a key (ending in a colon), only on
 * its line: a heading above is not a field's label.
 */
function keyBeside(field: RawNode, labels: RawNode[]): boolean {
  const key = field.bounds && keyLeftOf(field.bounds, labels);
  if (!key || keyWord(key).toLowerCase() === field.name!.trim().toLowerCase()) return false;
  field.inferredLabel = keyWord(key);
  return true;
}

/** The nearest key label ("Producer:") on a place's line, to its left, within MAX_GAP. */
function keyLeftOf(place: Rect, labels: RawNode[]): RawNode | undefined {
  let best: { key: RawNode; gap: number } | undefined;
  for (const key of labels.filter(isKey)) {
    const at = gapToField(key.bounds!, place);
    if (!at?.left || at.gap > MAX_GAP) continue;
    if (!best || at.gap < best.gap) best = { key, gap: at.gap };
  }
  return best?.key;
}

/** Reads the areas inference needs and infers; cheap where no field is unnamed (nothing is read). */
export async function inferLabelsOf(
  backend: AccessibilityReader,
  roots: { node: RawNode; windowId: number | null }[],
  timeoutMs: number,
): Promise<void> {
  for (const { node, windowId } of roots) {
    const needed = labelCandidates([node]).filter((n) => !n.enriched);
    if (needed.length > 0)
      await backend.enrich(needed, {
        maxText: 200,
        actions: false,
        accessibleIds: false,
        timeoutMs,
        ...(windowId === null ? {} : { windowId }),
      });
    inferLabels([node]);
  }
  await labelCells(backend, roots, timeoutMs);
}

const CELLS = roleSet("table cell");
/** Columns whose headers are read for one table: a sheet's 16,384 are not. */
const HEADERS_READ = 32;

/** A cell a person tells only by its column: no name, and no named element inside it. */
function namelessCell(node: RawNode): boolean {
  const named = (n: RawNode): boolean => !!n.name?.trim() || n.children.some(named);
  return CELLS.has(node.role) && node.cell !== undefined && node.cell.column < HEADERS_READ && !named(node);
}

/** Unnamed cells read through their table's Table interface take their column's header, marked ~. */
async function labelCells(
  backend: AccessibilityReader,
  roots: { node: RawNode }[],
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const stack = roots.map((r) => r.node);
  while (stack.length > 0 && Date.now() < deadline) {
    const node = stack.pop()!;
    stack.push(...node.children);
    if (!TABLE_ROLES.has(node.role)) continue;
    const cells: RawNode[] = [];
    const inner = [...node.children];
    while (inner.length > 0) {
      const child = inner.pop()!;
      if (namelessCell(child)) cells.push(child);
      else if (!TABLE_ROLES.has(child.role) && !CELLS.has(child.role)) inner.push(...child.children);
    }
    if (cells.length === 0) continue;
    const columns = Math.max(...cells.map((c) => c.cell!.column)) + 1;
    const read = await bounded(
      backend.readTable(node.handle, 0, 0, columns),
      deadline - Date.now(),
      "headers",
    ).catch(() => undefined);
    for (const cell of cells) {
      const header = read?.headers[cell.cell!.column]?.trim();
      if (header) cell.inferredLabel = header;
    }
  }
}

/** The node whose children hold `node`, searched from `root`. */
function parentOf(root: RawNode, node: RawNode): RawNode | undefined {
  for (const child of root.children) {
    if (child === node) return root;
    const found = parentOf(child, node);
    if (found) return found;
  }
  return undefined;
}

/**
 * The label a person reads beside a field its app left unnamed, or beside the combo box holding it
 * (Qt's find field: "Find:" names the combo box), inferred within the container around them.
 */
export async function labelBeside(
  backend: AccessibilityReader,
  root: RawNode,
  field: RawNode,
  windowId: number,
  timeoutMs: number,
): Promise<string | undefined> {
  const parent = parentOf(root, field);
  const holder = parent?.role === "combo box" ? parent : undefined;
  const container = holder ? parentOf(root, holder) : parent;
  if (!container) return undefined;
  await inferLabelsOf(backend, [{ node: container, windowId }], timeoutMs);
  return field.inferredLabel ?? holder?.inferredLabel;
}
