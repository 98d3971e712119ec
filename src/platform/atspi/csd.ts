// Where a window's extents start, and at what scale, when that is not the window's own. Under
// Wayland, a client-side shadow: every toolkit's extents there are relative to its surface, and
// a floating GTK 3 window with a header bar draws its shadow inside that surface: sway's rectangle is
// the visible window, the frame is bigger, and the frame's children start where the window does
// (measured on sway: a 1415×732 window, a 1467×784 frame, children from (26, 23); the margins are
// not symmetric, 26/26/23/29). Without them every point is off by the shadow.
import type { Rect } from "../types.js";
import type { AtspiApp } from "./app.js";
import { COORD_SCREEN, IFACE } from "./names.js";

/** More than this around a window is no shadow (a window bigger than its tile, clipped by sway). */
const MOST_SHADOW = 100;

/**
 * [left, right, top, bottom] of the shadow around `visible` in the frame at `path`; null when none.
 * With `titleBar` (a compositor that leaves title bars to the apps), a frame smaller than its window
 * is inside a title bar the app draws itself: the margins are then negative, inward (titleBarInset).
 */
export async function shadowMargins(
  app: AtspiApp,
  path: string,
  visible: Rect,
  timeoutMs: number,
  options: { titleBar?: boolean } = {},
): Promise<[number, number, number, number] | null> {
  const extents = async (at: string) =>
    (await app.call(at, IFACE.component, "GetExtents", timeoutMs, "u", [COORD_SCREEN]))[0] as Extents;
  const [, , width, height] = await extents(path);
  if (options.titleBar && width <= visible.width && height < visible.height) {
    const inset = titleBarInset({ width, height }, visible);
    return inset ? [-inset.x, -inset.x, -inset.y, -inset.x] : null;
  }
  if (width <= visible.width + 1 && height <= visible.height + 1) return null;
  const [children] = (await app.call(path, IFACE.accessible, "GetChildren", timeoutMs)) as [
    [string, string][],
  ];
  const boxes = (
    await Promise.all(children.slice(0, 20).map(([, child]) => extents(child).catch(() => null)))
  )
    // Hidden children (dialogs GTK keeps) answer INT_MIN, INT_MIN: they have no place.
    .filter(
      (b): b is Extents => b !== null && b[2] > 0 && b[3] > 0 && b[0] > -1_000_000 && b[1] > -1_000_000,
    );
  if (boxes.length === 0) return null;
  const left = Math.min(...boxes.map((b) => b[0]));
  const top = Math.min(...boxes.map((b) => b[1]));
  const right = width - left - visible.width;
  const bottom = height - top - visible.height;
  // Content that overflows its tile starts at the frame's corner: that is no shadow.
  if (left <= 0 && top <= 0) return null;
  if ([left, right, top, bottom].some((m) => m < 0 || m > MOST_SHADOW)) return null;
  return [left, right, top, bottom];
}

/**
 * Where the tree of a window that draws its own title bar starts inside it: the sides and the bottom
 * are one border, the top is the rest (Qt 5 under GNOME: a 646×453 window, a 640×420 frame, its
 * tree from (3, 30), measured). Null where the sizes fit no such border.
 */
export function titleBarInset(
  frame: { width: number; height: number },
  visible: Rect,
): { x: number; y: number } | null {
  const wider = visible.width - frame.width;
  const taller = visible.height - frame.height;
  if (wider < 0 || wider % 2 !== 0 || taller > MOST_SHADOW) return null;
  const side = wider / 2;
  const top = taller - side;
  return top > side ? { x: side, y: top } : null;
}

/**
 * An X11 app under XWayland reports extents in its own idea of the screen, and Java's is stale: its
 * root pane at (45, 65) while sway shows the window at (2, 25), so real clicks at its element
 * centres missed (measured). Its frame's showing children start where sway's window does: the shift
 * from where they say they are to there is added to every extent. Null when a child would start
 * outside the window once shifted: then no place is trusted.
 */
