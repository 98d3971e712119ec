// Reading an accessible tree fast. The bulk Cache.GetItems answers role, name, states, interfaces and
// child count for a whole app in one call, but some toolkits fill it partly (Java, and the cells of GTK3
// tables) or not at all (Qt). So the cache is used node by node only where it proves complete (its
// children match the node's child count); everything else is read with concurrent per-node calls.

import { DBusTimeoutError } from "../dbus.js";
import { lastInputSent } from "../input-turns.js";
import { plainFromMarkup } from "../markup.js";
import { INTERFACES, type Interface, type State, TABLE_ROLES } from "../roles.js";
import { startAll, yieldIfDue } from "../slice.js";
import { cutString } from "../strings.js";
import type { ChildrenCut, RawNode, StructureOptions, StructureRead } from "../types.js";
import type { AtspiApp } from "./app.js";
import { markComboFace } from "./combo-face.js";
import { CACHE_PATH, IFACE, NULL_PATH } from "./names.js";
import { roleName } from "./roles.js";
import { statesFromBitset } from "./states.js";

/** Children beyond this count are never walked: LibreOffice's sheet reports 2^34 cells. */
const HUGE_CHILD_COUNT = 5000;
/** Columns of a paged table shown at most: a spreadsheet has 16,384. */
const MAX_TABLE_COLUMNS = 64;

interface CacheItem {
  path: string;
  parentPath: string;
  index: number;
  childCount: number;
  interfaces: Interface[];
  name: string;
  role: number;
  description: string;
  states: number[];
  /** What its toolkit's type name says of it, where the name was one (typeStates). */
  typeStates: State[];
}

type RawCacheItem = [
  [string, string],
  [string, string],
  [string, string],
  number,
  number,
  string[],
  string,
  number,
  string,
  number[],
];

/** Each node's parent in the tree it was read in: enrichment asks an ancestor whether it is on screen. */
const parents = new WeakMap<RawNode, RawNode>();

export function parentOf(node: RawNode): RawNode | undefined {
  return parents.get(node);
}

export function handleOf(bus: string, path: string): string {
  return `${bus}${path}`;
}

export function parseHandle(handle: string): { bus: string; path: string } {
  const slash = handle.indexOf("/");
  return { bus: handle.slice(0, slash), path: handle.slice(slash) };
}

/** A GTK widget's type name ("GtkToggleButton", "GtkImage"): GTK 4 passes it through where the app gave no name. */
const GTK_TYPE_NAME = /^Gtk[A-Z][A-Za-z0-9]*$/;

/**
 * A name as the app meant it. Toolkits pad names ("File ", Java menu items with trailing spaces), so
 * it is trimmed; GTK 4.8 doubles a button's name, label and child text ("Save Save"): it is said once.
 * GTK 4 names an element the app left unnamed by its widget type ("GtkToggleButton", and a button by
 * its child's, "GtkImage"): that is the toolkit's word, not the app's, so the element is unnamed (and
 * the gate does not read "toggle button" as what it does).
 */
export function cleanName(
  name: string,
  app?: Partial<Pick<AtspiApp, "doublesNames" | "namesByType" | "namesInMarkup">>,
): string {
  const cut = cutString(name.trim());
  const trimmed = app?.namesInMarkup ? plainFromMarkup(cut) : cut;
  if (app?.namesByType && GTK_TYPE_NAME.test(trimmed)) return "";
  if (!app?.doublesNames) return trimmed;
  const half = (trimmed.length - 1) / 2;
  if (
    Number.isInteger(half) &&
    half > 0 &&
    trimmed[half] === " " &&
    trimmed.slice(0, half) === trimmed.slice(half + 1)
  )
    return trimmed.slice(0, half);
  return unmarkedDouble(trimmed) ?? trimmed;
}

