import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { DeskhandError } from "../core/errors.js";
import { readsBackAs } from "../core/readback.js";
import {
  afterRead,
  awaitPromisedWindow,
  clipState,
  OPENING_SETTLE_MS,
  RECEIPT_TEXT,
  type Receipt,
  renderReceipt,
  statesChanged,
  windowChanges,
  windowsSettled,
} from "../core/receipt.js";
import { hidesSecret } from "../core/value.js";
import { type Verified, verifiedNote, verifyRef } from "../core/verify.js";
import { processAlive } from "../platform/index.js";
import { MENU_ITEM_ROLES } from "../platform/roles.js";
import type {
  AccessibilityReader,
  ActionReport,
  RawNode,
  SemanticAction,
  WindowInfo,
} from "../platform/types.js";
import { ActionRejected, JAVA_TOOLKIT, PASSWORD_ROLE, UnsupportedAction } from "../platform/types.js";
import type { Secret } from "../safety/audit.js";
import { COMMAND_ROLES, commitReason, type TargetFacts } from "../safety/classify.js";
import { endsInEllipsis } from "../safety/committing-words.js";
import { callTool } from "./call.js";
import { watchChanges } from "./changes.js";
import { rememberWindows, type ToolContext, windowsSinceLast } from "./context.js";
import { inlineFindSchema, inlineNthSchema, resolveOne } from "./find.js";
import { type Guarded, guard } from "./guard.js";
import { pressFacts } from "./hands/facts.js";
import { clickTool } from "./hands/pointer.js";
import { intentSchema } from "./hands/schemas.js";
import { optionFacts, VALUE_ROLES, valueFacts } from "./hands/sets.js";
import { pickFromOpenList } from "./open-list.js";
import { includeChangesSchema, refSchema } from "./schemas.js";
import { wheelIfNotMoved } from "./scroll-by-wheel.js";
import { type SectionWatch, sectionStayed, watchSection } from "./section-toggle.js";
import { programsBefore, windowsOfStarted } from "./started-programs.js";
import { defineTool } from "./tool.js";
import { pressReportedKeys, stepIfNotApplied, steppable, valueIfTextNotTaken } from "./value-by-keys.js";
import { viewSchema } from "./view.js";

type SinceSeen = Pick<Verified, "moved" | "refound">;

/** The longest value set_value reads back whole to compare (about 1 MB of text). */
const WHOLE_TEXT_MAX = 1_000_000;

export const scrollAmountSchema = z.enum([
  "no_amount",
  "small_increment",
  "small_decrement",
  "large_increment",
  "large_decrement",
]);

const semanticActionSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("invoke") }).describe("press or activate"),
  z.strictObject({ kind: z.literal("toggle") }),
  z.strictObject({ kind: z.literal("set_value"), text: z.string() }).describe('"" clears'),
  z.strictObject({ kind: z.literal("set_range"), value: z.number().finite() }).describe("slider, spinner"),
  z.strictObject({ kind: z.literal("focus") }),
  z
    .strictObject({
      kind: z.literal("select"),
      option: z.string().min(1).optional().describe("An option by its exact text; a miss lists the options"),
      row: z.number().int().min(0).optional(),
      column: z.number().int().min(0).optional(),
      mode: z.enum(["replace", "add"]).optional(),
    })
    .refine((s) => s.column === undefined || s.row !== undefined, {
      message: "column needs row",
      path: ["column"],
    })
    .refine((s) => s.mode === undefined || (s.row !== undefined && s.column === undefined), {
      message: "mode goes with row (a whole row is selected or added)",
      path: ["mode"],
    })
    .refine((s) => s.option === undefined || s.row === undefined, {
      message: "give option or row, not both",
      path: ["option"],
    }),
  z.strictObject({ kind: z.literal("expand") }),
  z.strictObject({ kind: z.literal("collapse") }),
  z.strictObject({ kind: z.literal("scroll_into_view") }),
  z.strictObject({
    kind: z.literal("scroll"),
    horizontal: scrollAmountSchema.default("no_amount"),
    vertical: scrollAmountSchema.default("no_amount"),
  }),
]);

