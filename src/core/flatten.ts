// A read tree laid out in document order, with the filters (visibleOnly, onlyInteractive) applied.

import { roleSet } from "../platform/roles.js";
import { shownByStates } from "../platform/shown.js";
import { yieldIfDue } from "../platform/slice.js";
import { leftOut, type RawNode } from "../platform/types.js";
import { isPixelsOnly } from "./pixels.js";
import type { Fingerprint } from "./refs.js";
import { takesText } from "./value.js";

export interface FlatEntry {
  node: RawNode;
  /** Depth among the entries kept: a node dropped by onlyInteractive or merged lifts its children. */
  depth: number;
  /** Child indices from the window's root to this node. */
  path: number[];
  /** false: `path` starts at a root that is not the window (see Fingerprint.fromWindow). */
  fromWindow?: boolean;
  windowId: number | null;
  /** In the screen view: what of this element is folded because it is not on screen. */
  fold?: Fold;
  /** It says it has the focus only as a proxy of a field that has it (markFocusProxies). */
  focusProxy?: true;
  /** Laid out though not on screen: the screen view unfolded (a closed combo box's options). */
  offScreen?: true;
}

/**
 * A folded subtree: one line stands for it. `self`: the element itself is not on screen (a hidden
 * page); otherwise it is, and only its children are not (a closed menu in its menu bar).
 */
export interface Fold {
  self: boolean;
  /** Elements read below the line's element, none of them shown. */
  elements: number;
  /** For a closed menu or combo box: the items in it. */
  items?: number;
  /** For a closed combo box: the item it shows (selected, or the one the toolkit says is showing). */
  selected?: string;
  /** Whether the read stopped inside the fold (maxDepth and the like): there are more than counted. */
  cut: boolean;
  why: "closed menu" | "not showing" | "empty";
  /** Several hidden siblings on one line: what they are; their parent's ref reads them. */
  group?: { count: number; roles: string; parentHandle: string; members: RawNode[] };
}

/** Roles that only arrange other elements; an Action interface on them (GTK4 puts one everywhere) does not make them targets. */
const STRUCTURAL_ROLES = roleSet(
  "panel",
  "filler",
  "frame",
  "window",
  "dialog",
  "scroll pane",
  "viewport",
  "layered pane",
  "root pane",
  "glass pane",
  "split pane",
  "section",
  "grouping",
  "application",
  "internal frame",
  "option pane",
  "tool bar",
  "menu bar",
  "status bar",
  "separator",
  "label",
  "static",
  "image",
  "icon",
  "heading",
  "paragraph",
  "form",
  "landmark",
  "redundant object",
  "unknown",
);

const INTERACTIVE_ROLES = roleSet(
  "push button",
  "toggle button",
  "check box",
  "radio button",
  "combo box",
  "menu item",
  "check menu item",
  "radio menu item",
  "menu",
  "page tab",
  "list item",
  "tree item",
  "table cell",
  "link",
  "text",
  "entry",
  "password text",
  "spin button",
  "slider",
  "scroll bar",
  "push button menu",
  "tree table",
  "table",
  "list",
  "list box",
  "tree",
  "page tab list",
  "editbar",
);

/** What a ref records of the element it names. */
export function fingerprintOf(entry: FlatEntry): Fingerprint {
  const { node } = entry;
  return {
    role: node.role,
    name: node.name,
    ...(!node.name && node.inferredLabel ? { label: node.inferredLabel } : {}),
    indexInParent: node.indexInParent,
    bounds: node.bounds,
    ...(node.states ? { states: node.states } : {}),
    // As seen, and no more than a line shows: element_info says whether it changed since.
    ...((node.value ?? node.text) !== undefined ? { value: (node.value ?? node.text)!.slice(0, 200) } : {}),
    path: entry.path,
    fromWindow: entry.fromWindow !== false,
    windowId: entry.windowId,
  };
}

export function isInteractiveRole(role: string): boolean {
  return INTERACTIVE_ROLES.has(role);
}

function isInteractive(node: RawNode): boolean {
  if (INTERACTIVE_ROLES.has(node.role)) return true;
  const interfaces = node.interfaces ?? [];
  if (interfaces.includes("EditableText") || interfaces.includes("Value")) return true;
  if (STRUCTURAL_ROLES.has(node.role)) return false;
  return interfaces.includes("Action") || (node.states ?? []).includes("focusable");
}

/**
 * Whether the element is on screen: the one home of this judgement (snapshots, find, the element under
 * a point). AT-SPI's `showing` says so. GTK 4.8 leaves it off most elements it does draw, so where the
 * toolkit never reports `showing` below the window, `visible` stands in, and where the bounds were read
 * an element must have an area: a stack page never shown is read with a Component but no extent, and
 * what sits below a 0×0 element has none either.
 */
