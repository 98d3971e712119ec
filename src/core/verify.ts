// Before any use, a ref is re-resolved and compared with what was seen. Its identity is its role,
// its name and (for a view's items) its index among siblings: an element that kept them but moved
// or resized (a dialog that grew) is the same element, used where it is now, and the move is said.
// An element whose handle is gone (a web page re-rendered) is looked for again at its path from the
// window: the one element there with its role, name and index is it, and that is said too. Anything else (a changed
// role or name, another element at that path, two candidates or none) is refused with what differs.
import { MENU_ITEM_ROLES, roleSet } from "../platform/roles.js";
import type { AccessibilityReader, RawNode, Rect } from "../platform/types.js";
import { DeskhandError } from "./errors.js";
import { statesChanged } from "./receipt.js";
import { pathOf, type RefEntry, type RefStore } from "./refs.js";

export interface Difference {
  field: "role" | "name" | "index" | "bounds";
  was: unknown;
  now: unknown;
}

export interface Verified {
  entry: RefEntry;
  node: RawNode;
  /** Where it was seen and where it is now, when it moved or resized since. */
  moved?: { from: Rect; to: Rect };
  /** Its old handle was gone: the handle it was found again under, at its path. */
  refound?: { was: string; now: string };
}

function sameRect(a: Rect | null | undefined, b: Rect | null | undefined): boolean {
  if (!a || !b) return (a ?? null) === (b ?? null);
  return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
}

export function differences(entry: RefEntry, node: RawNode): Difference[] {
  const seen = entry.fingerprint;
  const found: Difference[] = [];
  if (node.role !== seen.role) found.push({ field: "role", was: seen.role, now: node.role });
  // A name filled in since (a web page names its buttons after they are drawn: "" → "Next page") is
  // the same element where role, index and bounds still hold; the gate judges it by its name now.
  const namedSince = !seen.name && !!node.name;
  // An unread name is unknown, not a change: verifyRef refuses it on its own account.
  if (node.name !== seen.name && !namedSince && !node.unread.includes("name"))
    found.push({ field: "name", was: seen.name ?? null, now: node.name ?? null });
  // An index of -1 is the toolkit saying it does not know (KDE's file view, for every item), not a move.
  const known = node.indexInParent >= 0 && seen.indexInParent >= 0;
  if (known && node.indexInParent !== seen.indexInParent)
    found.push({ field: "index", was: seen.indexInParent, now: node.indexInParent });
  // Bounds are compared only when both reads had them: an unread field is unknown, not a change, and
  // neither is an element that had no place on screen then (null: a page still loading, a hidden
  // tab) and has one now.
  if (
    seen.bounds !== undefined &&
    seen.bounds !== null &&
    !node.unread.includes("bounds") &&
    !sameRect(seen.bounds, node.bounds)
  ) {
    found.push({ field: "bounds", was: seen.bounds, now: node.bounds ?? null });
  }
  return found;
}

/** States a person sees change (a button enabled once a field is filled), as seen against now. */
const NOTICED_STATES = ["enabled", "checked", "selected", "expanded", "focused", "editable"] as const;

/** The noticed states that changed since the element was seen: "enabled: no → yes". */
export function stateChanges(entry: RefEntry, node: RawNode): string[] {
  const was = entry.fingerprint.states;
  const now = node.states;
  if (node.unread.includes("states")) return [];
  const changed = statesChanged(was, now, NOTICED_STATES);
  if (!changed) return [];
  return NOTICED_STATES.flatMap((s) =>
    changed.now.includes(s) ? [`${s}: no → yes`] : changed.no_longer.includes(s) ? [`${s}: yes → no`] : [],
  );
}

/**
 * Whether a menu item seen on screen is off it now: its menu closed. One never seen on screen (an
 * item of a closed menu, listed with what is off screen) is acted on as it was seen.
 */
function menuClosedSince(entry: RefEntry, node: RawNode): boolean {
  const was = entry.fingerprint.states;
  if (!MENU_ITEM_ROLES.has(node.role) || !was?.includes("showing")) return false;
  return !!node.states && !node.unread.includes("states") && !node.states.includes("showing");
}

// Items a toolkit may keep one object for a place of (a view's cells and rows): there another index
// is another item. Any other element keeps its object: one whose siblings came or went before it (a
// settings page that showed a new row above a combo box) is the same element at a new index.
const PLACE_ITEMS = roleSet(
  "table cell",
  "column header",
  "row header",
  "table row",
  "list item",
  "tree item",
);

/** What makes it another element: a difference other than where it is. */
export const identity = (found: Difference[], role: string) =>
  found.filter((d) => d.field !== "bounds" && (d.field !== "index" || PLACE_ITEMS.has(role)));

function staleElement(
  ref: string,
  found: Difference[] | string,
  extra: Record<string, unknown> = {},
  next = "Take a new snapshot and use its refs.",
): DeskhandError {
  const what =
    typeof found === "string"
      ? found
      : found.map((d) => `${d.field} was ${JSON.stringify(d.was)}, now ${JSON.stringify(d.now)}`).join("; ");
  return new DeskhandError(
    "stale_element",
    `${ref} no longer matches what the snapshot saw: ${what}. Nothing was done.`,
    next,
    { ref, differences: typeof found === "string" ? [] : found, ...extra },
  );
}

/** `x,y WxH`, as a move is said. */
function rectText(r: Rect): string {
  return `${r.x},${r.y} ${r.width}x${r.height}`;
}

