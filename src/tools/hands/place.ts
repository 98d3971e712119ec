// Where an input action lands, resolved before anything is sent: a ref is verified and clicked at its
// centre; a point (global, or a screenshot pixel mapped back to global) is probed by hit-testing the
// accessible tree of the window under it, so the gate knows what it is about to press.
import { setTimeout as sleep } from "node:timers/promises";
import { DeskhandError, windowNotFound } from "../../core/errors.js";
import { isShown, reportsShowing } from "../../core/flatten.js";
import { globMatch, matchesIgnoringCase } from "../../core/glob.js";
import { imageToGlobal, scaleFor } from "../../core/image.js";
import { isPixelsOnly } from "../../core/pixels.js";
import { inside, intersection } from "../../core/rects.js";
import { verifyRef } from "../../core/verify.js";
import type { Point, SeeingHands } from "../../platform/hands.js";
import { everyNode } from "../../platform/nodes.js";
import { MENU_ITEM_ROLES, roleSet } from "../../platform/roles.js";
import type { AccessibilityReader, RawNode, Rect, WindowInfo } from "../../platform/types.js";
import { COMMAND_ROLES, PRESSABLE_ROLES, type TargetFacts } from "../../safety/classify.js";
import type { ToolContext } from "../context.js";
import { resolveOne } from "../find.js";
import { wordUnder } from "../pixels-view.js";
import { MENU_ROLES, opensMenu, pressFacts } from "./facts.js";
import { UNREAD_MENU } from "./menu-keys.js";
import type { PlacedElement, ResolvedPlace } from "./placed.js";
import type { FindInput, PointInput } from "./schemas.js";

const placed = (node: RawNode): PlacedElement => ({
  role: node.role,
  name: node.name,
  description: node.description,
  states: node.states,
  handle: node.handle,
  ...(opensMenu(node) ? { opensMenu: true } : {}),
});

const SCROLL_OR_ACT =
  "Scroll it into view (act scroll_into_view) and snapshot again, or act on it through its accessibility action.";

function notClickable(
  what: string,
  extra: Record<string, unknown> = {},
  next = SCROLL_OR_ACT,
): DeskhandError {
  return new DeskhandError("not_clickable", `${what}; nothing was done`, next, extra);
}

/** Why a ref's element has no place to click: its window's extents disagree with the screen, or its own. */
async function unplaced(
  backend: AccessibilityReader,
  ref: string,
  node: RawNode,
  windowId: number | null | undefined,
) {
  const window =
    node.bounds === null && typeof windowId === "number"
      ? (await backend.listWindows().catch(() => [])).find((w) => w.id === windowId)
      : undefined;
  // It shows, but no place deskhand has for it can be trusted (a popup whose window was not found):
  // scrolling would not give it one.
  if (!window?.extentsDisagree && node.bounds === null && node.states?.includes("showing"))
    return notClickable(
      `${ref} shows, but deskhand has no place for it that it can trust (bounds null)`,
      { ref },
      "Act on it through its accessibility action, or take a screenshot and click the point where it is shown (click at).",
    );
  if (!window?.extentsDisagree)
    return notClickable(`${ref} has no usable bounds (${JSON.stringify(node.bounds ?? null)})`, { ref });
  return notClickable(
    `${ref} has no place on the screen: ${window.extentsDisagree}, so a point from it would be a guess`,
    { ref },
    "Act on it through its accessibility action, or take a screenshot and click the point where it is shown (click at).",
  );
}

function usableBounds(bounds: Rect | null | undefined): bounds is Rect {
  return (
    !!bounds &&
    bounds.width > 0 &&
    bounds.height > 0 &&
    bounds.x > -1_000_000 &&
    bounds.y > -1_000_000 &&
    !(bounds.x === -1 && bounds.y === -1)
  );
}