export function isShown(node: RawNode, toolkitReportsShowing: boolean): boolean {
  if (node.states === undefined) return true; // Unread states: keep it, and its `unread` says why.
  if (isClosedPopup(node)) return false;
  const byStates = shownByStates(node.states, toolkitReportsShowing);
  if (byStates !== "by area") return byStates;
  if (!node.enriched) return true; // Bounds not read yet: cannot tell, so it is kept.
  const b = node.bounds;
  if (!b) return !(node.interfaces ?? []).includes("Component");
  return b.width > 0 && b.height > 0;
}

const POPUP_ROLES = new Set(["list", "list box", "menu", "menu bar"]);

/**
 * A popup a toolkit reports showing while it is closed: Qt's combo box keeps its list at 0×0 and its
 * items at the screen's corner, all `showing`. No area and nothing in it but items: nothing of it is
 * on screen, and a point at that corner hits none of its items (callers that judge an element alone
 * ask this of its ancestors). A menu bar too: LibreOffice keeps a second one of no height, its menus
 * `visible` where the shown bar's are.
 */
export function isClosedPopup(node: RawNode): boolean {
  const b = node.bounds;
  return mayBeClosedPopup(node) && !!b && (b.width <= 0 || b.height <= 0);
}

/**
 * A combo box that can open a list and says it is not open: what it holds is its closed list. Firefox
 * keeps a page's `<select>` options in the tree, the chosen one `showing` with no geometry, and opens
 * the list elsewhere, in a popup of its own; the combo box says `expandable` without `expanded`. A combo
 * box one types into is left out (its completions may open with no state changed).
 */
export function closesItsPopup(node: RawNode): boolean {
  const states = node.states ?? [];
  return (
    node.role === "combo box" &&
    states.includes("expandable") &&
    !states.includes("expanded") &&
    !states.includes("editable")
  );
}

/** A popup whose bounds tell whether it is closed (isClosedPopup): read them before judging it. */
export function mayBeClosedPopup(node: RawNode): boolean {
  return POPUP_ROLES.has(node.role) && node.children.length > 0 && node.children.every(isMenuish);
}

/** Whether any element below the root reports `showing` (GTK 4.8 never does). */
export function reportsShowing(root: RawNode): boolean {
  return root.children.some((child) => child.states?.includes("showing") || reportsShowing(child));
}

export interface FlattenOptions {
  visibleOnly: boolean;
  onlyInteractive: boolean;
  /**
   * "screen" reads like the screen: what is not on screen is folded into one line per subtree,
   * layout-only wrappers and labels that repeat their control's name are merged, separators dropped.
   * "full" keeps every element read.
   */
  view?: "screen" | "full";
  /** Fold nothing for being off screen (a folded subtree asked for by its ref). */
  unfold?: boolean;
}

export interface FlattenResult {
  entries: FlatEntry[];
  droppedHidden: number;
  droppedStructural: number;
  /** The screen view's economies, each counted. */
  folds: number;
  foldedElements: number;
  mergedWrappers: number;
  mergedEchoes: number;
  separators: number;
  /** Empty cells on screen, shown as runs rather than a line each. */
  emptyCells: number;
}

/** Roles that only arrange: unnamed and with one child, such an element says nothing its child does not. */
export const WRAPPER_ROLES = roleSet(
  "panel",
  "filler",
  "section",
  "grouping",
  "layered pane",
  "root pane",
  "glass pane",
  "redundant object",
  "unknown",
  "invalid",
  "viewport",
);
const WRAPPER_INTERFACES = ["EditableText", "Value", "Selection", "Table", "Hypertext"];
/** Roles of a child that can only repeat its parent's name: a button's own label. */
const ECHO_ROLES = roleSet("label", "static", "text", "caption", "icon", "image");

function isWrapper(node: RawNode): boolean {
  return repeatsItsChild(node) || isLayoutWrapper(node);
}

/** What a menu button holds beside its own button while its menu is open (GTK 4's popover). */
const OPENED_MENUS = new Set(["menu", "popup menu"]);

/**
 * A control that holds the same control, named alike, and takes no focus itself: GTK 4's menu
 * button holds the button it draws ("Ver" in "Ver"), and its menu beside it while open. The one
 * inside, which takes the focus, stands; the menu stands beside it.
 */
