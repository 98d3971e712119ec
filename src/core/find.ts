// Searching a window (or the subtree under a ref) by selector or locator. Three answers are kept apart:
// nothing matched in a complete read; the read did not finish (so a match may be missing); and a
// candidate could not be read (so it is neither a match nor a miss).
import { bounded } from "../platform/diagnostics.js";
import { everyNode, unfilledMenus } from "../platform/nodes.js";
import { TABLE_ROLES, WINDOW_ROLES } from "../platform/roles.js";
import {
  type AccessibilityReader,
  leftOut,
  type RawNode,
  type Rect,
  type StructureOptions,
  type WindowInfo,
} from "../platform/types.js";
import { alikeSets, descriptionsApart, groupName, groupsApart, TOLD_APART } from "./apart.js";
import { type TreeIncomplete, treeIncomplete } from "./completeness.js";
import { DeskhandError } from "./errors.js";
import {
  closesItsPopup,
  type FlatEntry,
  fingerprintOf,
  flatten,
  isClosedPopup,
  isEcho,
  isShown,
  mayBeClosedPopup,
  reportsShowing,
} from "./flatten.js";
import { inferLabelsOf } from "./labels.js";
import { type CutName, READ_CEILING } from "./limits.js";
import { evaluateLocator, LocatorSyntaxError, parseLocator } from "./locator.js";
import { isPixelsOnly, mayBePixelsOnly } from "./pixels.js";
import { pathOf, type RefStore } from "./refs.js";
import { fold, matches, needsDetails, type Selector, type TextPlace, textPlace } from "./selector.js";
import { readShownParts, resolveWindows, type SnapshotTarget, shownValue } from "./snapshot.js";

export type FindQuery = { selector: Selector } | { locator: string };

/** Characters of a match's value shown; `value_length` says when there were more. */
const FOUND_VALUE_CHARS = 200;
/**
 * How much of each element's text value_contains searches: the whole of any ordinary document (a
 * match past a shorter cut would read as "no match"). Only elements with text pay for it.
 */
const VALUE_SEARCH_TEXT = 1_000_000;

export interface FoundElement {
  ref: string;
  role: string;
  name: string | null;
  value?: string;
  /** The whole value's length, when `value` was cut at 200 characters: read_text reads the rest. */
  value_length?: number;
  states: string[] | null;
  bounds: Rect | null;
  window: number | null;
  /** In a table: the cell it is, or is inside. */
  cell?: { row: number; column: number };
  /** A cell's row as a person reads it across: each column's header (or "column N") and its text there. */
  row?: Record<string, string | null>;
  /** An unnamed field's label, inferred from where it sits: not the application's own name. */
  inferred_label?: string;
  /**
   * Beside another match of its role and name: the group it is in where theirs differ (the nearest
   * named ancestor they do not share: `tool bar "Formatting"`), and its description (a tooltip)
   * where theirs differ.
   */
  group?: string;
  description?: string;
  /** Where a `text` query was found on it, where that is not its name. */
  text_in?: Exclude<TextPlace, "name">;
}

export interface FindResult {
  snapshotId: string;
  matches: FoundElement[];
  total: number;
  truncated: boolean;
  searched_whole_window: boolean;
  /** Why the search did not cover everything, when it did not. */
  cuts: CutName[];
  unreadable_candidates: (FoundElement & { unread: string[] })[];
  windows: Pick<WindowInfo, "id" | "title">[];
  /** Windows whose tree is known to be incomplete: "no match" there proves nothing. */
  tree_incomplete?: TreeIncomplete[];
  /** How the scope was searched: the app's own Collection.GetMatches, or a read of the tree. */
  method: "collection" | "tree";
  /** Matches left out: not on screen (a closed menu, a hidden page), or a label repeating its match's name. */
  left_out?: { off_screen: number; repeats: number; hidden_copies?: number };
  /** With no match: large surfaces of the scope that only hold pixels (find_text reads them). */
  pixels_only?: FoundElement[];
  /** With no match: the menus of its windows' menu bars that hold no item until opened. */
  menus_unfilled?: string[];
  /** Table cells: whether they were searched, how many, and whether the cap left some out. */
  tables?: { searched: boolean; cells: number; capped: boolean; reason?: string };
}