const actionFields = {
  action: semanticActionSchema,
  intent: intentSchema.optional(),
  reversible: z.boolean().optional().describe("false or a commit needs a person"),
  waitMs: z.number().int().min(0).max(5000).default(100).describe("Pause before the re-read"),
  timeoutMs: z.number().int().min(100).max(30_000).default(2000).describe("Action call bound"),
};

/** Acting on a ref: what fill_form and the NDJSON methods use. */
const actOnRefInput = z.object({ ref: refSchema, ...actionFields });

const actInput = z
  .object({
    ref: refSchema.optional(),
    find: inlineFindSchema,
    nth: inlineNthSchema,
    ...actionFields,
    include_changes: includeChangesSchema,
    view: viewSchema,
  })
  .refine((a) => (a.ref === undefined) !== (a.find === undefined), {
    message: "give a ref or a find, one of the two",
    path: ["ref"],
  });

/** `find` resolved to exactly one element's ref, or refused, listing the candidates. */
async function resolveTarget(context: ToolContext, input: z.output<typeof actInput>): Promise<string> {
  if (input.ref !== undefined) return input.ref;
  return (await resolveOne(context, input.find!, input.nth)).ref;
}

/** What the actions that press and set nothing do instead. */
const MOVES_ONLY = {
  focus: "focuses it",
  expand: "expands it",
  collapse: "collapses it",
  scroll_into_view: "scrolls it into view",
  scroll: "scrolls it",
} as const;

/**
 * What an action presses or sets, as the one judge reads it: invoke and toggle press the element;
 * select chooses an option, which a page or an app may run as a command (a listbox whose change
 * handler acts), judged by its words with its list's name; set_range, and set_value on a value
 * control, set the control to a value, judged by the control's words ("Slide to pay"); set_value
 * sets a field's text. A row of a table is data. The rest moves or shows, and presses nothing.
 */
async function judgedPress(
  context: ToolContext,
  action: z.output<typeof semanticActionSchema>,
  node: Parameters<typeof pressFacts>[1] & Pick<RawNode, "role">,
  windowId: number | undefined,
): Promise<TargetFacts> {
  switch (action.kind) {
    case "invoke":
    case "toggle":
      return pressFacts(context, node, windowId);
    case "select":
      if (action.row !== undefined) return { name: node.name, nothing: "selects a row of data" };
      if (action.option === undefined) return pressFacts(context, node, windowId);
      return optionFacts(context, node, action.option, windowId);
    case "set_range":
      return valueFacts(context, node, String(action.value), windowId);
    case "set_value":
      // A combo box's text chooses its option of that text (fill_form's choices); a field's text is
      // what the person typed, not a command, and is kept out of the judge's words.
      if (node.role === "combo box" && !node.states?.includes("editable"))
        return optionFacts(context, node, action.text, windowId);
      return VALUE_ROLES.has(node.role)
        ? valueFacts(context, node, action.text, windowId)
        : { ...(await pressFacts(context, node, windowId)), sets: {} };
    default:
      return { name: node.name, nothing: MOVES_ONLY[action.kind] };
  }
}

/** The number a set_value writes into a spin button, or undefined. */
function numberWritten(action: z.output<typeof semanticActionSchema>, node: RawNode): number | undefined {
  if (action.kind !== "set_value" || node.role !== "spin button" || action.text.trim() === "")
    return undefined;
  const value = Number(action.text);
  return Number.isFinite(value) ? value : undefined;
}

