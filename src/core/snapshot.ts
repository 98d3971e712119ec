// Bounded snapshots. The tree is read once (bounded by depth, a read ceiling and a deadline), laid out
// in document order, and served a page of `maxNodes` at a time: a cut by maxNodes hands back a cursor
// for the next page of the same read, with the same snapshot id.

import { yieldIfDue } from "../platform/slice.js";
import {
  type AccessibilityReader,
  type ChildrenCut,
  leftOut,
  PIXELS_ONLY_WINDOW,
  type RawNode,
  type Rect,
  type WindowInfo,
} from "../platform/types.js";
import { fixFor, type TreeIncomplete, treeIncomplete } from "./completeness.js";
import { DeskhandError, invalidCursor, windowNotFound } from "./errors.js";
import {
  type FlatEntry,
  type FlattenResult,
  type Fold,
  fingerprintOf,
  flatten,
  isShown,
  mayBeClosedPopup,
  reportsShowing,
} from "./flatten.js";
import { globMatch, matchesIgnoringCase } from "./glob.js";
import { inferLabelsOf } from "./labels.js";
import { type CutName, READ_CEILING, SNAPSHOT_CEILINGS, type SnapshotLimits } from "./limits.js";
import { isPixelsOnly, markCoveringSurfaces, mayBePixelsOnly, underSurfaces } from "./pixels.js";
import { pathOf, type RefStore } from "./refs.js";

export type SnapshotTarget =
  | { kind: "window"; id: number }
  | { kind: "title"; glob: string }
  | { kind: "focused" }
  | { kind: "pointer" }
  | { kind: "process"; pid: number }
  | { kind: "desktop" }
  | { kind: "element"; ref: string };

import { shownValue } from "./value.js";

export { PASSWORD_MARKER, readShownParts, shownValue } from "./value.js";

export interface SnapshotElement {
  ref: string;
  role: string;
  name: string | null;
  description?: string;
  value?: string;
  states: string[] | null;
  bounds: Rect | null;
  index: number;
  depth: number;
  childCount: number | null;
  accessibleId?: string;
  actions?: string[];
  interfaces?: string[];
  window?: number;
  /** Why this element's children are not all here. */
  cut?: ChildrenCut;
  /** A table's rows, as its Table interface counts them (read whole or not). */
  rows?: number;
  /** Fields the application failed to report: unknown, not empty and not false. */
  unread?: string[];
  /** Length of the whole text when maxText cut `value`. */
  textLength?: number;
  /** In the screen view, what this line stands for that is not on screen: `snapshot` its ref to read it. */
  fold?: ShownFold;
  /** A large surface with nothing in the tree: what it shows is pixels, for read_screen_text. */
  pixelsOnly?: true;
  /** An unnamed field's label, read from where it sits beside it: not the application's own name. */
  inferredLabel?: string;
  /** Listed though not on screen (the screen view unfolded): a click would miss it. */
  offScreen?: true;
}

/** A fold as a reply shows it: a group of hidden siblings names its parent's ref and its members' refs. */
export type ShownFold = Omit<Fold, "group"> & {
  group?: {
    count: number;
    roles: string;
    parent: string | null;
    refs: string[];
    first?: string;
    last?: string;
  };
};

export interface SnapshotPage {
  snapshotId: string;
  windows: Pick<WindowInfo, "id" | "title" | "pid" | "app" | "windowClass">[];
  method: string;
  elements: SnapshotElement[];
  truncatedBy: CutName[];
  /** Windows whose tree is known to be incomplete, with why and the fix. Absent when none is. */
  treeIncomplete?: TreeIncomplete[];
  cursor: string | null;
  counts: {
    read: number;
    inScope: number;
    shown: number;
    before: number;
    after: number;
    hidden: number;
    structural: number;
    /** The screen view's economies: subtrees folded and the elements in them, merges, separators. */
    folds: number;
    folded: number;
    merged: number;
    separators: number;
    emptyCells: number;
  };
  /** "screen": folded and merged to read like the screen; "full": every element read. */
  view: SnapshotView;
  limits: { inForce: SnapshotLimits; ceilings: typeof SNAPSHOT_CEILINGS };
}

export type SnapshotView = "screen" | "full";