export interface FindOptions {
  maxDepth: number;
  timeoutMs: number;
  limit: number;
  /**
   * "include": matches off screen count like any (acting through accessibility does not need them on
   * screen); "leave_out": they are left out and counted, like a label that repeats its control's name.
   */
  offScreen?: "include" | "leave_out";
  /**
   * Table cells (read through the Table interface, up to FIND_TABLE_CELLS) are searched when nothing
   * else matches; with true, always.
   */
  searchTables?: boolean;
}

/** Cells searched at most in one find, over every table of the scope. */
export const FIND_TABLE_CELLS = 2_000;
/** Columns of a table read for searching, as a snapshot reads them. */
const TABLE_COLUMNS = 64;

function cutOf(node: RawNode): CutName | undefined {
  const cut = node.childrenCut;
  if (!leftOut(cut)) return undefined;
  if (cut.reason === "table") return "tableRows";
  if (cut.reason === "nodeCeiling") return "readCeiling";
  return cut.reason;
}

/** Enriches entries window by window (GTK 4 extents are relative to their window). */
async function enrichEntries(
  backend: AccessibilityReader,
  entries: FlatEntry[],
  options: { maxText: number; timeoutMs: number; accessibleIds: boolean },
): Promise<void> {
  for (const windowId of new Set(entries.map((e) => e.windowId))) {
    const nodes = entries.filter((e) => e.windowId === windowId).map((e) => e.node);
    await backend.enrich(nodes, { ...options, actions: false, ...(windowId === null ? {} : { windowId }) });
  }
}

/** Tables of a read whose rows were not read: their cells are read now, within FIND_TABLE_CELLS. */
async function readTableCells(
  backend: AccessibilityReader,
  roots: { node: RawNode }[],
  timeoutMs: number,
): Promise<{ cells: number; capped: boolean }> {
  const tables: RawNode[] = [];
  const stack = roots.map((r) => r.node);
  while (stack.length > 0) {
    const node = stack.pop()!;
    const cut = node.childrenCut;
    if (cut?.reason === "table" && cut.rowsRead < cut.rows) tables.push(node);
    stack.push(...node.children);
  }
  let budget = FIND_TABLE_CELLS;
  let cells = 0;
  let capped = false;
  for (const table of tables) {
    const cut = table.childrenCut as Extract<RawNode["childrenCut"], { reason: "table" }>;
    const columns = Math.max(1, Math.min(cut.columns, TABLE_COLUMNS));
    const rows = Math.min(cut.rows, Math.floor(budget / columns));
    if (rows < cut.rows) capped = true;
    if (rows <= cut.rowsRead) continue;
    const read = await backend.readSubtree(table.handle, {
      maxDepth: 3,
      tableRows: rows,
      walkTables: false,
      nodeCeiling: READ_CEILING,
      timeoutMs,
    });
    table.children = read.root.children;
    if (read.root.childrenCut) table.childrenCut = read.root.childrenCut;
    budget -= rows * columns;
    cells += rows * columns;
  }
  return { cells, capped };
}

type Root = { node: RawNode; windowId: number | null; path?: number[] | null };
type Parsed = { locator: ReturnType<typeof parseLocator> } | { selector: Selector };

/** Step 1: the query, with a locator parsed (its syntax errors named). */
function parseQuery(query: FindQuery): Parsed {
  if (!("locator" in query)) return query;
  try {
    return { locator: parseLocator(query.locator) };
  } catch (error) {
    if (error instanceof LocatorSyntaxError)
      throw new DeskhandError(
        "invalid_params",
        `locator: ${error.message}`,
        "Write it like //push button[@name=contains('Save')].",
      );
    throw error;
  }
}