/** How a value read back says the action took: the option shown, the number held. */
function tookBy(
  action: z.output<typeof semanticActionSchema>,
  node: RawNode,
): ((value: string) => boolean) | undefined {
  if (action.kind === "select" && action.option !== undefined) return (value) => value === action.option;
  const number = action.kind === "set_range" ? action.value : numberWritten(action, node);
  return number === undefined ? undefined : (value) => Number(value) === number;
}

/** Verify, act, wait, re-read: the one path every semantic action takes. */
export async function runAction(
  context: ToolContext,
  input: z.output<typeof actOnRefInput>,
  /** The call's other values (fill_form's other fields), kept out of this action's journal line. */
  otherSecrets: Secret[] = [],
): Promise<Receipt & { since_seen?: SinceSeen }> {
  // An unwritable journal stops everything before the app is even read.
  context.audit().ensureWritable();
  const backend = await context.backend();
  const gated = await gateAction(context, input, otherSecrets);
  const { entry, node, before, guarded } = gated;
  // A window that came or went after the last reply is said first.
  const since = windowsSinceLast(context, before);
  const actedIn = before.find((w) => w.id === entry.fingerprint.windowId);
  const programs = input.action.kind === "invoke" ? programsBefore(actedIn?.pid) : undefined;
  const report = await performAction(context, input, gated);
  const settled = await windowsAfter(backend, input.action.kind, node, before);
  const starting = await windowsOfStarted(() => backend.listWindows(), programs, settled);
  let after = starting.windows;
  // A value set is read back whole, to compare it with what was asked (a 5,000-character text cut
  // at the receipt's 200 would never read back as asked); the receipt then shows its first 200.
  const wanted = input.action.kind === "set_value" ? input.action.text : undefined;
  const reread = await statesSettled(
    () =>
      afterRead(
        backend,
        entry.handle,
        entry.fingerprint.windowId,
        wanted !== undefined
          ? Math.min(WHOLE_TEXT_MAX, Math.max(RECEIPT_TEXT, wanted.length + 1))
          : RECEIPT_TEXT,
      ),
    input.action.kind,
    node,
  );
  let exited: Receipt["app_exited"];
  if (reread.after_read === "unavailable")
    ({ exited, after } = await whetherAppExited(backend, actedIn, after));
  const changes = windowChanges(before, after, starting.started);
  rememberWindows(context, after);
  // Not returned, and a window came meanwhile: the modal dialog the action opened is holding it.
  const holder = report.outcome === "unknown" ? changes.windows_appeared[0] : undefined;
  const receipt: Receipt = {
    ref: input.ref,
    action: input.action.kind,
    route: report.route,
    action_outcome: report.outcome,
    ...(report.returned === undefined ? {} : { returned: report.returned }),
    ...(report.detail ? { detail: report.detail } : {}),
    ...(report.selection ? { selection: report.selection } : {}),
    ...(since ? { since_last_action: since.data.since_last_action } : {}),
    ...reread,
    ...(entry.fingerprint.label ? { seen_label: entry.fingerprint.label } : {}),
    ...changes,
    ...(holder ? { held_by: { id: holder.id, title: holder.title } } : {}),
    ...(exited ? { app_exited: exited } : {}),
    ...(guarded.gate ? { gate: guarded.gate } : {}),
  };
  if (report.seen !== undefined) receipt.effect = report.seen ? "seen" : "not_seen";
  const toggled = statesChanged(node.states, receipt.after?.states);
  if (toggled) receipt.states_changed = toggled;
  if (receipt.effect === undefined && toggled && showsAsked(input.action.kind, toggled))
    receipt.effect = "seen";
  if (receipt.effect === undefined && selectNotTaken(input.action.kind, report.returned, receipt))
    receipt.effect = "not_seen";
  valueEffect(receipt, input.action);
  if (input.action.kind === "set_value" && receipt.effect === "seen") {
    const owner = await ownerNotTaken(backend, entry.handle, input.action.text);
    if (owner) receipt.owner_differs = owner;
  }
  if (menuLeftOpen(input.action.kind, node, receipt, actedIn)) receipt.menu_left_open = true;
  const { moved, refound } = gated;
  const sinceSeen =
    moved || refound ? { ...(moved ? { moved } : {}), ...(refound ? { refound } : {}) } : undefined;
  return sinceSeen ? { ...receipt, since_seen: sinceSeen } : receipt;
}