/** One read of a scope, laid out, before it is given an id and refs. */
export interface Reading {
  target: SnapshotTarget;
  entries: FlatEntry[];
  limits: SnapshotLimits;
  windows: SnapshotPage["windows"];
  method: string;
  readCuts: Set<CutName>;
  incomplete: TreeIncomplete[];
  read: number;
  view: SnapshotView;
  economies: Pick<
    FlattenResult,
    "folds" | "foldedElements" | "mergedWrappers" | "mergedEchoes" | "separators" | "emptyCells"
  >;
  hidden: number;
  structural: number;
  /** When the read began, for the time budget of what follows it. */
  started: number;
  /** Every element read, lines or not: an element that leaves the view but not the app is not "removed". */
  handles: Set<string>;
}

export interface StoredSnapshot extends Reading {
  id: string;
  /** The refs handed out for its elements, by handle: what a later diff names a removed element by. */
  refs: Map<string, string>;
}

const KEPT_SNAPSHOTS = 4;

function cutName(cut: ChildrenCut): CutName {
  switch (cut.reason) {
    case "table":
      return "tableRows";
    case "nodeCeiling":
      return "readCeiling";
    default:
      return cut.reason;
  }
}

/** Every node of a tree, in document order; a loop, not a copy per level (trees run 40 deep). */
function allNodes(root: RawNode): RawNode[] {
  const out: RawNode[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    out.push(node);
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return out;
}

/** The windows a target names; an error says plainly when none (or, for a title, several) match. */
export async function resolveWindows(
  backend: AccessibilityReader,
  target: SnapshotTarget,
): Promise<WindowInfo[]> {
  const windows = await backend.listWindows();
  switch (target.kind) {
    case "window": {
      const found = windows.find((w) => w.id === target.id);
      if (!found) throw windowNotFound(`id ${target.id}`, windows);
      return [found];
    }
    case "title": {
      const found = windows.filter((w) => globMatch(target.glob, w.title));
      if (found.length === 0)
        throw windowNotFound(
          `title ${JSON.stringify(target.glob)}`,
          windows,
          matchesIgnoringCase(target.glob),
        );
      if (found.length > 1) {
        throw new DeskhandError(
          "invalid_params",
          `${found.length} windows match title ${JSON.stringify(target.glob)}`,
          "Pass the window id of the one you mean.",
          { candidates: found.map((w) => ({ id: w.id, title: w.title, pid: w.pid })) },
        );
      }
      return found;
    }
    case "focused": {
      const found = windows.find((w) => w.focused);
      if (!found) throw windowNotFound("the focus: no window has it");
      return [found];
    }
    case "pointer": {
      const id = await backend.windowUnderPointer();
      const found = windows.find((w) => w.id === id);
      if (!found) throw windowNotFound("the pointer position");
      return [found];
    }
    case "process": {
      const found = windows.filter((w) => w.pid === target.pid);
      if (found.length === 0) throw windowNotFound(`pid ${target.pid}`, windows);
      return found;
    }
    case "desktop":
      return windows.filter((w) => w.accessible);
    case "element":
      return [];
  }
}

/** A window no application on the bus owns: its tree is not empty, it is unknown; say why and the fix. */
function notRegistered(window: WindowInfo): DeskhandError {
  if (window.unanswered) {
    return new DeskhandError(
      "timeout",
      `window ${window.id} ${JSON.stringify(window.title)}: its application did not answer in time (busy, or hung); nothing was read`,
      "Wait and call again; if it stays so, the app is hung (or stopped).",
    );
  }
  const known: TreeIncomplete = {
    window: window.id,
    reason:
      "no application on the accessibility bus owns this window: it has not registered yet, or its accessibility is off",
    fix: fixFor(window.app, window.title),
  };
  return new DeskhandError(
    "not_accessible",
    `window ${window.id} ${JSON.stringify(window.title)} has no accessible tree: ${known.reason}`,
    `Wait a moment and read again; if it stays so, ${known.fix}. ${PIXELS_ONLY_WINDOW}`,
    { tree_incomplete: [known], pixels_only: true },
  );
}

/** What a read of the structure is told: its limits, and to enrich as it reads where nothing is filtered. */
function structureOptions(limits: SnapshotLimits) {
  return {
    maxDepth: limits.maxDepth,
    tableRows: limits.tableRows,
    walkTables: limits.walkTables,
    nodeCeiling: READ_CEILING,
    timeoutMs: limits.timeoutMs,
    // Without filters the first page is most of what is read: enrich while reading.
    ...(limits.visibleOnly || limits.onlyInteractive
      ? {}
      : {
          eagerEnrich: {
            maxText: limits.maxText,
            limit: limits.maxNodes,
            actions: limits.actions,
            accessibleIds: limits.accessibleIds,
          },
        }),
  };
}

/** Reads the details the layout needs before it lays the roots out. */
async function enrichForLayout(
  backend: AccessibilityReader,
  roots: { node: RawNode; windowId: number | null }[],
  {
    limits,
    view,
    element,
    started,
  }: { limits: SnapshotLimits; view: SnapshotView; element: boolean; started: number },
): Promise<void> {
  /** What to read of each element, in the time the read has left, and the window they are in. */
  const details = (windowId: number | null) => ({
    maxText: limits.maxText,
    actions: limits.actions,
    accessibleIds: limits.accessibleIds,
    timeoutMs: Math.max(100, limits.timeoutMs - (Date.now() - started)),
    ...(windowId === null ? {} : { windowId }),
  });
  // Read details the layout needs before laying out: where the toolkit never reports `showing`
  // (GTK 4.8), what is on screen is known from the elements' areas, so every element's are read;
  // in the screen view, whether a cell is empty decides whether it is a line of its own.
  const screen = view === "screen" && !element;
  for (const { node, windowId } of roots) {
    const everything = (screen || limits.visibleOnly) && !reportsShowing(node);
    const needed = everything
      ? allNodes(node)
      : view === "screen"
        ? allNodes(node).filter(
            (n) => (n.role === "table cell" || mayBePixelsOnly(n) || mayBeClosedPopup(n)) && !n.enriched,
          )
        : [];
    if (needed.length === 0) continue;
    await backend.enrich(needed, details(windowId));
  }
  // An empty surface laid over elements the tree describes is not pixels only: to tell, the
  // places of what is on screen around such a surface are read.
  if (view === "screen")
    for (const { node, windowId } of roots) {
      const around = underSurfaces(node);
      if (around.length === 0) continue;
      const showing = reportsShowing(node);
      const shown = (n: RawNode) => isShown(n, showing);
      await backend.enrich(
        around.filter((n) => !n.enriched && shown(n)),
        details(windowId),
      );
      markCoveringSurfaces(node, shown);
    }
}

export class SnapshotStore {
  #kept: StoredSnapshot[] = [];

  constructor(
    private readonly backend: () => Promise<AccessibilityReader>,
    readonly refs: RefStore,
  ) {}

  async take(
    target: SnapshotTarget,
    limits: SnapshotLimits,
    view: SnapshotView = "full",
  ): Promise<SnapshotPage> {
    return (await this.publish(await this.read(target, limits, view))).page;
  }

  /** Reads and lays out a scope without giving it an id or refs (a baseline to compare with later). */
  async read(target: SnapshotTarget, limits: SnapshotLimits, view: SnapshotView): Promise<Reading> {
    const started = Date.now();
    const backend = await this.backend();
    const structure = structureOptions(limits);
    const roots: { node: RawNode; windowId: number | null; path?: number[] | null }[] = [];
    const methods = new Set<string>();
    const readCuts = new Set<CutName>();
    const incomplete: TreeIncomplete[] = [];
    let windows: WindowInfo[] = [];
    if (target.kind === "element") {
      const entry = this.refs.lookup(target.ref);
      const read = await backend.readSubtree(entry.handle, structure);
      roots.push({ node: read.root, windowId: entry.fingerprint.windowId, path: pathOf(entry.fingerprint) });
      methods.add(read.method);
    } else {
      windows = await resolveWindows(backend, target);
      for (const window of windows) {
        if (!window.accessible) throw notRegistered(window);
        const read = await backend.readWindow(window.id, structure);
        roots.push({ node: read.root, windowId: window.id });
        methods.add(read.method);
        if (read.timedOut) readCuts.add("timeout");
        const known = treeIncomplete(window, read.root);
        if (known) incomplete.push(known);
      }
    }
    await enrichForLayout(backend, roots, { limits, view, element: target.kind === "element", started });
    // Unnamed fields take the label beside them, marked inferred.
    await inferLabelsOf(backend, roots, Math.max(100, limits.timeoutMs - (Date.now() - started)));
    const flat = await flatten(roots, {
      ...limits,
      view,
      unfold: !!limits.unfold || target.kind === "element",
    });
    const handles = new Set<string>();
    for (const root of roots) for (const node of allNodes(root.node)) handles.add(node.handle);
    return {
      target,
      entries: flat.entries,
      limits,
      windows: windows.map(({ id, title, pid, app, windowClass }) => ({
        id,
        title,
        pid,
        app,
        ...(windowClass ? { windowClass } : {}),
      })),
      method: [...methods].join("; "),
      readCuts,
      incomplete,
      read: handles.size,
      view,
      economies: flat,
      hidden: flat.droppedHidden,
      structural: flat.droppedStructural,
      started,
      handles,
    };
  }

  /** Gives a read its snapshot id, keeps it for cursors and diffs, and answers its first page. */
  async publish(reading: Reading): Promise<{ stored: StoredSnapshot; page: SnapshotPage }> {
    const stored: StoredSnapshot = { ...reading, id: this.refs.newSnapshot(), refs: new Map() };
    this.#kept.push(stored);
    // Where a new snapshot retires the last one's refs, its cursors die with them: keep only it.
    const keep = this.refs.lifetime === "latest-snapshot" ? 1 : KEPT_SNAPSHOTS;
    while (this.#kept.length > keep) this.#kept.shift();
    // The first page's details share the snapshot's time budget with the read.
    const timeoutMs = Math.max(100, reading.limits.timeoutMs - (Date.now() - reading.started));
    return { stored, page: await this.#page(stored, 0, timeoutMs) };
  }

  /** A kept snapshot by id, for `since`. */
  kept(id: string): StoredSnapshot | undefined {
    return this.#kept.find((s) => s.id === id);
  }

  /** Reads every element's details (value, text, bounds) of a read, window by window. */
  async enrichAll(reading: Reading, timeoutMs: number): Promise<void> {
    const backend = await this.backend();
    for (const windowId of new Set(reading.entries.map((e) => e.windowId))) {
      const nodes = reading.entries.filter((e) => e.windowId === windowId).map((e) => e.node);
      await backend.enrich(nodes, {
        maxText: reading.limits.maxText,
        actions: reading.limits.actions,
        accessibleIds: reading.limits.accessibleIds,
        timeoutMs,
        ...(windowId === null ? {} : { windowId }),
      });
    }
  }

  /** The element of a kept snapshot's entry, with its ref. */
  elementOf(stored: StoredSnapshot, entry: FlatEntry): SnapshotElement {
    return this.#element(stored, entry, new Set());
  }

  async continue(cursor: string): Promise<SnapshotPage> {
    const match = /^(s\d+)@(\d+)$/.exec(cursor);
    if (!match) throw invalidCursor(cursor, "cursors look like s3@250");
    const id = match[1] as string;
    const current = this.refs.currentSnapshotId;
    const replaced = () => invalidCursor(cursor, `snapshot ${id} was replaced by ${current}`);
    const stored = this.#kept.find((s) => s.id === id);
    if (!stored) {
      const older = current !== null && Number(id.slice(1)) < Number(current.slice(1));
      if (this.refs.lifetime === "latest-snapshot" && older) throw replaced();
      throw invalidCursor(cursor, `snapshot ${id} is not kept (only the last ${KEPT_SNAPSHOTS} are)`);
    }
    if (this.refs.lifetime === "latest-snapshot" && current !== stored.id) throw replaced();
    const offset = Number(match[2]);
    if (offset >= stored.entries.length)
      throw invalidCursor(cursor, "it points past the end of the snapshot");
    return this.#page(stored, offset, stored.limits.timeoutMs);
  }

  async #page(stored: StoredSnapshot, offset: number, timeoutMs: number): Promise<SnapshotPage> {
    const { limits } = stored;
    const page = stored.entries.slice(offset, offset + limits.maxNodes);
    const backend = await this.backend();
    // Enrich per window, since some toolkits' extents are relative to their window.
    const byWindow = new Map<number | null, RawNode[]>();
    for (const entry of page) {
      const list = byWindow.get(entry.windowId) ?? [];
      list.push(entry.node);
      byWindow.set(entry.windowId, list);
    }
    for (const [windowId, nodes] of byWindow) {
      await backend.enrich(nodes, {
        maxText: limits.maxText,
        actions: limits.actions,
        accessibleIds: limits.accessibleIds,
        timeoutMs,
        ...(windowId === null ? {} : { windowId }),
      });
    }
    const truncatedBy = new Set<CutName>(stored.readCuts);
    const elements: SnapshotElement[] = [];
    for (const entry of page) {
      const turn = yieldIfDue();
      if (turn) await turn;
      elements.push(this.#element(stored, entry, truncatedBy));
    }
    const after = stored.entries.length - offset - page.length;
    if (after > 0) truncatedBy.add("maxNodes");
    return {
      snapshotId: stored.id,
      windows: stored.windows,
      method: stored.method,
      elements,
      truncatedBy: [...truncatedBy],
      ...(stored.incomplete.length > 0 ? { treeIncomplete: stored.incomplete } : {}),
      cursor: after > 0 ? `${stored.id}@${offset + page.length}` : null,
      counts: {
        read: stored.read,
        inScope: stored.entries.length,
        shown: page.length,
        before: offset,
        after,
        hidden: stored.hidden,
        structural: stored.structural,
        folds: stored.economies.folds,
        folded: stored.economies.foldedElements,
        merged: stored.economies.mergedWrappers + stored.economies.mergedEchoes,
        separators: stored.economies.separators,
        emptyCells: stored.economies.emptyCells,
      },
      view: stored.view,
      limits: { inForce: limits, ceilings: SNAPSHOT_CEILINGS },
    };
  }

  #element(stored: StoredSnapshot, entry: FlatEntry, truncatedBy: Set<CutName>): SnapshotElement {
    const { node } = entry;
    const ref = this.refs.assign(stored.id, node.handle, fingerprintOf(entry));
    stored.refs.set(node.handle, ref);
    const element: SnapshotElement = {
      ref,
      role: node.role,
      name: node.name ?? null,
      states: entry.focusProxy ? (node.states ?? []).filter((s) => s !== "focused") : (node.states ?? null),
      bounds: node.bounds ?? null,
      index: node.indexInParent,
      depth: entry.depth,
      childCount: node.childCount ?? null,
    };
    if (node.description) element.description = node.description;
    if (entry.offScreen) element.offScreen = true;
    const value = shownValue(node, true);
    if (value !== undefined) element.value = value;
    if (
      node.textLength !== undefined &&
      node.textLength > stored.limits.maxText &&
      element.value !== undefined
    ) {
      element.textLength = node.textLength;
      truncatedBy.add("maxText");
    }
    if (node.accessibleId) element.accessibleId = node.accessibleId;
    if (node.actions && node.actions.length > 0) element.actions = node.actions;
    if (node.interfaces) element.interfaces = node.interfaces;
    if (entry.depth === 0 && entry.windowId !== null) element.window = entry.windowId;
    if (node.childrenCut?.reason === "table") element.rows = node.childrenCut.rows;
    if (leftOut(node.childrenCut)) {
      element.cut = node.childrenCut;
      truncatedBy.add(cutName(node.childrenCut));
    }
    if (node.unread.length > 0) element.unread = [...new Set(node.unread)];
    if (isPixelsOnly(node)) element.pixelsOnly = true;
    if (node.inferredLabel) element.inferredLabel = node.inferredLabel;
    if (entry.fold) {
      const { group, ...fold } = entry.fold;
      element.fold = fold;
      if (group) {
        // Each member gets a ref of its own, so that any of them can be acted on or read.
        const refs = group.members.map((member) =>
          this.refs.assign(
            stored.id,
            member.handle,
            fingerprintOf({
              ...entry,
              node: member,
              path: [...entry.path.slice(0, -1), member.indexInParent],
            }),
          ),
        );
        element.fold.group = {
          count: group.count,
          roles: group.roles,
          parent: this.refs.refOf(group.parentHandle) ?? null,
          refs,
          ...(fold.why === "empty"
            ? { first: group.members[0]!.name ?? "", last: group.members.at(-1)!.name ?? "" }
            : {}),
        };
      }
    }
    return element;
  }
}
