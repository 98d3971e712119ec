// The fields the bulk cache does not carry: bounds, accessible id, action names, value and text. Read
// only for the nodes a reply will show, all calls of a page in flight together.

import { placeName } from "../cell-names.js";
import { MENU_ITEM_ROLES, roleSet, TEXT_CONTENT_ROLES } from "../roles.js";
import { shownByStates } from "../shown.js";
import { PASSWORD_ROLE, type RawNode, type Rect } from "../types.js";
import { type AtspiApp, isNotImplemented } from "./app.js";
import { COORD_SCREEN, IFACE, NULL_PATH } from "./names.js";
import { parentOf, parseHandle } from "./reader.js";
import { inUnscaledPage } from "./unscaled-pages.js";

const INT_MIN = -2147483648;
/** Roles whose text is the document itself: too big to be "cheap", read with read_text instead. */
const DOCUMENT_ROLES = roleSet("document frame", "document web", "document text", "document spreadsheet");

export { PASSWORD_ROLE };

/** Roles whose Value is a real quantity. Java puts Value on every button (0 or 1): noise, and a call each. */
const VALUE_ROLES = roleSet(
  "slider",
  "spin button",
  "scroll bar",
  "progress bar",
  "dial",
  "level bar",
  "split pane",
);

export interface EnrichContext {
  app: AtspiApp;
  maxText: number;
  actions: boolean;
  accessibleIds: boolean;
  range?: boolean | undefined;
  deadline: number;
  /**
   * Added to extents for toolkits that report window-relative coordinates (GTK 4.8, every one under
   * Wayland); null: the app's places cannot be trusted (an XWayland client that could not be placed),
   * so none is given.
   */
  boundsOffset: BoundsOffset | null | undefined;
  /**
   * Under Wayland, the offset of an element in an open popup (a menu's item), which is not the
   * window's (popup-places.ts); undefined where the element is in no popup.
   */
  popupOffset?: (node: RawNode) => Promise<BoundsOffset | null | undefined>;
}

/**
 * Added to each extent, after multiplying it by `scale` where there is one (an app that scaled
 * itself on X11, with no offset; an app on a scaled GNOME screen, from its window's origin), except
 * in a page that reports the screen's pixels in `window` (unscaled-pages.ts).
 */
export type BoundsOffset = { x: number; y: number; scale?: number; window?: Rect };

function remaining(context: EnrichContext): number {
  return Math.max(1, context.deadline - Date.now());
}

/** The offset for this node: none where it lies in a page that reports the screen's pixels. */
async function offsetFor(context: EnrichContext, node: RawNode): Promise<BoundsOffset | null | undefined> {
  const inPopup = await context.popupOffset?.(node);
  if (inPopup !== undefined) return inPopup;
  const offset = context.boundsOffset;
  if (!offset?.scale || !offset.window) return offset;
  const path = (handle: string) => parseHandle(handle).path;
  const below = await inUnscaledPage(
    context.app,
    node,
    path,
    offset.scale,
    offset.window,
    remaining(context),
  );
  return below ? undefined : offset;
}

function toRect(raw: unknown, offset: BoundsOffset | null | undefined): Rect | null {
  if (offset === null) return null;
  const [x, y, width, height] = raw as [number, number, number, number];
  // Off-screen GTK3 cells claim `showing` with INT_MIN extents: that is "no geometry", not a place.
  if (x === INT_MIN || y === INT_MIN || width < 0 || height < 0) return null;
  const scale = offset?.scale;
  if (scale) {
    // Scaled edges, so that neighbours still meet: the right edge is the scaled right edge.
    const left = Math.round(x * scale);
    const top = Math.round(y * scale);
    return {
      x: left + (offset?.x ?? 0),
      y: top + (offset?.y ?? 0),
      width: Math.round((x + width) * scale) - left,
      height: Math.round((y + height) * scale) - top,
    };
  }
  return { x: x + (offset?.x ?? 0), y: y + (offset?.y ?? 0), width, height };
}

function carriesText(node: RawNode): boolean {
  if (DOCUMENT_ROLES.has(node.role)) return false;
  if ((node.interfaces ?? []).includes("EditableText") || TEXT_CONTENT_ROLES.has(node.role)) return true;
  // A spreadsheet cell named by its place holds its content as text.
  if (node.cell && node.name === placeName(node.cell.row, node.cell.column)) return true;
  return !node.name;
}