/** What is searched: the windows a target names, or the subtree under a ref. */
interface Scope {
  windows: WindowInfo[];
  /** Where the app itself can be asked (Collection): one window, or one element. */
  single: { windowId: number } | { handle: string } | undefined;
  windowId: number | null;
  readRoots(): Promise<Root[]>;
}

/** Step 2: the scope of a target. */
async function scopeOf(
  backend: AccessibilityReader,
  refs: RefStore,
  target: SnapshotTarget,
  structure: StructureOptions,
): Promise<Scope> {
  if (target.kind === "element") {
    const entry = refs.lookup(target.ref);
    const windowId = entry.fingerprint.windowId;
    return {
      windows: [],
      single: { handle: entry.handle },
      windowId,
      readRoots: async () => [
        {
          node: (await backend.readSubtree(entry.handle, structure)).root,
          windowId,
          path: pathOf(entry.fingerprint),
        },
      ],
    };
  }
  const windows = await resolveWindows(backend, target);
  const only = windows.length === 1 ? windows[0]!.id : undefined;
  return {
    windows,
    single: only === undefined ? undefined : { windowId: only },
    windowId: only ?? null,
    readRoots: async () => {
      const roots: Root[] = [];
      for (const window of windows)
        roots.push({ node: (await backend.readWindow(window.id, structure)).root, windowId: window.id });
      return roots;
    },
  };
}

/** The elements searched, and how they were read. */
interface Candidates {
  roots: Root[];
  entries: FlatEntry[];
  method: FindResult["method"];
  incomplete: TreeIncomplete[];
}

/**
 * Step 3a: a selector that names a role or states can be answered by the app itself (Collection),
 * where the backend judges that safe and faster: only the candidates are then read. Undefined where
 * it cannot.
 */
async function askTheApp(
  backend: AccessibilityReader,
  parsed: Parsed,
  scope: Scope,
  structure: StructureOptions,
  timeoutMs: number,
): Promise<Candidates | undefined> {
  if (!("selector" in parsed) || !scope.single || !backend.matchCandidates) return undefined;
  const { selector } = parsed;
  // An inferred label needs the fields' neighbours, which only a read of the tree has.
  if (
    selector.label !== undefined ||
    selector.text !== undefined ||
    (selector.role === undefined && selector.states === undefined)
  )
    return undefined;
  const handles = await backend.matchCandidates(
    scope.single,
    { roles: selector.role === undefined ? [] : [fold(selector.role)], states: selector.states ?? [] },
    timeoutMs,
  );
  if (!handles) return undefined;
  const single = { ...structure, maxDepth: 0, nodeCeiling: 1 };
  const nodes = await Promise.all(handles.map((h) => backend.readSubtree(h, single).then((r) => r.root)));
  // Each is read alone, its children left unread on purpose: the app searched them. That is no cut
  // of the search ("elements below maxDepth" was said of every combo box found so).
  for (const node of nodes) if (node.childrenCut?.reason === "maxDepth") delete node.childrenCut;
  // Found by the app: no path from the window was walked, so refs record none.
  const entries = nodes.map((node) => ({
    node,
    depth: 0,
    path: [],
    fromWindow: false,
    windowId: scope.windowId,
  }));
  return { roots: [], entries, method: "collection", incomplete: [] };
}

/** Step 3b: a read of the tree, labels inferred, with what is known to be missing from it. */
async function readTree(backend: AccessibilityReader, scope: Scope, timeoutMs: number): Promise<Candidates> {
  const roots = await scope.readRoots();
  await inferLabelsOf(backend, roots, timeoutMs);
  const incomplete: TreeIncomplete[] = [];
  for (const root of roots) {
    const window = scope.windows.find((w) => w.id === root.windowId);
    const known = window ? treeIncomplete(window, root.node) : undefined;
    if (known) incomplete.push(known);
  }
  return { roots, entries: await flatAll(roots), method: "tree", incomplete };
}

const flatAll = async (roots: Root[]) =>
  (await flatten(roots, { visibleOnly: false, onlyInteractive: false })).entries;

