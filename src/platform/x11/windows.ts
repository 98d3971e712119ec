// Top-level windows as the window manager lists them (EWMH): the ground truth of what is on screen.

import type { GtkExports } from "../gtk-menus.js";
import type { Rect } from "../types.js";
import { type ClientWindow, type WindowSource, windowsAtPoint } from "../window-source.js";
import type { X11Connection } from "./connection.js";

export async function clientWindows(x: X11Connection): Promise<ClientWindow[]> {
  // Bottom-to-top stacking order, so a front-most match can be picked for the pointer.
  const stacking =
    (await x.cardinals(x.root, "_NET_CLIENT_LIST_STACKING")) ??
    (await x.cardinals(x.root, "_NET_CLIENT_LIST")) ??
    [];
  const windows = await Promise.all(
    stacking.map(async (id, stackIndex): Promise<ClientWindow | undefined> => {
      try {
        const [title, legacyTitle, pid, rect, margins, wmClass] = await Promise.all([
          x.text(id, "_NET_WM_NAME"),
          x.text(id, "WM_NAME"),
          x.cardinals(id, "_NET_WM_PID"),
          x.rootRect(id).catch(() => null),
          x.cardinals(id, "_GTK_FRAME_EXTENTS"),
          x.text(id, "WM_CLASS"),
        ]);
        // WM_CLASS is the instance and the class, each ended by a NUL: "gedit\0Gedit\0".
        const windowClass = wmClass?.split("\0")[1];
        return {
          id,
          title: title ?? legacyTitle ?? "",
          pid: pid?.[0] ?? null,
          rect,
          csdMargins: margins?.length === 4 ? (margins as [number, number, number, number]) : null,
          stackIndex,
          ...(windowClass ? { windowClass } : {}),
        };
      } catch {
        // The window closed while we were reading it.
        return undefined;
      }
    }),
  );
  return windows.filter((w): w is ClientWindow => w !== undefined);
}

export async function activeWindow(x: X11Connection): Promise<number | undefined> {
  const active = await x.cardinals(x.root, "_NET_ACTIVE_WINDOW");
  const id = active?.[0];
  return id ? id : undefined;
}

async function windowAtPointer(x: X11Connection, windows: ClientWindow[]): Promise<number | undefined> {
  return windowsAtPoint(windows, await x.pointer())[0]?.id;
}

// The window types toolkits give a menu that is open (EWMH): GTK 3's and Qt's context menus, menu
// bar menus and combo box lists, and GTK 4's popovers (typed a menu).
const MENU_TYPES = [
  "_NET_WM_WINDOW_TYPE_MENU",
  "_NET_WM_WINDOW_TYPE_POPUP_MENU",
  "_NET_WM_WINDOW_TYPE_DROPDOWN_MENU",
  "_NET_WM_WINDOW_TYPE_COMBO",
];

/**
 * The menus open on screen: shown windows that bypass the window manager (override-redirect) and
 * whose type says menu. Their content is the app's accessible tree's to tell, where it is there.
 */
async function openMenuWindows(x: X11Connection): Promise<Rect[]> {
  const menuTypes = new Set(await Promise.all(MENU_TYPES.map((name) => x.atom(name))));
  const menus = await Promise.all(
    (await x.children(x.root)).map(async (id) => {
      try {
        const { viewable, overrideRedirect } = await x.mapping(id);
        if (!viewable || !overrideRedirect) return undefined;
        const types = (await x.cardinals(id, "_NET_WM_WINDOW_TYPE")) ?? [];
        if (!types.some((t) => menuTypes.has(t))) return undefined;
        return await x.rootRect(id);
      } catch {
        return undefined; // closed while it was read
      }
    }),
  );
  return menus.filter((m): m is Rect => m !== undefined);
}

/** What a GTK window's X properties say its app exports on the session bus; undefined: nothing. */
async function gtkExports(x: X11Connection, id: number): Promise<GtkExports | undefined> {
  const [busName, application, window, menubar, appMenu] = await Promise.all(
    [
      "_GTK_UNIQUE_BUS_NAME",
      "_GTK_APPLICATION_OBJECT_PATH",
      "_GTK_WINDOW_OBJECT_PATH",
      "_GTK_MENUBAR_OBJECT_PATH",
      "_GTK_APP_MENU_OBJECT_PATH",
    ].map((name) => x.text(id, name)),
  );
  if (!busName) return undefined;
  const menus = [menubar, appMenu].filter((p): p is string => !!p);
  return { busName, ...(application ? { application } : {}), ...(window ? { window } : {}), menus };
}

/** The X server as the AT-SPI backend's window source. */
export function x11WindowSource(x: X11Connection): WindowSource {
  return {
    kind: "x11",
    server: "the X server",
    clientWindows: () => clientWindows(x),
    activeWindow: () => activeWindow(x),
    windowUnderPointer: (windows) => windowAtPointer(x, windows),
    openMenus: () => openMenuWindows(x),
    gtkExports: (id) => gtkExports(x, id),
    windowRelativeExtents: false,
    get closed() {
      return x.closed;
    },
    close: () => x.close(),
  };
}