/**
 * Whether an element is on screen, so that its extents mean something. An element that is not showing
 * (a hidden page, a closed menu) has no place on screen: toolkits answer with its last allocation,
 * which may overlap what is shown, so it gets no bounds rather than misleading ones. GTK 4.8 never
 * reports `showing` below the window; there `visible` stands in.
 */
function onScreen(app: AtspiApp, node: RawNode): boolean {
  // Judged by area once its bounds are read (GTK 4.8): until then it may be on screen.
  return shownByStates(node.states, app.reportsShowing !== false) !== false;
}

/** Each enriched node's bounds read, awaited by its descendants where on-screen state comes from ancestors. */
const boundsReads = new WeakMap<RawNode, Promise<void>>();

function hasArea(bounds: Rect | null): boolean {
  return bounds !== null && bounds.width > 0 && bounds.height > 0;
}

/**
 * For a toolkit that never reports `showing` (GTK 4.8), whether the nearest ancestor whose bounds were
 * read has an area. GTK keeps the pages of a stack it never showed at 0×0, and everything in them too
 * (measured on gtk4-widget-factory: 623 of the 905 elements with a Component sit below a 0×0 one, and
 * each of them is 0×0 itself), so what lies below an element with no area is not on screen and its
 * extents are not asked for: two thirds of the calls of a full snapshot.
 */
async function ancestorHasArea(node: RawNode): Promise<boolean> {
  for (let up = parentOf(node); up !== undefined; up = parentOf(up)) {
    const read = boundsReads.get(up);
    if (read === undefined) continue; // No Component, or never enriched: ask further up.
    await read;
    // An ancestor whose bounds could not be read says nothing either way.
    return up.bounds === undefined || hasArea(up.bounds);
  }
  return true;
}

/** Roles whose shortcut Qt gives only through GetKeyBinding: a menu item's ("Ctrl+S"). */

async function readActions(context: EnrichContext, node: RawNode, path: string): Promise<string[]> {
  const askBindings = context.app.bindingsApart && MENU_ITEM_ROLES.has(node.role);
  const { names, bindings } = await context.app.actionNames(path, remaining(context), askBindings);
  if (bindings.length > 0) node.keyBindings = bindings;
  return names;
}

async function readText(context: EnrichContext, node: RawNode, path: string): Promise<void> {
  const { app } = context;
  const length = Number(await app.property(path, IFACE.text, "CharacterCount", remaining(context)));
  const end = Math.min(length, context.maxText);
  const [text] =
    end > 0 ? await app.call(path, IFACE.text, "GetText", remaining(context), "ii", [0, end]) : [""];
  node.text = String(text);
  node.textLength = length;
}

type Field = "bounds" | "accessibleId" | "actions" | "value" | "text";

async function attempt(node: RawNode, field: Field, read: () => Promise<void>): Promise<void> {
  try {
    await read();
  } catch (error) {
    // "The toolkit does not have it" leaves the field absent; "it did not answer" names it unread.
    if (!isNotImplemented(error)) node.unread.push(field);
  }
}

/** Nodes whose accessible id was asked: an id is asked of a node enriched before without it. */
const idsAsked = new WeakSet<RawNode>();

