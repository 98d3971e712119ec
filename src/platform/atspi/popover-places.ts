// Where an element inside a GTK 4 popover is, on X11. A popover (the main menu of GNOME Text Editor)
// is an X window of its own, override-redirect, typed a menu; GTK 4.8 reports its elements' extents
// in the coordinates of the window it pops from, as if drawn inside it. Measured: the popover's
// "GtkPopoverMenu" at (536, 6) 263×587 in the main window's coordinates, its X window 263×587 at
// (717, 276) on screen; with the main window's offset its "Preferences" was placed 161 points right
// of where it shows, on the popover's shadow, and a click there closed the menu. So an element
// whose ancestor menu has the size of exactly one open menu window is shifted onto that window. At
// GDK_SCALE=2 the window is twice the popover's points each way, and its elements' too.
import type { RawNode, Rect } from "../types.js";
import type { AtspiApp } from "./app.js";
import { COORD_SCREEN, IFACE } from "./names.js";
import { parentOf, parseHandle } from "./reader.js";
import { roleName } from "./roles.js";

/** Points of slack between a popover's extents and its window. */
const SLACK = 2;
/** How far up an element's popover is looked for. */
const MOST_LEVELS = 60;
/** GTK 4's name for a popover's menu, as its accessible name says. */
const POPOVER_NAME = "GtkPopoverMenu";
const TOP_ROLES = new Set(["frame", "window", "dialog", "application"]);

type Extents = [number, number, number, number];

/** The path of the nearest menu above `node` (or the node itself), and its name; undefined: none. */
async function menuAbove(
  app: AtspiApp,
  node: RawNode,
  timeoutMs: number,
): Promise<{ path: string; name: string | null } | undefined> {
  let current: RawNode | undefined = node;
  let path = parseHandle(node.handle).path;
  // What the read holds of its parents first, then the app is asked.
  for (let level = 0; current && level < MOST_LEVELS; level++) {
    if (current.role === "menu")
      return { path: parseHandle(current.handle).path, name: current.name ?? null };
    if (TOP_ROLES.has(current.role)) return undefined;
    path = parseHandle(current.handle).path;
    current = parentOf(current);
  }
  for (let level = 0; level < MOST_LEVELS; level++) {
    const [, parent] = (await app.property(path, IFACE.accessible, "Parent", timeoutMs)) as [string, string];
    if (!parent || parent === "/org/a11y/atspi/null") return undefined;
    const [role] = await app.call(parent, IFACE.accessible, "GetRole", timeoutMs);
    const name = roleName(Number(role));
    if (TOP_ROLES.has(name)) return undefined;
    if (name === "menu") {
      const menuName = String(await app.property(parent, IFACE.accessible, "Name", timeoutMs));
      return { path: parent, name: menuName };
    }
    path = parent;
  }
  return undefined;
}

/** Where a popover's elements are: `scale` times their extents, then shifted by x and y. */
export type PopoverShift = { x: number; y: number; scale?: number };

/**
 * The shift of a popover's elements onto its window: undefined where the element is in no popover
 * (its main window's offset holds), null where it is in one whose window is not the one open menu
 * window of its size (no place is trusted). `scale`: the app's own (GDK_SCALE).
 */
export async function popoverShift(
  app: AtspiApp,
  node: RawNode,
  menus: Rect[],
  timeoutMs: number,
  shifts: Map<string, Promise<PopoverShift | null>>,
  scale = 1,
): Promise<PopoverShift | null | undefined> {
  const menu = await menuAbove(app, node, timeoutMs).catch(() => undefined);
  if (!menu) return undefined;
  let shift = shifts.get(menu.path);
  if (!shift) {
    shift = app
      .call(menu.path, IFACE.component, "GetExtents", timeoutMs, "u", [COORD_SCREEN])
      .then(([e]) => windowOf(e as Extents, menus, scale))
      .catch(() => null);
    shifts.set(menu.path, shift);
  }
  const found = await shift;
  // A menu of the main window (none of the open windows' size) keeps the window's offset; a
  // popover whose window is not found has no place.
  return found ?? (menu.name === POPOVER_NAME ? null : undefined);
}

/**
 * The shift from a popover's extents to the one open menu window of its size (`scale` times its
 * points); null where not one.
 */
export function windowOf([x, y, width, height]: Extents, menus: Rect[], scale = 1): PopoverShift | null {
  const fits = menus.filter(
    (m) =>
      Math.abs(m.width - width * scale) <= SLACK * scale &&
      Math.abs(m.height - height * scale) <= SLACK * scale,
  );
  if (fits.length !== 1) return null;
  const shift = { x: fits[0]!.x - x * scale, y: fits[0]!.y - y * scale };
  return scale === 1 ? shift : { ...shift, scale };
}
