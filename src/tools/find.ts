import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { apartText, placeText } from "../core/apart.js";
import { DeskhandError } from "../core/errors.js";
import {
  FIND_TABLE_CELLS,
  type FindQuery,
  type FindResult,
  type FoundElement,
  findElements,
} from "../core/find.js";
import { keyStates } from "../core/render.js";
import type { Selector } from "../core/selector.js";
import type { SnapshotTarget } from "../core/snapshot.js";
import { isState } from "../platform/roles.js";
import type { ToolContext } from "./context.js";
import { targetSchema } from "./schemas.js";
import { defineTool, READ_ONLY } from "./tool.js";

const text = z.string().refine((s) => s.trim() !== "", "must not be blank");

const selectorShape = {
  role: text.optional().describe("AT-SPI role: 'push button', 'check box'"),
  name: text.optional(),
  name_contains: text.optional(),
  value_contains: text.optional(),
  text: text.optional().describe("In name, label, value, text or description"),
  description: text.optional(),
  accessible_id: text.optional().describe("Accessible id, exact"),
  label: text.optional().describe('Name, or an unnamed field\'s label beside it (~"…")'),
  states: z
    .preprocess(
      // pyjab writes states comma-joined ("enabled,showing"): the same list.
      (v) =>
        typeof v === "string"
          ? v
              .split(",")
              .map((s) => s.trim())
              .filter(Boolean)
          : v,
      z
        .array(
          text.refine(isState, {
            error: (issue) =>
              `no state ${JSON.stringify(issue.input)}; states are named as AT-SPI names them: enabled, showing, focused, checked, selected, expanded, editable…`,
          }),
        )
        .min(1),
    )
    .optional()
    .describe("States that all hold: ['enabled','showing']"),
  locator: text.optional().describe("Instead of fields: //push button[@name=contains('Save')]"),
};

const SELECTOR_FIELDS = [
  "role",
  "name",
  "name_contains",
  "value_contains",
  "description",
  "accessible_id",
  "states",
  "label",
  "text",
] as const;

const findShape = {
  target: targetSchema,
  ...selectorShape,
  maxDepth: z.number().int().min(0).max(256).default(64).describe("Levels to search"),
  timeoutMsRead: z.number().int().min(100).max(60_000).default(10_000).describe("Bound on each read"),
};

/** Exactly one way of saying what to find: selector fields, or a locator. */
export function oneQuery<S extends z.ZodObject<typeof findShape & z.ZodRawShape>>(schema: S) {
  return schema.refine(
    (q: Record<string, unknown>) =>
      (q.locator !== undefined) !== SELECTOR_FIELDS.some((f) => q[f] !== undefined),
    { message: "give selector fields or a locator, one of the two", path: ["locator"] },
  );
}

export const findQueryShape = findShape;
export const findQuerySchema = oneQuery(z.strictObject(findShape));

export type FindQueryInput = z.output<typeof findQuerySchema>;

function queryOf(input: FindQueryInput): FindQuery {
  if (input.locator !== undefined) return { locator: input.locator };
  const selector: Selector = {};
  for (const field of SELECTOR_FIELDS)
    if (input[field] !== undefined) (selector as Record<string, unknown>)[field] = input[field];
  return { selector };
}

/** Searches now, or until the first match when timeout_ms is positive: a timeout is a result. */
export async function searchUntil(
  context: ToolContext,
  input: FindQueryInput,
  limit: number,
  timeoutMs: number,
  /** Acting and waiting count what is off screen; the find tool leaves it out unless asked. */
  offScreen: "include" | "leave_out" = "include",
  searchTables = false,
): Promise<FindResult & { waited_ms: number; timed_out: boolean; reason?: string }> {
  if (input.target.kind === "cursor") {
    throw new DeskhandError(
      "invalid_params",
      "find searches a window or a ref, not a snapshot cursor",
      "Pass a window or element target.",
    );
  }
  const backend = await context.backend();
  const started = Date.now();
  for (;;) {
    const result = await findElements(backend, context.refs, input.target as SnapshotTarget, queryOf(input), {
      maxDepth: input.maxDepth,
      timeoutMs: input.timeoutMsRead,
      limit,
      offScreen,
      searchTables,
    }).catch((error) => {
      // While waiting, a window that is not there yet is "not found yet", not a failure.
      if (timeoutMs > 0 && error?.code === "window_not_found") return undefined;
      throw error;
    });
    const waited = Date.now() - started;
    if (result && (result.total > 0 || timeoutMs === 0))
      return { ...result, waited_ms: waited, timed_out: false };
    if (waited >= timeoutMs) {
      if (result) return { ...result, waited_ms: waited, timed_out: true };
      return {
        snapshotId: context.refs.currentSnapshotId ?? "",
        matches: [],
        total: 0,
        truncated: false,
        searched_whole_window: false,
        cuts: [],
        unreadable_candidates: [],
        windows: [],
        method: "tree",
        waited_ms: waited,
        timed_out: true,
        reason: "no window matched the target",
      };
    }
    await sleep(Math.min(250, timeoutMs - waited));
  }
}

