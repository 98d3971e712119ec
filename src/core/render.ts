// Compact text for agents: one line per element, indented by depth, with role, quoted name, ref, the
// states that matter for acting, and the value. Every cut is spelled out where it happened.

import { yieldIfDue } from "../platform/slice.js";
import type { ChildrenCut, WindowInfo } from "../platform/types.js";
import type { TreeIncomplete } from "./completeness.js";
import type { Fold } from "./flatten.js";
import type { SnapshotElement, SnapshotPage } from "./snapshot.js";

/** States worth tokens: the ones that change what an action would do. */
const KEY_STATES = [
  "focused",
  "checked",
  "indeterminate",
  "pressed",
  "selected",
  "expanded",
  "modal",
  "read only",
  "required",
  "invalid entry",
  "busy",
] as const;

/** The lines that say a window's tree is known to be incomplete, with how to fix it: one home for every read. */
export function incompleteLines(known: TreeIncomplete[] | undefined): string[] {
  return (known ?? []).map((k) => `# tree_incomplete: window ${k.window}: ${k.reason}. Fix: ${k.fix}`);
}

/** Roles whose unchecked state is said, not left to be read from "checked" missing (three trial agents guessed it). */
const SAYS_UNCHECKED = new Set(["check box", "check menu item"]);

export function keyStates(
  element: Pick<SnapshotElement, "states" | "offScreen"> & { role?: string },
): string[] {
  const states = element.states;
  const off = element.offScreen ? ["off screen"] : [];
  if (states === null) return off;
  const shown: string[] = [...KEY_STATES.filter((s) => states.includes(s)), ...off];
  if (
    SAYS_UNCHECKED.has(element.role ?? "") &&
    !states.includes("checked") &&
    !states.includes("indeterminate")
  )
    shown.unshift("unchecked");
  if (states.includes("expandable") && !states.includes("expanded")) shown.push("collapsed");
  if (disabled(states)) shown.push("disabled");
  return shown;
}

/** "enabled" and "sensitive" missing on something a user could act on: it is disabled. */
export const disabled = (states: readonly string[]) =>
  !states.includes("enabled") && !states.includes("sensitive") && states.includes("visible");

/**
 * A path, a URL or a file name in folders: what tells it apart is its end ("…/minutes-print.pdf").
 * It starts as one ("/", "~/", "C:\\", "file://"), or is one word holding a separator.
 */
const PATH_LIKE = /^(?:[~.]?\/|[A-Za-z]:\\|\\\\|[a-z][a-z+.-]*:\/\/)|^[^\s]*[/\\][^\s]*$/u;

/** A text quoted on one line, cut to `max`; a value keeps its line breaks, written `\n` (as observe writes them). */
function quote(text: string, max = 120, breaks = false): string {
  // Only what can be shown is folded: a name of megabytes is not copied whole to show 120 characters.
  const read = text.length > max * 4 ? text.slice(0, max * 4) : text;
  const oneLine = breaks ? read.replace(/\r\n?/g, "\n").replace(/[^\S\n]+/g, " ") : read.replace(/\s+/g, " ");
  const cut = oneLine.length > max || read !== text;
  if (!cut) return JSON.stringify(oneLine);
  // A long path keeps its head and its end: its file name is what differs from its neighbours'.
  if (read === text && PATH_LIKE.test(oneLine)) {
    const tail = Math.floor(max * 0.6);
    return JSON.stringify(`${oneLine.slice(0, max - tail - 1)}…${oneLine.slice(-tail)}`);
  }
  return JSON.stringify(`${oneLine.slice(0, max)}…`);
}

function describeCut(cut: ChildrenCut, childCount: number | null): string {
  switch (cut.reason) {
    case "maxDepth":
      return `${childCount ?? "?"} children below maxDepth: snapshot this ref to go deeper`;
    case "table":
      return `table ${cut.rows}×${cut.columns}, first ${cut.rowsRead} rows${cut.columnsRead < cut.columns ? ` × ${cut.columnsRead} columns` : ""} shown: read_table pages the rest`;
    case "hugeChildCount":
      return `${cut.childCount} children not walked`;
    case "nodeCeiling":
      return `only ${cut.childrenRead} of ${childCount ?? "?"} children read: the read ceiling was reached`;
    case "timeout":
      return "children not read: the app did not answer in time";
    case "unreadable":
      return `children could not be read: ${cut.error}`;
  }
}

/** A fold's line: what it holds, and that it is not on screen. How to unfold is said once, in the header. */
export function describeFold(
  fold: Pick<Fold, "self" | "elements" | "items" | "cut" | "why"> & { group?: { count: number } },
): string {
  const more = fold.cut ? "+" : "";
  if (fold.why === "empty") return `${fold.elements} empty`;
  if (fold.why === "closed menu") return `closed, ${fold.items ?? fold.elements}${more} items`;
  if (fold.group) return `${fold.elements}${more} elements`;
  if (!fold.self) return `${fold.elements}${more} inside, hidden`;
  return fold.elements > 0 ? `hidden, ${fold.elements}${more} inside` : "hidden";
}

export interface RenderOptions {
  bounds?: boolean;
  /** Spaces per level: the screen view spends one, the full tree two. */
  indent?: number;
}