function toGlobal(at: PointInput, screen: Rect): Point {
  if (at.space === "global") {
    const point = { x: at.x, y: at.y };
    if (!inside(point, screen))
      throw new DeskhandError(
        "invalid_params",
        `(${at.x}, ${at.y}) is off the ${screen.width}×${screen.height} screen${screen.x || screen.y ? ` at (${screen.x}, ${screen.y})` : ""}`,
        "Pick a point on the screen.",
        { fields: ["at"] },
      );
    return point;
  }
  if (at.display !== 0)
    throw new DeskhandError(
      "index_out_of_range",
      `display ${at.display} does not exist; there is one, 0`,
      "Use display 0.",
    );
  const { region } = at;
  const corners = [region, { x: region.x + region.width - 1, y: region.y + region.height - 1 }];
  if (!corners.every((corner) => inside(corner, screen)))
    throw new DeskhandError(
      "invalid_params",
      "the region runs off the screen",
      "Pass the region the screenshot reported.",
      {
        fields: ["at.region"],
      },
    );
  const scale = scaleFor(region.width, at.max_width);
  const imageWidth = Math.max(1, Math.round(region.width * scale));
  const imageHeight = Math.max(1, Math.round(region.height * scale));
  if (at.x >= imageWidth || at.y >= imageHeight)
    throw new DeskhandError(
      "invalid_params",
      `pixel (${at.x}, ${at.y}) is outside the ${imageWidth}×${imageHeight} image`,
      "Pick a pixel inside the screenshot.",
      { fields: ["at.x", "at.y"] },
    );
  return imageToGlobal({ x: at.x, y: at.y }, { display: 0, max_width: at.max_width, region });
}

// How long the window's tree may take to say what holds a point, read and enriched: a hung app is
// judged unknown after it. Java apps on a loaded machine took over 1.5 s.
const HIT_TEST_MS = 3000;

/** The point lies in a menu the display shows and no accessible tree does. */
class MenuNotInTree extends Error {
  constructor() {
    super(UNREAD_MENU);
  }
}

interface Hit {
  node: RawNode;
  depth: number;
  up: RawNode[];
}

/**
 * Every element on screen whose bounds hold the point: the deepest (preferring one with a name) with
 * the elements around it, nearest first, and the others there, in other branches of the tree (the
 * button an overlay deeper in the tree lies over), deepest first.
 */
async function hitTest(
  context: ToolContext,
  windowId: number,
  point: Point,
): Promise<{ hit: RawNode; ancestors: RawNode[]; beneath: RawNode[] } | undefined> {
  const backend = await context.backend();
  const read = await backend.readWindow(windowId, {
    maxDepth: 40,
    tableRows: 50,
    walkTables: false,
    nodeCeiling: 3000,
    timeoutMs: HIT_TEST_MS,
  });
  // A tree cut short by the deadline or the ceiling may miss the very element under the point.
  if (read.timedOut || read.ceilingHit) throw new Error("the window's tree could not be read in time");
  const nodes = everyNode(read.root);
  await backend.enrich(nodes, {
    maxText: 0,
    actions: false,
    accessibleIds: false,
    timeoutMs: HIT_TEST_MS,
    windowId,
  });
  // Only what is on screen stands at a point: a hidden page and a closed menu keep their bounds, and
  // so does everything in them (the snapshot's one rule, isShown, asked of the whole chain).
  const showingKnown = reportsShowing(read.root);
  const hits: Hit[] = [];
  const walk = (node: RawNode, depth: number, up: RawNode[]) => {
    if (depth > 0 && !isShown(node, showingKnown)) return;
    if (usableBounds(node.bounds) && inside(point, node.bounds)) hits.push({ node, depth, up });
    for (const child of node.children) walk(child, depth + 1, [node, ...up]);
  };
  walk(read.root, 0, []);
  // A menu open at the point takes the click; one that no tree shows there (Qt leaves its popups
  // out; a menu bar's title under it is no menu) hides what it presses.
  if (!hits.some((h) => h.up.some((holder) => MENU_ROLES.has(holder.role)))) {
    const menus = await backend.openMenus?.().catch(() => undefined);
    if (menus?.some((rect) => inside(point, rect))) throw new MenuNotInTree();
  }
  hits.sort((a, b) => b.depth - a.depth || Number(!!b.node.name) - Number(!!a.node.name));
  const best = hits[0];
  if (!best) return undefined;
  const beneath = hits.filter((h) => h !== best && !best.up.includes(h.node)).map((h) => h.node);
  return { hit: best.node, ancestors: best.up, beneath };
}