type Gated = Awaited<ReturnType<typeof verifyRef>> & {
  before: WindowInfo[];
  guarded: Extract<Guarded, { allowed: true }>;
};

/** The ref verified and the action judged: allowed, journaled before anything is done; else refused. */
async function gateAction(
  context: ToolContext,
  input: z.output<typeof actOnRefInput>,
  otherSecrets: Secret[],
): Promise<Gated> {
  const backend = await context.backend();
  const [verified, before] = await Promise.all([
    verifyRef(backend, context.refs, input.ref),
    backend.listWindows(),
  ]);
  const { entry, node } = verified;
  // Same gate as the input tools: invoking a committing button is L3 and needs a person.
  const windowTitle = before.find((w) => w.id === entry.fingerprint.windowId)?.title;
  const target = {
    role: node.role,
    name: node.name,
    ref: input.ref,
    ...(entry.fingerprint.windowId !== null
      ? { window: { id: entry.fingerprint.windowId, title: windowTitle } }
      : {}),
  };
  // What it presses or sets is judged with its window's facts, like a click.
  const facts = await judgedPress(context, input.action, node, entry.fingerprint.windowId ?? undefined);
  const presses = commitReason(facts) !== undefined;
  const guarded = await guard(context, {
    journalTool: `act.${input.action.kind}`,
    gate: {
      tool: "act",
      nominal: "L2",
      intent: input.intent ?? null,
      reversible: input.reversible ?? !presses,
      reversibleDeclared: input.reversible !== undefined,
      target: { ...facts, windowTitle },
    },
    target,
    secret: input.action.kind === "set_value" ? input.action.text : undefined,
    otherSecrets,
    password: node.role === PASSWORD_ROLE,
  });
  if (!guarded.allowed)
    throw new DeskhandError(
      "refused",
      guarded.reason,
      "Leave this step to a person: report it, and go no further with it.",
      {
        level: guarded.level,
        target,
      },
    );
  return { ...verified, before, guarded };
}

/**
 * The action through the backend the gate gave out, its end journaled; a toggle that flipped only
 * its group's checked states did not take, and a real click is the next route.
 */