/**
 * What a widget type passed through as a name says the element is, where its states do not: GTK 4.8
 * gives a menu button no has-popup, and one shown as an icon alone is named "GtkMenuButton" (its
 * toggle button inside, too). That it opens a popup is the toolkit's own word for it.
 */
export function typeStates(name: string, app?: Partial<Pick<AtspiApp, "namesByType">>): State[] {
  return app?.namesByType && name.trim() === "GtkMenuButton" ? ["has popup"] : [];
}

const withTypeStates = (states: State[], typed: readonly State[]) =>
  typed.length === 0 ? states : [...new Set([...states, ...typed])];

/**
 * A label GTK 4.8 doubles with its mnemonic marked in the first copy ("_Guardar… Guardar…",
 * "Reempl_azar todo Reemplazar todo"): the second, as the button shows it.
 */
function unmarkedDouble(name: string): string | undefined {
  if (!name.includes("_")) return undefined;
  for (let at = name.indexOf(" "); at > 0; at = name.indexOf(" ", at + 1)) {
    const first = name.slice(0, at);
    const second = name.slice(at + 1);
    if (first.includes("_") && first.replace(/_(.)/gu, "$1") === second) return second;
  }
  return undefined;
}

const KNOWN_INTERFACES: ReadonlySet<string> = new Set(INTERFACES);

/** AT-SPI's interface names as the vocabulary's short ones; one the vocabulary lacks is left out. */
export function shortInterfaces(names: readonly string[]): Interface[] {
  return names
    .map((name) => name.replace(/^org\.a11y\.atspi\./, ""))
    .filter((name): name is Interface => KNOWN_INTERFACES.has(name));
}

export async function readCache(
  app: AtspiApp,
  timeoutMs: number,
): Promise<Map<string, CacheItem> | undefined> {
  try {
    const [items] = await app.call(CACHE_PATH, IFACE.cache, "GetItems", timeoutMs);
    const byPath = new Map<string, CacheItem>();
    for (const raw of items as RawCacheItem[]) {
      const turn = yieldIfDue();
      if (turn) await turn;
      byPath.set(raw[0][1], {
        path: raw[0][1],
        parentPath: raw[2][1],
        index: raw[3],
        childCount: raw[4],
        interfaces: shortInterfaces(raw[5]),
        name: cleanName(raw[6], app),
        role: raw[7],
        description: cutString(raw[8]),
        states: raw[9],
        typeStates: typeStates(raw[6], app),
      });
    }
    return byPath.size > 0 ? byPath : undefined;
  } catch {
    return undefined;
  }
}

interface ReadContext {
  app: AtspiApp;
  options: StructureOptions;
  deadline: number;
  cache: Map<string, CacheItem> | undefined;
  /** The cache is one kept from an earlier read (keptCache). */
  cacheKept: boolean;
  cacheChildren: Map<string, CacheItem[]>;
  count: number;
  timedOut: boolean;
  ceilingHit: boolean;
  usedCache: number;
  usedCalls: number;
  /** Work started per node as it is read (eager enrichment), awaited before the read returns. */
  onNode: ((node: RawNode) => Promise<void>) | undefined;
  pending: Promise<void>[];
  /** The Parent each node read with calls reported, to catch children lists that skip a level. */
  reportedParent: Map<string, string>;
  /** Children lists already read while counting a node's children. */
  childrenRead: Map<string, string[]>;
}

function remaining(context: ReadContext): number {
  return Math.max(1, context.deadline - Date.now());
}

function nodeFromCache(app: AtspiApp, item: CacheItem, indexInParent: number): RawNode {
  return {
    handle: handleOf(app.busName, item.path),
    role: roleName(item.role),
    name: item.name,
    description: item.description,
    states: withTypeStates(statesFromBitset(item.states), item.typeStates),
    interfaces: item.interfaces,
    childCount: item.childCount,
    indexInParent,
    children: [],
    unread: [],
  };
}

