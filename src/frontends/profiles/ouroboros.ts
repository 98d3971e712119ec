// The Ouroboros `windows_computer_use` profile: its four tools, with its argument spellings, defaults and
// reply shapes, each a translation onto deskhand's own tools (windows, snapshot, find, act). Windows
// mechanics map to Linux: an `hwnd` is the X window id; `automation_id` is the AT-SPI accessible id;
// a window's `class` is its X11 WM_CLASS class (sway: its app_id), else its app's accessible name.
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { DeskhandError } from "../../core/errors.js";
import type { FindResult } from "../../core/find.js";
import { ONE_CARET_ROLES } from "../../platform/roles.js";
import { TOGGLE_ROLES } from "../../platform/types.js";
import { actTool } from "../../tools/act.js";
import type { ToolContext } from "../../tools/context.js";
import { byDeadline } from "../../tools/deadline.js";
import { elementInfoTool } from "../../tools/element-info.js";
import { findElementsTool } from "../../tools/find.js";
import { readTextTool } from "../../tools/read-text.js";
import { pageOf, snapshotTool } from "../../tools/snapshot.js";
import { defineTool, READ_ONLY, type ToolDefinition } from "../../tools/tool.js";
import { windowsTool } from "../../tools/windows.js";
import { clipText, fitRelay, seedCuts, TEXT_UNITS } from "./ouroboros-relay.js";
import { runData } from "./run.js";

/** What a line of another tool's reply carries, as far as these replies use it. */
type Line = {
  ref: string;
  role: string;
  name: string | null;
  value?: string;
  accessibleId?: string;
  bounds?: Rect;
  states?: string[] | null;
  unread?: string[];
  depth?: number;
  /** The whole text's length where the value shown is cut (find's and act's value_length, a snapshot's textLength). */
  value_length?: number;
  textLength?: number;
};
type FindReply = FindResult & { waited_ms: number; timed_out: boolean };

const text = z.string().refine((s) => s.trim() !== "", "must be a non-blank string");

const selector = {
  hwnd: z
    .number()
    .int()
    .positive()
    .optional()
    .describe("The window (X window id); default: the foreground one"),
  automation_id: text.optional().describe("The accessible id, exact and case-sensitive"),
  role: text.optional(),
  name: text.optional(),
  name_contains: text.optional(),
  value_contains: text.optional(),
};

function targetOf(hwnd: number | undefined) {
  return hwnd === undefined ? { kind: "focused" as const } : { kind: "window" as const, id: hwnd };
}

function selectorOf(input: {
  automation_id?: string | undefined;
  role?: string | undefined;
  name?: string | undefined;
  name_contains?: string | undefined;
  value_contains?: string | undefined;
}): Record<string, unknown> {
  const picked = {
    accessible_id: input.automation_id,
    role: input.role,
    name: input.name,
    name_contains: input.name_contains,
    value_contains: input.value_contains,
  };
  return Object.fromEntries(Object.entries(picked).filter(([, v]) => v !== undefined));
}

/** The selector's matches in the window, off screen too (acting needs no element on screen). */
function findBySelector(
  context: ToolContext,
  input: Parameters<typeof selectorOf>[0] & { hwnd?: number | undefined },
  limit: number,
  timeoutMs: number,
): Promise<FindReply> {
  return runData(context, findElementsTool, {
    target: targetOf(input.hwnd),
    ...selectorOf(input),
    limit,
    timeout_ms: timeoutMs,
    include_off_screen: true,
  });
}

type Rect = { x: number; y: number; width: number; height: number } | null;

function rectOf(bounds: Rect) {
  if (!bounds) return null;
  const center = { x: bounds.x + Math.floor(bounds.width / 2), y: bounds.y + Math.floor(bounds.height / 2) };
  return { ...bounds, center };
}