interface Verdicts {
  cuts: Set<CutName>;
  hits: FlatEntry[];
  unreadable: FlatEntry[];
}

/** Step 4: the candidates judged: matches, those that could not be read, and the cuts met. */
async function judge(
  backend: AccessibilityReader,
  parsed: Parsed,
  candidates: Candidates,
  timeoutMs: number,
): Promise<Verdicts> {
  const { entries, roots } = candidates;
  const cuts = new Set<CutName>();
  for (const { node } of entries) {
    const cut = cutOf(node);
    if (cut) cuts.add(cut);
  }
  const wanted =
    "locator" in parsed
      ? { value: parsed.locator.needsValue, accessibleId: parsed.locator.needsId }
      : needsDetails(parsed.selector);
  // Details cost a call or two per element: read them for every element only when the query needs them.
  if (wanted.value || wanted.accessibleId)
    await enrichEntries(backend, entries, {
      maxText: VALUE_SEARCH_TEXT,
      timeoutMs,
      accessibleIds: wanted.accessibleId,
    });
  // A message region found without its children (the app answered the search) says its words there.
  if (wanted.value)
    for (const e of entries) await readShownParts(backend, e.node, { windowId: e.windowId, timeoutMs });
  if ("locator" in parsed) {
    const found = new Set(roots.flatMap((r) => evaluateLocator(parsed.locator, r.node)));
    return { cuts, hits: onePerElement(entries.filter((e) => found.has(e.node))), unreadable: [] };
  }
  const { selector } = parsed;
  // "showing" where the toolkit never reports it (GTK 4.8) is judged as isShown judges it: visible,
  // then an area once the bounds of the matches are read.
  const inferShowing =
    selector.states?.includes("showing") && roots.length > 0 && !roots.some((r) => reportsShowing(r.node));
  const asked = inferShowing
    ? { ...selector, states: [...selector.states!.filter((s) => s !== "showing"), "visible" as const] }
    : selector;
  const verdicts = entries.map((e) => ({ e, verdict: matches(e.node, asked) }));
  let hits = verdicts.filter((v) => v.verdict === "match").map((v) => v.e);
  const unreadable = verdicts.filter((v) => v.verdict === "unreadable").map((v) => v.e);
  if (inferShowing) {
    await enrichEntries(backend, hits, { maxText: 200, timeoutMs, accessibleIds: false });
    hits = hits.filter((e) => isShown(e.node, false));
  }
  return { cuts, hits: onePerElement(hits), unreadable };
}

/**
 * Each element once, where its tree reaches it twice (Swing lists a menu's items under the menu and
 * under its popup): one element is never "2 elements match".
 */
function onePerElement(entries: FlatEntry[]): FlatEntry[] {
  const seen = new Set<string>();
  return entries.filter((e) => !seen.has(e.node.handle) && !!seen.add(e.node.handle));
}

/**
 * Step 5: table cells, read through the Table interface, are searched when asked, or when nothing
 * outside the tables matched; otherwise the reply says they were not.
 */
async function searchTables(
  backend: AccessibilityReader,
  parsed: Parsed,
  candidates: Candidates,
  verdicts: Verdicts,
  options: FindOptions,
): Promise<{ verdicts: Verdicts; tables: FindResult["tables"] }> {
  if (candidates.method !== "tree") return { verdicts, tables: undefined };
  if (!options.searchTables && !verdicts.cuts.has("tableRows")) return { verdicts, tables: undefined };
  if (!options.searchTables && verdicts.hits.length > 0)
    return {
      verdicts,
      tables: {
        searched: false,
        cells: 0,
        capped: false,
        reason: "not searched, as matches were found outside them (search_tables: true searches them)",
      },
    };
  const read = await readTableCells(backend, candidates.roots, options.timeoutMs);
  candidates.entries = await flatAll(candidates.roots);
  return {
    verdicts: await judge(backend, parsed, candidates, options.timeoutMs),
    tables: { searched: true, ...read },
  };
}