/** Reads one node with per-node calls, all issued at once. */
async function nodeFromCalls(context: ReadContext, path: string, indexInParent: number): Promise<RawNode> {
  const { app } = context;
  const timeout = remaining(context);
  context.usedCalls++;
  const [role, states, interfaces, properties] = await Promise.allSettled([
    app.call(path, IFACE.accessible, "GetRole", timeout),
    app.call(path, IFACE.accessible, "GetState", timeout),
    app.call(path, IFACE.accessible, "GetInterfaces", timeout),
    app.getAllIsSafe
      ? app.call(path, IFACE.properties, "GetAll", timeout, "s", [IFACE.accessible])
      : Promise.reject(new Error("GetAll is not asked of this toolkit")),
  ]);
  const node: RawNode = {
    handle: handleOf(app.busName, path),
    role: role.status === "fulfilled" ? roleName(Number(role.value[0])) : "unknown",
    name: undefined,
    description: undefined,
    states: states.status === "fulfilled" ? statesFromBitset(states.value[0] as number[]) : undefined,
    interfaces:
      interfaces.status === "fulfilled" ? shortInterfaces(interfaces.value[0] as string[]) : undefined,
    childCount: undefined,
    indexInParent,
    children: [],
    unread: [],
  };
  if (role.status === "rejected") node.unread.push("role");
  if (states.status === "rejected") node.unread.push("states");
  if (interfaces.status === "rejected") node.unread.push("interfaces");
  if (properties.status === "fulfilled") {
    const pairs = properties.value[0] as [string, [unknown, unknown[]]][];
    const props = new Map(pairs.map(([key, variant]) => [key, variant[1][0]]));
    node.name = props.has("Name") ? cleanName(String(props.get("Name")), app) : undefined;
    if (node.states)
      node.states = withTypeStates(node.states, typeStates(String(props.get("Name") ?? ""), app));
    node.description = props.has("Description") ? cutString(String(props.get("Description"))) : undefined;
    node.childCount = props.has("ChildCount") ? Number(props.get("ChildCount")) : undefined;
    const parent = props.get("Parent") as [string, string] | undefined;
    if (parent) context.reportedParent.set(path, parent[1]);
  } else {
    // Some toolkits do not implement GetAll; ask for each property.
    const read = (property: string) => app.property(path, IFACE.accessible, property, remaining(context));
    const [name, description, childCount] = await Promise.allSettled([
      read("Name"),
      read("Description"),
      read("ChildCount"),
    ]);
    if (name.status === "fulfilled") node.name = cleanName(String(name.value), app);
    if (name.status === "fulfilled" && node.states)
      node.states = withTypeStates(node.states, typeStates(String(name.value), app));
    if (description.status === "fulfilled") node.description = cutString(String(description.value));
    if (childCount.status === "fulfilled") node.childCount = Number(childCount.value);
  }
  if (node.name === undefined) node.unread.push("name");
  if (node.description === undefined) node.unread.push("description");
  if (node.childCount === undefined) node.unread.push("childCount");
  return node;
}

async function readChildCount(context: ReadContext, node: RawNode, path: string): Promise<void> {
  try {
    // A menu's children are asked for at once: one call gives the count and the list, and a menu is
    // never huge. Anything else is counted first: it may be LibreOffice's sheet, whose GetChildren
    // builds 2^34 cells and brings the app down.
    if (node.role === "menu") {
      const [children] = await context.app.call(path, IFACE.accessible, "GetChildren", remaining(context));
      const paths = (children as [string, string][]).map(([, childPath]) => childPath);
      node.childCount = paths.length;
      context.childrenRead.set(path, paths);
      return;
    }
    node.childCount = Number(
      await context.app.property(path, IFACE.accessible, "ChildCount", remaining(context)),
    );
  } catch {
    node.childCount = undefined;
    node.unread.push("childCount");
  }
}

