// An app that scales itself may not do so everywhere. Chromium on a scaled X11 screen (Xft.dpi 192)
// reports its frame and its own controls in unscaled points (a 1050×1004 frame for a 2100×2008
// window) but its web pages in the screen's pixels (a page's button at 152,1926 243×99 in a window
// at 40,40 2480×1968, measured at ×4). A page is judged once, by its own extents: it reports the
// screen's pixels where they lie in the window as reported and would not once multiplied. Everything
// read below such a page then keeps its extents as they are.

import { roleSet } from "../roles.js";
import type { RawNode, Rect } from "../types.js";
import type { AtspiApp } from "./app.js";
import { type Extents, within } from "./csd.js";
import { COORD_SCREEN, IFACE } from "./names.js";
import { parentOf } from "./reader.js";

const PAGE_ROLES = roleSet("document web", "document frame");

/** Whether `box` has an area and lies in `window`. */
const lies = (window: Rect, box: Extents): boolean => box[2] > 0 && box[3] > 0 && within(box, window);

/** Whether extents read as `raw` are the screen's already, though the app's frame is scaled by `scale`. */
function unscaled(raw: Extents, scale: number, window: Rect): boolean {
  const [x, y, width, height] = raw;
  return lies(window, raw) && !lies(window, [x * scale, y * scale, width * scale, height * scale]);
}

/** Each page's verdict, by handle: asked once per app. */
const verdicts = new WeakMap<AtspiApp, Map<string, Promise<boolean>>>();

function pageVerdict(
  app: AtspiApp,
  page: RawNode,
  path: string,
  scale: number,
  window: Rect,
  timeoutMs: number,
): Promise<boolean> {
  const known = verdicts.get(app) ?? new Map<string, Promise<boolean>>();
  verdicts.set(app, known);
  if (known.size > 500) known.clear();
  let verdict = known.get(page.handle);
  if (!verdict) {
    verdict = app
      .call(path, IFACE.component, "GetExtents", timeoutMs, "u", [COORD_SCREEN])
      .then(([raw]) => unscaled(raw as Extents, scale, window))
      .catch(() => false);
    known.set(page.handle, verdict);
  }
  return verdict;
}

/** Handles read below a page that reports the screen's pixels: a ref re-read alone has no parents. */
const belowPages = new WeakMap<AtspiApp, Set<string>>();

/**
 * Whether `node`, of an app scaled by `scale`, lies in a page that reports the screen's pixels: it is
 * such a page, or one is its nearest page ancestor, or it was read below one before.
 */
export async function inUnscaledPage(
  app: AtspiApp,
  node: RawNode,
  pathOf: (handle: string) => string,
  scale: number,
  window: Rect,
  timeoutMs: number,
): Promise<boolean> {
  const known = belowPages.get(app) ?? new Set<string>();
  belowPages.set(app, known);
  if (known.has(node.handle)) return true;
  let page: RawNode | undefined = node;
  while (page && !PAGE_ROLES.has(page.role)) page = parentOf(page);
  if (!page) return false;
  const below = await pageVerdict(app, page, pathOf(page.handle), scale, window, timeoutMs);
  if (below) {
    if (known.size > 20_000) known.clear();
    known.add(node.handle);
  }
  return below;
}