/** Step 6: with no match where part of the scope is pixels only, the text may be painted there. */
async function pixelsOnlySurfaces(
  backend: AccessibilityReader,
  candidates: Candidates,
  timeoutMs: number,
): Promise<FlatEntry[]> {
  if (candidates.method !== "tree") return [];
  const surfaces = candidates.entries.filter((e) => mayBePixelsOnly(e.node));
  await enrichEntries(backend, surfaces, { maxText: 200, timeoutMs, accessibleIds: false });
  return surfaces.filter((e) => isPixelsOnly(e.node)).slice(0, 5);
}

/** A read of a window's top, deep enough for its menu bar's menus and their items. */
const MENU_BAR_READ = { maxDepth: 5, tableRows: 0, walkTables: false, nodeCeiling: 600 };

/** The names of the menus of the windows' menu bars that hold no item until opened (unfilledMenus). */
async function menusUnfilled(
  backend: AccessibilityReader,
  windows: WindowInfo[],
  timeoutMs: number,
): Promise<string[]> {
  const names: string[] = [];
  for (const window of windows.slice(0, 3)) {
    const read = await backend.readWindow(window.id, { ...MENU_BAR_READ, timeoutMs }).catch(() => undefined);
    if (read) for (const menu of unfilledMenus(everyNode(read.root))) if (menu.name) names.push(menu.name);
  }
  return names.slice(0, 8);
}

/** One match as the reply shows it, with a ref for it. */
function describeFound(
  refs: RefStore,
  snapshotId: string,
  entry: FlatEntry,
  apart?: Map<FlatEntry, TellApart>,
): FoundElement {
  const { node } = entry;
  const ref = refs.assign(snapshotId, node.handle, fingerprintOf(entry));
  const found: FoundElement = {
    ref,
    role: node.role,
    name: node.name ?? null,
    states: node.states ?? null,
    bounds: node.bounds ?? null,
    window: entry.windowId,
    ...(node.cell ? { cell: node.cell } : {}),
    ...(node.inferredLabel ? { inferred_label: node.inferredLabel } : {}),
    ...apart?.get(entry),
  };
  const value = shownValue(node, true);
  if (value !== undefined) {
    // A Value's number ("4") is not cut from its text ("4 caratteri"): only a text's length counts.
    const whole = Math.max(value.length, node.value === undefined ? (node.textLength ?? 0) : 0);
    found.value = value.slice(0, FOUND_VALUE_CHARS);
    if (whole > found.value.length) found.value_length = whole;
  }
  return found;
}