async function readDescription(context: ReadContext, node: RawNode, path: string): Promise<void> {
  try {
    const description = await context.app.property(path, IFACE.accessible, "Description", remaining(context));
    node.description = cutString(String(description));
  } catch {
    node.description = undefined;
    node.unread.push("description");
  }
}

async function readNode(
  context: ReadContext,
  path: string,
  indexInParent: number,
  parent: RawNode | undefined,
): Promise<RawNode> {
  const cached = context.cache?.get(path);
  let node: RawNode;
  if (cached) {
    context.usedCache++;
    node = nodeFromCache(context.app, cached, indexInParent);
    // GTK3 caches -1 as the child count of menus it has not built yet, LibreOffice for 155 of its
    // 1,850 nodes: the rest of the item holds, so only the count is asked of the node itself.
    if (cached.childCount < 0) await readChildCount(context, node, path);
    // A kept cache's descriptions may be old: Swing's is the tooltip, which an app may make up as it
    // is asked (jEdit's clock says the time to the second) and changes with no event.
    if (context.cacheKept) await readDescription(context, node, path);
  } else {
    node = await nodeFromCalls(context, path, indexInParent);
  }
  if (parent) parents.set(node, parent);
  if (context.onNode) context.pending.push(context.onNode(node));
  return node;
}

async function childPaths(context: ReadContext, node: RawNode): Promise<string[]> {
  const { path } = parseHandle(node.handle);
  const read = context.childrenRead.get(path);
  if (read) return read;
  const cached = context.cacheChildren.get(path);
  // The cache is trusted for a node only when it holds every child the node reports, in a known order.
  // A lone child needs no order: GTK 4.8 caches page wrappers' only child with index 1.
  const ordered = (items: CacheItem[]) => items.length === 1 || items.every((item, i) => item.index === i);
  if (cached && cached.length === node.childCount && ordered(cached)) {
    return cached.map((item) => item.path);
  }
  const [children] = await context.app.call(path, IFACE.accessible, "GetChildren", remaining(context));
  const paths = (children as [string, string][]).map(([, childPath]) => childPath);
  if (node.childCount !== undefined && paths.length !== node.childCount) {
    // GTK4 4.8's GetChildren skips page wrappers that GetChildAtIndex includes; ask by index.
    const byIndex = await Promise.all(
      Array.from({ length: node.childCount }, (_, i) =>
        context.app.call(path, IFACE.accessible, "GetChildAtIndex", remaining(context), "i", [i]),
      ),
    );
    return byIndex.map(([ref]) => (ref as [string, string])[1]);
  }
  return paths;
}

/** Reads the first rows of a table through the Table interface instead of walking every cell. */
async function tableRows(
  context: ReadContext,
  node: RawNode,
): Promise<{
  paths: string[];
  indexes: number[];
  cells: { row: number; column: number }[];
  cut: Extract<ChildrenCut, { reason: "table" }>;
}> {
  const { path } = parseHandle(node.handle);
  const { app } = context;
  const [rows, columns] = await Promise.all([
    app.property(path, IFACE.table, "NRows", remaining(context)),
    app.property(path, IFACE.table, "NColumns", remaining(context)),
  ]);
  const rowCount = Number(rows);
  const columnCount = Number(columns);
  const rowsRead = Math.min(rowCount, context.options.tableRows);
  const columnsRead = Math.min(columnCount, MAX_TABLE_COLUMNS);
  const at = Array.from({ length: rowsRead * columnsRead }, (_, i) => [
    Math.floor(i / columnsRead),
    i % columnsRead,
  ]);
  // A cell's index among the table's children is the table's to say (GTK3 counts its column
  // headers first; Calc has 16,384 columns a row): a ref records it and verification checks it.
  const cells = await startAll(at, ([row, column]) =>
    Promise.all([
      app.call(path, IFACE.table, "GetAccessibleAt", remaining(context), "ii", [row, column]),
      app.call(path, IFACE.table, "GetIndexAt", remaining(context), "ii", [row, column]).then(
        ([index]) => Number(index),
        () => row! * columnCount + column!,
      ),
    ]),
  );
  const kept = cells
    .map((cell, i) => ({ cell, at: at[i]! }))
    .filter(({ cell: [[ref]] }) => (ref as [string, string])[1] !== NULL_PATH);
  const read = cells.filter(([[ref]]) => (ref as [string, string])[1] !== NULL_PATH);
  return {
    paths: read.map(([[ref]]) => (ref as [string, string])[1]),
    indexes: read.map(([, index]) => index),
    cells: kept.map(({ at: [row, column] }) => ({ row: row!, column: column! })),
    cut: { reason: "table", rows: rowCount, columns: columnCount, rowsRead, columnsRead },
  };
}

