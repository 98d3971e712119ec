// Receipts say what was done, by which route, and what the element looks like afterwards, re-read from
// the app. They never claim the goal was reached: that stays the caller's judgement.
import {
  type AccessibilityReader,
  type ActionReport,
  ElementGone,
  type RawNode,
  type WindowInfo,
} from "../platform/types.js";
import { disabled } from "./render.js";
import { shownValue } from "./snapshot.js";

export interface ElementState {
  role: string;
  name: string | null;
  states: string[] | null;
  value?: string;
  /** The whole value's length, when `value` was cut: read_text reads the rest. */
  value_length?: number;
  bounds: RawNode["bounds"] | null;
}

/** The gate in a reply, where it had a say (L3 and up, or a confirmation): the level and who allowed it. */
export interface GateNote {
  level: string;
  allowed_by: "a person" | { preapproved: object[] } | { ceiling: string };
}

// The states an action toggles, compared before and after it.
const TOGGLED_STATES = ["checked", "pressed", "selected", "expanded", "indeterminate"];

/** The states of these (the toggled ones by default) an element gained and lost, where any changed. */
export function statesChanged(
  before: readonly string[] | null | undefined,
  after: readonly string[] | null | undefined,
  states: readonly string[] = TOGGLED_STATES,
): Receipt["states_changed"] {
  if (!before || !after) return undefined;
  const now = states.filter((s) => after.includes(s) && !before.includes(s));
  const noLonger = states.filter((s) => before.includes(s) && !after.includes(s));
  return now.length + noLonger.length > 0 ? { now, no_longer: noLonger } : undefined;
}

/** "; now checked", "; no longer checked". */
export function changedWords(changed: Receipt["states_changed"]): string {
  if (!changed) return "";
  return [
    changed.now.length ? `now ${changed.now.join(", ")}` : "",
    changed.no_longer.length ? `no longer ${changed.no_longer.join(", ")}` : "",
  ]
    .filter(Boolean)
    .map((words) => `; ${words}`)
    .join("");
}

/** What a select chose: a table's cell (selected itself), a page tab, else an option. */
const selectedThing = (receipt: Receipt) =>
  receipt.after?.role === "table cell" ? "cell" : receipt.after?.role === "page tab" ? "tab" : "option";

/** A select the toolkit took and did not apply, and the route left. */
const notSelectedLine = (thing: string) =>
  `The ${thing} does not read as selected afterwards: the toolkit accepted the call and did not apply it. ${thing === "cell" ? "A click on the cell" : "A click on the element, then on the option,"} is the route left.`;

/** A receipt's last line where the asked effect was not read back. */
export const YOURS_TO_JUDGE = "Whether this achieved the goal is for you to judge: re-read what matters.";

/** "gate: L3, confirmed by a person". */
export function gateLine(note: GateNote): string {
  const by = note.allowed_by;
  const said =
    by === "a person"
      ? "confirmed by a person"
      : "ceiling" in by
        ? `within the ceiling ${by.ceiling}, no confirmation needed`
        : `pre-approved by ${by.preapproved.map((r) => JSON.stringify(r)).join(" and ")}`;
  return `gate: ${note.level}, ${said}`;
}

export interface Receipt {
  ref: string;
  action: string;
  route: string;
  action_outcome: ActionReport["outcome"];
  returned?: unknown;
  detail?: string;
  /**
   * For set_value and set_range: whether the value read back afterwards is the one asked for; for
   * select with an option, whether the option reads selected. `not_seen` is the mark of a toolkit
   * that accepts the call and changes nothing.
   */
  effect?: "seen" | "not_seen" | "unknown";
  /** After selecting a row: the rows the table reports selected (the first 20), and how many in all. */
  selection?: { rows: number[]; total: number };
  after: ElementState | null;
  /** An unnamed element's label, as the listing the ref came from showed it (~"Width"). */
  seen_label?: string;
  /** The element's toggled states the action changed ("checked" lost): its states list alone hides a loss. */
  states_changed?: { now: string[]; no_longer: string[] };
  after_read: "complete" | "partial" | "unavailable";
  unread?: string[];
  windows_appeared: Pick<WindowInfo, "id" | "title" | "app">[];
  windows_disappeared: Pick<WindowInfo, "id" | "title" | "app">[];
  windows_retitled?: { id: number; was: string; now: string }[];
  programs_started?: StartedProgram[];
  /** What changed in the windows after the last action's reply and before this one began. */
  since_last_action?: WindowChanges;
  /**
   * The call did not return, and a window appeared meanwhile: a modal dialog the action opened holds
   * the call until it closes (Qt runs the dialog inside the action call).
   */
  held_by?: Pick<WindowInfo, "id" | "title">;
  /** The app of the element acted on is gone since: its windows went and its process ended. */
  app_exited?: { pid: number; app: string };
  /** The field set reads as asked, but what it belongs to (an editable combo box) still reads this. */
  owner_differs?: { role: string; value: string };
  /** A menu item invoked whose menu its app left open (Swing's, on an accessible click). */
  menu_left_open?: true;
  gate?: GateNote;
}

