// What `observe` lists: the elements of a snapshot page a person would act on, in reading order on
// screen, each with what it offers and the states a person sees. The surface the work happens on is
// listed too: a table or list as one target with its row count (unless its items are asked for), a
// surface that holds only pixels with the tools that read it. What has nothing to do (a progress bar,
// a split pane, an unnamed element that can only take the focus) is left out and counted.
import { roleSet } from "../platform/roles.js";
import { affordances, isTarget } from "./affordances.js";
import {
  alikeSets,
  apartText,
  descriptionsApart,
  groupName,
  groupsApart,
  placeText,
  TOLD_APART,
} from "./apart.js";
import { isCellPosition } from "./flatten.js";
import { keyStates } from "./render.js";
import type { SnapshotElement } from "./snapshot.js";

export interface ObservedTarget {
  index: number;
  ref: string;
  label: string;
  actions: string[];
  /** A table or list folded to this one line: its rows, read with read_table or searched with find. */
  rows?: number;
}

export interface Observation {
  targets: ObservedTarget[];
  /** Elements left out, by why: nothing to do, or inside a folded table or list. */
  left_out: { nothing_to_do: number; in_tables: number };
  /** The ref of the element with the keyboard focus, where one reports it. */
  focused?: string;
  /** Elements on screen whose children maxDepth cut: `snapshot` of each ref reads on. */
  cut_by_depth?: string[];
}

/** Roles whose items fold into one target (a file list, a table of cells). */
const COLLECTIONS = roleSet("table", "tree table", "tree", "list", "list box");
/** Fewer items than this and the list is shown item by item: a short list is a choice, not data. */
const FOLD_AT = 8;
/** Roles nobody acts on from a listing: they report, or they lay out. */
const NOTHING_TO_DO = roleSet("progress bar", "split pane", "separator", "scroll bar", "level bar");
/** Cells: an unnamed one holding named cells is a row (Thunar's side pane), named by its first. */
const CELLS = roleSet("table cell", "tree item", "list item");
/** How far up a pixels-only surface looks for the pane that names it ("Icon view"). */
const NAMING_ANCESTORS = 3;
/** What an element offers that is no reason to list it when it has no name: anything may be focused or clicked. */
const INCIDENTAL = new Set(["focus", "click", "scroll"]);
/** Characters of a value shown on a target's line; a longer one says it was cut and by how much. */
const VALUE_SHOWN = 80;

/** A value as a target shows it: cut at VALUE_SHOWN, the cut marked with what is left and what reads it. */
function valueOnLine(element: SnapshotElement): string {
  if (element.value === undefined) return "";
  const whole = Math.max(element.textLength ?? 0, element.value.length);
  if (whole <= VALUE_SHOWN) return ` = ${JSON.stringify(element.value)}`;
  return ` = ${JSON.stringify(`${element.value.slice(0, VALUE_SHOWN)}…`)} (+${whole - VALUE_SHOWN} chars, read_text)`;
}

/** The name a person would read: the app's, else one inferred (marked ~): a label beside it, its tooltip. */
function shownName(element: SnapshotElement): string {
  if (element.name) return ` ${JSON.stringify(element.name)}`;
  if (element.inferredLabel) return ` ~${JSON.stringify(element.inferredLabel)}`;
  if (element.description) return ` ~${JSON.stringify(element.description)}`;
  return "";
}

function rowsOf(element: SnapshotElement): number | undefined {
  return element.rows ?? element.childCount ?? undefined;
}

/**
 * Reading order: rows top to bottom, then left to right. Two elements are on one row when each one's
 * vertical centre lies within the other's height; elements with no place on screen keep their tree
 * order, after those that have one.
 */
function readingOrder<T extends { element: SnapshotElement; order: number }>(items: T[]): T[] {
  const placed = items.filter((i) => i.element.bounds && i.element.bounds.height > 0);
  const unplaced = items.filter((i) => !placed.includes(i));
  // A listed collection reads where it starts, before its items, not at its middle.
  const centre = (i: T) => {
    const b = i.element.bounds!;
    return b.y + (COLLECTIONS.has(i.element.role) ? Math.min(b.height, 24) : b.height) / 2;
  };
  placed.sort((a, b) => centre(a) - centre(b) || a.order - b.order);
  const rows: T[][] = [];
  for (const item of placed) {
    const row = rows.at(-1);
    const first = row?.[0]?.element.bounds;
    const b = item.element.bounds!;
    const sameRow =
      first &&
      centre(item) >= first.y &&
      centre(item) <= first.y + first.height &&
      centre(row![0]!) >= b.y &&
      centre(row![0]!) <= b.y + b.height;
    if (row && sameRow) row.push(item);
    else rows.push([item]);
  }
  return [
    ...rows.flatMap((row) =>
      row.sort((a, b) => a.element.bounds!.x - b.element.bounds!.x || a.order - b.order),
    ),
    ...unplaced,
  ];
}