export async function findElements(
  backend: AccessibilityReader,
  refs: RefStore,
  target: SnapshotTarget,
  query: FindQuery,
  options: FindOptions,
): Promise<FindResult> {
  const parsed = parseQuery(query);
  const structure: StructureOptions = {
    maxDepth: options.maxDepth,
    tableRows: 0,
    walkTables: false,
    nodeCeiling: READ_CEILING,
    timeoutMs: options.timeoutMs,
  };
  const scope = await scopeOf(backend, refs, target, structure);
  const candidates =
    (await askTheApp(backend, parsed, scope, structure, options.timeoutMs)) ??
    (await readTree(backend, scope, options.timeoutMs));
  const first = await judge(backend, parsed, candidates, options.timeoutMs);
  const { verdicts, tables } = await searchTables(backend, parsed, candidates, first, options);
  const { cuts, unreadable } = verdicts;
  let { hits } = verdicts;
  const leftOut =
    options.offScreen === "leave_out"
      ? await leaveOut(backend, candidates.roots, hits, options.timeoutMs)
      : undefined;
  if (leftOut) hits = leftOut.kept;
  // A hidden copy is left out whatever else is: LibreOffice's reports `showing` without `visible`.
  const copies = withoutHiddenCopies(hits);
  if (copies) hits = copies.kept;
  const shown = hits.slice(0, options.limit);
  // Refs need bounds in their fingerprint: read them for what is shown.
  await enrichEntries(backend, [...shown, ...unreadable], {
    maxText: 200,
    timeoutMs: options.timeoutMs,
    accessibleIds: false,
  });
  for (const e of shown)
    await readShownParts(backend, e.node, { windowId: e.windowId, timeoutMs: options.timeoutMs });
  // Pixels are named only where the tree holds no match at all: one left out as off screen (on
  // another page of a tab list) is in the tree, and the reply says how to list it.
  const surfaces =
    verdicts.hits.length === 0 ? await pixelsOnlySurfaces(backend, candidates, options.timeoutMs) : [];
  // Nor can a menu hold a match before the app fills it: its menus that do so are named.
  const unfilled =
    verdicts.hits.length === 0 ? await menusUnfilled(backend, scope.windows, options.timeoutMs) : [];
  if (candidates.method === "collection") await readCells(backend, shown);
  const apart = await tellApart(backend, shown, candidates.roots);
  const rows = await rowsOf(backend, shown, candidates.roots, options.timeoutMs);
  const snapshotId = refs.newSnapshot();
  const text = "selector" in parsed ? parsed.selector.text : undefined;
  const describe = (entry: FlatEntry) => {
    const found = describeFound(refs, snapshotId, entry, apart);
    const row = rows.get(entry);
    const place = text === undefined ? undefined : textPlace(entry.node, text);
    const where =
      place === "label" || place === "value" || place === "description"
        ? { text_in: place, ...(place === "description" ? { description: entry.node.description! } : {}) }
        : {};
    return { ...found, ...(row ? { row } : {}), ...where };
  };
  const { incomplete, method } = candidates;
  return {
    snapshotId,
    matches: shown.map(describe),
    total: hits.length,
    truncated: hits.length > shown.length,
    searched_whole_window: cuts.size === 0 && incomplete.length === 0,
    cuts: [...cuts],
    ...(incomplete.length > 0 ? { tree_incomplete: incomplete } : {}),
    unreadable_candidates: unreadable.map((e) => ({ ...describe(e), unread: [...new Set(e.node.unread)] })),
    windows: scope.windows.map(({ id, title }) => ({ id, title })),
    method,
    ...(surfaces.length > 0 ? { pixels_only: surfaces.map(describe) } : {}),
    ...(unfilled.length > 0 ? { menus_unfilled: unfilled } : {}),
    ...(tables ? { tables } : {}),
    ...leftOutOf(leftOut, copies),
  };
}

/**
 * Found by the app itself (Collection), a match carries no read of the table around it: the
 * toolkit says which cell it is in.
 */
async function readCells(backend: AccessibilityReader, shown: FlatEntry[]): Promise<void> {
  if (!backend.cellPosition) return;
  await Promise.all(
    shown.map(async (e) => {
      if (e.node.cell) return;
      const cell = await backend.cellPosition!(e.node.handle).catch(() => undefined);
      if (cell) e.node.cell = cell;
    }),
  );
}

/** What was left out of the matches and why, where anything was. */
function leftOutOf(
  leftOut: { offScreen: number; repeats: number } | undefined,
  copies: { dropped: number } | undefined,
) {
  if (!((leftOut && leftOut.offScreen + leftOut.repeats > 0) || copies)) return {};
  return {
    left_out: {
      off_screen: leftOut?.offScreen ?? 0,
      repeats: leftOut?.repeats ?? 0,
      ...(copies ? { hidden_copies: copies.dropped } : {}),
    },
  };
}

/** Whether an ancestor is a popup closed while it claims to show (see isClosedPopup, closesItsPopup). */
function inClosedPopup(node: RawNode, parents: Map<RawNode, RawNode>): boolean {
  for (let up = parents.get(node); up; up = parents.get(up))
    if (isClosedPopup(up) || closesItsPopup(up)) return true;
  return false;
}