/** A receipt shows this much of a value; `value_length` says the whole length, read_text the rest. */
export const RECEIPT_TEXT = 200;

/** The receipt's after-state with its value cut to RECEIPT_TEXT characters (read longer, to compare). */
export function clipState(state: ElementState): ElementState {
  if (state.value === undefined || state.value.length <= RECEIPT_TEXT) return state;
  return {
    ...state,
    value: state.value.slice(0, RECEIPT_TEXT),
    value_length: state.value_length ?? state.value.length,
  };
}

export function elementState(node: RawNode): ElementState {
  const state: ElementState = {
    role: node.role,
    name: node.name ?? null,
    states: node.states ?? null,
    bounds: node.bounds ?? null,
  };
  const value = shownValue(node);
  if (value !== undefined) state.value = value;
  // Cut only where the value is the text: a spin button's Value "4" is no cut of its text "4 caratteri".
  const fromText = node.value === undefined;
  if (value !== undefined && fromText && node.textLength !== undefined && node.textLength > value.length)
    state.value_length = node.textLength;
  return state;
}

/** A program the input started below the app's process that can open a window (tools/started-programs.ts). */
export interface StartedProgram {
  pid: number;
  /** Its executable (its name where the path cannot be read). */
  program: string;
  /** Its windows when the reply was made. */
  windows: number[];
  running: boolean;
}

export function windowChanges(before: WindowInfo[], after: WindowInfo[], started: StartedProgram[] = []) {
  const pick = ({ id, title, app }: WindowInfo) => ({ id, title, app });
  const had = new Map(before.map((w) => [w.id, w]));
  const has = new Set(after.map((w) => w.id));
  const retitled = after.flatMap((w) => {
    const was = had.get(w.id);
    return was && was.title !== w.title ? [{ id: w.id, was: was.title, now: w.title }] : [];
  });
  return {
    windows_appeared: after.filter((w) => !had.has(w.id)).map(pick),
    windows_disappeared: before.filter((w) => !has.has(w.id)).map(pick),
    ...(retitled.length > 0 ? { windows_retitled: retitled } : {}),
    ...(started.length > 0 ? { programs_started: started } : {}),
  };
}

export type WindowChanges = ReturnType<typeof windowChanges>;

/** How long a press on a label that promises a dialog ("Open…") is given for the dialog to come. */
export const PROMISED_WINDOW_MS = 2000;

/**
 * The windows after a press whose label ends in an ellipsis, the GNOME, Apple and Windows sign that
 * a window comes next: when none came or went yet, they are read again until one does, for up to
 * PROMISED_WINDOW_MS. Swing runs an action later, on its event thread, and a loaded machine takes a
 * second to map the dialog; a receipt read at once would say nothing came.
 */
export async function awaitPromisedWindow(
  listWindows: () => Promise<WindowInfo[]>,
  before: WindowInfo[],
  after: WindowInfo[],
  label: string | undefined,
  promises: (label: string) => boolean,
): Promise<WindowInfo[]> {
  if (!label || !promises(label)) return after;
  return windowsOnceChanged(listWindows, before, after, PROMISED_WINDOW_MS);
}

/** The windows, read again every 100 ms until one came or went since `before`, for up to `ms`. */
export async function windowsOnceChanged(
  listWindows: () => Promise<WindowInfo[]>,
  before: WindowInfo[],
  after: WindowInfo[],
  ms: number,
): Promise<WindowInfo[]> {
  const had = new Set(before.map((w) => w.id));
  const cameOrWent = (list: WindowInfo[]) =>
    list.length !== before.length || list.some((w) => !had.has(w.id));
  return windowsUntil(listWindows, after, ms, cameOrWent);
}

