// An in-memory backend: the same contract as atspi, over a tree given as data. It exists for core logic
// tests (paging, filters, refs, unread fields, slow apps) and runs the same contract suite as the real
// backend; it never stands in for a real application.
import { setTimeout as sleep } from "node:timers/promises";
import type { Interface, Role, State } from "../roles.js";
import type {
  AccessibilityBackend,
  ActionReport,
  Ancestor,
  EnrichOptions,
  RawNode,
  Rect,
  SemanticAction,
  StructureOptions,
  StructureRead,
  TableRead,
  WindowInfo,
} from "../types.js";
import {
  ActionRejected,
  ElementGone,
  PASSWORD_ROLE,
  ReadOnlyElement,
  UnsupportedAction,
  WindowNotAccessible,
  WindowNotFound,
} from "../types.js";

export interface FakeElement {
  /** A role of the vocabulary: a fake desktop with a misspelled role does not compile. */
  role: Role;
  name?: string;
  description?: string;
  states?: State[];
  bounds?: Rect | null;
  actions?: string[];
  keyBindings?: string[];
  interfaces?: Interface[];
  text?: string;
  /** The text caret, and the selected range if any: what typing goes into. */
  caret?: number;
  selection?: { start: number; end: number };
  value?: string;
  accessibleId?: string;
  /** Its object attributes: a field's "placeholder-text". */
  attributes?: Record<string, string>;
  /** The language its content declares (a page's `lang`). */
  language?: string;
  children?: FakeElement[];
  /** Fields this element fails to report, as a hung or buggy app would. */
  unreadable?: ("role" | "name" | "states" | "bounds" | "actions")[];
  /** The reported child count, when it differs from `children` (as with tables). */
  childCount?: number;
  table?: { rows: number; columns: number };
  /** A Value element's range. */
  range?: { min: number; max: number };
  /** A select its toolkit answers false to and does not apply (Chromium's page tab). */
  refusesSelect?: boolean;
}

export interface FakeWindow {
  id: number;
  title: string;
  pid: number;
  app: string;
  rect: Rect;
  focused?: boolean;
  /** The toolkit its app reports ("J2SE-access-bridge" for a Java profile's window). */
  toolkit?: string;
  /** Omit for a window whose app exposes no tree. */
  root?: FakeElement;
}

export interface FakeDesktop {
  windows: FakeWindow[];
  pointerWindow?: number;
  /** Added to every read, to stand in for a slow app. */
  delayMs?: number;
  /** Names of the elements invoked, in order: the fake app's record of what was done to it. */
  invoked?: string[];
  /** What the fake app does after an action took (opens a window, say), as a real app would. */
  react?: (element: FakeElement, action: SemanticAction, desktop: FakeDesktop) => void;
  /** Popup menus the display shows that no tree does (Qt's): none unless a test opens one. */
  openMenus?: Rect[];
}

export class FakeBackend implements AccessibilityBackend {
  readonly name = "fake";
  #elements = new Map<string, FakeElement>();
  #closed = false;

  constructor(readonly desktop: FakeDesktop) {
    for (const window of desktop.windows) if (window.root) this.#index(window.root, `w${window.id}`);
  }

  /** Each element's handle: one element placed twice in a tree is one object reached twice, as AT-SPI's. */
  #handles = new WeakMap<FakeElement, string>();

  #index(element: FakeElement, handle: string): void {
    if (this.#handles.has(element)) return;
    this.#handles.set(element, handle);
    this.#elements.set(handle, element);
    for (const [i, child] of (element.children ?? []).entries()) this.#index(child, `${handle}/${i}`);
  }

  /** Replaces an element in place, as an app that rebuilt part of its window would. */
  replace(handle: string, element: FakeElement): void {
    const parentHandle = handle.slice(0, handle.lastIndexOf("/"));
    const index = Number(handle.slice(handle.lastIndexOf("/") + 1));
    const parent = this.#elements.get(parentHandle);
    if (!parent?.children) throw new Error(`no element ${handle}`);
    parent.children[index] = element;
    // The element stands here now, whatever handle it had.
    this.#handles.delete(element);
    this.#index(element, handle);
  }

