// A read tree laid out in document order, with the filters (visibleOnly, onlyInteractive) applied.
import type { RawNode } from "../platform/types.js";
import type { Fingerprint } from "./refs.js";

export interface FlatEntry {
  node: RawNode;
  /** Depth among the entries kept: a node dropped by onlyInteractive lifts its children. */
  depth: number;
  /** Child indices from the window's root to this node. */
  path: number[];
  windowId: number | null;
}

/** Roles that only arrange other elements; an Action interface on them (GTK4 puts one everywhere) does not make them targets. */
const STRUCTURAL_ROLES = new Set([
  "panel",
  "filler",
  "frame",
  "window",
  "dialog",
  "scroll pane",
  "viewport",
  "layered pane",
  "root pane",
  "glass pane",
  "split pane",
  "section",
  "grouping",
  "application",
  "internal frame",
  "option pane",
  "tool bar",
  "menu bar",
  "status bar",
  "separator",
  "label",
  "static",
  "image",
  "icon",
  "heading",
  "paragraph",
  "form",
  "landmark",
  "redundant object",
  "unknown",
]);

const INTERACTIVE_ROLES = new Set([
  "push button",
  "toggle button",
  "check box",
  "radio button",
  "combo box",
  "menu item",
  "check menu item",
  "radio menu item",
  "menu",
  "page tab",
  "list item",
  "tree item",
  "table cell",
  "link",
  "text",
  "entry",
  "password text",
  "spin button",
  "slider",
  "scroll bar",
  "switch",
  "push button menu",
  "tree table",
  "table",
  "list",
  "list box",
  "tree",
  "page tab list",
  "editbar",
]);

/** What a ref records of the element it names. */
export function fingerprintOf(entry: FlatEntry): Fingerprint {
  const { node } = entry;
  return {
    role: node.role,
    name: node.name,
    indexInParent: node.indexInParent,
    bounds: node.bounds,
    path: entry.path,
    windowId: entry.windowId,
  };
}

export function isInteractive(node: RawNode): boolean {
  if (INTERACTIVE_ROLES.has(node.role)) return true;
  const interfaces = node.interfaces ?? [];
  if (interfaces.includes("EditableText") || interfaces.includes("Value")) return true;
  if (STRUCTURAL_ROLES.has(node.role)) return false;
  return interfaces.includes("Action") || (node.states ?? []).includes("focusable");
}

/**
 * Whether the element is on screen. AT-SPI's `showing` says so; GTK 4.8 leaves it off most containers
 * it does draw, so for a node whose toolkit never reports `showing` below the window, `visible` stands in.
 */
function isShown(node: RawNode, toolkitReportsShowing: boolean): boolean {
  const states = node.states;
  if (states === undefined) return true; // Unread states: keep it, and its `unread` says why.
  if (states.includes("showing")) return true;
  return !toolkitReportsShowing && states.includes("visible");
}

/** Whether any element below the root reports `showing` (GTK 4.8 never does). */
export function reportsShowing(root: RawNode): boolean {
  return root.children.some((child) => child.states?.includes("showing") || reportsShowing(child));
}

export interface FlattenOptions {
  visibleOnly: boolean;
  onlyInteractive: boolean;
}

export interface FlattenResult {
  entries: FlatEntry[];
  droppedHidden: number;
  droppedStructural: number;
}

export function flatten(
  roots: { node: RawNode; windowId: number | null }[],
  options: FlattenOptions,
): FlattenResult {
  const entries: FlatEntry[] = [];
  let droppedHidden = 0;
  let droppedStructural = 0;
  const countSubtree = (node: RawNode): number => 1 + node.children.reduce((n, c) => n + countSubtree(c), 0);
  for (const { node: root, windowId } of roots) {
    const showingKnown = reportsShowing(root);
    const visit = (node: RawNode, depth: number, path: number[], isRoot: boolean) => {
      if (options.visibleOnly && !isRoot && !isShown(node, showingKnown)) {
        droppedHidden += countSubtree(node);
        return;
      }
      const keep = isRoot || !options.onlyInteractive || isInteractive(node);
      if (keep) entries.push({ node, depth, path, windowId });
      else droppedStructural++;
      for (const child of node.children) {
        visit(child, keep ? depth + 1 : depth, [...path, child.indexInParent], false);
      }
    };
    visit(root, 0, [], true);
  }
  return { entries, droppedHidden, droppedStructural };
}
