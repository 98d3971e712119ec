// Getting the keyboard focus onto a ref before keys go to it: a field that has it keeps it, one that
// does not takes the accessibility focus or a click, and the keys wait until the focus is there
// (or say what took it instead). Nothing is typed until then.

import { setTimeout as sleep } from "node:timers/promises";
import { inside } from "../../core/rects.js";
import type { Hands } from "../../platform/hands.js";
import { CLICK_TO_FOCUS_ROLES } from "../../platform/roles.js";
import type { RawNode } from "../../platform/types.js";
import type { ActingSurfaces } from "../acting.js";
import type { ToolContext } from "../context.js";
import { NothingSent } from "./attempt.js";
import { EDITS_TEXT } from "./field.js";
import type { ResolvedPlace } from "./placed.js";
import { readWhole, stateInside } from "./window-read.js";

/** Whether giving the ref the keyboard focus takes a click (text fields and cells do). */
export function clicksToFocus(place: ResolvedPlace | undefined): boolean {
  return place?.element !== undefined && CLICK_TO_FOCUS_ROLES.has(place.element.role);
}

/**
 * Moves the keyboard focus to a ref. A text field that has it keeps it; one that does not takes the
 * accessibility focus where its toolkit grants it, and a click only where not (GTK 4.8): the caret is
 * then placed through its Text interface, never by where a click landed. Other fields that take
 * keys by a click (cells, combo boxes) are clicked; anything else gets the accessibility focus.
 */
export async function focusPlace(
  context: ToolContext,
  hands: Hands,
  acting: ActingSurfaces,
  place: ResolvedPlace,
  replacing = false,
): Promise<string> {
  if (clicksToFocus(place)) {
    const field = EDITS_TEXT.has(place.element?.role ?? "");
    // A cell or a combo box typed into without replacing keeps its click: the caret goes where the
    // click lands, as it always has.
    if ((field || replacing) && (await alreadyFocused(context, hands, place))) return "already focused";
    if (field && (await grabbed(context, hands, acting, place))) return "accessibility focus";
    await hands.click(place.point, { button: "left", count: 1, modifiers: [] });
    if (place.element?.role === "table cell" && place.handle) await ensureCurrent(context, place);
    else await untilFocused(context, place);
    return "clicked";
  }
  const backend = await acting.backend();
  try {
    await backend.perform(place.handle!, { kind: "focus" }, { timeoutMs: 2000 });
  } catch (error) {
    throw new Error(
      `cannot move the focus to ${place.ref} without clicking it (${(error as Error).message}); click it first if that is safe`,
    );
  }
  await untilGrabbed(context, place);
  return "accessibility focus";
}

/** Polls after a text field's accessibility focus, before it is clicked instead. */
const GRAB_TRY_MS = [0, 30, 60, 120, 250];

/**
 * Whether a focusable text field took the accessibility focus (Component.GrabFocus) in the window in
 * front: GTK 3, Qt and Java grant it, GTK 4.8 does not, and an inactive window gives the focus
 * within itself without the keys following, so it is tried only in the window in front.
 */
async function grabbed(
  context: ToolContext,
  hands: Hands,
  acting: ActingSurfaces,
  place: ResolvedPlace,
): Promise<boolean> {
  if (!place.handle || !place.element?.states?.includes("focusable")) return false;
  if (place.windowId === undefined || (await hands.activeWindow()) !== place.windowId) return false;
  const report = await (await acting.backend())
    .perform(place.handle, { kind: "focus" }, { timeoutMs: 2000 })
    .catch(() => undefined);
  if (report?.outcome !== "completed" || report.returned === false) return false;
  for (const wait of GRAB_TRY_MS) {
    await sleep(wait);
    if ((await holdsFocus(context, place)).holds) return true;
  }
  return false;
}

/** Polls after the accessibility focus: an app applies it at once, or within a few of its turns. */
const GRAB_POLL_MS = [0, 30, 60, 120, 250, 500];

/**
 * After the accessibility focus, the element (or one inside it) must report the focus before a key
 * goes: a label or a container answers GrabFocus and leaves the focus where it was, and keys sent
 * then land in another field. Another element holding it, or an element that cannot take it, stops
 * the input; where nothing reports the focus at all, the keys go as before.
 */
async function untilGrabbed(context: ToolContext, place: ResolvedPlace): Promise<void> {
  let node: RawNode | undefined;
  for (const wait of GRAB_POLL_MS) {
    await sleep(wait);
    const now = await holdsFocus(context, place);
    if (now.holds) return;
    node = now.node;
  }
  const what = place.ref ?? "the element";
  const owner = await focusElsewhere(context, place);
  if (owner)
    throw new NothingSent(
      `${what} did not take the keyboard focus; ${named(owner)} has it, so the keys would go there; nothing was sent. Name the field itself (find by its role or label), or click it first if that is safe`,
    );
  if (node?.states && !node.states.includes("focusable"))
    throw new NothingSent(
      `${what} (${named(node)}) cannot take the keyboard focus; nothing was sent. Name the field itself (find by its role or label)`,
    );
}

/** The place's element re-read, and whether it or one inside it (a spinner's entry) reports the focus. */
async function holdsFocus(
  context: ToolContext,
  place: ResolvedPlace,
): Promise<{ node: RawNode | undefined; holds: boolean }> {
  if (!place.handle) return { node: undefined, holds: true };
  const backend = await context.backend();
  const windowId = place.windowId === undefined ? {} : { windowId: place.windowId };
  const node = await backend.describe(place.handle, { maxText: 0, ...windowId }).catch(() => undefined);
  if (node?.states?.includes("focused")) return { node, holds: true };
  if (!node?.childCount) return { node, holds: false };
  return { node, holds: (await stateInside(context, place.handle, "focused")) === true };
}