/** A state block: a key is there only where the element exposes that state; missing is not false. */
function stateOf(role: string, states: string[] | null): Record<string, boolean> | null {
  if (states === null) return null;
  const has = (s: string) => states.includes(s);
  const block: Record<string, boolean> = {
    enabled: has("enabled") || has("sensitive"),
    visible: has("visible"),
    showing: has("showing"),
  };
  if (has("focusable")) block.focused = has("focused");
  if (TOGGLE_ROLES.has(role) || has("checkable") || has("checked")) block.checked = has("checked");
  // Swing's combo box says `collapsed` and never `expandable`: either says it can expand.
  if (has("expandable") || has("expanded") || has("collapsed")) block.expanded = has("expanded");
  if (has("selectable")) block.selected = has("selected");
  // A text field exposes whether it takes typing by `editable` alone: Swing's read-only field has no
  // `read only` state, only no `editable`.
  if (has("editable") || has("read only") || ONE_CARET_ROLES.has(role))
    block.read_only = has("read only") || !has("editable");
  return block;
}

/**
 * An element in the seed's shape. In receipts and candidates (`clip`) its text shows the first 4,000
 * UTF-16 units, `text_truncated` when the text is longer; window_read shows what max_text_chars let
 * through, `text_truncated` where that cut it.
 */
function element(e: Line, clip = true) {
  const whole = e.value_length ?? e.textLength;
  const shown = clip ? clipText(e.value) : e.value === undefined ? {} : { value: e.value };
  const truncated = shown.text_truncated || (whole !== undefined && whole > (shown.value?.length ?? 0));
  return {
    id: e.ref,
    role: e.role,
    name: e.name,
    ...(shown.value !== undefined ? { value: shown.value } : {}),
    ...(truncated ? { text_truncated: true } : {}),
    automation_id: e.accessibleId ?? null,
    class: null,
    rect: rectOf(e.bounds ?? null),
    state: stateOf(e.role, e.states ?? null),
    ...(e.unread ? { unread: e.unread } : {}),
  };
}

/**
 * A receipt's or candidate's text as the seed shows it, its first 4,000 units: deskhand's replies
 * carry 200 characters and the whole length, so a longer text is read again up to 4,000.
 */
async function withText(context: ToolContext, e: Line, unread = false): Promise<Line> {
  // A candidate of an ambiguous act carries no text at all (`unread`): it is read whole.
  const cut = e.value !== undefined && e.value_length !== undefined && e.value.length < TEXT_UNITS;
  if (!cut && !unread) return e;
  try {
    const read = await runData(context, readTextTool, { ref: e.ref, length: TEXT_UNITS });
    return { ...e, value: String(read.text), value_length: Number(read.length) };
  } catch {
    return e; // Its first 200 characters, marked text_truncated; or no text to read.
  }
}

/**
 * An element with its automation_id: deskhand's find and act replies leave the accessible id out
 * (one more call per element), so it is read here for each element the seed's reply shows.
 */
async function withId(context: ToolContext, e: Line): Promise<Line> {
  if (e.accessibleId !== undefined) return e;
  try {
    const info = await runData(context, elementInfoTool, { ref: e.ref });
    const id = "accessibleId" in info ? info.accessibleId : null;
    return id ? { ...e, accessibleId: id } : e;
  } catch {
    return e; // Gone meanwhile: null, as for an element that has none.
  }
}

/** An element as receipts and matches show it: its first 4,000 units of text and its automation_id. */
const inFull = async (context: ToolContext, e: Line): Promise<Line> =>
  withId(context, await withText(context, e));

const windowList = defineTool({
  name: "window_list",
  title: "List windows",
  description:
    "Visible top-level windows that have a title (hwnd: the X window id, title, class: the window's " +
    "class, pid, rect, foreground), front to back. Stops at limit (echoed back); a cut says truncated_by [limit] " +
    "and total_known false.",
  level: "L1",
  annotations: READ_ONLY,
  input: z.object({ limit: z.number().int().min(1).max(500).default(100) }),
  async handler(context, input) {
    const data = await runData(context, windowsTool, {
      limit: 500,
    });
    const titled = data.windows.filter((w) => w.title);
    const shown = titled.slice(0, input.limit);
    const cut = titled.length > shown.length || data.truncated === true;
    const windows = shown.map((w) => ({
      hwnd: w.id,
      title: w.title,
      class: w.windowClass ?? w.app,
      pid: w.pid,
      rect: w.rect,
      foreground: w.focused,
    }));
    const reply = {
      windows,
      limit: { value: input.limit, ceiling: 500 },
      truncated_by: cut ? ["limit"] : [],
      total_known: !cut,
    };
    const fitted = fitRelay(reply, ["windows"]);
    return { data: fitted, text: JSON.stringify(fitted) };
  },
});