export async function enrichNode(context: EnrichContext, node: RawNode): Promise<void> {
  const { app } = context;
  const { path } = parseHandle(node.handle);
  // Asked of every element when asked at all, enriched before or not: an app may give ids to a few
  // widgets deep in its tree, and a search by id had missed a field enriched for its label first.
  const idRead =
    context.accessibleIds && !idsAsked.has(node)
      ? attempt(node, "accessibleId", async () => {
          idsAsked.add(node);
          const id = String(await app.property(path, IFACE.accessible, "AccessibleId", remaining(context)));
          node.accessibleId = id === "" ? undefined : id;
        })
      : undefined;
  if (node.enriched) return idRead;
  node.enriched = true;
  const interfaces = node.interfaces ?? [];
  const reads: Promise<void>[] = idRead ? [idRead] : [];
  if (interfaces.includes("Component") && onScreen(app, node)) {
    const inferred = app.reportsShowing === false;
    const extents = () =>
      app.call(path, IFACE.component, "GetExtents", remaining(context), "u", [COORD_SCREEN]);
    const bounds = attempt(node, "bounds", async () => {
      if (!inferred) {
        const [[raw], offset] = await Promise.all([extents(), offsetFor(context, node)]);
        node.bounds = toRect(raw, offset);
        return;
      }
      // Waiting for each ancestor makes the read one round trip per level: an element that had an
      // area in the last read is asked at once, and the answer is kept only if its ancestors agree.
      const early = app.hadArea.has(node.handle) ? extents() : undefined;
      // Marked handled at once: if the ancestors' read fails (the app died), nobody awaits it, and an
      // unhandled rejection would end the process.
      early?.catch(() => undefined);
      if (!(await ancestorHasArea(node))) {
        node.bounds = null;
        app.hadArea.delete(node.handle);
        return;
      }
      const [[raw], offset] = await Promise.all([early ?? extents(), offsetFor(context, node)]);
      const rect = toRect(raw, offset);
      // Without `showing`, an element with no area is taken as not on screen, like its descendants.
      node.bounds = rect !== null && hasArea(rect) ? rect : null;
      if (node.bounds) app.rememberArea(node.handle);
      else app.hadArea.delete(node.handle);
    });
    boundsReads.set(node, bounds);
    reads.push(bounds);
  } else {
    node.bounds = null;
    // Not on screen: neither is anything below it. Without a Component it says nothing about that.
    if (interfaces.includes("Component")) boundsReads.set(node, Promise.resolve());
  }
  if (!interfaces.includes("Action")) node.actions = [];
  else if (context.actions) {
    reads.push(
      attempt(node, "actions", async () => {
        node.actions = await readActions(context, node, path);
      }),
    );
  }
  // The content of a password field never leaves deskhand, so it is never read.
  const secret = node.role === PASSWORD_ROLE;
  if (interfaces.includes("Value") && !secret && VALUE_ROLES.has(node.role)) {
    reads.push(
      attempt(node, "value", async () => {
        const value = await app.property(path, IFACE.value, "CurrentValue", remaining(context));
        node.value = String(value);
      }),
    );
    if (context.range) reads.push(readRange(context, node, path));
  }
  if (holdsChosenItem(node.role, interfaces)) reads.push(readChosenItem(context, node, path));
  if (interfaces.includes("Text") && !secret && carriesText(node)) {
    reads.push(attempt(node, "text", () => readText(context, node, path)));
  }
  await Promise.all(reads);
}

/** A Value element's range; none where the toolkit gives no span (both 0). */
function readRange(context: EnrichContext, node: RawNode, path: string): Promise<void> {
  return attempt(node, "value", async () => {
    const read = (name: string) => context.app.property(path, IFACE.value, name, remaining(context));
    const [min, max] = (await Promise.all([read("MinimumValue"), read("MaximumValue")])).map(Number);
    if (Number.isFinite(min) && Number.isFinite(max) && max! > min!) node.range = { min: min!, max: max! };
  });
}

/**
 * A combo box with no Value holds its chosen item in its Selection: GTK 3's names itself by its
 * model's first column (Mousepad's "solarized-dark" showing "Solmuş Koyu"), not by what it shows.
 */
const holdsChosenItem = (role: string, interfaces: string[]) =>
  role === "combo box" && interfaces.includes("Selection") && !interfaces.includes("Value");

function readChosenItem(context: EnrichContext, node: RawNode, path: string): Promise<void> {
  return attempt(node, "value", async () => {
    const chosen = await chosenItemName(context.app, path, remaining(context));
    if (chosen !== undefined) node.value = chosen;
  });
}

/** The path of the item a combo box's Selection holds, or undefined where it holds none. */
export async function chosenItemPath(
  app: AtspiApp,
  path: string,
  timeoutMs: number,
): Promise<string | undefined> {
  const [ref] = await app.call(path, IFACE.selection, "GetSelectedChild", timeoutMs, "i", [0]);
  const item = (ref as [string, string])[1];
  return item && item !== NULL_PATH ? item : undefined;
}

/** The name of the item a combo box's Selection holds, or undefined where it holds none. */
async function chosenItemName(app: AtspiApp, path: string, timeoutMs: number): Promise<string | undefined> {
  const item = await chosenItemPath(app, path, timeoutMs);
  if (!item) return undefined;
  const name = await app.property(item, IFACE.accessible, "Name", timeoutMs);
  return typeof name === "string" && name ? name : undefined;
}