/** A match's value in a line: cut at 80 characters, and saying so with the whole length. */
function shortValue(value: string, whole: number | undefined): string {
  const length = Math.max(value.length, whole ?? 0);
  if (length <= 80) return JSON.stringify(value);
  return `${JSON.stringify(value.slice(0, 80))}… (${length} characters: read_text reads them)`;
}

/** The query as the caller wrote it, for a "no match" that says what found nothing. */
function queryText(input: FindQueryInput): string {
  if (input.locator !== undefined) return `locator ${JSON.stringify(input.locator)}`;
  return SELECTOR_FIELDS.filter((f) => input[f] !== undefined)
    .map((f) => `${f} ${JSON.stringify(input[f])}`)
    .join(", ");
}

/** A match's row, its empty cells counted: a spreadsheet's row is mostly empty columns. */
function rowText(row: Record<string, string | null>): string {
  const cells = Object.entries(row);
  const filled = cells.filter(([, text]) => text);
  const empty = cells.length - filled.length;
  const shown = filled.map(([header, text]) => `${header}: ${JSON.stringify(text)}`).join(", ");
  return `${shown || "no cell with text"}${empty > 0 ? ` (${empty} empty)` : ""}`;
}

/** One match's line: role, name, value, states, where it is where needed, its ref, its row. */
function matchLine(m: FoundElement, placed: boolean): string {
  const across = m.row ? ` · its row: ${rowText(m.row)}` : "";
  const cell = m.cell ? ` (table row ${m.cell.row}, column ${m.cell.column})${across}` : "";
  // An unnamed element shows no name, as in a snapshot: `""` would read as a name that is empty.
  // The label a person reads beside it, where the app's name is none or something else: ~"Title".
  const named = `${m.name ? ` ${JSON.stringify(m.name)}` : ""}${m.inferred_label ? ` ~${JSON.stringify(m.inferred_label)}` : ""}`;
  // The states a person sees, on every line that shows the element (observe's and snapshot's too).
  const states = keyStates(m);
  // Where a `text` query was found, when not in its name (a description shows as "described").
  const textIn = m.text_in ? ` · found in its ${m.text_in}` : "";
  return `- ${m.role}${named}${m.value !== undefined ? ` = ${shortValue(m.value, m.value_length)}` : ""}${states.length ? ` (${states.join(", ")})` : ""}${placed ? placeText(m.bounds) : ""}${apartText(m)}${textIn} [ref=${m.ref}]${cell}`;
}

type Searched = FindResult & {
  waited_ms: number;
  timed_out: boolean;
  reason?: string;
  /** With no match by name: elements that show the name's words another way (a value, a description). */
  elsewhere?: FoundElement[];
};