/**
 * Views that may be asked for children past their count, when they count some: Qt's table and list
 * views divide the index by their column count, so one that counts no children (no columns) dies of
 * the division (KDE's editor, Kate, did at its first observe); a tree view is never asked (it looks
 * the row up in its own items). Past a count of one or more they answer nothing, or the item.
 */
const PAST_ROLES = new Set(["list", "list box", "table"]);

/** Children asked for by index at once, past where an item view says its children end. */
const PAST_BATCH = 32;
/** Missing children in a row that end an item view: a Qt table misses one row header per row. */
const PAST_END = 2;

/**
 * The children an item view has past the count it reports, asked by index until PAST_END in a row
 * are missing. Qt 5.15 counts the rows of its model's root, not of the folder a view shows: a
 * QListView on a QFileSystemModel reports 4 children, one row's columns, and answers for the 40 after
 * them; a QTableView reports one row and answers for the cells of the others, though not for their
 * row headers. KDE's file view reports 0 rows. Two calls tell whether there are any.
 */
async function childrenPast(context: ReadContext, node: RawNode, from: number): Promise<string[]> {
  if (from === 0 || !PAST_ROLES.has(node.role)) return [];
  const { path } = parseHandle(node.handle);
  const at = (index: number) =>
    context.app.call(path, IFACE.accessible, "GetChildAtIndex", remaining(context), "i", [index]).then(
      ([ref]) => (ref as [string, string])[1],
      () => NULL_PATH,
    );
  const probe = await Promise.all(Array.from({ length: PAST_END }, (_, i) => at(from + i)));
  if (probe.every((p) => p === NULL_PATH)) return [];
  const limit = Math.min(HUGE_CHILD_COUNT, context.options.nodeCeiling - context.count) - from;
  const found: string[] = [];
  let missing = 0;
  for (let start = from; found.length < limit && missing < PAST_END; start += PAST_BATCH) {
    const batch = await Promise.all(Array.from({ length: PAST_BATCH }, (_, i) => at(start + i)));
    for (const child of batch) {
      missing = child === NULL_PATH ? missing + 1 : 0;
      if (missing >= PAST_END) break;
      if (child !== NULL_PATH) found.push(child);
    }
  }
  return found.slice(0, Math.max(0, limit));
}

/** An item view's children: those listed, and those past them its counts leave out (see childrenPast). */
async function itemViewChildren(context: ReadContext, node: RawNode, listed: string[]): Promise<string[]> {
  return [...listed, ...(await childrenPast(context, node, listed.length))];
}

/**
 * An item view whose Table interface leaves out its items: read_table would read the wrong rows, so
 * the interface is not offered, and its count is of the items it shows (Qt's columns a list view
 * does not show are children that are not visible).
 */
