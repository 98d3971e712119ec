// Where the AT-SPI backend learns which windows are on screen: the X server (EWMH) under X11, sway's
// IPC under Wayland. The trees are AT-SPI's either way; this is only the windows, their places, the
// focus and what is under the pointer.
import type { GtkExports } from "./gtk-menus.js";
import type { Rect, ScaledBy } from "./types.js";

/** A top-level window as the display lists it, in global points, with what is known of its place. */
export interface ClientWindow {
  id: number;
  title: string;
  pid: number | null;
  rect: Rect | null;
  /** _GTK_FRAME_EXTENTS (left, right, top, bottom): the client-side shadow inside the X window. */
  csdMargins: [number, number, number, number] | null;
  /** Stacking position, 0 = bottom. */
  stackIndex: number;
  /** The window's class: X11's WM_CLASS (its second string), sway's app_id or XWayland's class. */
  windowClass?: string;
  /** Under sway: an X11 client of XWayland, whose extents are shifted to its place (csd.ts). */
  xwayland?: true;
  /** What is added to its extents (XWayland: measured per window); null: no place can be trusted. */
  extentsShift?: { x: number; y: number } | null;
  /** What its app's extents are multiplied by: it scaled itself, its extents did not (X11). */
  extentsScale?: number;
  /** Who scaled them: the app itself (X11: its frame against its window), or the output (GNOME's monitor scale). */
  extentsScaledBy?: ScaledBy;
  /** Why its app's extents match neither the window nor one scale of it (X11): no place is trusted. */
  extentsDisagree?: string;
}

/** The windows holding a point, front-most first. */
export function windowsAtPoint(windows: ClientWindow[], point: { x: number; y: number }): ClientWindow[] {
  const hits = windows.filter(
    (w) =>
      w.rect &&
      point.x >= w.rect.x &&
      point.y >= w.rect.y &&
      point.x < w.rect.x + w.rect.width &&
      point.y < w.rect.y + w.rect.height,
  );
  return hits.sort((a, b) => b.stackIndex - a.stackIndex);
}

export interface WindowSource {
  /** Its desktop's kind (platform/desktops.ts): the backend is named "atspi+" it ("atspi+sway"). */
  readonly kind: string;
  /** What answers for the windows, as an error names it when its connection closes ("the X server"). */
  readonly server: string;
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
