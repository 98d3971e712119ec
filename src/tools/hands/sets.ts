// What an input sets rather than presses, named as the facts the one judge (classify.ts) reads: a
// value control's new value (a slider "Slide to pay" is judged by its words), an option chosen in a
// list (by the option's words, with its list's name), the options a wheel turns a combo box through.

import { MENU_ITEMS, roleSet } from "../../platform/roles.js";
import type { RawNode } from "../../platform/types.js";
import type { TargetFacts } from "../../safety/classify.js";
import type { ToolContext } from "../context.js";
import { pressFacts } from "./facts.js";
import type { PlacedElement, ResolvedPlace } from "./placed.js";

/** Controls whose value an input sets (set_range, set_value, the wheel, keys). */
export const VALUE_ROLES = roleSet(
  "slider",
  "spin button",
  "scroll bar",
  "dial",
  "progress bar",
  "level bar",
);

type Control = Pick<PlacedElement, "role" | "name" | "description" | "states"> & {
  handle?: string | undefined;
};

/** A value control about to take `value` (undefined: not read), with its window: judged by its words. */
export async function valueFacts(
  context: ToolContext,
  control: Control,
  value: string | undefined,
  windowId: number | undefined,
): Promise<TargetFacts> {
  return {
    ...(await pressFacts(context, facetsOf(control), windowId)),
    sets: value === undefined ? {} : { value },
  };
}

const facetsOf = (c: Control) => ({
  role: c.role,
  name: c.name,
  states: c.states,
  languageFrom: c.handle,
  ...(c.description ? { description: c.description } : {}),
});

/** The role an option of a list has, by the list: a combo box's and a menu's are its items. */
const OPTION_OF: Record<string, string> = {
  "combo box": "menu item",
  menu: "menu item",
  "page tab list": "page tab",
  tree: "tree item",
  "tree table": "tree item",
};

/** An option about to be chosen in `list`, by its text: judged by its words, with its list's name. */
export async function optionFacts(
  context: ToolContext,
  list: Control,
  option: string,
  windowId: number | undefined,
): Promise<TargetFacts> {
  const role = OPTION_OF[list.role] ?? "list item";
  const facts = await pressFacts(context, { role, name: option, languageFrom: list.handle }, windowId);
  return { ...facts, sets: { list: { role: list.role, name: list.name } } };
}

/** Roles a combo box's list shows its options as. */
const OPTION_ROLES = roleSet(...MENU_ITEMS, "list item");
const OPTIONS_READ = { maxDepth: 3, tableRows: 0, walkTables: false, nodeCeiling: 500, timeoutMs: 1500 };

/** How an input moves through a list's options: by steps forward or back, or to its first or last. */
type Move = { forward: boolean; steps: number } | "first" | "last";

/** The options a move passes through from the one at `at` (each is chosen on the way); all where unknown. */
function passed<T>(options: T[], at: number, move: Move): T[] {
  if (at < 0) return options;
  if (move === "first") return options.slice(0, at);
  if (move === "last") return options.slice(at + 1);
  return move.forward
    ? options.slice(at + 1, at + 1 + move.steps)
    : options.slice(Math.max(0, at - move.steps), at);
}

/**
 * The options a move over a combo box or list chooses, from the current one (by its `selected`
 * state or the combo box's name). None readable (a closed Qt or GTK 4 list is not in the tree):
 * what it chooses cannot be read.
 */
async function movedOptions(
  context: ToolContext,
  list: PlacedElement,
  move: Move,
  windowId: number | undefined,
): Promise<TargetFacts[]> {
  const unread = {
    unreadable: `it chooses an option of ${list.role} ${JSON.stringify(list.name ?? "")} that its tree does not list`,
  };
  if (!list.handle) return [unread];
  const backend = await context.backend();
  const read = await backend.readSubtree(list.handle, OPTIONS_READ).catch(() => undefined);
  const options: RawNode[] = [];
  const walk = (n: RawNode) => {
    if (OPTION_ROLES.has(n.role) && n.name) options.push(n);
    else n.children.forEach(walk);
  };
  read?.root.children.forEach(walk);
  if (options.length === 0) return [unread];
  const at = options.findIndex((o) => o.states?.includes("selected") || o.name === list.name);
  return Promise.all(passed(options, at, move).map((o) => optionFacts(context, list, o.name!, windowId)));
}

/** Keys that move a value control's value or a list's choice, and how. */
const KEY_MOVES: Record<string, Move> = {
  Home: "first",
  End: "last",
  Up: { forward: false, steps: 1 },
  Left: { forward: false, steps: 1 },
  Down: { forward: true, steps: 1 },
  Right: { forward: true, steps: 1 },
  // A page is many options: every one to that end.
  PageUp: "first",
  PageDown: "last",
};
const CHOICE_LISTS = roleSet("combo box", "list box");

/**
 * What a moving key sets in the focused element (for the key route, beside key-effect.ts): a value control's
 * value ("End" on a slider "Slide to pay" moves it to its end), or the options a combo box or list
 * box passes through (arrows on a focused `<select>`). Undefined: the key sets nothing there.
 */
export async function keyedFacts(
  context: ToolContext,
  focused: PlacedElement,
  key: { name: string; count: number },
  windowId: number | undefined,
): Promise<TargetFacts[] | undefined> {
  const move = KEY_MOVES[key.name];
  if (!move) return undefined;
  // The value it reaches is not read before: the control is judged by its own words.
  if (VALUE_ROLES.has(focused.role)) return [await valueFacts(context, focused, undefined, windowId)];
  if (!CHOICE_LISTS.has(focused.role)) return undefined;
  const stepped = typeof move === "string" ? move : { ...move, steps: move.steps * key.count };
  return movedOptions(context, focused, stepped, windowId);
}

/**
 * What a wheel turn sets where it lands: the first value control or combo box under the point (the
 * element, then what holds it, then what lies beneath); elsewhere it only scrolls. A point that
 * could not be read, or no point at all (the pointer where it is), is unreadable.
 */
export async function wheelFacts(
  context: ToolContext,
  place: ResolvedPlace | undefined,
  wheel: { direction: "up" | "down" | "left" | "right"; notches: number },
): Promise<TargetFacts[]> {
  if (!place)
    return [
      { unreadable: "the wheel turns wherever the pointer is, which was not read: give a ref or a point" },
    ];
  if (place.how === "unknown")
    return [{ unreadable: place.unknownBecause ?? "the point could not be probed" }];
  const under = [place.element, ...(place.ancestors ?? []), ...(place.beneath ?? [])];
  const turned = under.find((e) => e && (e.role === "combo box" || VALUE_ROLES.has(e.role)));
  if (!turned) return [{ nothing: "scrolls" }];
  const forward = wheel.direction === "down" || wheel.direction === "right";
  if (turned.role === "combo box")
    return movedOptions(context, turned, { forward, steps: wheel.notches }, place.windowId);
  const by = `${forward ? "+" : "-"}${wheel.notches} step${wheel.notches === 1 ? "" : "s"}`;
  return [await valueFacts(context, turned, by, place.windowId)];
}

/**
 * What a drag that starts on a value control sets: the control holds the pointer until the release
 * (a slider's knob dragged), so its value changes wherever the drag ends, and nothing there takes a
 * drop. Judged by the control's words. Undefined: the drag does not start on one.
 */
export async function draggedValue(
  context: ToolContext,
  from: ResolvedPlace,
): Promise<TargetFacts | undefined> {
  const control = [from.element, ...(from.ancestors ?? [])].find((e) => e && VALUE_ROLES.has(e.role));
  return control ? valueFacts(context, control, undefined, from.windowId) : undefined;
}