function readAsItems(node: RawNode): void {
  node.interfaces = (node.interfaces ?? []).filter((i) => i !== "Table");
  node.childCount = node.children.filter((child) => child.states?.includes("visible") ?? true).length;
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A table's children read through its Table interface: its cells, each with its row and column,
 * cut where the table is long. Its items are its children where the interface leaves them out: no
 * cells, yet more children than a row of column headers (KDE's file view says 0 rows; an empty
 * table keeps its headers), or children past its count (Qt's, see childrenPast).
 */
async function tableChildren(
  context: ReadContext,
  node: RawNode,
  childCount: number,
): Promise<{
  paths: string[];
  indexes?: number[];
  cells?: { row: number; column: number }[];
  itemsRead: boolean;
}> {
  const table = await tableRows(context, node);
  node.childrenCut = table.cut;
  const headers = table.cut.columns + 1;
  const noCells = table.cut.rows * table.cut.columns === 0 && (childCount === 0 || childCount > headers);
  const past = childCount <= HUGE_CHILD_COUNT ? await childrenPast(context, node, childCount) : [];
  if ((noCells && childCount <= HUGE_CHILD_COUNT) || past.length > 0) {
    const listed = childCount > 0 ? await childPaths(context, node) : [];
    const items = [...listed, ...(listed.length === childCount ? past : [])];
    if (items.length > 0) {
      delete node.childrenCut;
      return { paths: items, itemsRead: true };
    }
  }
  return { paths: table.paths, indexes: table.indexes, cells: table.cells, itemsRead: false };
}

/**
 * GTK 4.8's GetChildren hands back grandchildren in place of the page wrappers between them; where
 * a child's reported parent is not this node, its children are read again by GetChildAtIndex,
 * which, like the cache and pyatspi, returns the real children.
 */
async function rereadStrays(context: ReadContext, node: RawNode, count: number): Promise<void> {
  const nodePath = parseHandle(node.handle).path;
  const strays = (node.children ?? []).filter((child) => {
    const parent = context.reportedParent.get(parseHandle(child.handle).path);
    return parent !== undefined && parent !== nodePath;
  });
  if (strays.length === 0) return;
  const byIndex = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      context.app.call(nodePath, IFACE.accessible, "GetChildAtIndex", remaining(context), "i", [i]),
    ),
  );
  node.children = await startAll(byIndex, ([ref], index) =>
    readNode(context, (ref as [string, string])[1], index, node),
  );
}

async function expand(context: ReadContext, node: RawNode, depth: number): Promise<RawNode[]> {
  const childCount = node.childCount ?? 0;
  if (childCount === 0 && !(node.interfaces ?? []).includes("Table")) return [];
  if (depth >= context.options.maxDepth) {
    if (childCount > 0) node.childrenCut = { reason: "maxDepth" };
    return [];
  }
  if (Date.now() >= context.deadline) {
    context.timedOut = true;
    node.childrenCut = { reason: "timeout" };
    return [];
  }
  try {
    let paths: string[];
    let indexes: number[] | undefined;
    let cells: { row: number; column: number }[] | undefined;
    const isTable = TABLE_ROLES.has(node.role) && (node.interfaces ?? []).includes("Table");
    const itemView = (node.interfaces ?? []).includes("Table");
    let itemsRead = false;
    if (isTable && !context.options.walkTables) {
      ({ paths, indexes, cells, itemsRead } = await tableChildren(context, node, childCount));
    } else if (childCount > HUGE_CHILD_COUNT) {
      node.childrenCut = { reason: "hugeChildCount", childCount };
      return [];
    } else if (node.childCount === undefined) {
      // A table whose count did not come back may be LibreOffice's sheet: GetChildren on it builds
      // every one of its 2^34 cells and brings the app down.
      node.childrenCut = { reason: "unreadable", error: "its child count could not be read" };
      return [];
    } else {
      paths = await childPaths(context, node);
      if (itemView) {
        const items = await itemViewChildren(context, node, paths);
        itemsRead = items.length > paths.length;
        paths = items;
      }
    }
    const budget = context.options.nodeCeiling - context.count;
    if (paths.length > budget) {
      context.ceilingHit = true;
      node.childrenCut = { reason: "nodeCeiling", childrenRead: Math.max(0, budget) };
      paths = paths.slice(0, Math.max(0, budget));
    }
    context.count += paths.length;
    node.children = await startAll(paths, (childPath, index) =>
      readNode(context, childPath, indexes?.[index] ?? index, node),
    );
    if (itemsRead) readAsItems(node);
    markComboFace(node.children);
    // A cell read through the Table interface knows its row and column; what sits inside a cell (a
    // link, a button, a label) is in that cell too.
    for (const [i, child] of node.children.entries()) {
      const cell = cells ? cells[i] : node.cell;
      if (cell) child.cell = cell;
    }
    await rereadStrays(context, node, paths.length);
    return node.children;
  } catch (error) {
    if (error instanceof DBusTimeoutError || Date.now() >= context.deadline) {
      context.timedOut = true;
      node.childrenCut = { reason: "timeout" };
    } else {
      node.childrenCut = { reason: "unreadable", error: describeError(error) };
    }
    return [];
  }
}