  /** The element and all under it gone, as when its app dies: reads of them fail with ElementGone. */
  forget(handle: string): void {
    for (const key of [...this.#elements.keys()])
      if (key === handle || key.startsWith(`${handle}/`)) this.#elements.delete(key);
  }

  /** The fake display's popup menu windows outside any tree. */
  async openMenus(): Promise<Rect[]> {
    return [...(this.desktop.openMenus ?? [])];
  }

  async listWindows(): Promise<WindowInfo[]> {
    await sleep(this.desktop.delayMs ?? 0);
    return this.desktop.windows.map((w) => ({
      id: w.id,
      title: w.title,
      pid: w.pid,
      app: w.app,
      rect: w.rect,
      focused: Boolean(w.focused),
      accessible: w.root !== undefined,
      ...(w.toolkit ? { toolkit: w.toolkit } : {}),
    }));
  }

  /** The ancestors of an element, nearest first, by its handle's path (a window's root has none). */
  async ancestorsOf(handle: string, levels: number): Promise<Ancestor[]> {
    const found: Ancestor[] = [];
    for (let at = handle; found.length < levels && at.includes("/"); ) {
      at = at.slice(0, at.lastIndexOf("/"));
      const element = this.#elements.get(at);
      // A window's root ("w7") is its own window.
      const topLevel = at.includes("/") ? {} : { topLevel: true as const };
      if (element) found.push({ handle: at, role: element.role, name: element.name, ...topLevel });
    }
    return found;
  }

  async windowUnderPointer(): Promise<number | undefined> {
    return this.desktop.pointerWindow;
  }

  #raw(element: FakeElement, handle: string, index: number): RawNode {
    const unreadable = new Set(element.unreadable ?? []);
    return {
      handle,
      // An object gone as it is read answers nothing, its role included (AT-SPI's "unknown").
      role: unreadable.has("role") ? "unknown" : element.role,
      name: unreadable.has("name") ? undefined : (element.name ?? ""),
      description: element.description ?? "",
      states: unreadable.has("states") ? undefined : (element.states ?? ["enabled", "visible", "showing"]),
      interfaces: element.interfaces ?? ["Accessible", "Component"],
      childCount: element.childCount ?? element.children?.length ?? 0,
      indexInParent: index,
      children: [],
      unread: [...unreadable].filter((f) => f === "role" || f === "name" || f === "states"),
    };
  }

  async #read(
    element: FakeElement,
    handle: string,
    index: number,
    options: StructureOptions,
  ): Promise<StructureRead> {
    const deadline = Date.now() + options.timeoutMs;
    await sleep(this.desktop.delayMs ?? 0);
    let count = 1;
    let ceilingHit = false;
    let timedOut = false;
    const visit = (source: FakeElement, node: RawNode, depth: number) => {
      const children = source.children ?? [];
      if (children.length === 0 && !source.table) return;
      if (depth >= options.maxDepth) {
        node.childrenCut = { reason: "maxDepth" };
        return;
      }
      if (Date.now() > deadline) {
        timedOut = true;
        node.childrenCut = { reason: "timeout" };
        return;
      }
      let shown = children;
      if (source.table && !options.walkTables) {
        const rowsRead = Math.min(source.table.rows, options.tableRows);
        shown = children.slice(0, rowsRead * source.table.columns);
        node.childrenCut = {
          reason: "table",
          rows: source.table.rows,
          columns: source.table.columns,
          rowsRead,
          columnsRead: source.table.columns,
        };
      }
      const budget = options.nodeCeiling - count;
      if (shown.length > budget) {
        ceilingHit = true;
        node.childrenCut = { reason: "nodeCeiling", childrenRead: Math.max(0, budget) };
        shown = shown.slice(0, Math.max(0, budget));
      }
      count += shown.length;
      node.children = shown.map((child, i) =>
        this.#raw(child, this.#handles.get(child) ?? `${node.handle}/${i}`, i),
      );
      // A table's cells know their row and column, as through AT-SPI's Table interface.
      if (source.table) {
        const { columns } = source.table;
        for (const [i, child] of node.children.entries())
          child.cell = { row: Math.floor(i / columns), column: i % columns };
      }
      for (const [i, child] of node.children.entries()) visit(shown[i]!, child, depth + 1);
    };
    const root = this.#raw(element, handle, index);
    visit(element, root, 0);
    return { root, method: "fake", timedOut, ceilingHit };
  }

  async readWindow(windowId: number, options: StructureOptions): Promise<StructureRead> {
    const window = this.desktop.windows.find((w) => w.id === windowId);
    if (!window) throw new WindowNotFound(windowId);
    if (!window.root) throw new WindowNotAccessible(windowId, "the fake window has no tree");
    // A window that opened since (a test's `react`) is indexed as it is first read.
    if (this.#elements.get(`w${windowId}`) !== window.root) this.#index(window.root, `w${windowId}`);
    return this.#read(window.root, `w${windowId}`, 0, options);
  }

  async readSubtree(handle: string, options: StructureOptions): Promise<StructureRead> {
    const element = this.#elements.get(handle);
    if (!element) throw new ElementGone(handle, "no such element in the fake desktop");
    return this.#read(element, handle, Number(handle.slice(handle.lastIndexOf("/") + 1)) || 0, options);
  }

  async enrich(nodes: RawNode[], options: EnrichOptions): Promise<void> {
    await sleep(this.desktop.delayMs ?? 0);
    for (const node of nodes) {
      const element = this.#elements.get(node.handle);
      if (!element || node.enriched) continue;
      node.enriched = true;
      const unreadable = new Set(element.unreadable ?? []);
      if (unreadable.has("bounds")) node.unread.push("bounds");
      else
        node.bounds = element.bounds === undefined ? { x: 0, y: 0, width: 10, height: 10 } : element.bounds;
      if (!options.actions) {
        // Not asked for: left unset, which is neither empty nor unread.
      } else if (unreadable.has("actions")) node.unread.push("actions");
      else {
        node.actions = element.actions ?? [];
        if (element.keyBindings) node.keyBindings = element.keyBindings;
      }
      if (options.accessibleIds) node.accessibleId = element.accessibleId;
      if (element.role !== PASSWORD_ROLE) {
        if (element.value !== undefined) node.value = element.value;
        if (options.range && element.range) node.range = element.range;
        if (element.text !== undefined) {
          node.text = element.text.slice(0, options.maxText);
          node.textLength = element.text.length;
        }
      }
    }
  }

  #element(handle: string): FakeElement {
    const element = this.#elements.get(handle);
    if (!element) throw new ElementGone(handle, "no such element in the fake desktop");
    return element;
  }