async function performAction(
  context: ToolContext,
  input: z.output<typeof actOnRefInput>,
  { entry, node, guarded }: Gated,
): Promise<ActionReport> {
  const backend = await context.backend();
  const section =
    input.action.kind === "toggle"
      ? await watchSection(backend, node, entry.handle, entry.fingerprint.windowId)
      : undefined;
  let report: ActionReport;
  const acting = await guarded.acting.backend();
  try {
    report = await acting.perform(entry.handle, input.action as SemanticAction, {
      timeoutMs: input.timeoutMs,
      node,
    });
  } catch (error) {
    // An option its open list does not show is said as such; any other failure, as the call's own.
    const picked = await fallBackToList(context, input, { entry, node, guarded }, error).catch((e) =>
      e instanceof ActionRejected ? e : undefined,
    );
    if (!picked || picked instanceof ActionRejected) {
      const failed = picked ?? error;
      guarded.end({ decision: "error", reason: failed instanceof Error ? failed.message : String(failed) });
      throw failed;
    }
    report = picked;
  }
  if (input.action.kind === "set_value")
    report = await valueIfTextNotTaken(
      context,
      { node, handle: entry.handle },
      input.action.text,
      report,
      (value) =>
        acting.perform(entry.handle, { kind: "set_range", value }, { timeoutMs: input.timeoutMs, node }),
    );
  // What the platform left to keys (a page's drop-down or number field), pressed as a person would.
  const took = tookBy(input.action, node);
  const windowId = entry.fingerprint.windowId;
  if (report.keys && took && windowId !== null) {
    const target = { handle: entry.handle, intent: input.intent ?? "Set it as asked", windowId };
    report = await pressReportedKeys(context, target, report, took, () =>
      acting.perform(entry.handle, { kind: "focus" }, { timeoutMs: input.timeoutMs, node }),
    );
  }
  // A number set that did not take, by set_range or as a spin button's text, is stepped there by keys.
  const stepTo = input.action.kind === "set_range" ? input.action.value : numberWritten(input.action, node);
  if (stepTo !== undefined && steppable(node)) {
    const target = { ref: input.ref, node, handle: entry.handle, windowId: entry.fingerprint.windowId };
    const intent = input.intent ?? `Set it to ${stepTo}`;
    report = await stepIfNotApplied(context, { ...target, intent }, stepTo, report, () =>
      acting.perform(entry.handle, { kind: "focus" }, { timeoutMs: input.timeoutMs, node }),
    );
  }
  if (input.action.kind === "scroll") {
    const { horizontal, vertical } = input.action;
    const intent = input.intent ?? "Scroll it";
    report = await wheelIfNotMoved(context, { ref: input.ref, intent }, { horizontal, vertical }, report);
  }
  guarded.end({ decision: "done", outcome: { route: report.route, action_outcome: report.outcome } });
  await sleep(input.waitMs);
  const pressed = section ? await pressIfStayed(context, section, input, node.name) : undefined;
  if (pressed?.clicked) report = { ...report, route: `${report.route}, then a real click` };
  if (pressed) report = { ...report, detail: pressed.detail };
  return report;
}

/** A combo box's option chosen from its open list where Selection could not choose it (open-list.ts). */
async function fallBackToList(
  context: ToolContext,
  input: z.output<typeof actOnRefInput>,
  { entry, node, guarded }: Pick<Gated, "entry" | "node" | "guarded">,
  error: unknown,
): Promise<ActionReport | undefined> {
  const action = input.action;
  if (!(error instanceof UnsupportedAction) || action.kind !== "select" || action.option === undefined)
    return undefined;
  if (node.role !== "combo box") return undefined;
  const acting = await guarded.acting.backend();
  const owner = {
    ref: input.ref,
    handle: entry.handle,
    windowId: entry.fingerprint.windowId,
    intent: input.intent,
    perform: (kind: SemanticAction["kind"]) =>
      acting.perform(entry.handle, { kind } as SemanticAction, { timeoutMs: input.timeoutMs, node }),
    end: guarded.end,
  };
  return pickFromOpenList(context, owner, action.option, error);
}

/**
 * The windows after the action. A press may open or close a window a moment later (Qt runs a
 * dialog's exec after the call returns); a check box toggled does not, and is not kept waiting.
 */
async function windowsAfter(
  backend: AccessibilityReader,
  kind: SemanticAction["kind"],
  node: RawNode,
  before: WindowInfo[],
): Promise<WindowInfo[]> {
  const list = () => backend.listWindows();
  let after = await list();
  if (kind !== "invoke" && kind !== "toggle") return after;
  if (kind === "invoke" || COMMAND_ROLES.has(node.role))
    after = await windowsSettled(list, before, after, OPENING_SETTLE_MS);
  return awaitPromisedWindow(list, before, after, node.name, endsInEllipsis);
}

/**
 * The element gone: the app may be exiting (a Quit button). Its process is watched for a moment,
 * and it is reported as exited only once the process has ended. Where the app goes on (a dialog
 * closed by its own button, a page that removed the button) this ends at once, or after 300 ms
 * while the window stays.
 */
