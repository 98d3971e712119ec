// A window's tree as the gate reads it: bounded, and whether it was read whole (a part not read may
// hold what decides). One read for judging keys (key-effect.ts) and closing a window (closing.ts).
import { AsyncLocalStorage } from "node:async_hooks";
import { everyNode } from "../../platform/nodes.js";
import type { State } from "../../platform/roles.js";
import type { RawNode, WindowInfo } from "../../platform/types.js";
import type { ToolContext } from "../context.js";

// Its budget holds a big app read a call an element on a loaded machine: LibreOffice's 1,900
// (its menus' items among them) take 0.9 s idle and passed 1.5 s under load, and a read cut short
// makes the gate ask and a read-back miss what it looks for.
export const READ = { maxDepth: 40, tableRows: 0, walkTables: false, nodeCeiling: 3000, timeoutMs: 4000 };

export interface WindowRead {
  root: RawNode;
  nodes: RawNode[];
  complete: boolean;
  /** The language its app shows its labels in, where the platform can tell. */
  language?: string | undefined;
  /** The toolkit its app reports, where known. */
  toolkit?: string | undefined;
  /** The app's own gettext catalogs, as its process has them mapped. */
  catalogs?: string[] | undefined;
}

/**
 * The reads of one judgement, by window: an input's target, each key's effect, whether it types into
 * a password are judged on one state of the window, read once (each had read it again: 300 ms a read
 * of KWrite, four reads a typed line). Nothing is sent while it holds, so none of them can be stale.
 */
const judging = new AsyncLocalStorage<Map<number, Promise<WindowRead>>>();

/** Runs `judge` with each window read once for it, however many parts of it read the window. */
export function oneReadEach<T>(judge: () => Promise<T>): Promise<T> {
  return judging.run(new Map(), judge);
}

/** A window's tree, read as the gate reads it (bounded), and whether it was read whole. */
export function readWhole(context: ToolContext, windowId: number): Promise<WindowRead> {
  const reads = judging.getStore();
  if (!reads) return readAnew(context, windowId);
  const kept = reads.get(windowId);
  if (kept) return kept;
  const read = readAnew(context, windowId);
  reads.set(windowId, read);
  // A read that failed is tried again by the next part that asks.
  read.catch(() => reads.delete(windowId));
  return read;
}

async function readAnew(context: ToolContext, windowId: number): Promise<WindowRead> {
  const backend = await context.backend();
  const read = await backend.readWindow(windowId, READ);
  const nodes = everyNode(read.root);
  const cut = nodes.some((n) => n.childrenCut && n.childrenCut.reason !== "table");
  return {
    root: read.root,
    nodes,
    complete: !read.timedOut && !read.ceilingHit && !cut,
    language: read.language,
    toolkit: read.toolkit,
    catalogs: read.catalogs,
  };
}

/** A shallow read under an element: what a field holds (a spinner's entry, a combo box's own text). */
const INSIDE_READ = { maxDepth: 3, tableRows: 0, walkTables: false, nodeCeiling: 50, timeoutMs: 1000 };

/**
 * Whether the element or one a few levels inside it reports `state`; undefined where that part of
 * its tree could not be read whole (the read failed, or stopped at its bound).
 */
export async function stateInside(
  context: ToolContext,
  handle: string,
  state: State,
): Promise<boolean | undefined> {
  const read = await (await context.backend()).readSubtree(handle, INSIDE_READ).catch(() => undefined);
  if (!read) return undefined;
  const walk = (n: RawNode): boolean => !!n.states?.includes(state) || n.children.some(walk);
  if (walk(read.root)) return true;
  return read.timedOut || read.ceilingHit ? undefined : false;
}

/** The window with that id as the desktop lists it now: null where it is not open, undefined where the list did not answer. */
export async function listedWindow(context: ToolContext, id: number): Promise<WindowInfo | null | undefined> {
  return (await context.backend())
    .listWindows()
    .then((windows) => windows.find((w) => w.id === id) ?? null)
    .catch(() => undefined);
}
