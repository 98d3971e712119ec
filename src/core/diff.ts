// What changed between two reads of the same scope, element by element. Elements are matched by their
// handle (the same live object in the app); an element is compared on what a line of the screen view
// shows: name, value, description, the states that matter, and its fold.
import { yieldIfDue } from "../platform/slice.js";
import type { FlatEntry } from "./flatten.js";
import { describeFold, keyStates } from "./render.js";
import { shownValue } from "./snapshot.js";

/** One element as a line of the view shows it, for comparing. */
interface Seen {
  entry: FlatEntry;
  name: string;
  /** Undefined where the element's value was not read in that snapshot: not compared. */
  value: string | undefined;
  description: string;
  states: string[];
  fold: string | undefined;
}

export interface FieldChange {
  field: "name" | "value" | "description" | "states" | "fold";
  before: string;
  after: string;
}

export interface Changes {
  added: FlatEntry[];
  removed: FlatEntry[];
  changed: { entry: FlatEntry; fields: FieldChange[] }[];
  /**
   * Elements the app handed out anew (a new handle for the same role, name and place: LibreOffice's
   * cells, a file chooser's rows, rebuilt as a menu opens), as [before, after]: neither added nor removed.
   */
  reissued: [FlatEntry, FlatEntry][];
}

function seen(entry: FlatEntry): Seen {
  const { node } = entry;
  return {
    entry,
    name: node.name ?? "",
    value: node.enriched ? (shownValue(node, true) ?? "") : undefined,
    description: node.description ?? "",
    states: keyStates({ states: node.states ?? null }),
    fold: entry.fold ? describeFold(entry.fold) : undefined,
  };
}

function compare(before: Seen, after: Seen): FieldChange[] {
  const fields: FieldChange[] = [];
  if (before.name !== after.name) fields.push({ field: "name", before: before.name, after: after.name });
  if (before.value !== undefined && after.value !== undefined && before.value !== after.value)
    fields.push({ field: "value", before: before.value, after: after.value });
  if (before.description !== after.description)
    fields.push({ field: "description", before: before.description, after: after.description });
  const lost = before.states.filter((s) => !after.states.includes(s));
  const gained = after.states.filter((s) => !before.states.includes(s));
  if (lost.length + gained.length > 0)
    fields.push({ field: "states", before: lost.join(", "), after: gained.join(", ") });
  if (before.fold !== after.fold)
    fields.push({ field: "fold", before: before.fold ?? "open", after: after.fold ?? "open" });
  return fields;
}

/**
 * The changes from one read's lines to another's. A changed role is a removal and an addition. A line
 * whose element is still in the app (`stillThere`: now folded, or merged) is not a removal: the line
 * that now stands for it says so.
 */
export async function diffEntries(
  before: FlatEntry[],
  after: FlatEntry[],
  stillThere: Set<string>,
): Promise<Changes> {
  const old = new Map(before.map((e) => [e.node.handle, seen(e)]));
  const changes: Changes = { added: [], removed: [], changed: [], reissued: [] };
  const matched = new Set<string>();
  const added = new Set<string>();
  for (const entry of after) {
    const turn = yieldIfDue();
    if (turn) await turn;
    const was = old.get(entry.node.handle);
    if (!was || was.entry.node.role !== entry.node.role) {
      changes.added.push(entry);
      added.add(entry.node.handle);
      continue;
    }
    matched.add(entry.node.handle);
    const fields = compare(was, seen(entry));
    if (fields.length > 0) changes.changed.push({ entry, fields });
  }
  for (const entry of before) {
    const handle = entry.node.handle;
    if (matched.has(handle)) continue;
    if (stillThere.has(handle) && !added.has(handle)) continue;
    changes.removed.push(entry);
  }
  pairReissued(changes, old);
  return changes;
}

/** Where an element stands, as a person would tell it again: its place in the tree, role and name. */
const placeOf = (e: FlatEntry) =>
  `${e.fromWindow === false ? "~" : ""}${e.path.join("/")}\u0000${e.node.role}\u0000${e.node.name ?? ""}`;

/** An addition and a removal at the same place with the same role and name are one element re-issued. */
function pairReissued(changes: Changes, old: Map<string, Seen>): void {
  const gone = new Map<string, FlatEntry>();
  for (const entry of changes.removed) gone.set(placeOf(entry), entry);
  const added: FlatEntry[] = [];
  for (const entry of changes.added) {
    const was = gone.get(placeOf(entry));
    if (!was) {
      added.push(entry);
      continue;
    }
    gone.delete(placeOf(entry));
    changes.reissued.push([was, entry]);
    const fields = compare(old.get(was.node.handle) ?? seen(was), seen(entry));
    if (fields.length > 0) changes.changed.push({ entry, fields });
  }
  const kept = new Set(changes.reissued.map(([was]) => was));
  changes.added = added;
  changes.removed = changes.removed.filter((e) => !kept.has(e));
}