/** The windows, read again every 100 ms until `changed` holds of them, for up to `ms`. */
export async function windowsUntil(
  listWindows: () => Promise<WindowInfo[]>,
  after: WindowInfo[],
  ms: number,
  changed: (list: WindowInfo[]) => boolean,
): Promise<WindowInfo[]> {
  const deadline = Date.now() + ms;
  let now = after;
  while (!changed(now) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    now = await listWindows().catch(() => now);
  }
  return now;
}

/** Whether anything in the windows changed: one came, went or changed its title. */
function windowsDiffer(before: WindowInfo[], after: WindowInfo[]): boolean {
  const had = new Map(before.map((w) => [w.id, w.title]));
  return after.length !== before.length || after.some((w) => had.get(w.id) !== w.title);
}

/**
 * How long an input that may open or close a window (a chord, Enter, a press) is given for it to:
 * GTK 3's Save As came 250 ms after ctrl+s, past the plain settle. It ends as soon as a window
 * changes; an input that changes none pays it whole, so it is kept short: what comes later is said
 * at the start of the session's next acting call (SINCE_LAST).
 */
export const OPENING_SETTLE_MS = 400;

/**
 * The windows after an input that may open or close one (a chord, Enter, a press): read again every
 * 100 ms until something came, went or was retitled, for up to `ms`; once something did, read once
 * more, 100 ms on, since a dialog that closes is often followed by its window's new title.
 */
export async function windowsSettled(
  listWindows: () => Promise<WindowInfo[]>,
  before: WindowInfo[],
  after: WindowInfo[],
  ms: number,
): Promise<WindowInfo[]> {
  const now = await windowsUntil(listWindows, after, ms, (list) => windowsDiffer(before, list));
  if (!windowsDiffer(before, now)) return now;
  await new Promise((resolve) => setTimeout(resolve, 100));
  return listWindows().catch(() => now);
}

/** The lines a reply gives for windows that came, went or changed their title (an editor's "*"). */
export function windowChangeLines(changes: WindowChanges): string[] {
  return [
    ...changes.windows_appeared.map((w) => `window appeared: ${w.id} ${JSON.stringify(w.title)}`),
    ...changes.windows_disappeared.map((w) => `window disappeared: ${w.id} ${JSON.stringify(w.title)}`),
    ...(changes.windows_retitled ?? []).map(
      (w) => `window retitled: ${w.id} ${JSON.stringify(w.was)} → ${JSON.stringify(w.now)}`,
    ),
    ...(changes.programs_started ?? []).map(
      (p) =>
        `started: ${p.program.split("/").pop()} (pid ${p.pid})${
          p.windows.length > 0
            ? `, its window ${p.windows.join(", ")}`
            : p.running
              ? ", no window of it yet: the next call says if one comes"
              : ", which ended with no window"
        }`,
    ),
  ];
}

/** How a line about the windows since the last reply starts. */
export const SINCE_LAST = "since your last action or window list: ";

/** What changed in the windows between one reply (or a window list) and the next call: said first. */
export function sinceLines(changes: WindowChanges): string[] {
  return windowChangeLines(changes).map((line) => `${SINCE_LAST}${line}`);
}

/** Re-reads the element after an action; a failed re-read keeps the action's outcome and says why. */
export async function afterRead(
  backend: AccessibilityReader,
  handle: string,
  windowId: number | null,
  maxText = RECEIPT_TEXT,
): Promise<Pick<Receipt, "after" | "after_read" | "unread">> {
  try {
    const node = await backend.describe(handle, { maxText, ...(windowId === null ? {} : { windowId }) });
    const unread = [...new Set(node.unread)];
    return unread.length > 0
      ? { after: elementState(node), after_read: "partial", unread }
      : { after: elementState(node), after_read: "complete" };
  } catch (error) {
    // Gone after the action: a page replaced by what it opened. How the bus said so is no news.
    const why =
      error instanceof ElementGone
        ? "the element is gone: the action removed or replaced it"
        : error instanceof Error
          ? error.message
          : String(error);
    return { after: null, after_read: "unavailable", unread: [why] };
  }
}