function renderFind(result: Searched, input?: FindQueryInput): string {
  const lines: string[] = [];
  if (result.total === 0) {
    const where = (result.left_out?.off_screen ?? 0) > 0 ? " on screen" : "";
    const what = input ? ` for ${queryText(input)}` : "";
    lines.push(
      result.timed_out
        ? `No match${what}${where} after waiting ${result.waited_ms} ms (a timeout is an answer, not an error).`
        : `No match${what}${where}.`,
    );
  } else {
    lines.push(
      `${result.total} match${result.total === 1 ? "" : "es"}${result.truncated ? `, first ${result.matches.length} shown` : ""}:`,
    );
  }
  const alike = sameNamed(result.matches);
  for (const m of result.matches) lines.push(matchLine(m, alike.has(m)));
  // No element named so, but one shows the words elsewhere (a value, a description): listed, with refs.
  if (result.elsewhere?.length) {
    lines.push(`Its words are on ${result.elsewhere.length === 1 ? "this" : "these"}, not as a name:`);
    const apart = sameNamed(result.elsewhere);
    for (const m of result.elsewhere) lines.push(matchLine(m, apart.has(m)));
  }
  const tables = result.tables;
  const why: Record<string, string> = {
    tableRows: !tables
      ? "table cells are not searched (read_table reads them)"
      : tables.searched
        ? `table cells past the first ${FIND_TABLE_CELLS} (read_table reads them)`
        : `table cells: ${tables.reason}`,
    maxDepth: "elements below maxDepth",
    timeout: "parts the app did not answer in time",
    readCeiling: "elements past the read ceiling",
    hugeChildCount: "children of elements with thousands of children",
    unreadable: "children that could not be read",
  };
  lines.push(
    result.reason
      ? `Nothing was searched: ${result.reason}.`
      : result.searched_whole_window
        ? "The whole scope was read."
        : `The search did not cover everything: ${[
            ...result.cuts.map((c) => why[c] ?? c),
            ...(result.tree_incomplete ?? []).map(
              (t) => `window ${t.window}'s tree is incomplete (${t.reason}; fix: ${t.fix})`,
            ),
          ].join("; ")}.`,
  );
  if (result.menus_unfilled?.length)
    lines.push(
      `Its menus ${result.menus_unfilled.map((m) => JSON.stringify(m)).join(", ")} hold no items until opened (the app fills a menu as it opens): click one, then find again.`,
    );
  if (result.pixels_only && result.pixels_only.length > 0) {
    const surfaces = result.pixels_only.map((p) => `${p.role} [ref=${p.ref}]`).join(", ");
    lines.push(
      `Part of this scope is pixels only, with no text in the tree: ${surfaces}. find_text searches the text it shows.`,
    );
  }
  const out = result.left_out;
  if (out) {
    const parts = [
      out.off_screen > 0
        ? `${out.off_screen} not on screen (closed menus, hidden pages): include_off_screen lists them`
        : "",
      out.repeats > 0 ? `${out.repeats} labels repeating the name of a match they are part of` : "",
      out.hidden_copies
        ? `${out.hidden_copies} hidden copies of a match (never shown, beside one that is: LibreOffice's second menu bar)`
        : "",
    ].filter(Boolean);
    lines.push(`Left out: ${parts.join("; ")}.`);
  }
  lines.push(...unreadLines(result.unreadable_candidates));
  return lines.join("\n");
}

/** The candidates whose fields could not be read: each with a role listed, the silent ones counted. */
function unreadLines(candidates: Searched["unreadable_candidates"]): string[] {
  const lines: string[] = [];
  // One that answered neither its role nor its name is no candidate a person could see: counted.
  const silent = candidates.filter((c) => c.unread.includes("role") && c.unread.includes("name"));
  for (const c of candidates) {
    if (silent.includes(c)) continue;
    lines.push(
      `? ${c.role} ${JSON.stringify(c.name)} [ref=${c.ref}] could not be checked: ${c.unread.join(", ")} unread`,
    );
  }
  if (silent.length > 0)
    lines.push(
      `? ${silent.length} element${silent.length === 1 ? "" : "s"} answered neither role nor name (gone as it was read, or the app's leftover${silent.length === 1 ? "" : "s"}): not checked`,
    );
  return lines;
}

/**
 * Everything `find` takes, which `act`'s inline find takes too. Where the two differ is the default
 * for what is off screen: find leaves it out (and counts it), act counts it (acting through
 * accessibility needs no element on screen); so it has no default here.
 */
const findToolShape = {
  ...findShape,
  limit: z.number().int().min(1).max(500).default(20),
  timeout_ms: z.number().int().min(0).max(60_000).default(0).describe("Wait for a first match"),
  include_off_screen: z.boolean().optional().describe("Also what is off screen"),
  nth: z.number().int().min(0).optional().describe("Only the nth match, 0-based"),
  search_tables: z.boolean().default(false).describe(`Also table cells (up to ${FIND_TABLE_CELLS})`),
};

export const findToolSchema = oneQuery(z.strictObject(findToolShape));

/** An element named by find's arguments instead of a ref, as act and the input tools take it. */
export const inlineFindSchema = findToolSchema
  .optional()
  .describe("Instead of ref; several matches need nth");