/**
 * How many times an element read with its own calls costs a cache item, at most, where a window is
 * read alone rather than through the app's whole cache. Java's wrapper answers Cache.GetItems at
 * 0.25–0.35 ms an item and the calls for one element (role, states, interfaces, properties, its
 * share of its parent's children) at 0.65–0.85 ms, both crossing into the Swing thread for every
 * field; measured on jEdit, whose first-start Help window holds half its 715 cached items.
 */
const JAVA_CALLS_PER_ITEM = 4;

/**
 * Whether a root is cheaper read with its own calls than through the app's whole cache: a Java app's
 * cache holds every element of every window it has open (and its wrapper answers it an element at a
 * time), so a dialog of 40 elements costs as much as its 700-element main window. Judged by what the
 * last read of the same root with the same bounds found; a root never read goes through the cache.
 */
function smallBesideCache(app: AtspiApp, key: string): boolean {
  if (!app.isJava || app.cacheItems === undefined) return false;
  const nodes = app.nodesRead(key);
  return nodes !== undefined && nodes * JAVA_CALLS_PER_ITEM <= app.cacheItems;
}

/**
 * How long after deskhand's last input or action on an app its kept cache is not used: the app's
 * events about what it changed come later (Java's about 72 ms after a state change, measured).
 */
const SETTLE_MS = 1000;

/**
 * A Java app's last cache answer, where it still holds: every change the app makes to an element it
 * holds is heard as an event (state, property, visible data, children) and drops it (AtspiApp), and
 * no input or action of deskhand's is that recent. Java's wrapper answers Cache.GetItems an element
 * at a time, crossing into the Swing thread for every field, for every window the app has (715 items
 * for jEdit's first start, 200–450 ms), where pyatspi's libatspi keeps its cache from the same
 * events. Other toolkits answer it in a few milliseconds an app and are asked each time.
 */
async function keptCache(
  app: AtspiApp,
  rootPath: string,
  timeoutMs: number,
): Promise<Map<string, CacheItem> | undefined> {
  if (!app.isJava || app.changesHeardFrom === undefined) return undefined;
  if (Date.now() - Math.max(app.lastActedAt, lastInputSent()) < SETTLE_MS) return undefined;
  const kept = app.kept as Map<string, CacheItem> | undefined;
  if (!kept) return undefined;
  // An app that died sends no event: it is asked one thing first, and one that does not answer
  // is read as any other, which says it is gone.
  try {
    await app.property(rootPath, IFACE.accessible, "ChildCount", Math.min(timeoutMs, 1000));
    return kept;
  } catch {
    app.forgetKept();
    return undefined;
  }
}

/**
 * The cache's items by their parent, in order; and whether the app reports `showing` (any element
 * but a window says it), read from the same items.
 */