/**
 * A named match that is never shown (it does not report `visible`) beside one of the same role and
 * name that can be: LibreOffice keeps a hidden copy of its whole menu bar's items next to the ones
 * it shows. A person reaches only the second, so the first is no second match. Judged by the
 * element's own states, so a search the app answers (Collection) and a read of the tree agree.
 */
function withoutHiddenCopies(hits: FlatEntry[]): { kept: FlatEntry[]; dropped: number } | undefined {
  const hidden = (node: RawNode) =>
    !!node.name && !!node.states && node.states.length > 0 && !node.states.includes("visible");
  const key = (e: FlatEntry) => `${e.node.role}\u0000${e.node.name ?? ""}`;
  const reachable = new Set(hits.filter((e) => !hidden(e.node)).map(key));
  const kept = hits.filter((e) => !hidden(e.node) || !reachable.has(key(e)));
  return kept.length < hits.length ? { kept, dropped: hits.length - kept.length } : undefined;
}

/** The bounds of the menus and lists around matches, which tell whether they are closed (isClosedPopup). */
async function readPopupBounds(
  backend: AccessibilityReader,
  hits: FlatEntry[],
  parents: Map<RawNode, RawNode>,
  timeoutMs: number,
): Promise<void> {
  const popups = new Map<RawNode, FlatEntry>();
  for (const hit of hits)
    for (let up = parents.get(hit.node); up; up = parents.get(up))
      if (!up.enriched && mayBeClosedPopup(up) && !popups.has(up)) popups.set(up, { ...hit, node: up });
  if (popups.size > 0)
    await enrichEntries(backend, [...popups.values()], { maxText: 0, timeoutMs, accessibleIds: false });
}

/** Each read node's parent, from the roots read. */
function parentsOf(roots: { node: RawNode }[]): Map<RawNode, RawNode> {
  const parents = new Map<RawNode, RawNode>();
  const walk = (node: RawNode) => {
    for (const child of node.children) {
      parents.set(child, node);
      walk(child);
    }
  };
  for (const root of roots) walk(root.node);
  return parents;
}

type TellApart = Pick<FoundElement, "group" | "description">;

/** Matches in a table whose row is read across; columns of a row read. */
const ROWS_READ = 10;
const ROW_COLUMNS = 20;

/**
 * Each cell match's row, read across (PID, name and memory beside the cell found): from its table,
 * the nearest table above it in the tree read, or asked of the app. A row that cannot be read is
 * left out, never guessed.
 */
async function rowsOf(
  backend: AccessibilityReader,
  shown: FlatEntry[],
  roots: { node: RawNode }[],
  timeoutMs: number,
): Promise<Map<FlatEntry, Record<string, string | null>>> {
  const rows = new Map<FlatEntry, Record<string, string | null>>();
  const parents = parentsOf(roots);
  const inCells = shown.filter((e) => e.node.cell).slice(0, ROWS_READ);
  await Promise.all(
    inCells.map(async (e) => {
      let table: string | undefined;
      for (let p = parents.get(e.node); p && !table; p = parents.get(p))
        if (TABLE_ROLES.has(p.role)) table = p.handle;
      table ??= (await backend.ancestorsOf?.(e.node.handle, ANCESTORS_READ).catch(() => []))?.find((a) =>
        TABLE_ROLES.has(a.role),
      )?.handle;
      if (!table) return;
      const row = e.node.cell!.row;
      const read = await bounded(backend.readTable(table, row, 1, ROW_COLUMNS), timeoutMs, "a row").catch(
        () => undefined,
      );
      if (!read) return;
      const across: Record<string, string | null> = {};
      for (const cell of read.cells.filter((c) => c.row === row))
        across[read.headers[cell.column] || `column ${cell.column}`] = cell.text;
      if (Object.keys(across).length > 0) rows.set(e, across);
    }),
  );
  return rows;
}

/** Ancestors read up from a match the app found itself (Collection), where no tree was read. */
const ANCESTORS_READ = 6;