/** Menu items: their tree can show before the display maps their popup. */
const MENU_SHOWS_WITHIN_MS = 600;
/**
 * GTK 3 takes a release within 500 ms of a menu's opening as the end of the press that opened it,
 * and activates nothing: a menu item is pressed no sooner after the last click.
 */
const MENU_SETTLES_MS = 550;
/**
 * When this process last clicked: the display's, whichever session clicked. (It was kept per tool
 * context, and each call has a context of its own, so the wait never came: found in KWin's suite.)
 */
let lastClickAt = 0;

/** Notes a click's time, for the next menu item's press. */
export function clicked(): void {
  lastClickAt = Date.now();
}

/**
 * Waits, a little, until a menu item can be pressed: MENU_SETTLES_MS after the click that opened its
 * menu, and its popup on screen. A menu's tree shows its items before the compositor has mapped its
 * popup; where the display lists its menus, the point must lie in one of them. A menu bar's item
 * lies in none: it is clicked after the wait. (Measured on KWin: an item clicked 50 ms after its
 * menu opened read "done" and nothing happened.)
 */
export async function untilMenuShows(
  context: ToolContext,
  place: ResolvedPlace,
  hands: { name: string },
): Promise<void> {
  if (!place.element || !MENU_ITEM_ROLES.has(place.element.role)) return;
  // Under X11 a menu is mapped before the click returns, and items pressed at once have always
  // worked there: the wait is a Wayland compositor's, which maps the popup on its own time.
  const since = Date.now() - lastClickAt;
  if (hands.name.startsWith("wayland") && since < MENU_SETTLES_MS) await sleep(MENU_SETTLES_MS - since);
  const backend = await context.backend();
  const deadline = Date.now() + MENU_SHOWS_WITHIN_MS;
  for (;;) {
    const menus = await backend.openMenus?.().catch(() => undefined);
    if (!menus || menus.some((rect) => inside(place.point, rect)) || Date.now() > deadline) return;
    await sleep(40);
  }
}

/** How far up a pane that scrolls an element is looked for. */
const CLIPPING_ANCESTORS = 6;
/** What shows only a part of what it holds. (A page tab is no such pane: Java's is its tab's header.) */
const SCROLLING_PANES = roleSet("viewport", "scroll pane");

/**
 * Where to press an element: the centre of the part that shows. Its bounds are cut by the screen and
 * by the panes around it that scroll: a table taller than its pane has its centre far below the pane
 * (on the desktop, or in another window), and its rows that show are where a person presses. A pane
 * whose bounds would leave nothing of the element is not trusted (Java's scroll pane can report a
 * place beside its own viewport): the element's own bounds stand there.
 */
async function pressPoint(
  backend: AccessibilityReader,
  handle: string,
  bounds: Rect,
  windowId: number | null,
  screen: Rect,
): Promise<Point | undefined> {
  const onScreen = intersection(bounds, screen);
  if (!onScreen) return undefined;
  let part: Rect = onScreen;
  const ancestors = (await backend.ancestorsOf?.(handle, CLIPPING_ANCESTORS).catch(() => [])) ?? [];
  for (const ancestor of ancestors.filter((a) => SCROLLING_PANES.has(a.role))) {
    const pane = await backend
      .describe(ancestor.handle, { maxText: 0, ...(windowId === null ? {} : { windowId }) })
      .catch(() => undefined);
    const cut = pane && usableBounds(pane.bounds) ? intersection(part, pane.bounds) : part;
    part = cut ?? part;
  }
  return { x: Math.round(part.x + part.width / 2), y: Math.round(part.y + part.height / 2) };
}