async function whetherAppExited(
  backend: AccessibilityReader,
  actedIn: WindowInfo | undefined,
  windows: WindowInfo[],
): Promise<{ exited?: Receipt["app_exited"]; after: WindowInfo[] }> {
  const pid = actedIn?.pid;
  let after = windows;
  if (pid == null) return { after };
  const started = Date.now();
  for (;;) {
    if (!processAlive(pid)) return { exited: { pid, app: actedIn?.app ?? "its app" }, after };
    const goesOn = after.some((w) => w.pid === pid);
    const windowStays = after.some((w) => w.id === actedIn?.id);
    const elapsed = Date.now() - started;
    if ((goesOn && (!windowStays || elapsed > 300)) || elapsed > 1500) return { after };
    await sleep(100);
    after = await backend.listWindows();
  }
}

/** Whether the states an action changed are what it asked: a toggle flipped (or pressed), a tab selected, a row expanded. */
function showsAsked(kind: string, changed: NonNullable<Receipt["states_changed"]>): boolean {
  const gained = (state: string) => changed.now.includes(state);
  const lost = (state: string) => changed.no_longer.includes(state);
  // A press of a checkable item (a menu's toggle) shows it took as a toggle does: flipped.
  if (kind === "toggle" || kind === "invoke") return ["checked", "pressed"].some((s) => gained(s) || lost(s));
  if (kind === "select") return gained("selected");
  if (kind === "expand") return gained("expanded");
  if (kind === "collapse") return lost("expanded");
  return false;
}

/** Actions whose effect is a state the toolkit may report a moment later (GTK 4's switch). */
const STATE_ACTIONS = new Set(["toggle", "select", "expand", "collapse"]);
const STATE_SETTLE_MS = [100, 200, 300];

/**
 * The re-read after an action that changes a state: where none changed yet, read again a few times
 * (GTK 4.8 reports a switch's new state on its own time: the reply had said it was still checked).
 */
async function statesSettled(
  read: () => ReturnType<typeof afterRead>,
  kind: string,
  node: RawNode,
): ReturnType<typeof afterRead> {
  let current = await read();
  if (!STATE_ACTIONS.has(kind)) return current;
  for (const ms of STATE_SETTLE_MS) {
    if (!current.after || statesChanged(node.states, current.after.states)) return current;
    await sleep(ms);
    current = await read();
  }
  return current;
}

/** A select the toolkit answered false (Chromium's page tab), and that reads unselected: it did not take. */
const selectNotTaken = (kind: string, returned: unknown, receipt: Receipt): boolean =>
  kind === "select" &&
  returned === false &&
  !!receipt.after?.states &&
  !receipt.after.states.includes("selected");

/**
 * Some toolkits return true and change nothing (Firefox's EditableText, the Java ATK wrapper's
 * Value): the re-read says whether a value set took.
 */
function valueEffect(receipt: Receipt, action: z.output<typeof semanticActionSchema>): void {
  if (action.kind !== "set_value" && action.kind !== "set_range") return;
  const wanted = action.kind === "set_value" ? action.text : action.value;
  const got = receipt.after?.value;
  // Longer than the re-read could take (value_length set even at the whole read), or a secret kept
  // out of the reply (a password, a card number): unknown.
  receipt.effect =
    got === undefined || hidesSecret(got) || receipt.after?.value_length !== undefined
      ? "unknown"
      : readsBackAs(got, wanted)
        ? "seen"
        : "not_seen";
  if (receipt.after) receipt.after = clipState(receipt.after);
}

/**
 * Whether a menu item invoked still shows in its open menu: Swing's accessible click runs the item
 * and leaves its menu open (jEdit's Search menu stayed over the dialog it opened). Said for Java
 * alone, whose states are live; LibreOffice's menu items keep old states once their menu closed.
 */
function menuLeftOpen(
  kind: string,
  node: RawNode,
  receipt: Receipt,
  window: WindowInfo | undefined,
): boolean {
  return (
    kind === "invoke" &&
    MENU_ITEM_ROLES.has(node.role) &&
    window?.toolkit === JAVA_TOOLKIT &&
    !!receipt.after?.states?.includes("showing")
  );
}