export function renderReceipt(receipt: Receipt): string {
  const lines = [
    ...(receipt.since_last_action ? sinceLines(receipt.since_last_action) : []),
    `${receipt.action} on ${receipt.ref} via ${receipt.route}: ${
      receipt.action_outcome === "completed"
        ? "the call returned"
        : receipt.held_by
          ? `it opened window ${receipt.held_by.id} ${JSON.stringify(receipt.held_by.title)}, a modal dialog: the app finishes this press only when that closes, and it is open now`
          : "outcome unknown: the call did not return in time"
    }${receipt.returned !== undefined ? ` (returned ${JSON.stringify(receipt.returned)})` : ""}`,
  ];
  if (receipt.app_exited)
    lines.push(
      `the app exited: ${receipt.app_exited.app} (pid ${receipt.app_exited.pid}) has no window and no process left`,
    );
  // A call held by the dialog it opened is said so above: "did not return in time … or hung" would
  // contradict it.
  if (receipt.detail && !receipt.held_by) lines.push(receipt.detail);
  if (receipt.selection) {
    const { rows, total } = receipt.selection;
    const listed =
      total === 0
        ? "none"
        : `${rows.join(", ")}${total > rows.length ? ` and ${total - rows.length} more` : ""}`;
    const told = receipt.effect === undefined && total === 0 ? " (as the table reports them)" : "";
    lines.push(
      `Selected rows now${told}: ${listed}${receipt.effect === "not_seen" ? " — not what was asked: the table did not take the selection as asked" : ""}.`,
    );
  } else if (receipt.effect === "seen" && receipt.action === "select")
    lines.push(`The ${selectedThing(receipt)} reads selected afterwards.`);
  else if (receipt.effect === "seen" && (receipt.action === "set_range" || receipt.action === "set_value"))
    lines.push(
      receipt.owner_differs
        ? `The field reads back as asked, but the ${receipt.owner_differs.role} it belongs to still reads ${JSON.stringify(receipt.owner_differs.value)}: it takes the text once it is committed (Enter, or the focus leaving it).`
        : "The value reads back as asked.",
    );
  else if (receipt.effect === "not_seen" && receipt.action === "select" && !receipt.selection)
    lines.push(notSelectedLine(selectedThing(receipt)));
  else if (receipt.effect === "not_seen" && receipt.action === "scroll") {
    // The route's detail says it.
  } else if (receipt.effect === "not_seen")
    lines.push(
      `The value read back is ${JSON.stringify(receipt.after?.value ?? null)}, not what was asked: the toolkit accepted the call and did not apply it. ${receipt.after?.role === "spin button" ? "set_range (its number) or type_text (real keys) are" : "type_text (real keys) is"} the route that works here.`,
    );
  if (receipt.after) {
    const a = receipt.after;
    lines.push(
      `after: ${a.role}${a.name ? ` ${JSON.stringify(a.name)}` : receipt.seen_label ? ` ~${JSON.stringify(receipt.seen_label)}` : ""}${a.value !== undefined ? ` = ${JSON.stringify(a.value)}` : ""}${a.value_length !== undefined ? ` (first ${a.value?.length} of ${a.value_length} characters: read_text reads the rest)` : ""} (${[...(a.states ?? []), ...(a.states && disabled(a.states) ? ["disabled"] : [])].join(", ")})${changedWords(receipt.states_changed)}`,
    );
  }
  if (receipt.after_read !== "complete" && !receipt.app_exited)
    lines.push(`after_read: ${receipt.after_read}${receipt.unread ? ` (${receipt.unread.join("; ")})` : ""}`);
  if (receipt.menu_left_open)
    lines.push("its menu is still open: the app leaves it so after an accessible click (Escape closes it)");
  lines.push(...windowChangeLines(receipt));
  if (receipt.gate) lines.push(gateLine(receipt.gate));
  // Where the asked effect was read back, or the reply shows what the press changed (a window came,
  // went or was retitled, a state toggled), there is nothing more to judge (new users called the
  // sentence noise there); where neither, whether the goal was reached is the caller's to check.
  const shown = receipt.effect === undefined && showsAChange(receipt);
  if ((receipt.effect !== "seen" && !shown) || receipt.owner_differs) lines.push(YOURS_TO_JUDGE);
  return lines.join("\n");
}

/** Whether a receipt shows a change a person would see, beside the element's own after-state. */
const showsAChange = (receipt: Receipt): boolean =>
  receipt.windows_appeared.length > 0 ||
  receipt.windows_disappeared.length > 0 ||
  !!receipt.windows_retitled?.length ||
  !!receipt.states_changed ||
  !!receipt.held_by ||
  !!receipt.app_exited;