/** Where an input goes: a ref, a point, or a `find` resolved to one element on screen (its nth among several). */
export interface PlaceInput {
  ref?: string | undefined;
  at?: PointInput | undefined;
  find?: FindInput | undefined;
}

/** The element a place names, by ref or by find: its ref, or undefined for a point. */
export async function placeRef(context: ToolContext, place: PlaceInput): Promise<string | undefined> {
  if (place.find === undefined) return place.ref;
  // Only what is on screen can take real input: a closed menu's item of the same name is no candidate.
  return (await resolveOne(context, place.find, undefined, "leave_out")).ref;
}

export async function resolvePlace(
  context: ToolContext,
  hands: SeeingHands,
  place: PlaceInput,
  /** For a point: the window the caller named, probed instead of whatever is on top right now. */
  windowHint?: number,
): Promise<ResolvedPlace> {
  const ref = await placeRef(context, place);
  if (ref !== undefined) {
    const backend = await context.backend();
    const { entry, node, moved, refound } = await verifyRef(backend, context.refs, ref);
    if (!usableBounds(node.bounds)) throw await unplaced(backend, ref, node, entry.fingerprint.windowId);
    const screen = await hands.screen();
    const point = await pressPoint(backend, entry.handle, node.bounds, entry.fingerprint.windowId, screen);
    if (!point) throw notClickable(`${ref} shows nowhere on the screen (its bounds lie off it)`, { ref });
    const b = node.bounds;
    const fromCentre = {
      x: point.x - Math.round(b.x + b.width / 2),
      y: point.y - Math.round(b.y + b.height / 2),
    };
    return {
      point,
      ref,
      ...(fromCentre.x !== 0 || fromCentre.y !== 0 ? { fromCentre } : {}),
      ...(moved || refound
        ? { verified: { ...(moved ? { moved } : {}), ...(refound ? { refound } : {}) } }
        : {}),
      handle: entry.handle,
      element: placed(node),
      ...(await holders(backend, entry.handle, node)),
      how: "verified",
      windowId: entry.fingerprint.windowId ?? (await hands.windowAt(point)),
    };
  }
  const point = toGlobal(place.at!, await hands.screen());
  const windowId = windowHint ?? (await hands.windowAt(point));
  let found: Awaited<ReturnType<typeof hitTest>>;
  let unknownBecause: string | undefined;
  let noTree = false;
  if (windowId === undefined) unknownBecause = "no window is under the point";
  else
    found = await hitTest(context, windowId, point).catch((error: Error) => {
      noTree = error.name === "WindowNotAccessible";
      unknownBecause =
        error instanceof MenuNotInTree
          ? error.message
          : `the window's tree did not answer the hit-test: ${error.message}`;
      return undefined;
    });
  if (windowId !== undefined && !found && !unknownBecause)
    unknownBecause = "no element of the window holds the point";
  const silent = await silentRegion(context, windowId, found?.hit, noTree);
  const pixelWord = silent ? await wordUnder(context, silent, point) : undefined;
  return {
    point,
    ...(pixelWord ? { pixelWord } : {}),
    element: found ? placed(found.hit) : undefined,
    ...(found ? { ancestors: found.ancestors.map(placed), beneath: found.beneath.map(placed) } : {}),
    how: found ? "probed" : "unknown",
    ...(unknownBecause ? { unknownBecause } : {}),
    windowId,
  };
}

// How far up a press on a part of a control (a row's label, a button's icon) looks for the control.
const HOLDERS_READ = 4;