export const inlineNthSchema = z.number().int().min(0).optional().describe("Which match of find, 0-based");

const CANDIDATES_IN_TEXT = 10;

type Listed = Pick<FoundElement, "role" | "name" | "bounds"> &
  Partial<Pick<FoundElement, "states" | "value">>;

/**
 * Matches a line would not tell apart (the same role, name, value and states: two "Menu" toggle
 * buttons): each is shown with where it is on screen, which a person tells them apart by.
 */
function sameNamed<T extends Listed>(matches: readonly T[]): Set<T> {
  const key = (m: T) =>
    JSON.stringify([m.role, m.name ?? "", m.value ?? null, keyStates({ states: m.states ?? null })]);
  const counts = new Map<string, number>();
  for (const m of matches) counts.set(key(m), (counts.get(key(m)) ?? 0) + 1);
  return new Set(matches.filter((m) => (counts.get(key(m)) ?? 0) > 1));
}

const NEAR_MISSES = 3;

/**
 * With nothing matched by name: the elements on screen showing the name's longest word, whatever
 * their role ("Find & Replace" asked as a menu item; "Find and Replace..." is a check menu item).
 */
async function nearMisses(
  context: ToolContext,
  find: z.output<typeof findToolSchema>,
): Promise<(FoundElement & { word: string })[]> {
  const words = (find.name ?? find.name_contains ?? find.label ?? "").split(/[^\p{L}\p{N}]+/u);
  const word = words.filter((w) => [...w].length >= 3).sort((a, b) => b.length - a.length)[0];
  if (!word || find.locator !== undefined || find.text !== undefined) return [];
  const query = {
    ...find,
    role: undefined,
    name: undefined,
    name_contains: undefined,
    label: undefined,
    states: undefined,
    text: word,
  };
  // What shows, unless the find asked for what is off screen too (Geany's closed File menu's "Salva").
  const offScreen = find.include_off_screen ? "include" : "leave_out";
  const near = await searchUntil(context, query, NEAR_MISSES, 0, offScreen).catch(() => undefined);
  return (near?.matches ?? []).slice(0, NEAR_MISSES).map((m) => ({ ...m, word }));
}

/** Nothing matched: said with what shows the name's longest word, of any role, where something does. */
async function notFound(
  context: ToolContext,
  find: z.output<typeof findToolSchema>,
  wholeWindow: boolean,
): Promise<DeskhandError> {
  const near = await nearMisses(context, find);
  return new DeskhandError(
    "not_found",
    `nothing matches${wholeWindow ? "" : " in what could be read"}; nothing was done${near.length ? `. Near it, by the word ${JSON.stringify(near[0]!.word)} of any role:${near.map((m) => `\n  ${m.ref} ${m.role} ${JSON.stringify(m.name ?? "")}`).join("")}` : ""}`,
    near.length
      ? "Act on one of those refs, or check the selector with find."
      : "Check the selector with find, or take a snapshot.",
    {
      searched_whole_window: wholeWindow,
      ...(near.length ? { near: near.map(({ ref, role, name }) => ({ ref, role, name })) } : {}),
    },
  );
}

/**
 * `find` resolved to exactly one element, or refused listing the candidates: what `act`'s inline find
 * and a `run` step's find do. Several matches need nth; off screen counts unless said otherwise.
 */