async function childrenInCache(
  app: AtspiApp,
  cache: Map<string, CacheItem> | undefined,
): Promise<Map<string, CacheItem[]>> {
  const cacheChildren = new Map<string, CacheItem[]>();
  if (!cache) return cacheChildren;
  const frames = new Set(["frame", "window", "dialog"]);
  app.reportsShowing = false;
  for (const item of cache.values()) {
    const turn = yieldIfDue();
    if (turn) await turn;
    if (!frames.has(roleName(item.role)) && statesFromBitset(item.states).includes("showing")) {
      app.reportsShowing = true;
      break;
    }
  }
  for (const item of cache.values()) {
    const turn = yieldIfDue();
    if (turn) await turn;
    const siblings = cacheChildren.get(item.parentPath);
    if (siblings) siblings.push(item);
    else cacheChildren.set(item.parentPath, [item]);
  }
  for (const siblings of cacheChildren.values()) siblings.sort((a, b) => a.index - b.index);
  return cacheChildren;
}

/** A window's tree under `rootPath`, bounded by the options: from the app's cache where it answers, else a call a node. */
export async function readStructure(
  app: AtspiApp,
  rootPath: string,
  options: StructureOptions,
  onNode?: (node: RawNode) => Promise<void>,
): Promise<StructureRead> {
  const deadline = Date.now() + options.timeoutMs;
  const readKey = `${rootPath} ${options.maxDepth} ${options.nodeCeiling} ${options.walkTables}`;
  // For one node, four calls cost less than the app's whole cache.
  // The cache gets half the budget at most: an app that does not answer it must leave time to say so.
  const kept = options.maxDepth === 0 ? undefined : await keptCache(app, rootPath, options.timeoutMs);
  const cache =
    kept ??
    (options.maxDepth === 0 || !app.cacheIsSafe || smallBesideCache(app, readKey)
      ? undefined
      : await app.readAndKeep(() => readCache(app, Math.min(options.timeoutMs / 2, 5000)), app.isJava));
  if (cache) app.cacheItems = cache.size;
  const cacheChildren = await childrenInCache(app, cache);
  const context: ReadContext = {
    app,
    options,
    deadline,
    cache,
    cacheKept: kept !== undefined,
    cacheChildren,
    count: 1,
    timedOut: false,
    ceilingHit: false,
    usedCache: 0,
    usedCalls: 0,
    onNode,
    pending: [],
    reportedParent: new Map(),
    childrenRead: new Map(),
  };
  const root = await readNode(context, rootPath, 0, undefined);
  if (root.unread.includes("role") && root.unread.includes("name")) {
    // Before the deadline, and with nothing left unanswered lately, the app refused: an error.
    const early = Date.now() < deadline;
    if (early && !app.silent) throw new Error(`the application did not answer for ${rootPath}`);
    // A hung app: what could be read is the answer, with the reason named, not an error.
    root.childrenCut = { reason: "timeout" };
    return {
      root,
      method: early
        ? "nothing answered: the app has answered no call since one went unanswered"
        : `nothing answered within ${options.timeoutMs} ms`,
      timedOut: true,
      ceilingHit: false,
    };
  }
  // Each node is expanded as soon as it is read, with no wait for the rest of its level: every call
  // that can be in flight is, and a slow branch does not hold up the others.
  const visit = async (node: RawNode, depth: number): Promise<void> => {
    // Children taken from the cache need no call, so nothing else would let the event loop turn.
    const turn = yieldIfDue();
    if (turn) await turn;
    const children = await expand(context, node, depth);
    await Promise.all(children.map((child) => visit(child, depth + 1)));
  };
  await visit(root, 0);
  await Promise.all(context.pending);
  if (!context.timedOut) app.rememberNodesRead(readKey, context.count);
  const source = context.cacheKept ? "kept cache" : "cache";
  const method =
    context.usedCalls === 0
      ? source
      : context.usedCache === 0
        ? "per-node calls"
        : `${source} + per-node calls`;
  return {
    root,
    method: `${method} via ${app.route}`,
    timedOut: context.timedOut,
    ceilingHit: context.ceilingHit,
  };
}
