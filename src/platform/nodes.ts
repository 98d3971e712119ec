import type { RawNode } from "./types.js";

/** A tree's nodes, the root first. */
export function everyNode(root: RawNode): RawNode[] {
  return [root, ...root.children.flatMap(everyNode)];
}

/**
 * The menus of a menu bar that hold no item, read whole: the app fills each as it opens (Thunar's
 * GTK 3 menus), so what they hold is unknown until one is opened.
 */
export function unfilledMenus(nodes: RawNode[]): RawNode[] {
  return nodes
    .filter((n) => n.role === "menu bar")
    .flatMap((bar) =>
      bar.children.filter((m) => m.role === "menu" && m.children.length === 0 && !m.childrenCut),
    );
}