export async function resolveOne(
  context: ToolContext,
  find: z.output<typeof findToolSchema>,
  outerNth?: number,
  /** Where off screen is left out unless include_off_screen (real input lands only on what shows). */
  offScreen: "include" | "leave_out" = "include",
): Promise<FoundElement> {
  // find's own nth names the match as an outer nth does.
  const nth = outerNth ?? find.nth;
  const limit = Math.max(50, find.limit, (nth ?? 0) + 1);
  const mode =
    find.include_off_screen === undefined ? offScreen : find.include_off_screen ? "include" : "leave_out";
  let result = await searchUntil(context, find, limit, find.timeout_ms, mode, find.search_tables);
  // Off screen counted, several match: where find alone (which leaves them out) shows some, those are
  // meant, so act's find and find agree. One shown is the one (a hidden copy of a button beside it);
  // nth and the candidates listed count the shown ones (another tab's hidden spin button between two
  // shown is not the second).
  if (mode === "include" && find.include_off_screen === undefined && result.total > 1) {
    const shown = await searchUntil(context, find, limit, 0, "leave_out", find.search_tables);
    if (shown.total > 0 && shown.unreadable_candidates.length === 0) result = shown;
  }
  const candidates = result.matches.map((m) => ({
    ref: m.ref,
    role: m.role,
    name: m.name,
    states: m.states,
    bounds: m.bounds,
    ...(m.group ? { group: m.group } : {}),
    ...(m.description ? { description: m.description } : {}),
  }));
  if (result.unreadable_candidates.length > 0) {
    throw new DeskhandError(
      "ambiguous",
      `${result.unreadable_candidates.length} candidate(s) could not be read, so the match is not certain; nothing was done`,
      "Narrow the selector, or act on a ref from a snapshot.",
      { candidates, unreadable_candidates: result.unreadable_candidates },
    );
  }
  if (result.total === 0) throw await notFound(context, find, result.searched_whole_window);
  if (nth === undefined && result.total > 1) {
    // The candidates go in the message too: a client that shows only the text must see them.
    const listed = candidates
      .slice(0, CANDIDATES_IN_TEXT)
      .map((c, i) => {
        const states = keyStates({ states: c.states });
        return `\n  nth ${i}: ${c.ref} ${c.role} ${JSON.stringify(c.name ?? "")}${states.length ? ` (${states.join(", ")})` : ""}${placeText(c.bounds)}${apartText(c)}`;
      })
      .join("");
    const more =
      candidates.length > CANDIDATES_IN_TEXT ? `\n  … ${candidates.length - CANDIDATES_IN_TEXT} more` : "";
    throw new DeskhandError(
      "ambiguous",
      `${result.total} elements match and no nth was given; nothing was done:${listed}${more}`,
      "Pass nth (0-based) or a narrower selector.",
      { candidates },
    );
  }
  const chosen = result.matches[nth ?? 0];
  if (!chosen) {
    throw new DeskhandError(
      "invalid_params",
      `nth ${nth} is past the ${result.total} matches`,
      "Pass a smaller nth.",
      { candidates },
    );
  }
  return chosen;
}

/**
 * A name that matched nothing is looked for as `text` too (the same role, states and scope): words a
 * person reads as a label are often a value or a description ("Page 1 of 3"), and a second find
 * with other fields would cost the agent a call.
 */
async function elsewhere(
  context: ToolContext,
  input: z.output<typeof findToolSchema>,
  found: FindResult,
  offScreen: "include" | "leave_out",
): Promise<{ elsewhere?: FoundElement[]; snapshotId?: string }> {
  const words = input.name ?? input.name_contains;
  if (found.total > 0 || words === undefined || input.text !== undefined || input.locator !== undefined)
    return {};
  const asText = { ...input, name: undefined, name_contains: undefined, text: words };
  const other = await searchUntil(context, asText, 5, 0, offScreen, input.search_tables).catch(
    () => undefined,
  );
  // Their refs are of the later read, whose id the reply carries.
  return other?.matches.length ? { elsewhere: other.matches, snapshotId: other.snapshotId } : {};
}

export const findElementsTool = defineTool({
  name: "find",
  group: "read",
  title: "Find elements",
  description:
    "Refs for elements matching selector fields (all must hold) or a locator. Says why nothing matched.",
  level: "L1",
  annotations: READ_ONLY,
  input: oneQuery(z.object(findToolShape)),
  async handler(context, input) {
    const limit = input.nth === undefined ? input.limit : Math.max(input.limit, input.nth + 1);
    const offScreen = input.include_off_screen ? "include" : "leave_out";
    const found = await searchUntil(context, input, limit, input.timeout_ms, offScreen, input.search_tables);
    const result: Searched = { ...found, ...(await elsewhere(context, input, found, offScreen)) };
    if (input.nth === undefined) return { data: result, text: renderFind(result, input) };
    const chosen = result.matches[input.nth];
    const picked = { ...result, matches: chosen ? [chosen] : [], nth: input.nth };
    const text = chosen
      ? renderFind({ ...picked, total: 1, truncated: false }, input)
      : `Only ${result.total} match${result.total === 1 ? "" : "es"}: there is no nth ${input.nth}.`;
    return { data: picked, text };
  },
});