/** What lies above the element being read in a depth-first walk. */
class Lineage {
  /** The names of the current element's ancestors, by depth. */
  readonly names: (string | null | undefined)[] = [];
  /** The order of the latest element at each depth: an element's parent is the latest one above it. */
  readonly latestAt: number[] = [];
  readonly #groupsAt: (string | undefined)[] = [];

  enter(element: SnapshotElement, order: number): void {
    const depth = element.depth;
    this.names.length = depth;
    this.names[depth] = element.name;
    this.latestAt.length = depth;
    this.latestAt[depth] = order;
    this.#groupsAt.length = depth;
    // Not the window's own title (depth 0): it names everything in it.
    this.#groupsAt[depth] = depth > 0 && element.name ? groupName(element.role, element.name) : undefined;
  }

  /** The named groups above `depth`, nearest first. */
  groups(depth: number): string[] {
    return this.#groupsAt
      .slice(0, depth)
      .filter((g) => g !== undefined)
      .reverse();
  }
}

/** An element picked as a target, before the targets are put in reading order and cut. */
interface Picked {
  element: SnapshotElement;
  order: number;
  actions: string[];
  rows?: number;
  named?: string;
  /** The other named cells of a row shown as its cells side by side (GTK's tree view). */
  alongside?: string[];
  /** Its named ancestors below the window, nearest first: told apart by them from one alike. */
  groups?: string[];
}

/** A target's line: role, name, value, states, what it folds, how it differs from one alike, ref, actions. */
function targetLine({ element, actions, rows, named, alongside }: Picked, apart: string | undefined): string {
  const value = `${valueOnLine(element)}${alongsideOf(alongside)}`;
  const states = keyStates(element);
  // The actions name the tools that read a folded table or a pixels-only surface: not said twice.
  const what =
    rows !== undefined
      ? ` (${rows} ${element.interfaces?.includes("Table") ? "rows" : "items"}; items: true lists them)`
      : element.pixelsOnly
        ? " (pixels only)"
        : "";
  const name = named ? ` ~${JSON.stringify(named)}` : shownName(element);
  return `${element.role}${name}${value}${states.length ? ` (${states.join(", ")})` : ""}${what}${apart ?? ""} [ref=${element.ref}] ${actions.join(",")}`;
}

/** A pixels-only surface as a target; unnamed, it is named by its nearest named ancestor below the window. */
function pixelsTarget(
  element: SnapshotElement,
  order: number,
  ancestors: (string | null | undefined)[],
): Picked {
  const pane = shownName(element)
    ? undefined
    : // Not the window's own title (depth 0): that names everything in it.
      ancestors
        .slice(Math.max(1, element.depth - NAMING_ANCESTORS), element.depth)
        .findLast((name) => !!name);
  return {
    element,
    order,
    actions: ["read_screen_text", "find_text", "click"],
    ...(pane ? { named: pane } : {}),
  };
}

/**
 * Each element once, where it is first read: an open popup read as a top-level of its own is also
 * its owner's child (a GTK 3 combo box's menu was listed twice).
 */
function onceEach(elements: SnapshotElement[]): SnapshotElement[] {
  const seen = new Set<string>();
  return elements.filter((element) => !seen.has(element.ref) && !!seen.add(element.ref));
}