/**
 * The combo box a text field belongs to, where it reads otherwise than the text set in the field:
 * Swing's editable combo box takes its field's text only once it is committed (Enter, or the focus
 * leaving), and OK pressed before then kept the old value (jEdit's tab width).
 */
async function ownerNotTaken(
  backend: AccessibilityReader,
  handle: string,
  wanted: string,
): Promise<Receipt["owner_differs"]> {
  const [parent] = (await backend.ancestorsOf?.(handle, 1).catch(() => [])) ?? [];
  if (parent?.role !== "combo box") return undefined;
  const owner = await backend.describe(parent.handle, { maxText: RECEIPT_TEXT }).catch(() => undefined);
  const value = owner?.value ?? owner?.text;
  return value !== undefined && !readsBackAs(value, wanted) ? { role: parent.role, value } : undefined;
}

/** Actions that write a value, whose read-back tells whether it took. */
const VALUE_ACTIONS = new Set(["set_value", "set_range"]);

/**
 * After a toggle that flipped only the checked states of its group (nothing else in the window
 * changed), the element is clicked with the real mouse, through the gate as any click: the route and
 * detail say so. A click that did not go is said too, and the toggle is then not claimed to have worked.
 */
async function pressIfStayed(
  context: ToolContext,
  section: SectionWatch,
  input: z.output<typeof actOnRefInput>,
  name: string | undefined,
): Promise<{ clicked: boolean; detail: string } | undefined> {
  if (!(await sectionStayed(await context.backend(), section))) return undefined;
  const why = "the toggle changed only the checked state of its group, nothing else in the window";
  const clicked = await callTool(context, clickTool, {
    ref: input.ref,
    intent: input.intent ?? `Press ${JSON.stringify(name ?? "")}, which the toggle did not press`,
  });
  const done = clicked.ok && clicked.outcome === "done";
  if (done) {
    await sleep(input.waitMs);
    return { clicked: true, detail: `${why}, so it was pressed with a real click` };
  }
  const reason = clicked.ok
    ? String(clicked.output.data.reason ?? clicked.output.text)
    : clicked.error.message;
  return {
    clicked: false,
    detail: `${why}: it did not do what a click does, and the click that would was not made (${reason})`,
  };
}

export const actTool = defineTool({
  name: "act",
  typedValues: "action.text",
  group: "act",
  title: "Act on an element",
  description:
    "Act through an element's own accessibility actions (no mouse; keys where a page hears nothing else), its ref verified first. Replies with the route, the element re-read and what changed on screen.",
  level: "L2",
  highest: "L3",
  annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: true },
  // An action that presses: invoke, or a toggle (a toggle button may open what it shows).
  mayOpenWindows: (input) => input.action?.kind === "invoke" || input.action?.kind === "toggle",
  input: actInput,
  async handler(context, input) {
    const ref = await resolveTarget(context, input);
    const windowId = context.refs.lookup(ref).fingerprint.windowId;
    const watch =
      input.include_changes && windowId !== null ? await watchChanges(context, windowId) : undefined;
    const receipt = await runAction(context, { ...input, ref });
    const note = receipt.since_seen && verifiedNote(receipt.since_seen);
    // A value written that reads back otherwise did not take: the call's outcome says so, so that a
    // run stops there rather than going on as if it had ("Done: 6 of 6" over three empty fields).
    const missed = receipt.effect === "not_seen" && VALUE_ACTIONS.has(input.action.kind);
    const data = missed
      ? { ...receipt, status: "error", reason: "the value written does not read back as asked" }
      : receipt;
    const text = `${missed ? "error: " : ""}${renderReceipt(receipt)}${note ? `\n${note}` : ""}`;
    if (!watch) return { data, text };
    const changes = await watch.finish();
    return { data: { ...data, ...changes.data }, text: `${text}\n${changes.text}` };
  },
});
