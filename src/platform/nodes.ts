import type { RawNode } from "./types.js";

/** A tree's nodes, the root first. */
export function everyNode(root: RawNode): RawNode[] {
  return [root, ...root.children.flatMap(everyNode)];
}