/**
 * max_children_per_node: past that many children of one element, the rest (and all below them) are
 * left out; `seen` counts each element's children, to name the ones cut.
 */
function childrenKept<E extends { depth: number; ref: string }>(elements: E[], most: number) {
  const kept: E[] = [];
  const seen = new Map<string, number>();
  let skipBelow: number | undefined;
  let parents: string[] = [];
  for (const e of elements) {
    if (skipBelow !== undefined && e.depth > skipBelow) continue;
    skipBelow = undefined;
    parents = parents.slice(0, e.depth);
    const parent = parents.at(-1) ?? "(root)";
    const count = (seen.get(parent) ?? 0) + 1;
    seen.set(parent, count);
    parents.push(e.ref);
    if (e.depth > 0 && count > most) {
      skipBelow = e.depth;
      continue;
    }
    kept.push(e);
  }
  return { kept, seen };
}

const windowRead = defineTool({
  name: "window_read",
  title: "Read a window",
  description:
    "The window (the foreground one, or hwnd) as a flat list of elements: role, name, value, automation_id, class, " +
    "rect with center, and a state block whose missing keys mean the element does not expose them, not false. " +
    "Limits come back with their ceilings; every cut is named in truncated_by and notes. backend: auto or " +
    "atspi (the Linux reader; win32 has no Linux counterpart and is refused).",
  level: "L1",
  annotations: READ_ONLY,
  input: z.object({
    hwnd: z.number().int().positive().optional(),
    max_nodes: z.number().int().min(1).max(5000).default(2000),
    max_depth: z.number().int().min(0).max(256).default(40),
    max_children_per_node: z.number().int().min(1).max(5000).default(500),
    max_text_chars: z.number().int().min(0).max(10_000).default(TEXT_UNITS),
    timeout_ms: z.number().int().min(100).max(60_000).default(10_000),
    backend: z.enum(["auto", "atspi", "win32"]).default("auto"),
  }),
  async handler(context, input) {
    if (input.backend === "win32")
      throw new DeskhandError(
        "invalid_params",
        "backend win32 reads classic Win32 child windows; Linux has no such reader",
        "Use backend auto (AT-SPI).",
      );
    // The read answers by timeout_ms (and a moment to shape the reply) whatever the app does.
    const read = await byDeadline(context, input.timeout_ms + SHAPING_MS, (scoped) =>
      runData(scoped, snapshotTool, {
        target: targetOf(input.hwnd),
        format: "json",
        view: "full",
        maxNodes: input.max_nodes,
        maxDepth: input.max_depth,
        maxText: input.max_text_chars,
        timeoutMs: input.timeout_ms,
        accessibleIds: true,
      }),
    );
    if (!read.met) {
      const late = {
        hwnd: input.hwnd ?? null,
        title: null,
        backend: "atspi",
        elements: [],
        limits: limitsOf(input),
        truncated_by: ["timeout_ms"],
        notes: [`the app did not answer within timeout_ms (${input.timeout_ms}): nothing was read`],
      };
      return { data: late, text: JSON.stringify(late) };
    }
    const data = pageOf(read.value);
    const notes: string[] = [];
    const { kept, seen } = childrenKept(data.elements, input.max_children_per_node);
    const truncatedBy: string[] = seedCuts(data.truncated_by);
    const over = [...seen].filter(([, n]) => n > input.max_children_per_node);
    if (over.length > 0) {
      truncatedBy.push("max_children_per_node");
      for (const [ref, n] of over)
        notes.push(
          `${ref}: ${n - input.max_children_per_node} of its ${n} children left out (max_children_per_node)`,
        );
    }
    if (data.cursor) notes.push(`${data.counts.after} more elements past max_nodes`);
    notes.push(...cutNotes(kept, input));
    const reply = {
      hwnd: data.windows[0]?.id ?? null,
      title: data.windows[0]?.title ?? null,
      backend: "atspi",
      // The window's own element has the window's class (X11's WM_CLASS, sway's app_id), as window_list
      // gives it; deskhand reads no class for the elements inside.
      elements: kept.map((e) => ({
        ...element(e, false),
        ...(e.depth === 0 && data.windows[0]
          ? { class: data.windows[0].windowClass ?? data.windows[0].app }
          : {}),
        depth: e.depth,
      })),
      limits: limitsOf(input),
      truncated_by: [...new Set(truncatedBy)],
      notes,
    };
    const fitted = fitRelay(reply, ["elements"]);
    return { data: fitted, text: JSON.stringify(fitted) };
  },
});

