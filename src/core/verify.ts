// Before any use, a ref is re-resolved and compared with what was seen: role, name, index among
// siblings and bounds. On any difference nothing is done, and the differences are the answer.
import type { AccessibilityReader, RawNode, Rect } from "../platform/types.js";
import { DeskhandError } from "./errors.js";
import type { RefEntry, RefStore } from "./refs.js";

export interface Difference {
  field: "role" | "name" | "index" | "bounds";
  was: unknown;
  now: unknown;
}

export interface Verified {
  entry: RefEntry;
  node: RawNode;
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
  if (node.name !== seen.name && !namedSince)
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

export function staleElement(ref: string, found: Difference[] | string): DeskhandError {
  const what =
    typeof found === "string"
      ? found
      : found.map((d) => `${d.field} was ${JSON.stringify(d.was)}, now ${JSON.stringify(d.now)}`).join("; ");
  return new DeskhandError(
    "stale_element",
    `${ref} no longer matches what the snapshot saw: ${what}. Nothing was done.`,
    "Take a new snapshot and use its refs.",
    { ref, differences: typeof found === "string" ? [] : found },
  );
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
    if (error instanceof Error && error.name === "ElementGone") throw staleElement(ref, error.message);
    throw error;
  }
  const found = differences(entry, node);
  if (found.length > 0) throw staleElement(ref, found);
  return { entry, node };
}