export function observeTargets(
  read: SnapshotElement[],
  options: { items: boolean; maxTargets: number },
): Observation & { total: number } {
  const elements = onceEach(read);
  const picked: Picked[] = [];
  /** Rows of sibling cells already listed: the parent's order and the row's place, to the target. */
  const cellRows = new Map<string, Picked>();
  const lineage = new Lineage();
  let nothingToDo = 0;
  let inTables = 0;
  let foldedBelow: number | undefined;
  let focused: string | undefined;
  const cutByDepth: string[] = [];
  elements.forEach((element, order) => {
    lineage.enter(element, order);
    if (foldedBelow !== undefined && element.depth > foldedBelow) {
      inTables++;
      if (element.states?.includes("focused")) focused ??= element.ref;
      return;
    }
    foldedBelow = undefined;
    if (element.states?.includes("focused")) focused = element.ref;
    if (element.cut?.reason === "maxDepth") cutByDepth.push(element.ref);
    const rows = rowsOf(element);
    if (!options.items && COLLECTIONS.has(element.role) && rows !== undefined && rows >= FOLD_AT) {
      foldedBelow = element.depth;
      const reads = element.interfaces?.includes("Table") ? ["read_table", "find"] : ["find", "snapshot"];
      picked.push({ element, order, actions: [...reads, ...affordances(element)], rows });
      return;
    }
    if (element.pixelsOnly) {
      picked.push(pixelsTarget(element, order, lineage.names));
      return;
    }
    // A row drawn as an unnamed cell holding its named cells: one target, named by its first cell.
    const rowName = CELLS.has(element.role) && !shownName(element) ? cellsName(elements, order) : undefined;
    if (rowName) {
      foldedBelow = element.depth;
      picked.push({ element, order, actions: affordances(element), named: rowName });
      return;
    }
    if (!isTarget(element)) return;
    const actions = affordances(element);
    const unnamed = !shownName(element);
    if (NOTHING_TO_DO.has(element.role) || (unnamed && actions.every((a) => INCIDENTAL.has(a)))) {
      nothingToDo++;
      return;
    }
    const row = rowOfCells(element, lineage.latestAt[element.depth - 1]);
    const listed = row === undefined ? undefined : cellRows.get(row);
    if (listed) {
      // One target a row, at its first named cell: the cells beside it are said on its line.
      inTables++;
      if (!shownName(listed.element) && shownName(element))
        Object.assign(listed, { element, order, actions });
      else if (element.name) listed.alongside = [...(listed.alongside ?? []), element.name];
      return;
    }
    const target = { element, order, actions, groups: lineage.groups(element.depth) };
    if (row !== undefined) cellRows.set(row, target);
    picked.push(target);
  });
  const ordered = readingOrder(picked);
  const listed = ordered.slice(0, options.maxTargets);
  const apart = tellApart(listed);
  const targets = listed.map((target, index) => {
    const { element, actions, rows } = target;
    const label = targetLine(target, apart.get(element));
    return { index, ref: element.ref, label, actions, ...(rows !== undefined ? { rows } : {}) };
  });
  return {
    targets,
    total: ordered.length,
    left_out: { nothing_to_do: nothingToDo, in_tables: inTables },
    ...(focused ? { focused } : {}),
    ...(cutByDepth.length ? { cut_by_depth: cutByDepth } : {}),
  };
}

/** Targets that would read alike: each line says where it is, the group it is in and its tooltip. */
function tellApart(
  listed: { element: SnapshotElement; named?: string; groups?: string[] }[],
): Map<SnapshotElement, string> {
  const lines = new Map<SnapshotElement, string>();
  // Elements with no name a person reads are told apart by nothing here (find's rule too).
  const key = ({ element, named }: (typeof listed)[number]) => {
    const name = named ?? shownName(element);
    return name ? JSON.stringify([element.role, name, element.value ?? null, keyStates(element)]) : undefined;
  };
  for (const set of alikeSets(listed, key, TOLD_APART)) {
    const groups = groupsApart(set.map((t) => t.groups ?? []));
    const descriptions = descriptionsApart(set.map((t) => t.element.description));
    set.forEach((t, i) => {
      const apart = apartText({ group: groups[i], description: descriptions[i] });
      lines.set(t.element, `${placeText(t.element.bounds)}${apart}`);
    });
  }
  return lines;
}

/** Cells beside a row's first named one, on its line: a few, each cut short. */
const ALONGSIDE = { cells: 3, chars: 40 };

function alongsideOf(names: string[] | undefined): string {
  if (!names?.length) return "";
  const shown = names.slice(0, ALONGSIDE.cells).map((n) => JSON.stringify(n.slice(0, ALONGSIDE.chars)));
  const more = names.length > ALONGSIDE.cells ? ` +${names.length - ALONGSIDE.cells}` : "";
  return ` · ${shown.join(" · ")}${more}`;
}

/**
 * Where a table cell sits among its siblings, when the toolkit draws a row as sibling cells (GTK's tree
 * view: an icon cell, a name cell, a status cell): its parent and the row's top and height.
 */
function rowOfCells(element: SnapshotElement, parentOrder: number | undefined): string | undefined {
  const b = element.bounds;
  if (element.role !== "table cell" || !b || b.height <= 0 || parentOrder === undefined) return undefined;
  // A spreadsheet's cells are each a place to act on.
  if (element.name && isCellPosition(element.name)) return undefined;
  return `${parentOrder}:${b.y}:${b.height}`;
}

/** The name of the first named cell directly inside the cell at `order`, if its children are cells. */
function cellsName(elements: SnapshotElement[], order: number): string | undefined {
  const row = elements[order]!;
  for (let i = order + 1; i < elements.length && elements[i]!.depth > row.depth; i++) {
    const child = elements[i]!;
    if (child.depth !== row.depth + 1) continue;
    if (!CELLS.has(child.role)) return undefined;
    if (child.name) return child.name;
  }
  return undefined;
}
