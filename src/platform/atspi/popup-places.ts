// Where a menu's items are under Wayland. A menu opens in a popup, a surface of its own, and GTK 3
// reports its items' extents in neither the window's points nor the popup's: measured on GNOME 43,
// the File menu's four items at (6, 31) to (225, 135), in a popup whose frame is 219×104 at
// (119, 160) on screen, where the screenshot shows them. What is sure is that the items fill the
// popup: so the open popup whose frame has the size of their box is theirs, and the box's corner is
// the frame's. Where no popup, or more than one, has that size, no place is trusted.
import type { Rect } from "../types.js";
import type { AtspiApp } from "./app.js";
import { COORD_SCREEN, IFACE } from "./names.js";

/** The roles of what a popup menu holds. */
export const POPUP_ITEM_ROLES = new Set([
  "menu item",
  "check menu item",
  "radio menu item",
  "menu",
  "separator",
  "tearoff menu item",
]);

/** More than this many items are not all asked: a long menu scrolls, and then no box fits anyway. */
const MOST_ITEMS = 60;
/** Pixels of slack between the items' box and the popup's frame. */
const SLACK = 2;

type Extents = [number, number, number, number];

/**
 * What is added to the extents of the menu at `path`'s items, once multiplied by `scale` (an app on a
 * scaled GNOME screen); null where no open popup is theirs.
 */
export async function popupShift(
  app: AtspiApp,
  path: string,
  popups: Rect[],
  timeoutMs: number,
  scale = 1,
): Promise<{ x: number; y: number } | null> {
  const [children] = (await app.call(path, IFACE.accessible, "GetChildren", timeoutMs)) as [
    [string, string][],
  ];
  if (children.length === 0 || children.length > MOST_ITEMS) return null;
  const boxes = (
    await Promise.all(
      children.map(([, child]) =>
        app
          .call(child, IFACE.component, "GetExtents", timeoutMs, "u", [COORD_SCREEN])
          .then(([e]) => e as Extents)
          .catch(() => null),
      ),
    )
  ).filter((b): b is Extents => b !== null && b[2] > 0 && b[3] > 0 && b[0] > -1_000_000);
  return boxShift(
    boxes.map((b) => b.map((v) => v * scale) as Extents),
    popups,
  );
}

/** The shift from the items' box to the one popup frame of its size; null where not exactly one. */
export function boxShift(boxes: Extents[], popups: Rect[]): { x: number; y: number } | null {
  if (boxes.length === 0) return null;
  const left = Math.min(...boxes.map((b) => b[0]));
  const top = Math.min(...boxes.map((b) => b[1]));
  const width = Math.max(...boxes.map((b) => b[0] + b[2])) - left;
  const height = Math.max(...boxes.map((b) => b[1] + b[3])) - top;
  const fits = popups.filter(
    (p) => Math.abs(p.width - width) <= SLACK && Math.abs(p.height - height) <= SLACK,
  );
  if (fits.length !== 1) return null;
  return { x: fits[0]!.x - left, y: fits[0]!.y - top };
}