function repeatsItsChild(node: RawNode): boolean {
  const own = node.children.filter((c) => !OPENED_MENUS.has(c.role));
  const child = own[0];
  return (
    own.length === 1 &&
    !!child &&
    !!node.name &&
    child.role === node.role &&
    child.name === node.name &&
    node.childrenCut === undefined &&
    !(node.states ?? []).includes("focusable")
  );
}

function isLayoutWrapper(node: RawNode): boolean {
  return (
    WRAPPER_ROLES.has(node.role) &&
    !node.name &&
    !node.description &&
    node.children.length === 1 &&
    node.childrenCut === undefined &&
    !(node.states ?? []).includes("focusable") &&
    !(node.interfaces ?? []).some((i) => WRAPPER_INTERFACES.includes(i))
  );
}

/** Consecutive empty cells folded into one line: fewer read as well one by one. */
const EMPTY_RUN = 3;

/** A spreadsheet cell's name is where it sits ("A1", LibreOffice), not what it holds. */
const CELL_POSITION = /^\$?[A-Z]{1,3}\$?\d+$/;

export function isCellPosition(name: string): boolean {
  return CELL_POSITION.test(name);
}

/**
 * A table cell on screen with nothing in it, as read (its text known and empty, no children). A cell
 * shows its name where the name is not its position: Qt's cells have no Text interface, GTK's tree
 * view cells carry their text as their name only; Calc's "A1" shows its text.
 */
function isEmptyCell(node: RawNode): boolean {
  const named = !!node.name?.trim() && !isCellPosition(node.name);
  return (
    node.role === "table cell" &&
    !named &&
    node.children.length === 0 &&
    node.enriched === true &&
    !node.value &&
    !(node.text ?? "").trim() &&
    !(node.states ?? []).some((s) => s === "focused" || s === "selected" || s === "checked")
  );
}

function isEmptyBox(node: RawNode): boolean {
  // A large empty surface is where an app paints: it stays, marked pixels only.
  if (isPixelsOnly(node)) return false;
  const interfaces = node.interfaces ?? [];
  // Text that was read and is empty (web engines give every box a Text interface) holds nothing.
  const textless = !interfaces.includes("Text") || (node.enriched === true && !labelOf(node));
  return (
    WRAPPER_ROLES.has(node.role) &&
    !node.name &&
    !node.description &&
    node.children.length === 0 &&
    (node.childCount ?? 0) === 0 &&
    !(node.states ?? []).includes("focusable") &&
    textless &&
    !interfaces.some((i) => WRAPPER_INTERFACES.includes(i))
  );
}

/** A leaf label whose name is its parent's name, or a word-for-word part of it ("4" in a "4" button). */
export function isEcho(child: RawNode, parentName: string): boolean {
  const name = (child.name ?? "").trim();
  if (!name || !parentName || child.children.length > 0 || !ECHO_ROLES.has(child.role)) return false;
  const states = child.states ?? [];
  if (states.includes("editable") || states.includes("focusable")) return false;
  if (
    child.role === "text" &&
    !states.includes("read only") &&
    (child.interfaces ?? []).includes("EditableText")
  )
    return false;
  return name === parentName || ` ${parentName} `.includes(` ${name} `);
}

const ITEM_ROLES = /menu item|^option$|^list item$/;
const isMenuish = (node: RawNode) => node.role === "menu" || ITEM_ROLES.test(node.role);
/** The items a closed menu or combo box holds, at any depth (GTK3: combo → menu → item). */
const countItems = (node: RawNode): number =>
  node.children.reduce((n, c) => n + (ITEM_ROLES.test(c.role) ? 1 : 0) + countItems(c), 0);
/** The item a closed combo box shows: the selected one, else the one reported showing (Chromium). */
function chosenItem(node: RawNode): string | undefined {
  const items: RawNode[] = [];
  const walk = (n: RawNode) => {
    for (const c of n.children) {
      if (ITEM_ROLES.test(c.role)) items.push(c);
      walk(c);
    }
  };
  walk(node);
  const pick =
    items.find((i) => i.states?.includes("selected")) ?? items.find((i) => i.states?.includes("showing"));
  return pick?.name || undefined;
}

/** What a parent shows as its own words, for telling which child only repeats them. */
function labelOf(node: RawNode): string {
  if (node.name) return node.name.trim();
  const text = (node.value ?? node.text ?? "").replace(/\s*\uFFFC/gu, "").trim();
  return text;
}

const countSubtree = (node: RawNode): number => 1 + node.children.reduce((n, c) => n + countSubtree(c), 0);
const hasCut = (node: RawNode): boolean => leftOut(node.childrenCut) || node.children.some(hasCut);