export async function xwaylandShift(
  app: AtspiApp,
  path: string,
  visible: Rect,
  timeoutMs: number,
): Promise<{ x: number; y: number } | null> {
  const [children] = (await app.call(path, IFACE.accessible, "GetChildren", timeoutMs)) as [
    [string, string][],
  ];
  const boxes = (
    await Promise.all(
      children
        .slice(0, 20)
        .map(
          async ([, child]) =>
            (
              await app.call(child, IFACE.component, "GetExtents", timeoutMs, "u", [COORD_SCREEN])
            )[0] as Extents,
        ),
    ).catch(() => [] as Extents[])
  ).filter((b) => b[2] > 0 && b[3] > 0 && b[0] > -1_000_000 && b[1] > -1_000_000);
  if (boxes.length === 0) return null;
  const x = visible.x - Math.min(...boxes.map((b) => b[0]));
  const y = visible.y - Math.min(...boxes.map((b) => b[1]));
  // Each child must start inside the window once shifted; it may run past its right or bottom edge
  // (a window bigger than its tile, which sway clips: what lies outside is covered, not clicked).
  const fits = boxes.every(
    (b) =>
      b[0] + x >= visible.x - 2 &&
      b[1] + y >= visible.y - 2 &&
      b[0] + x < visible.x + visible.width &&
      b[1] + y < visible.y + visible.height,
  );
  return fits ? { x, y } : null;
}

/** How an app's extents map onto its window's rectangle on the screen (X11). */
export type ExtentsFit =
  /** They are the screen's: the frame is the window, or holds it with the window manager's decorations. */
  | { fits: "screen" }
  /** The app scaled itself by `scale` while reporting its own unscaled pixels. */
  | { fits: "scaled"; scale: number }
  /** No frame extents to judge by (Java reports -1) and an unscaled content: taken as the screen's. */
  | { fits: "unknown" }
  /** Neither: the frame and the window disagree, and no one scale maps one onto the other. */
  | { fits: "none"; frame: Rect };

/**
 * How an app's extents map onto the screen, read from its frame, or else its first child, against
 * the window manager's rectangle. Qt with QT_SCALE_FACTOR or its own dpi scaling draws a 565×421
 * frame at (133, 91) as an 848×632 window at (200, 137), 1.5 each way; GTK 3 with GDK_SCALE=2 holds
 * the decorations in its frame and is read from its first child, its content, as is Java at
 * uiScale 2, whose frame reports -1 and whose content pane 756×606 at (40, 56) fills a 1512×1212
 * window at (81, 112). A scale counts only
 * where width, height and origin all agree on it, or where the frame at that scale holds the window
 * with no more than its decorations around it (LibreOffice's at GDK_SCALE=2). Unscaled, the frame is
 * the window or holds it (LibreOffice's includes the decorations), or the content lies in the
 * window. Anything else disagrees.
 */
export async function extentsFit(
  app: AtspiApp,
  path: string,
  window: Rect,
  timeoutMs: number,
): Promise<ExtentsFit> {
  const extents = async (at: string) =>
    (await app.call(at, IFACE.component, "GetExtents", timeoutMs, "u", [COORD_SCREEN]))[0] as Extents;
  const frame = await extents(path);
  const ofFrame = usable(frame) ? scaleOf(frame, window) : undefined;
  if (ofFrame !== undefined) return { fits: "scaled", scale: ofFrame };
  const [children] = (await app.call(path, IFACE.accessible, "GetChildren", timeoutMs)) as [
    [string, string][],
  ];
  const content = children[0]?.[1] ? await extents(children[0][1]) : undefined;
  const ofContent = content ? scaleOf(content, window) : undefined;
  if (ofContent !== undefined) return { fits: "scaled", scale: ofContent };
  if (!usable(frame)) return { fits: "unknown" };
  const ofDecorated = scaleHolding(frame, window, content);
  if (ofDecorated !== undefined) return { fits: "scaled", scale: ofDecorated };
  // Java's dialogs report a frame beside their window (341,355 222×60 for 302,335 220×35) and a
  // content that is the window: the content is the evidence there.
  if (within(window, frame) || (content && usable(content) && within(content, window)))
    return { fits: "screen" };
  const [x, y, width, height] = frame;
  return { fits: "none", frame: { x, y, width, height } };
}