  async describe(handle: string, options: { maxText: number }): Promise<RawNode> {
    const element = this.#element(handle);
    const node = this.#raw(element, handle, Number(handle.slice(handle.lastIndexOf("/") + 1)) || 0);
    await this.enrich([node], {
      maxText: options.maxText,
      timeoutMs: 1000,
      actions: true,
      accessibleIds: true,
      range: true,
    });
    return node;
  }

  async readAttributes(handle: string): Promise<Record<string, string>> {
    return { ...(this.#element(handle).attributes ?? {}) };
  }

  async readLanguage(handle: string): Promise<string | undefined> {
    return this.#element(handle).language;
  }

  async readText(handle: string, start: number, length: number) {
    const element = this.#element(handle);
    if (element.text === undefined) return null;
    return { text: element.text.slice(start, start + length), length: element.text.length };
  }

  async readCaret(handle: string) {
    const element = this.#element(handle);
    if (element.text === undefined) return null;
    const length = element.text.length;
    return {
      caret: element.caret ?? length,
      length,
      selections: element.selection ? [element.selection] : [],
    };
  }

  async placeCaret(handle: string, offset: number) {
    const element = this.#element(handle);
    if (element.text === undefined) throw new UnsupportedAction("no Text", element.actions ?? []);
    element.caret = Math.min(Math.max(offset, 0), element.text.length);
    delete element.selection;
    return true;
  }

  async readTable(handle: string, rowStart: number, rowCount: number, maxCells: number): Promise<TableRead> {
    const element = this.#element(handle);
    if (!element.table) throw new ActionRejected("the element has no Table interface");
    const { rows, columns } = element.table;
    const cells: TableRead["cells"] = [];
    for (let row = rowStart; row < Math.min(rows, rowStart + rowCount) && cells.length < maxCells; row++) {
      for (let column = 0; column < columns && cells.length < maxCells; column++) {
        const cell = element.children?.[row * columns + column];
        cells.push({ row, column, text: cell?.text ?? cell?.name ?? null });
      }
    }
    return { rows, columns, headers: Array.from({ length: columns }, (_, i) => `C${i}`), cells };
  }

  /** Effects are applied to the fake tree, so tests re-read them as they would from a real app. */
  async perform(handle: string, action: SemanticAction): Promise<ActionReport> {
    const element = this.#element(handle);
    const states = new Set<State>(element.states ?? ["enabled", "visible", "showing"]);
    const has = (name: Interface) => (element.interfaces ?? []).includes(name);
    switch (action.kind) {
      case "invoke":
      case "toggle":
        if (!element.actions?.length) throw new UnsupportedAction("no actions", []);
        if (action.kind === "toggle")
          states.has("checked") ? states.delete("checked") : states.add("checked");
        else this.desktop.invoked = [...(this.desktop.invoked ?? []), element.name ?? ""];
        break;
      case "set_value":
        if (!has("EditableText")) throw new UnsupportedAction("no EditableText", element.actions ?? []);
        if (states.has("read only")) throw new ReadOnlyElement("read-only");
        element.text = action.text;
        break;
      case "set_range":
        if (!has("Value")) throw new UnsupportedAction("no Value", element.actions ?? []);
        element.value = String(action.value);
        break;
      case "focus":
        states.add("focused");
        break;
      case "expand":
        states.add("expanded");
        break;
      case "collapse":
        states.delete("expanded");
        break;
      case "select":
        if (!states.has("selectable")) throw new UnsupportedAction("not selectable", element.actions ?? []);
        if (element.refusesSelect) return { route: "fake select", outcome: "completed", returned: false };
        states.add("selected");
        break;
      default:
        throw new UnsupportedAction(`the fake backend does not ${action.kind}`, []);
    }
    element.states = [...states];
    this.desktop.react?.(element, action, this.desktop);
    return { route: `fake ${action.kind}`, outcome: "completed", returned: true };
  }

  async close(): Promise<void> {
    this.#closed = true;
  }

  get closed(): boolean {
    return this.#closed;
  }
}
