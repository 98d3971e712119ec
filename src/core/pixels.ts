// Elements whose content is only pixels: a large area with no children and nothing to say (a drawing
// area, a canvas, a custom-painted panel). The tree cannot tell what they show; read_screen_text can.
// Snapshots mark them, and a `find` that finds nothing in a window that has them says so.

import type { RawNode } from "../platform/types.js";
import { roleSet } from "../platform/vocabulary.js";

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
/** Smaller than this is an icon or a gap, not a surface worth reading. */
const MIN_WIDTH = 64;
const MIN_HEIGHT = 32;
const MIN_AREA = 10_000;

/** Whether a node may be pixels only, before its area and text are read. */
export function mayBePixelsOnly(node: RawNode): boolean {
  return (
    PIXEL_ROLES.has(node.role) &&
    node.children.length === 0 &&
    (node.childCount ?? 0) === 0 &&
    !node.name &&
    !node.description
  );
}

/** Whether a node, its area and text read, is a large surface with nothing in the tree. */
export function isPixelsOnly(node: RawNode): boolean {
  const b = node.bounds;
  return (
    mayBePixelsOnly(node) &&
    !!b &&
    b.width >= MIN_WIDTH &&
    b.height >= MIN_HEIGHT &&
    b.width * b.height >= MIN_AREA &&
    !(node.value ?? "").trim() &&
    !(node.text ?? "").replace(/\uFFFC/g, "").trim()
  );
}
