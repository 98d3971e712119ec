// An in-memory backend: the same contract as atspi, over a tree given as data. It exists for core logic
// tests (paging, filters, refs, unread fields, slow apps) and runs the same contract suite as the real
// backend; it never stands in for a real application.
import type {
  AccessibilityBackend,
  EnrichOptions,
  RawNode,
  Rect,
  StructureOptions,
  StructureRead,
  WindowInfo,
} from "../types.js";
import { ElementGone, WindowNotAccessible, WindowNotFound } from "../types.js";

export interface FakeElement {
  role: string;
  name?: string;
  description?: string;
  states?: string[];
  bounds?: Rect | null;
  actions?: string[];
  interfaces?: string[];
  text?: string;
  value?: string;
  accessibleId?: string;
  children?: FakeElement[];
  /** Fields this element fails to report, as a hung or buggy app would. */
  unreadable?: ("name" | "states" | "bounds" | "actions")[];
  /** The reported child count, when it differs from `children` (as with tables). */
  childCount?: number;
  table?: { rows: number; columns: number };
}

export interface FakeWindow {
  id: number;
  title: string;
  pid: number;
  app: string;
  rect: Rect;
  focused?: boolean;
  /** Omit for a window whose app exposes no tree. */
  root?: FakeElement;
}

export interface FakeDesktop {
  windows: FakeWindow[];
  pointerWindow?: number;
  /** Added to every read, to stand in for a slow app. */
  delayMs?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class FakeBackend implements AccessibilityBackend {
  readonly name = "fake";
  #elements = new Map<string, FakeElement>();
  #closed = false;

  constructor(readonly desktop: FakeDesktop) {
    for (const window of desktop.windows) if (window.root) this.#index(window.root, `w${window.id}`);
  }

  #index(element: FakeElement, handle: string): void {
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
    this.#index(element, handle);
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
    }));
  }

  async windowUnderPointer(): Promise<number | undefined> {
    return this.desktop.pointerWindow;
  }

  #raw(element: FakeElement, handle: string, index: number): RawNode {
    const unreadable = new Set(element.unreadable ?? []);
    return {
      handle,
      role: element.role,
      name: unreadable.has("name") ? undefined : (element.name ?? ""),
      description: element.description ?? "",
      states: unreadable.has("states") ? undefined : (element.states ?? ["enabled", "visible", "showing"]),
      interfaces: element.interfaces ?? ["Accessible", "Component"],
      childCount: element.childCount ?? element.children?.length ?? 0,
      indexInParent: index,
      children: [],
      unread: [...unreadable].filter((f) => f === "name" || f === "states"),
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
      node.children = shown.map((child, i) => this.#raw(child, `${node.handle}/${i}`, i));
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
      else node.actions = element.actions ?? [];
      if (options.accessibleIds) node.accessibleId = element.accessibleId;
      if (element.role !== "password text") {
        if (element.value !== undefined) node.value = element.value;
        if (element.text !== undefined) {
          node.text = element.text.slice(0, options.maxText);
          node.textLength = element.text.length;
        }
      }
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
  }

  get closed(): boolean {
    return this.#closed;
  }
}