/** Lays out a read; a large one lets the event loop turn part way (see platform/slice.ts). */
export async function flatten(
  /** `path`: the root's own path from its window; null when not known ([] for a window's root). */
  roots: { node: RawNode; windowId: number | null; path?: number[] | null }[],
  options: FlattenOptions,
): Promise<FlattenResult> {
  const result: FlattenResult = {
    entries: [],
    droppedHidden: 0,
    droppedStructural: 0,
    folds: 0,
    foldedElements: 0,
    mergedWrappers: 0,
    mergedEchoes: 0,
    separators: 0,
    emptyCells: 0,
  };
  for (const { node: root, windowId, path: rootPath } of roots) {
    const firstEntry = result.entries.length;
    await new RootLayout(result, options, root, windowId).visit(root, 0, rootPath ?? [], true, "");
    if (rootPath === null) for (const entry of result.entries.slice(firstEntry)) entry.fromWindow = false;
    markFocusProxies(result.entries.slice(firstEntry));
  }
  return result;
}

/**
 * Qt reports the focus on every widget proxying the one that has it (KWrite's status bar buttons
 * beside its document), and GTK leaves it on a page tab beside the find field the keys go to: where
 * several elements of a window say focused and some of them take text, the others are proxies, and
 * a person sees the focus in the text alone. Where none or all take text, which one has it is not
 * known, and all say so.
 */
function markFocusProxies(entries: FlatEntry[]): void {
  const focused = entries.filter((e) => e.node.states?.includes("focused"));
  if (focused.length < 2) return;
  // KWrite's document says editable and has Text, but no EditableText: it takes typed text all the same.
  const typedInto = (node: RawNode) => takesText(node) || !!node.states?.includes("editable");
  const texts = focused.filter((e) => typedInto(e.node)).length;
  if (texts === 0 || texts === focused.length) return;
  for (const entry of focused) if (!typedInto(entry.node)) entry.focusProxy = true;
}

/** One root's layout into the shared result: each element kept, merged, folded or dropped. */
class RootLayout {
  readonly #screen: boolean;
  readonly #foldHidden: boolean;
  readonly #showingKnown: boolean;
  /** How many unfolded elements above the one visited are off screen (the screen view unfolded). */
  #offScreenAbove = 0;

  constructor(
    readonly result: FlattenResult,
    readonly options: FlattenOptions,
    root: RawNode,
    readonly windowId: number | null,
  ) {
    this.#screen = options.view === "screen";
    this.#foldHidden = this.#screen && !options.unfold && !options.visibleOnly;
    this.#showingKnown = reportsShowing(root);
  }

  #shown(node: RawNode): boolean {
    return isShown(node, this.#showingKnown);
  }