type Cut = { reason: string; rows?: number; rowsRead?: number; childCount?: number };

/** What element_find has past timeout_ms (its wait for a match) to read the window. */
const READ_BUDGET_MS = 5000;

/** Past timeout_ms, what a read has to shape its reply before it answers anyway. */
const SHAPING_MS = 500;

/** A read's limits as the seed echoes them, each with its ceiling. */
function limitsOf(input: {
  max_nodes: number;
  max_depth: number;
  max_children_per_node: number;
  max_text_chars: number;
  timeout_ms: number;
}) {
  return {
    max_nodes: { value: input.max_nodes, ceiling: 5000 },
    max_depth: { value: input.max_depth, ceiling: 256 },
    max_children_per_node: { value: input.max_children_per_node, ceiling: 5000 },
    max_text_chars: { value: input.max_text_chars, ceiling: 10_000 },
    timeout_ms: { value: input.timeout_ms, ceiling: 60_000 },
  };
}

/**
 * A note for each cut the read made besides max_children_per_node and max_nodes: texts cut at
 * max_text_chars, tables paged, branches the timeout stopped, children not read.
 */
function cutNotes(
  kept: (Line & { cut?: Cut })[],
  input: { max_text_chars: number; max_depth: number; timeout_ms: number },
): string[] {
  const notes: string[] = [];
  const cutTexts = kept.filter((e) => e.textLength !== undefined && e.textLength > (e.value?.length ?? 0));
  if (cutTexts.length > 0)
    notes.push(
      `${cutTexts.length} elements' text cut at max_text_chars (${input.max_text_chars}): ${cutTexts[0]!.ref} holds ${cutTexts[0]!.textLength} units`,
    );
  const cuts = kept.filter((e): e is Line & { cut: Cut } => e.cut !== undefined);
  for (const e of cuts.filter((c) => c.cut.reason === "table"))
    notes.push(
      `${e.ref}: a table paged, ${e.cut.rowsRead} of its ${e.cut.rows} rows read (max_children_per_node)`,
    );
  for (const e of cuts.filter((c) => c.cut.reason === "hugeChildCount"))
    notes.push(
      `${e.ref}: its ${e.cut.childCount} children not read, too many to walk (max_children_per_node)`,
    );
  const deep = cuts.filter((c) => c.cut.reason === "maxDepth").length;
  if (deep > 0) notes.push(`${deep} elements' children below max_depth (${input.max_depth}) not read`);
  const late = cuts.filter((c) => c.cut.reason === "timeout").length;
  if (late > 0) notes.push(`${late} elements' children not read before timeout_ms (${input.timeout_ms})`);
  const unread = cuts.filter((c) => c.cut.reason === "unreadable").length;
  if (unread > 0) notes.push(`${unread} elements' children could not be read (unreadable)`);
  return notes;
}

const elementFind = defineTool({
  name: "element_find",
  title: "Find elements",
  description:
    "Search the window by selector (automation_id exact; role, name, name_contains, value_contains case-folded; " +
    "all must hold), every match up to limit. timeout_ms 0 looks now; positive waits for the first match. " +
    "'Not found', 'did not finish reading' and 'a candidate did not answer' are different answers.",
  level: "L1",
  annotations: READ_ONLY,
  input: z
    .object({
      ...selector,
      limit: z.number().int().min(1).max(500).default(20),
      timeout_ms: z.number().int().min(0).max(60_000).default(0),
    })
    .refine((s) => Object.keys(selectorOf(s)).length > 0, { message: "give at least one selector field" }),
  async handler(context, input) {
    const found = await byDeadline(context, input.timeout_ms + READ_BUDGET_MS, async (scoped) => {
      const data = await findBySelector(scoped, input, input.limit, input.timeout_ms);
      return { data, matches: await Promise.all(data.matches.map((m) => inFull(scoped, m as Line))) };
    });
    if (!found.met) {
      const late = {
        matches: [],
        total: 0,
        searched_whole_window: false,
        reason: `the app did not answer within timeout_ms + ${READ_BUDGET_MS} ms: nothing was searched`,
        unreadable_candidates: [],
        waited_ms: found.ms,
      };
      return { data: late, text: JSON.stringify(late) };
    }
    const { data, matches } = found.value;
    const reply = {
      matches: matches.map((m) => element(m)),
      total: data.total,
      searched_whole_window: data.searched_whole_window,
      ...(data.searched_whole_window
        ? {}
        : { reason: seedCuts(data.cuts).join(", ") || "the tree is incomplete" }),
      unreadable_candidates: data.unreadable_candidates.map((c) => ({
        ...element(c),
        unread: c.unread,
      })),
      waited_ms: data.waited_ms,
    };
    const fitted = fitRelay(reply, ["matches", "unreadable_candidates"]);
    return { data: fitted, text: JSON.stringify(fitted) };
  },
});

