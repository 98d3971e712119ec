// Elements whose content is only pixels: a large area with no children and nothing to say (a drawing
// area, a canvas, a custom-painted panel). The tree cannot tell what they show; read_screen_text can.
// Snapshots mark them, and a `find` that finds nothing in a window that has them says so.

import { roleSet } from "../platform/roles.js";
import type { RawNode, Rect } from "../platform/types.js";
import { intersection } from "./rects.js";

/** Roles that hold what they draw, not elements: where painted text lives. */
const PIXEL_ROLES = roleSet(
  "drawing area",
  "canvas",
  "panel",
  "filler",
  "section",
  "unknown",
  "redundant object",
  "image",
  "embedded",
  "viewport",
  "scroll pane",
);
/**
 * Item views that may list nothing though they show items: KDE's file view reports 0 rows and no
 * children while it shows the folder's files. A named one is still silent about what it shows.
 */
const VIEW_ROLES = roleSet("table", "tree table", "list", "list box", "tree");

/** Smaller than this is an icon or a gap, not a surface worth reading. */
const MIN_WIDTH = 64;
const MIN_HEIGHT = 32;
const MIN_AREA = 10_000;

/** Whether a node may be pixels only, before its area and text are read. */
export function mayBePixelsOnly(node: RawNode): boolean {
  const empty = node.children.length === 0 && (node.childCount ?? 0) === 0 && !node.description;
  if (VIEW_ROLES.has(node.role)) return (empty || noRows(node)) && node.children.length === 0;
  return PIXEL_ROLES.has(node.role) && empty && !node.name;
}

/** A table whose Table interface says it has no rows (its children are column headers, if any). */
function noRows(node: RawNode): boolean {
  return node.childrenCut?.reason === "table" && node.childrenCut.rows === 0 && !node.description;
}

/**
 * Empty elements laid over others that the tree does describe (an overlay on a form opened in place):
 * what shows through them is the tree's, so they are not pixels-only surfaces. Kept per node read.
 */
const covers = new WeakSet<RawNode>();

/** Whether a node, its area and text read, is a large surface with nothing in the tree. */
export function isPixelsOnly(node: RawNode): boolean {
  const b = node.bounds;
  return (
    mayBePixelsOnly(node) &&
    !covers.has(node) &&
    !!b &&
    b.width >= MIN_WIDTH &&
    b.height >= MIN_HEIGHT &&
    b.width * b.height >= MIN_AREA &&
    !(node.value ?? "").trim() &&
    !(node.text ?? "").replace(/\uFFFC/g, "").trim()
  );
}

/** How far up from an empty surface what may lie under it is looked for: an overlay's siblings and cousins. */
const COVER_SCOPE = 2;

/**
 * The elements that may lie under a read tree's empty surfaces: the subtrees of each surface's
 * ancestor COVER_SCOPE levels up. Their places decide whether a surface covers the tree.
 */
export function underSurfaces(root: RawNode): RawNode[] {
  const scopes = new Set<RawNode>();
  const ancestors: RawNode[] = [];
  const walk = (node: RawNode) => {
    if (isPixelsOnly(node)) scopes.add(ancestors[Math.max(0, ancestors.length - COVER_SCOPE)] ?? node);
    ancestors.push(node);
    for (const child of node.children) walk(child);
    ancestors.pop();
  };
  walk(root);
  const found = new Set<RawNode>();
  const collect = (node: RawNode) => {
    found.add(node);
    for (const child of node.children) collect(child);
  };
  for (const scope of scopes) collect(scope);
  return [...found];
}

/**
 * How much of an empty surface the tree's elements under it must cover for it to be an overlay on
 * them: a form under an empty pane fills most of it; zoom buttons floating over a map do not.
 */
const COVERED_SHARE = 0.25;

/** The area two rectangles share. */
function sharedArea(a: Rect, b: Rect): number {
  const shared = intersection(a, b);
  return shared ? shared.width * shared.height : 0;
}

/**
 * Marks the empty surfaces of a read tree that lie over elements the tree describes: an element on
 * screen, not one of the surface's ancestors, with content (a name, children, or something to do),
 * covering COVERED_SHARE of the surface. `shown` is the on-screen judgement (flatten's isShown); the
 * elements' bounds must have been read.
 */
export function markCoveringSurfaces(root: RawNode, shown: (node: RawNode) => boolean): RawNode[] {
  const surfaces: { node: RawNode; ancestors: Set<RawNode> }[] = [];
  const content: RawNode[] = [];
  const ancestors: RawNode[] = [];
  const walk = (node: RawNode) => {
    if (!shown(node)) return;
    if (isPixelsOnly(node)) surfaces.push({ node, ancestors: new Set(ancestors) });
    else if (node.name || node.children.length > 0 || (node.interfaces ?? []).includes("Action"))
      content.push(node);
    ancestors.push(node);
    for (const child of node.children) walk(child);
    ancestors.pop();
  };
  walk(root);
  const marked: RawNode[] = [];
  for (const { node, ancestors: above } of surfaces) {
    const b = node.bounds!;
    const enough = COVERED_SHARE * b.width * b.height;
    if (content.some((c) => !above.has(c) && c.bounds && sharedArea(c.bounds, b) >= enough)) {
      covers.add(node);
      marked.push(node);
    }
  }
  return marked;
}