/** One line for what verifying found besides "unchanged": a move, a new handle. */
export function verifiedNote(verified: Pick<Verified, "moved" | "refound">): string | undefined {
  const notes = [
    verified.refound ? "re-found: its old handle was gone, the one element alike at its place is used" : "",
    verified.moved ? `moved: from ${rectText(verified.moved.from)} to ${rectText(verified.moved.to)}` : "",
  ].filter(Boolean);
  return notes.length > 0 ? notes.join("; ") : undefined;
}

/** A tree read bounded like a hit-test: enough for a dialog or a page, never unbounded. */
const REFIND_READ = { maxDepth: 40, tableRows: 50, walkTables: false, nodeCeiling: 3000, timeoutMs: 1500 };
const CANDIDATES_NAMED = 5;

interface Placed {
  node: RawNode;
  path: number[];
}

function placedNodes(root: RawNode): Placed[] {
  const out: Placed[] = [];
  const walk = (node: RawNode, path: number[]) => {
    out.push({ node, path });
    for (const child of node.children) walk(child, [...path, child.indexInParent]);
  };
  walk(root, []);
  return out;
}

const samePath = (a: number[], b: number[]) => a.length === b.length && a.every((n, i) => n === b[i]);
const named = (n: Placed) => `${n.node.role} ${JSON.stringify(n.node.name ?? "")} at [${n.path.join(",")}]`;

/**
 * The element of a gone handle, found again in its window: the one with its role, name and index at
 * its path (or, where no path from the window was recorded, the only one in the window). Never a guess.
 */
async function refind(
  backend: AccessibilityReader,
  refs: RefStore,
  ref: string,
  gone: string,
): Promise<Verified> {
  const entry = refs.lookup(ref);
  const seen = entry.fingerprint;
  if (seen.windowId === null) throw staleElement(ref, gone);
  const windowId = seen.windowId;
  const read = await backend.readWindow(windowId, REFIND_READ).catch(() => undefined);
  if (!read) throw staleElement(ref, `${gone}; its window could not be read to find it again`);
  const all = placedNodes(read.root);
  const alike = all.filter(
    (n) => n.node.handle !== entry.handle && identity(differences(entry, n.node), n.node.role).length === 0,
  );
  const path = pathOf(seen);
  const candidates = path ? alike.filter((n) => samePath(n.path, path)) : alike;
  if (candidates.length !== 1) {
    const there = path ? all.find((n) => samePath(n.path, path)) : undefined;
    const listed = (of: Placed[]) => of.slice(0, CANDIDATES_NAMED).map(named).join(", ");
    const others = alike.filter((n) => !candidates.includes(n));
    const why = [
      gone,
      candidates.length > 1
        ? `${candidates.length} elements could be it: ${listed(candidates)}`
        : there
          ? `at its path now: ${named(there)}`
          : `nothing alike is ${path ? "at its path" : "in its window"} now`,
      others.length > 0 ? `alike elsewhere: ${listed(others)}` : "",
      read.timedOut || read.ceilingHit ? "the window was not read whole" : "",
    ].filter(Boolean);
    throw staleElement(ref, why.join("; "), { candidates: alike.map(named) });
  }
  const now = candidates[0]!.node.handle;
  const node = await backend.describe(now, { maxText: 200, windowId });
  if (identity(differences(entry, node), node.role).length > 0)
    throw staleElement(ref, differences(entry, node));
  const was = entry.handle;
  refs.rehandle(ref, now);
  return { ...placedAt(entry, node), entry, node, refound: { was, now } };
}

/** The move since it was seen, when both reads had a place for it. */
function placedAt(entry: RefEntry, node: RawNode): Pick<Verified, "moved"> {
  const moved = differences(entry, node).find((d) => d.field === "bounds");
  return moved && node.bounds ? { moved: { from: moved.was as Rect, to: node.bounds } } : {};
}

export async function verifyRef(
  backend: AccessibilityReader,
  refs: RefStore,
  ref: string,
): Promise<Verified> {
  const entry = refs.lookup(ref);
  let node: RawNode;
  try {
    node = await backend.describe(entry.handle, {
      maxText: 200,
      ...(entry.fingerprint.windowId === null ? {} : { windowId: entry.fingerprint.windowId }),
    });
  } catch (error) {
    if (error instanceof Error && error.name === "ElementGone")
      return refind(backend, refs, ref, error.message);
    throw error;
  }
  // A re-rendered page leaves its old objects answering as defunct (Firefox: no name, index -1).
  if (node.states?.includes("defunct"))
    return refind(backend, refs, ref, "the element is gone: it is defunct (its app replaced it)");
  const found = identity(differences(entry, node), node.role);
  if (found.length > 0) throw staleElement(ref, found);
  if (menuClosedSince(entry, node))
    throw staleElement(
      ref,
      `${node.role} ${JSON.stringify(node.name ?? "")} was on screen in its menu, and the menu has closed since (an app may build a menu anew each time it opens, and an old item's action then acts on what is gone: Thunar's ends the app)`,
      {},
      "Open the menu again and use the refs it gives.",
    );
  // Its name could not be read: it cannot be told from another element in its place.
  if (node.unread.includes("name") && entry.fingerprint.name)
    throw staleElement(
      ref,
      `its name (${JSON.stringify(entry.fingerprint.name)}) could not be read to tell it is the same element`,
    );
  return { entry, node, ...placedAt(entry, node) };
}