/** What the journal keeps as the intent of a call the document gives none. */
const NO_INTENT = "(none given: an Ouroboros client)";

const ACTIONS = [
  "invoke",
  "set_value",
  "toggle",
  "expand",
  "collapse",
  "select",
  "scroll_into_view",
  "focus",
] as const;

const elementActInput = z
  .object({
    ...selector,
    select: z
      .object({ nth: z.number().int().min(0) })
      .strict()
      .optional(),
    action: z.enum(ACTIONS),
    text: z.string().optional().describe('For set_value: the new text; "" clears'),
    option: text.optional().describe("For select: the option's text"),
    timeout_ms: z.number().int().min(0).max(60_000).default(0),
  })
  .refine((a) => a.action !== "set_value" || typeof a.text === "string", {
    message: 'set_value needs text as a string ("" clears the field)',
    path: ["text"],
  });

const elementAct = defineTool({
  name: "element_act",
  title: "Act on the element a selector names",
  description:
    "Do something to the element a selector names, through its accessibility interface: invoke | set_value | " +
    "toggle | expand | collapse | select | scroll_into_view | focus. No fallback to clicking; a refusal lists what " +
    "the element supports. Two matches without select.nth is a refusal listing the candidates. set_value needs " +
    'text as a string ("" clears). The receipt says what was done and the element after; not whether the goal was met.',
  level: "L2",
  highest: "L3",
  annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: false },
  input: elementActInput,
  async handler(context, input) {
    const started = Date.now();
    // The call answers by its deadline whatever the app does; nothing acts after it (deadline.ts).
    const ran = await byDeadline(context, input.timeout_ms + ACT_BUDGET_MS, (scoped) =>
      actOnSelector(scoped, input, started),
    );
    if (ran.met) return ran.value;
    if (!ran.actingGiven)
      throw new DeskhandError(
        "timeout",
        `the app did not answer within timeout_ms + ${ACT_BUDGET_MS} ms (${ran.ms} ms): nothing was done, and nothing will be`,
        "Check the window before retrying: the app may be busy.",
      );
    const reply = {
      action: input.action,
      route: null,
      action_outcome: "unknown",
      action_call_made: "unknown",
      after: null,
      after_read: "unavailable",
      last_walk_ms: Date.now() - started,
      reason: `the action was sent and the app had not answered by the deadline (timeout_ms + ${ACT_BUDGET_MS} ms): whether it took cannot be told`,
    };
    return { data: reply, text: JSON.stringify(reply) };
  },
});

/** How often element_act's wait reads the window again. */
const WAIT_POLL_MS = 200;

/**
 * Waits up to timeout_ms for the selector to match; returns when it stopped early. An unreadable
 * candidate ends the wait at once: the act refuses on it (the seed's rule), and waiting tells nothing.
 */
async function untilMatchOrUnreadable(
  context: ToolContext,
  input: z.output<typeof elementActInput>,
): Promise<number | undefined> {
  const started = Date.now();
  for (;;) {
    const found = await findBySelector(context, input, 1, 0);
    const waited = Date.now() - started;
    // A match the last read found after the deadline is no early stop: the figure never passes it.
    if (found.total > 0) return waited < input.timeout_ms ? waited : undefined;
    if (found.unreadable_candidates.length > 0 || waited >= input.timeout_ms) return undefined;
    await sleep(Math.min(WAIT_POLL_MS, input.timeout_ms - waited));
  }
}