export function renderElement(element: SnapshotElement, options: RenderOptions = {}): string {
  const indent = " ".repeat(options.indent ?? 2);
  const group = element.fold?.group;
  if (group && element.fold!.why === "empty") {
    const numbers = group.refs.map((r) => Number(r.slice(r.lastIndexOf("e") + 1)));
    const contiguous = numbers.every((n, i) => i === 0 || n === numbers[i - 1]! + 1);
    const refs = contiguous ? `${group.refs[0]}…${group.refs.at(-1)}` : group.refs.join(",");
    return `${indent.repeat(element.depth)}- ${group.count} empty cells ${quote(group.first ?? "")} … ${quote(group.last ?? "")} [refs=${refs}]`;
  }
  if (group) {
    // Several hidden siblings, one line: what they are, and the ref that reads them.
    const more = element.fold!.cut ? "+" : "";
    const reader = group.parent ? `snapshot ${group.parent} reads them` : `refs ${group.refs.join(", ")}`;
    return `${indent.repeat(element.depth)}- ${group.count} hidden: ${group.roles} · ${element.fold!.elements}${more} elements; ${reader}`;
  }
  const parts = [`${indent.repeat(element.depth)}- ${element.role}`];
  if (element.name === null) parts.push("(name unread)");
  else if (element.name !== "") parts.push(quote(element.name));
  // An unnamed field's label, or the key a value label sits beside: inferred, marked ~, since the
  // application never said so.
  if (element.inferredLabel) parts.push(`~${quote(element.inferredLabel)}`);
  parts.push(`[ref=${element.ref}]`);
  const states = keyStates(element);
  if (states.length > 0) parts.push(`(${states.join(", ")})`);
  if (element.value !== undefined) {
    const cut = element.textLength !== undefined ? ` (${element.textLength} chars, cut)` : "";
    parts.push(`= ${quote(element.value, 200, true)}${cut}`);
  }
  if (element.value === undefined && element.fold?.selected !== undefined)
    parts.push(`= ${quote(element.fold.selected, 200)}`);
  if (options.bounds && element.bounds) {
    const b = element.bounds;
    parts.push(`@${b.x},${b.y} ${b.width}x${b.height}`);
  }
  if (element.unread) parts.push(`{unread: ${element.unread.join(", ")}}`);
  if (element.fold) parts.push(`· ${describeFold(element.fold)}`);
  if (element.pixelsOnly) parts.push("· pixels only: read_screen_text reads its text");
  let line = parts.join(" ");
  if (element.cut)
    line += `\n${indent.repeat(element.depth + 1)}… ${describeCut(element.cut, element.childCount)}`;
  return line;
}

/** A page as text; thousands of lines let the event loop turn part way (see platform/slice.ts). */
export async function renderSnapshot(page: SnapshotPage, options: RenderOptions = {}): Promise<string> {
  const where =
    page.windows.length === 1
      ? `window ${page.windows[0]!.id} ${quote(page.windows[0]!.title)}`
      : page.windows.length > 1
        ? `${page.windows.length} windows`
        : "subtree";
  const { counts } = page;
  const header = [
    `# snapshot ${page.snapshotId} · ${where} · elements ${counts.before + 1}–${counts.before + counts.shown} of ${counts.inScope}`,
  ];
  if (page.truncatedBy.length > 0) header.push(`# truncated_by: ${page.truncatedBy.join(", ")}`);
  if (page.view === "screen") {
    const economies = [
      counts.folds > 0
        ? `${counts.folded} elements not on screen folded into ${counts.folds} lines marked "closed" or "hidden" (snapshot such a ref to read inside)`
        : "",
      counts.merged > 0 ? `${counts.merged} wrappers and repeated labels merged` : "",
      counts.separators > 0 ? `${counts.separators} separators and empty boxes dropped` : "",
      counts.emptyCells > 0 ? `${counts.emptyCells} empty cells in runs` : "",
    ].filter(Boolean);
    if (economies.length > 0)
      header.push(`# screen view: ${economies.join("; ")}; format "full" shows every element`);
  }
  header.push(...incompleteLines(page.treeIncomplete));
  // Said as the call to make: snapshot has no argument "cursor", a cursor is a target.
  if (page.cursor)
    header.push(
      `# more: ${counts.after} elements; continue with target {"kind":"cursor","cursor":"${page.cursor}"}`,
    );
  const lineOptions = { indent: page.view === "screen" ? 1 : 2, ...options };
  const lines = header;
  for (const element of page.elements) {
    const turn = yieldIfDue();
    if (turn) await turn;
    lines.push(renderElement(element, lineOptions));
  }
  return lines.join("\n");
}

/** Who scaled a window's extents, as its line says it. */
export const scaledBy = (w: WindowInfo): string =>
  w.extentsScaledBy === "output" ? "the screen's scale" : "app scales itself";

export function renderWindows(windows: WindowInfo[], truncated: boolean, total: number): string {
  if (windows.length === 0) return "No top-level windows are open.";
  const lines = windows.map((w) => {
    const rect = w.rect ? ` ${w.rect.width}x${w.rect.height}@${w.rect.x},${w.rect.y}` : "";
    const flags = [
      w.focused ? "focused" : "",
      w.accessible ? "" : "no accessible tree",
      // Said so the places shown can be trusted: the app's own pixels were scaled to the screen's.
      w.extentsScale ? `${scaledBy(w)} ×${Number(w.extentsScale.toFixed(3))}` : "",
      w.extentsDisagree ? "its places disagree with the screen: no click by ref" : "",
    ].filter(Boolean);
    return `- ${w.id} ${quote(w.title)} app=${w.app ?? "?"} pid=${w.pid ?? "?"}${rect}${flags.length ? ` (${flags.join(", ")})` : ""}`;
  });
  if (truncated) lines.push(`… ${total - windows.length} more windows: raise limit to see them`);
  return lines.join("\n");
}
