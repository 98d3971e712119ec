// A toggle can flip a button's checked state and do nothing else: Qt's checkable section buttons
// (a settings dialog's "Audio", "Video") turn the page on `clicked`, which only a press emits, while
// their accessible Toggle only flips the state. Judged from evidence, never assumed: before, the
// element is unchecked and a sibling of its role is checked; after, it is checked and that sibling
// is not (an exclusive group: sections, tabs, modes), and nothing else shown in the window changed.
import { isShown, reportsShowing } from "../core/flatten.js";
import { roleSet } from "../platform/roles.js";
import type { AccessibilityReader, RawNode } from "../platform/types.js";
import { READ } from "./hands/window-read.js";

/** The roles a section button takes (Qt reports a checkable tool button as a check box); a radio button's state is its whole effect. */
const SECTION_ROLES = roleSet("check box", "toggle button");

export interface SectionWatch {
  windowId: number;
  handle: string;
  /** The sibling checked before: an exclusive group unchecks it when the element is checked. */
  checkedSibling: string;
  /** What else the window showed: each element's handle, name and whether it was on screen. */
  shown: string[];
}

const checked = (n: RawNode | undefined) => n?.states?.includes("checked") === true;

/** The element's parent in the tree, found by its handle. */
function parentOf(root: RawNode, handle: string): RawNode | undefined {
  for (const child of root.children) {
    if (child.handle === handle) return root;
    const found = parentOf(child, handle);
    if (found) return found;
  }
  return undefined;
}

/** Every element of the window outside the group, as a line that changes when it is shown, hidden or renamed. */
function shownOutside(root: RawNode, group: Set<string>): string[] {
  const showingKnown = reportsShowing(root);
  const lines: string[] = [];
  const walk = (node: RawNode) => {
    if (group.has(node.handle)) return;
    lines.push(`${node.handle}|${node.name ?? ""}|${isShown(node, showingKnown)}`);
    for (const child of node.children) walk(child);
  };
  walk(root);
  return lines;
}

/**
 * Read before a toggle on an unchecked button whose sibling of the same role is checked: what the
 * window shows, to tell afterwards whether anything but the group changed. Other toggles: nothing read.
 */
export async function watchSection(
  backend: AccessibilityReader,
  node: RawNode,
  handle: string,
  windowId: number | null,
): Promise<SectionWatch | undefined> {
  if (windowId === null || !SECTION_ROLES.has(node.role) || checked(node)) return undefined;
  const read = await backend.readWindow(windowId, READ).catch(() => undefined);
  if (!read || read.timedOut || read.ceilingHit) return undefined;
  const parent = parentOf(read.root, handle);
  const group = parent?.children.filter((c) => c.role === node.role) ?? [];
  const on = group.find((c) => c.handle !== handle && checked(c));
  if (!on) return undefined;
  return {
    windowId,
    handle,
    checkedSibling: on.handle,
    shown: shownOutside(read.root, new Set(group.map((c) => c.handle))),
  };
}

/** Whether the toggle flipped the group and nothing else: the page a click would turn did not turn. */
export async function sectionStayed(backend: AccessibilityReader, watch: SectionWatch): Promise<boolean> {
  // A sibling still checked: no exclusive group (plain check boxes), known from one element's read.
  const siblingNow = await backend
    .describe(watch.checkedSibling, { maxText: 0, windowId: watch.windowId })
    .catch(() => undefined);
  if (!siblingNow || checked(siblingNow)) return false;
  const read = await backend.readWindow(watch.windowId, READ).catch(() => undefined);
  if (!read || read.timedOut || read.ceilingHit) return false;
  const parent = parentOf(read.root, watch.handle);
  const group = parent?.children.filter(
    (c) => c.handle === watch.handle || c.handle === watch.checkedSibling,
  );
  const element = group?.find((c) => c.handle === watch.handle);
  const sibling = group?.find((c) => c.handle === watch.checkedSibling);
  if (!parent || !checked(element) || !sibling || checked(sibling)) return false;
  const role = element!.role;
  const groupHandles = new Set(parent.children.filter((c) => c.role === role).map((c) => c.handle));
  const now = shownOutside(read.root, groupHandles);
  return now.length === watch.shown.length && now.every((line, i) => line === watch.shown[i]);
}