/** What element_act has past timeout_ms (its wait for the selector) to read, judge, act and read back. */
const ACT_BUDGET_MS = 5000;

async function actOnSelector(context: ToolContext, input: z.output<typeof elementActInput>, started: number) {
  // timeout_ms waits for the selector to match first; a match before the end stops the wait early.
  const stopped = input.timeout_ms > 0 ? await untilMatchOrUnreadable(context, input) : undefined;
  const action =
    input.action === "set_value"
      ? // Without text the call is refused by act's own schema, as before.
        { kind: "set_value" as const, text: input.text as string }
      : input.action === "select"
        ? { kind: "select" as const, ...(input.option ? { option: input.option } : {}) }
        : { kind: input.action };
  const data = await runData(context, actTool, {
    // The document's calls carry no intent: the journal says so, and whose call it was.
    intent: NO_INTENT,
    find: { target: targetOf(input.hwnd), ...selectorOf(input) },
    ...(input.select ? { nth: input.select.nth } : {}),
    action,
  }).catch(async (error: unknown) => Promise.reject(await candidatesInFull(context, inSeedWords(error))));
  const reply = {
    action: input.action,
    route: data.route,
    action_outcome: data.action_outcome,
    action_call_made: data.action_outcome === "unknown" ? "unknown" : true,
    after: data.after ? element(await inFull(context, { ...data.after, ref: data.ref } as Line)) : null,
    after_read: data.after_read,
    ...(data.unread ? { unread: data.unread } : {}),
    ...(data.effect ? { effect: data.effect } : {}),
    last_walk_ms: Date.now() - started,
    ...(stopped !== undefined ? { stopped_before_timeout_ms: stopped } : {}),
  };
  return { data: reply, text: JSON.stringify(reply) };
}

/** Candidates of an ambiguous element_act shown in the seed's shape: beyond these, their count. */
const CANDIDATES_SHOWN = 20;

/**
 * An ambiguous element_act's candidates as the seed shows them: each element in its shape, its
 * text's first 4,000 units (read, since deskhand's candidates carry none) and its automation_id;
 * then fitted to the relay like any list.
 */
async function candidatesInFull(context: ToolContext, error: unknown): Promise<unknown> {
  if (!(error instanceof DeskhandError) || error.code !== "ambiguous") return error;
  const listed = error.details.candidates;
  if (!Array.isArray(listed)) return error;
  const shown = await Promise.all(
    (listed as Line[])
      .slice(0, CANDIDATES_SHOWN)
      .map(async (c) => element(await withId(context, await withText(context, c, true)))),
  );
  const fitted = fitRelay({ candidates: shown }, ["candidates"]);
  const omitted = listed.length - shown.length;
  return new DeskhandError(error.code, error.message, error.next, {
    ...error.details,
    ...fitted,
    ...(omitted > 0 ? { candidates_not_shown: omitted } : {}),
  });
}

/** What deskhand says an element supports, as the actions element_act takes (its patterns). */
function seedAction(route: string): string {
  const action = route.startsWith("action:") ? route.slice(7).toLowerCase() : route;
  if (/^(click|press|activate|open|jump|invoke)$/.test(action)) return "invoke";
  if (/^(toggle|check|uncheck)$/.test(action)) return "toggle";
  if (/^(expand|collapse|expand or contract)$/.test(action)) return "expand, collapse";
  if (action === "set_range") return "set_value";
  return action;
}

/** A refusal for a missing pattern, its list of what the element supports in element_act's words. */
function inSeedWords(error: unknown): unknown {
  if (!(error instanceof DeskhandError) || !Array.isArray(error.details.supported)) return error;
  // Only element_act's own verbs: a toolkit's other action names (Swing's ~60 editor actions) are no pattern.
  const supported = [
    ...new Set((error.details.supported as string[]).flatMap((s) => seedAction(s).split(", "))),
  ].filter((verb) => (ACTIONS as readonly string[]).includes(verb));
  const message = error.message.replace(
    /; it supports .*$/s,
    `; it supports ${supported.join(", ") || "none of them"}`,
  );
  return new DeskhandError(error.code, message, error.next, { ...error.details, supported });
}

export const OUROBOROS: ToolDefinition[] = [
  windowList,
  windowRead,
  elementFind,
  elementAct,
] as ToolDefinition[];
