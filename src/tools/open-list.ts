// A combo box that selects no option through accessibility is chosen as a person chooses: its list is
// opened by the combo box's own action, and the option, now on screen, is clicked with the real mouse
// through the gate as any click. Qt's combo box implements no Selection (its items select in the closed
// list only); LibreOffice's dialog combo boxes list no option at all until their list opens, in a popup
// window of the dialog. The choice is read back from the combo box, or, where it shows none in the tree
// (LibreOffice's), from the row its list holds selected.
import { setTimeout as sleep } from "node:timers/promises";
import type { FoundElement } from "../core/find.js";
import { MENU_ITEMS, roleSet } from "../platform/roles.js";
import {
  ActionRejected,
  type ActionReport,
  type SemanticAction,
  UnsupportedAction,
} from "../platform/types.js";
import { callTool } from "./call.js";
import type { GuardedEnd } from "./call-journal.js";
import type { ToolContext } from "./context.js";
import { type FindQueryInput, findQuerySchema, searchUntil } from "./find.js";
import { clickTool } from "./hands/pointer.js";

/** How long a list opened by a press takes to show, at most, on a loaded machine. */
const LIST_OPENS_MS = 2000;
const LIST_POLL_MS = 150;
/** A combo box shows the option a click chose once its list has closed. */
const SETTLE_AFTER_PICK_MS = 200;

/** Roles an open list shows its options as: a menu's items, a list's, a popup table's cells. */
const OPTION_ROLES = roleSet(...MENU_ITEMS, "list item", "table cell");

export interface ListOwner {
  ref: string;
  handle: string;
  windowId: number | null;
  intent: string | undefined;
  /** The combo box's own action (acting.perform), given out by the gate that allowed the call. */
  perform: (kind: SemanticAction["kind"]) => Promise<ActionReport>;
  /** Journals the call as done: the click on the option has its own line. */
  end: (how: GuardedEnd) => void;
}

/** The first search, in order, whose accepted match shows while the list opens; undefined if none does. */
async function whileListOpens(
  context: ToolContext,
  searches: { query: FindQueryInput; tables: boolean; accept: (m: FoundElement) => boolean }[],
): Promise<FoundElement | undefined> {
  for (const started = Date.now(); Date.now() - started < LIST_OPENS_MS; await sleep(LIST_POLL_MS))
    for (const { query, tables, accept } of searches) {
      const found = await searchUntil(context, query, 20, 0, "leave_out", tables).catch(() => undefined);
      const match = found?.matches.find(accept);
      if (match) return match;
    }
  return undefined;
}

const onScreen = (m: FoundElement) => !!m.bounds && m.bounds.width > 0;
const isOption = (m: FoundElement) => onScreen(m) && OPTION_ROLES.has(m.role);

/** The option on screen in the open list: inside the combo box (Qt), else in a popup of its window. */
function openOption(context: ToolContext, owner: ListOwner, name: string): Promise<FoundElement | undefined> {
  const inside = {
    query: findQuerySchema.parse({ target: { kind: "element", ref: owner.ref }, name }),
    tables: false,
    accept: onScreen,
  };
  if (owner.windowId === null) return whileListOpens(context, [inside]);
  const around = findQuerySchema.parse({ target: { kind: "window", id: owner.windowId }, name });
  return whileListOpens(context, [inside, { query: around, tables: true, accept: isOption }]);
}

/** Whether the open list holds the option, with no place on screen to click (a window whose places disagree). */
async function listedWithoutPlace(context: ToolContext, owner: ListOwner, name: string): Promise<boolean> {
  if (owner.windowId === null) return false;
  const query = findQuerySchema.parse({ target: { kind: "window", id: owner.windowId }, name });
  const found = await searchUntil(context, query, 20, 0, "include", true).catch(() => undefined);
  return !!found?.matches.some((m) => OPTION_ROLES.has(m.role));
}

/** The row the list holds selected, read by opening it through the combo box's own action and closing it. */
async function chosenInList(
  context: ToolContext,
  owner: ListOwner,
  windowId: number,
): Promise<string | undefined> {
  if (
    !(await owner.perform("invoke").then(
      () => true,
      () => false,
    ))
  )
    return undefined;
  const query = findQuerySchema.parse({ target: { kind: "window", id: windowId }, states: ["selected"] });
  // Until the list shows, only the window's own selections (a page tab) match.
  const chosen = await whileListOpens(context, [{ query, tables: true, accept: isOption }]);
  await owner.perform("invoke").catch(() => undefined);
  return chosen?.name ?? undefined;
}

/**
 * `option` chosen from the combo box's open list; `failure` is why Selection could not choose it.
 * An option the open list does not show, or a click on it that was not done, is ActionRejected, the
 * list closed again.
 */
export async function pickFromOpenList(
  context: ToolContext,
  owner: ListOwner,
  option: string,
  failure: Error,
): Promise<ActionReport> {
  // Expanded, or pressed where it reports no expandable state (Qt's ShowMenu and Press, LibreOffice's Click).
  let pressed = false;
  const opened = await owner.perform("expand").catch(async (e) => {
    if (!(e instanceof UnsupportedAction)) throw e;
    pressed = true;
    return owner.perform("invoke");
  });
  const close = () =>
    owner.perform(pressed ? "invoke" : "collapse").then(
      () => undefined,
      () => undefined,
    );
  await sleep(300);
  const shown = await openOption(context, owner, option);
  if (!shown) {
    const unplaced = await listedWithoutPlace(context, owner, option);
    await close();
    const what = unplaced
      ? `lists ${JSON.stringify(option)}, but where it is on screen cannot be read (no click lands where its place is not known)`
      : `shows no option named ${JSON.stringify(option)}`;
    throw new ActionRejected(
      `${failure.message}; its list was opened and ${what}, so it was closed again and nothing was chosen`,
    );
  }
  const clicked = await callTool(context, clickTool, {
    ref: shown.ref,
    intent: owner.intent ?? `Choose ${JSON.stringify(option)} in its list`,
  });
  if (!(clicked.ok && clicked.outcome === "done")) {
    await close();
    const why = (clicked.ok ? clicked.output.text : clicked.error.message).split("\n")[0];
    throw new ActionRejected(
      `${failure.message}; its list was opened, but the click on ${JSON.stringify(option)} was not done (${why}), so the list was closed again and nothing was chosen`,
    );
  }
  owner.end({ decision: "done", outcome: { route: "opened its list, then a real click on the option" } });
  await sleep(SETTLE_AFTER_PICK_MS);
  const now = await (await context.backend()).describe(owner.handle, { maxText: 200 }).catch(() => undefined);
  const own = (now?.name || now?.value) ?? undefined;
  const listed =
    own === undefined && now && owner.windowId !== null
      ? await chosenInList(context, owner, owner.windowId)
      : undefined;
  const value = own ?? listed;
  // Its value is in no read while the list is closed: the reply is where the agent learns it.
  const shows =
    listed === undefined
      ? ""
      : `; it shows ${JSON.stringify(listed)} (read from its list, opened again and closed: the tree does not show its value while it is closed)`;
  return {
    route: `${opened.route}, then a real click on ${JSON.stringify(option)}`,
    outcome: "completed",
    detail: `${failure.message}, so its list was opened and the option clicked with the real mouse${shows}`,
    ...(value === undefined ? {} : { seen: value === option }),
  };
}