/** Whether the place's element reports the keyboard focus now, in the window that is in front. */
async function alreadyFocused(context: ToolContext, hands: Hands, place: ResolvedPlace): Promise<boolean> {
  if (!place.handle || place.windowId === undefined || place.element?.role === "table cell") return false;
  if ((await hands.activeWindow()) !== place.windowId) return false;
  const node = await (await context.backend())
    .describe(place.handle, { maxText: 0, windowId: place.windowId })
    .catch(() => undefined);
  return node?.states?.includes("focused") === true;
}

/**
 * A clicked cell must now be the current one before anything is typed: if the click landed on
 * another cell (the sheet moved under it), typing would fill the wrong cell.
 */
async function ensureCurrent(context: ToolContext, place: ResolvedPlace): Promise<void> {
  const backend = await context.backend();
  for (let attempt = 0; attempt < 5; attempt++) {
    await sleep(60);
    const node = await backend.describe(place.handle!, {
      maxText: 0,
      ...(place.windowId === undefined ? {} : { windowId: place.windowId }),
    });
    if (node.states?.includes("focused") || node.states?.includes("selected")) return;
  }
  throw new Error(
    `the click at (${place.point.x}, ${place.point.y}) did not make ${place.ref} the current cell; nothing was ` +
      "typed. Move to the cell with keys (ctrl+Home, arrows) and type without a ref",
  );
}

// GTK 3 took over 1.5 s to handle a click while it reloaded keymaps another deskhand kept changing,
// up to 4.7 s on a slower machine (two typists, 64 borrowed keysyms each turn), and past 10 s once
// with a package install and two CPU burners beside it (scripts/load.mjs): the app is busy, not
// saying no.
const FOCUSED_WITHIN_MS = 20_000;
/** Polls start quick and slow down: each read is work for an app that is already behind. */
const FOCUS_POLL_MS = [30, 60, 120, 250];

/** When a field still without the focus has its window read for who has it instead (ms after the click). */
const FOCUS_OWNER_CHECKS_MS = [300, 1000, 2500, 5000];

/** The element with the keyboard focus in the place's window, unless it is the place, inside it or around it. */
async function focusElsewhere(context: ToolContext, place: ResolvedPlace): Promise<RawNode | undefined> {
  if (place.windowId === undefined || !place.handle) return undefined;
  const backend = await context.backend();
  const read = await readWhole(context, place.windowId).catch(() => undefined);
  if (!read) return undefined;
  // The paths to the deepest focused element and to the place: either on the other's path (around
  // it, or inside it: a spinner's own entry, a web document holding the caret) is not another element.
  const pathTo = (match: (n: RawNode) => boolean) => {
    let found: RawNode[] | undefined;
    const walk = (node: RawNode, path: RawNode[]) => {
      const here = [...path, node];
      if (match(node)) found = here;
      for (const child of node.children) walk(child, here);
    };
    walk(read.root, []);
    return found;
  };
  const toOwner = pathTo((n) => n.states?.includes("focused") === true);
  const owner = toOwner?.at(-1);
  if (!owner || toOwner!.some((n) => n.handle === place.handle)) return undefined;
  if (pathTo((n) => n.handle === place.handle)?.some((n) => n.handle === owner.handle)) return undefined;
  return backend.describe(owner.handle, { maxText: 0, windowId: place.windowId }).catch(() => owner);
}

const named = (n: RawNode) => `${n.role}${n.name ? ` ${JSON.stringify(n.name)}` : ""}`;

/** Whether a point lies within an element's bounds. */
const liesOver = (n: RawNode, p: { x: number; y: number }) => !!n.bounds && inside(p, n.bounds);

/**
 * Waits until the clicked field reports the focus: keys sent before the app has handled the click
 * go to the field that had it. A focusable field that never reports it is an error, and nothing is
 * typed; an element that does not report focusability at all is typed into after the click.
 */
async function untilFocused(context: ToolContext, place: ResolvedPlace): Promise<void> {
  if (!place.handle) return;
  const clicked = Date.now();
  const deadline = clicked + FOCUSED_WITHIN_MS;
  const checks = [...FOCUS_OWNER_CHECKS_MS];
  let focusable = false;
  for (let poll = 0; Date.now() < deadline; poll++) {
    // A spinner or an editable combo box gives the focus to its own text field inside.
    const { node, holds } = await holdsFocus(context, place);
    if (holds) return;
    focusable ||= node?.states?.includes("focusable") ?? false;
    if (node?.states && !focusable) {
      // It cannot take the focus: keys would go to whatever has it.
      const owner = await focusElsewhere(context, place);
      if (owner)
        throw new NothingSent(
          `${place.ref ?? "the field"} does not take the keyboard focus; ${named(owner)} has it, so the keys would go there; nothing was typed. Set its value with act set_value, or focus it another way first`,
        );
      return;
    }
    // A click another element took (one over the field's centre) gave that element the focus.
    if (checks.length > 0 && Date.now() - clicked >= checks[0]!) {
      checks.shift();
      const owner = await focusElsewhere(context, place);
      if (owner && liesOver(owner, place.point))
        throw new NothingSent(
          `the click at (${place.point.x}, ${place.point.y}) gave the keyboard focus to ${named(owner)}, which lies over ${place.ref ?? "the field"}; nothing was typed. Close or move what covers it, or act set_value on the field`,
        );
    }
    await sleep(FOCUS_POLL_MS[Math.min(poll, FOCUS_POLL_MS.length - 1)] ?? 250);
  }
  if (focusable)
    throw new Error(
      `${place.ref ?? "the field"} did not take the keyboard focus within ${FOCUSED_WITHIN_MS / 1000} s of the click; nothing was typed. Read it again and retry`,
    );
}