/**
 * The scale GTK 4 draws itself at on X11 (GDK_SCALE): its extents are its window's, in its own
 * points, from inside its shadow, while the X window is in pixels, shadow included (`margins`, as
 * _GTK_FRAME_EXTENTS gives them: left, right, top, bottom). 1 where width and height do not agree
 * on one whole scale of 2 or more; undefined where the frame gives no size.
 */
export async function gtk4Scale(
  app: AtspiApp,
  path: string,
  window: Rect,
  margins: readonly number[] | null | undefined,
  timeoutMs: number,
): Promise<number | undefined> {
  const [, , width, height] = (
    await app.call(path, IFACE.component, "GetExtents", timeoutMs, "u", [COORD_SCREEN])
  )[0] as Extents;
  if (width <= 0 || height <= 0) return undefined;
  const [left = 0, right = 0, top = 0, bottom = 0] = margins ?? [];
  const across = (window.width - left - right) / width;
  const down = (window.height - top - bottom) / height;
  const scale = Math.round(across);
  const whole = (n: number) => Math.abs(n - scale) <= 0.02 * scale;
  return scale >= 2 && whole(across) && whole(down) ? scale : 1;
}

function usable([x, y, width, height]: Extents): boolean {
  return width > 0 && height > 0 && x > -1_000_000 && y > -1_000_000;
}

export type Extents = [number, number, number, number];

/** Whether `inner` lies in `outer`, give or take two pixels of rounding. Either may be raw extents. */
export function within(inner: Rect | Extents, outer: Rect | Extents): boolean {
  const [ix, iy, iw, ih] = Array.isArray(inner) ? inner : [inner.x, inner.y, inner.width, inner.height];
  const [ox, oy, ow, oh] = Array.isArray(outer) ? outer : [outer.x, outer.y, outer.width, outer.height];
  return ix >= ox - 2 && iy >= oy - 2 && ix + iw <= ox + ow + 2 && iy + ih <= oy + oh + 2;
}

/** Most a window manager's decorations add beside and below a window, and above it, per unit of scale. */
const MOST_BORDER = 12;
const MOST_TITLE_BAR = 60;

/**
 * The scale at which the frame holds the window with its decorations: LibreOffice's frames include
 * them, so at GDK_SCALE=2 its Tip of the Day's frame 585×229 at (188, 201) is, doubled, the
 * decorated 1170×458 at (376, 402) around the 1168×424 window at (377, 434). Its width is a little
 * more than the window's: the scale is that ratio at a quarter step, or the ratio itself. The
 * content, where it reads, must lie in the window at that scale.
 */
function scaleHolding(frame: Extents, window: Rect, content: Extents | undefined): number | undefined {
  const ratio = window.width / frame[2];
  for (const scale of new Set([Math.round(ratio * 4) / 4, ratio])) {
    if (Math.abs(scale - 1) < 0.03 || scale > 4) continue;
    const [x, y, width, height] = frame.map((v) => v * scale) as Extents;
    const left = window.x - x;
    const top = window.y - y;
    const right = x + width - (window.x + window.width);
    const bottom = y + height - (window.y + window.height);
    const slack = scale + 1;
    if ([left, top, right, bottom].some((m) => m < -slack)) continue;
    if (Math.max(left, right, bottom) > MOST_BORDER * scale || top > MOST_TITLE_BAR * scale) continue;
    if (content && usable(content) && !within(content.map((v) => v * scale) as Extents, window)) continue;
    return scale;
  }
  return undefined;
}

function scaleOf([x, y, width, height]: Extents, window: Rect): number | undefined {
  if (width <= 0 || height <= 0) return undefined;
  const scale = window.width / width;
  if (Math.abs(scale - 1) < 0.03 || scale > 4) return undefined;
  // Rounding: each side may be a pixel off its scaled value, and so may the origin.
  const agrees = (logical: number, device: number) => Math.abs(logical * scale - device) <= scale + 1;
  return agrees(height, window.height) && agrees(x, window.x) && agrees(y, window.y) ? scale : undefined;
}
