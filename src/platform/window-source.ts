// Where the AT-SPI backend learns which windows are on screen: the X server (EWMH) under X11, sway's
// IPC under Wayland. The trees are AT-SPI's either way; this is only the windows, their places, the
// focus and what is under the pointer.
import type { GtkExports } from "./gtk-menus.js";
import type { Rect } from "./types.js";
import type { ClientWindow } from "./x11/windows.js";

export interface WindowSource {
  /** "atspi+x11", "atspi+sway", "atspi+kwin", "atspi+gnome": the backend's name. */
  readonly kind: "x11" | "sway" | "kwin" | "gnome";
  /** Bottom to top. */
  clientWindows(): Promise<ClientWindow[]>;
  activeWindow(): Promise<number | undefined>;
  /** The window under the pointer; undefined where it cannot be told. */
  windowUnderPointer(windows: ClientWindow[]): Promise<number | undefined>;
  /** The menus open on screen, as the display places them; absent where it cannot tell (sway). */
  openMenus?(): Promise<Rect[]>;
  /** What a GTK window says its app exports on the session bus (X11 properties); absent elsewhere. */
  gtkExports?(windowId: number): Promise<GtkExports | undefined>;
  /**
   * Whether every toolkit's AT-SPI extents are relative to its window (Wayland: the screen is the
   * compositor's), so each window's origin is added to them.
   */
  readonly windowRelativeExtents: boolean;
  /**
   * Whether a window may draw its own title bar around the part its tree covers (GNOME gives
   * Wayland clients no server-side title bars, and Qt 5 draws one outside its tree).
   */
  readonly ownTitleBars?: boolean;
  readonly closed: boolean;
  close(): void;
}