  async visit(
    node: RawNode,
    depth: number,
    path: number[],
    isRoot: boolean,
    parentName: string,
  ): Promise<void> {
    const turn = yieldIfDue();
    if (turn) await turn;
    if (!isRoot && (await this.#leftOut(node, depth, path, parentName))) return;
    const keep = isRoot || !this.options.onlyInteractive || isInteractive(node);
    const entry: FlatEntry = { node, depth, path, windowId: this.windowId };
    const unfolded = this.#screen && !!this.options.unfold && !isRoot;
    if (unfolded && (this.#offScreenAbove > 0 || !this.#shown(node))) entry.offScreen = true;
    if (keep) this.result.entries.push(entry);
    else this.result.droppedStructural++;
    // A shown element whose children are all off screen (a closed menu in its bar) is one line.
    if (
      this.#foldHidden &&
      keep &&
      !isRoot &&
      node.children.length > 0 &&
      (closesItsPopup(node) || !node.children.some((c) => this.#shown(c)))
    ) {
      entry.fold = this.#foldOf(node, false);
      return;
    }
    // What a hidden element or a closed popup holds is off screen, whatever its own states say.
    const hides = unfolded && (!!entry.offScreen || closesItsPopup(node));
    if (hides) this.#offScreenAbove++;
    await this.#children(node, keep ? depth + 1 : depth, path);
    if (hides) this.#offScreenAbove--;
  }

  /**
   * Whether the element has no line of its own: a separator, a hidden one (dropped or folded), an
   * empty box, an echo of its parent's name, or a wrapper (its one child is laid out in its place).
   */
  async #leftOut(node: RawNode, depth: number, path: number[], parentName: string): Promise<boolean> {
    const { result, options } = this;
    // A separator shows nothing, on screen or off.
    if (this.#screen && node.role === "separator" && node.children.length === 0) {
      result.separators++;
      return true;
    }
    if ((options.visibleOnly || this.#foldHidden) && !this.#shown(node)) {
      if (options.visibleOnly) result.droppedHidden += countSubtree(node);
      else
        result.entries.push({ node, depth, path, windowId: this.windowId, fold: this.#foldOf(node, true) });
      return true;
    }
    if (!this.#screen) return false;
    // An empty unnamed layout box (a tab page with nothing in it) shows nothing.
    if (isEmptyBox(node)) {
      result.separators++;
      return true;
    }
    if (isEcho(node, parentName)) {
      result.mergedEchoes++;
      return true;
    }
    if (!isWrapper(node)) return false;
    result.mergedWrappers++;
    // Its one child stands in its place; a menu it holds open beside it stands too.
    for (const child of node.children)
      await this.visit(child, depth, [...path, child.indexInParent], false, parentName);
    return true;
  }

  /**
   * The children in order. Children off screen (a toolbar's overflow buttons, a sheet's columns out
   * of view), when there are several, are one line after the others: what they are, and the
   * parent's ref reads them. Runs of empty cells on screen (a spreadsheet's blank grid) are one line
   * each, with their refs.
   */
  async #children(node: RawNode, depth: number, path: number[]): Promise<void> {
    const off = (child: RawNode) =>
      this.#foldHidden && !this.#shown(child) && !(child.role === "separator" && child.children.length === 0);
    const hidden = node.children.filter(off);
    const grouped = hidden.length > 1;
    const name = labelOf(node);
    let blanks: RawNode[] = [];
    const flushBlanks = async () => {
      if (blanks.length >= EMPTY_RUN) this.result.entries.push(this.#emptyRunOf(blanks, node, depth, path));
      else for (const b of blanks) await this.visit(b, depth, [...path, b.indexInParent], false, name);
      blanks = [];
    };
    for (const child of node.children) {
      if (grouped && off(child)) continue;
      if (this.#screen && isEmptyCell(child)) {
        blanks.push(child);
        continue;
      }
      await flushBlanks();
      await this.visit(child, depth, [...path, child.indexInParent], false, name);
    }
    await flushBlanks();
    if (grouped) this.result.entries.push(this.#groupOf(hidden, node, depth, path));
  }

  #foldOf(node: RawNode, self: boolean): Fold {
    const elements = countSubtree(node) - 1;
    this.result.folds++;
    this.result.foldedElements += elements + (self ? 1 : 0);
    const menu =
      node.role === "menu" ||
      node.role === "combo box" ||
      (node.children.length > 0 && node.children.every(isMenuish));
    return {
      self,
      elements,
      // A menu off screen is a closed one; a combo box or menu bar item on screen may hold one.
      ...(menu && (!self || node.role === "menu") ? { items: countItems(node) } : {}),
      ...(node.role === "combo box" && !self && chosenItem(node) ? { selected: chosenItem(node)! } : {}),
      cut: hasCut(node),
      why: menu && (!self || node.role === "menu") ? "closed menu" : "not showing",
    };
  }

  /** One line standing for several siblings: on it, the first of them, and the parent that reads them. */
  #lineFor(
    members: RawNode[],
    parent: RawNode,
    depth: number,
    path: number[],
    fold: Omit<Fold, "group">,
    roles: string,
  ): FlatEntry {
    const first = members[0]!;
    return {
      node: first,
      depth,
      path: [...path, first.indexInParent],
      windowId: this.windowId,
      fold: { ...fold, group: { count: members.length, roles, parentHandle: parent.handle, members } },
    };
  }

  /** One line for a run of empty cells: the first and last cell's names, and every cell's ref. */
  #emptyRunOf(cells: RawNode[], parent: RawNode, depth: number, path: number[]): FlatEntry {
    this.result.emptyCells += cells.length;
    const fold = { self: false, elements: cells.length, cut: false, why: "empty" as const };
    return this.#lineFor(cells, parent, depth, path, fold, "table cell");
  }

  /** One line for several hidden siblings, with what they are and how many elements they hold. */
  #groupOf(members: RawNode[], parent: RawNode, depth: number, path: number[]): FlatEntry {
    const roles = new Map<string, number>();
    for (const m of members) roles.set(m.role, (roles.get(m.role) ?? 0) + 1);
    const elements = members.reduce((n, m) => n + countSubtree(m), 0);
    this.result.folds++;
    this.result.foldedElements += elements;
    const fold = { self: true, elements, cut: members.some(hasCut), why: "not showing" as const };
    const named = [...roles].map(([role, n]) => (n > 1 ? `${role} ×${n}` : role)).join(", ");
    return this.#lineFor(members, parent, depth, path, fold, named);
  }
}