/**
 * What a press on an element that is no control activates: the elements holding it (a list row
 * holding the label pressed), as a point's hit-test gives them. An element that is a control takes
 * the press itself.
 */
async function holders(
  backend: AccessibilityReader,
  handle: string,
  node: RawNode,
): Promise<{ ancestors?: PlacedElement[] }> {
  if (PRESSABLE_ROLES.has(node.role)) return {};
  const found = (await backend.ancestorsOf?.(handle, HOLDERS_READ).catch(() => [])) ?? [];
  const ancestors = found.map((a) => ({ role: a.role, name: a.name, handle: a.handle }));
  return ancestors.length ? { ancestors } : {};
}

/** The area whose pixels say what is at a point the tree cannot: the pixels-only hit, or the tree-less window. */
async function silentRegion(
  context: ToolContext,
  windowId: number | undefined,
  hit: RawNode | undefined,
  noTree: boolean,
): Promise<Rect | undefined> {
  if (hit && isPixelsOnly(hit) && hit.bounds) return hit.bounds;
  if (!noTree || windowId === undefined) return undefined;
  const windows = await (await context.backend()).listWindows();
  return windows.find((w) => w.id === windowId)?.rect ?? undefined;
}

/** Resolves a `window` block to one window: by id, title glob (exactly one) or pid (its front-most). */
export async function resolveWindowSpec(
  context: ToolContext,
  spec: { id: number } | { title: string } | { pid: number },
): Promise<WindowInfo> {
  const windows = await (await context.backend()).listWindows();
  const found =
    "id" in spec
      ? windows.filter((w) => w.id === spec.id)
      : "title" in spec
        ? windows.filter((w) => globMatch(spec.title, w.title))
        : windows.filter((w) => w.pid === spec.pid);
  if (found.length === 0)
    throw windowNotFound(
      JSON.stringify(spec),
      windows,
      "title" in spec ? matchesIgnoringCase(spec.title) : undefined,
    );
  if ("title" in spec && found.length > 1)
    throw new DeskhandError(
      "invalid_params",
      `${found.length} windows match title ${JSON.stringify(spec.title)}`,
      "Pass the window id of the one you mean.",
      { candidates: found.map((w) => ({ id: w.id, title: w.title, pid: w.pid })) },
    );
  return found.find((w) => w.focused) ?? found[0]!;
}

/** What a double click's first press selects: a row of a list, a tree or a table, or the element itself. */
const ROWS = roleSet("list item", "tree item", "table row", "table cell");
const REVEALED_READ = { maxDepth: 6, tableRows: 0, walkTables: false, nodeCeiling: 200, timeoutMs: 1500 };

/**
 * The commands a double click's first press may put under the pointer, for the second to press
 * unread: those its row holds and does not show yet (a "Delete" a selected row reveals), each
 * judged as pressed. A row whose tree cannot be read reveals what cannot be read.
 */
export async function revealedCommands(context: ToolContext, place: ResolvedPlace): Promise<TargetFacts[]> {
  const chain = [place.element, ...(place.ancestors ?? [])];
  const row = chain.find((e) => e && ROWS.has(e.role))?.handle ?? place.handle ?? place.element?.handle;
  if (!row) return [];
  const backend = await context.backend();
  const read = await backend.readSubtree(row, REVEALED_READ).catch(() => undefined);
  if (!read)
    return [{ unreadable: "what a double click's first press shows under the pointer could not be read" }];
  const showingKnown = reportsShowing(read.root);
  const hidden: RawNode[] = [];
  const walk = (node: RawNode, shown: boolean) => {
    const now = shown && isShown(node, showingKnown);
    if (!now && COMMAND_ROLES.has(node.role)) hidden.push(node);
    for (const child of node.children) walk(child, now);
  };
  for (const child of read.root.children) walk(child, true);
  return Promise.all(hidden.map((node) => pressFacts(context, placed(node), place.windowId)));
}