/**
 * Matches of the same role and name (two "Menu" toggle buttons), told apart by what a person tells
 * them apart by beside their place: the group each is in, the nearest named ancestor not every
 * other has (a tool bar "Formatting" against "Standard"), and its description (a tooltip), where
 * theirs differ. Ancestors come from the tree read, or are asked of the app.
 */
async function tellApart(
  backend: AccessibilityReader,
  shown: FlatEntry[],
  roots: { node: RawNode }[],
): Promise<Map<FlatEntry, TellApart>> {
  const apart = new Map<FlatEntry, TellApart>();
  // Elements with neither a name nor a label are told apart by their places alone.
  const key = ({ node }: FlatEntry) =>
    node.name || node.inferredLabel
      ? `${node.role}\u0000${node.name ?? ""}\u0000${node.inferredLabel ?? ""}`
      : undefined;
  const sets = alikeSets(shown, key, TOLD_APART);
  if (sets.length === 0) return apart;
  const parents = parentsOf(roots);
  const groupsUp = async (e: FlatEntry): Promise<string[]> => {
    const up: { role: string; name: string | undefined }[] = [];
    for (let p = parents.get(e.node); p; p = parents.get(p)) up.push(p);
    const chain =
      up.length > 0
        ? up
        : ((await backend.ancestorsOf?.(e.node.handle, ANCESTORS_READ).catch(() => [])) ?? []);
    return chain
      .filter((a) => a.name && a.role !== "application" && !WINDOW_ROLES.has(a.role))
      .map((a) => groupName(a.role, a.name!));
  };
  for (const set of sets) {
    const groups = groupsApart(await Promise.all(set.map(groupsUp)));
    const descriptions = descriptionsApart(set.map((e) => e.node.description));
    set.forEach((e, i) => {
      const group = groups[i];
      const description = descriptions[i];
      if (group || description)
        apart.set(e, { ...(group ? { group } : {}), ...(description ? { description } : {}) });
    });
  }
  return apart;
}

/**
 * The find tool's economy: matches not on screen, and labels that repeat the name of a match they sit
 * in, are left out and counted. Where it cannot be told whether the app reports `showing` (an app
 * searched through Collection before any read of it), nothing is taken to be off screen.
 */
async function leaveOut(
  backend: AccessibilityReader,
  roots: { node: RawNode }[],
  hits: FlatEntry[],
  timeoutMs: number,
): Promise<{ kept: FlatEntry[]; offScreen: number; repeats: number }> {
  const parents = parentsOf(roots);
  const matched = new Set(hits.map((e) => e.node));
  // Found through Collection, with no tree read: the app's last read says, else the candidates
  // themselves (any of them `showing` means the toolkit reports it).
  const anyShowing = hits.some((e) => e.node.states?.includes("showing")) ? true : undefined;
  // Asked once: it walks the whole tree where nothing reports `showing` (GTK 4.8), and asked per
  // match it held the event loop 35 ms for a `//*` of gtk4-widget-factory.
  const treeReports = roots.length > 0 ? roots.some((r) => reportsShowing(r.node)) : undefined;
  const reports = (e: FlatEntry) => treeReports ?? backend.reportsShowing?.(e.node.handle) ?? anyShowing;
  // GTK 4.8: on screen is visible with an area, which the bounds read tells.
  const inferred = hits.filter((e) => reports(e) === false);
  if (inferred.length > 0)
    await enrichEntries(backend, inferred, { maxText: 200, timeoutMs, accessibleIds: false });
  await readPopupBounds(backend, hits, parents, timeoutMs);
  let offScreen = 0;
  let repeats = 0;
  const kept = hits.filter((e) => {
    const showing = reports(e);
    if (showing !== undefined && (!isShown(e.node, showing) || inClosedPopup(e.node, parents))) {
      offScreen++;
      return false;
    }
    const parent = parents.get(e.node);
    if (parent && matched.has(parent) && isEcho(e.node, parent.name ?? "")) {
      repeats++;
      return false;
    }
    return true;
  });
  return { kept, offScreen, repeats };
}
