// A text field around type_text: the caret put at the end of its text (or the field emptied) before
// a key goes, checked through its Text interface, and afterwards the whole text re-read against what
// it should now be. Typing used to go wherever a focus click had put the caret, or over the selection
// two quick clicks had made, and the reply said "exact" whenever the field ended with the typed text.
import { setTimeout as sleep } from "node:timers/promises";
import {
  lostCharacters,
  offsetRuns,
  rewrittenAs,
  textAfterTyping,
  textDifference,
} from "../../core/readback.js";
import type { Hands } from "../../platform/hands.js";
import { parseChord } from "../../platform/keys.js";
import { ONE_CARET_ROLES, SHOWS_TYPED_ROLES } from "../../platform/roles.js";
import { PASSWORD_ROLE, type TextCaret } from "../../platform/types.js";
import type { ActingSurfaces } from "../acting.js";
import type { ToolContext } from "../context.js";
import { NothingSent } from "./attempt.js";
import type { ResolvedPlace } from "./placed.js";

/** Fields that are one text with one caret (roles.ts): typing goes at its end. */
export const EDITS_TEXT = ONE_CARET_ROLES;

// GTK 3 took seconds to handle keys while it reloaded keymaps another deskhand kept changing (see
// keyboard.ts): a caret or a clear is waited for as long as typed text is.
// The Swing fixture under eight HTTP clients took over 2 s to show 8 typed characters, once in 320;
// with every input reply also listing the windows around it (issue 26), it went past 5 s, twice in
// six runs. The wait ends as soon as the text shows: the bound only decides when a slow app is
// called "differs", and a false "differs" is the worse answer.
export const SHOWN_WITHIN_MS = 10_000;
/** Polls start quick and slow down: each read is work for an app that is already behind. */
const POLL_MS = [0, 30, 60, 120, 250];
/** A field's text longer than this is not compared whole (it is not read back at all). */
const COMPARED_TEXT = 100_000;

/** Where typing starts in a field, and what it held then. */
export interface FieldStart {
  /** Its text before typing; undefined where it is not read (a password field, a huge text). */
  before: string | undefined;
  /** The offset typing goes in at, in characters. */
  at: number;
  singleLine: boolean;
  /** How the caret got there (the reply's `caret`). */
  how: string;
}

const singleLine = (place: ResolvedPlace) =>
  place.element?.role !== "document text" && !place.element?.states?.includes("multi line");

/** The caret read until `ok`, bounded; null: the element has no Text interface; undefined: unreadable. */
async function caretUntil(
  context: ToolContext,
  handle: string,
  ok: (caret: TextCaret) => boolean,
  withinMs: number,
): Promise<TextCaret | null | undefined> {
  const reader = await context.backend();
  const deadline = Date.now() + withinMs;
  let last: TextCaret | null | undefined;
  for (let poll = 0; ; poll++) {
    // A read that fails is asked again until the deadline: a loaded app may miss one call.
    last = await reader.readCaret(handle).catch(() => undefined);
    if (last === null || (last && ok(last)) || Date.now() > deadline) return last;
    await sleep(POLL_MS[Math.min(poll + 1, POLL_MS.length - 1)]!);
  }
}

const atEnd = (c: TextCaret) => c.caret === c.length && c.selections.length === 0;

/** Where the caret is, in words; a password field's length is not said. */
const caretWords = (c: TextCaret, place: ResolvedPlace) =>
  place.element?.role === PASSWORD_ROLE
    ? "the caret is not at its end, or text is selected"
    : `the caret is at ${c.caret} of ${c.length}${c.selections.length ? `, ${c.selections.map((s) => s.end - s.start).join(" + ")} character(s) selected` : ""}`;

/** The field's text, for the read-back; never a password field's. */
async function textOf(
  context: ToolContext,
  place: ResolvedPlace,
  length: number,
): Promise<string | undefined> {
  if (place.element?.role === PASSWORD_ROLE || length > COMPARED_TEXT) return undefined;
  const read = await (await context.backend()).readText(place.handle!, 0, length).catch(() => undefined);
  return read && read.length === length ? read.text : undefined;
}

/**
 * Puts the caret at the end of the field's text with nothing selected, before anything is typed:
 * Text.SetCaretOffset (which ends a selection too), else the End key; then reads it to be sure.
 * Undefined where the place is no text field or has no Text interface (the keys go where the focus is).
 */
export async function caretAtEnd(
  context: ToolContext,
  hands: Hands,
  acting: ActingSurfaces,
  place: ResolvedPlace | undefined,
): Promise<FieldStart | undefined> {
  if (!place?.handle || !EDITS_TEXT.has(place.element?.role ?? "")) return undefined;
  const handle = place.handle;
  let caret = await caretUntil(context, handle, () => true, 0);
  if (!caret) return undefined;
  let how = "already at the end";
  if (!atEnd(caret)) {
    how = "Text.SetCaretOffset";
    const actor = await acting.backend();
    await actor.placeCaret(handle, caret.length, { timeoutMs: 2000 }).catch(() => false);
    caret = (await caretUntil(context, handle, atEnd, 1000)) ?? caret;
  }
  let keySent = false;
  if (!atEnd(caret)) {
    // A toolkit that refuses SetCaretOffset still moves its caret for the key a person would press.
    const key = singleLine(place) ? "End" : "ctrl+End";
    how = `key ${key}`;
    await hands.chord(parseChord(key), 1);
    keySent = true;
    caret = (await caretUntil(context, handle, atEnd, SHOWN_WITHIN_MS)) ?? caret;
  }
  if (!atEnd(caret)) {
    const message = `could not put the caret at the end of ${place.ref ?? "the field"}'s text (${caretWords(caret, place)}); nothing was typed. Click where the text should go and type without a ref`;
    throw keySent ? new Error(message) : new NothingSent(message);
  }
  return {
    before: await textOf(context, place, caret.length),
    at: caret.length,
    singleLine: singleLine(place),
    how,
  };
}

/** How a start at the caret is said (`FieldStart.how`), which the reply quotes as where it typed. */
export const AT_CARET = "at its caret";

/**
 * Where typing starts in a text of many lines that already had the keyboard focus, with nothing
 * selected: at its caret, where the agent's own keys put it (a document is typed into where the
 * caret is, not appended to). Undefined for any other place: its caret goes to the end.
 */
export async function caretWhereItIs(
  context: ToolContext,
  place: ResolvedPlace | undefined,
): Promise<FieldStart | undefined> {
  if (!place?.handle || singleLine(place) || !EDITS_TEXT.has(place.element?.role ?? "")) return undefined;
  const caret = await caretUntil(context, place.handle, () => true, 0);
  if (!caret || caret.selections.length > 0 || atEnd(caret)) return undefined;
  return {
    before: await textOf(context, place, caret.length),
    at: caret.caret,
    singleLine: false,
    how: `${AT_CARET} (${caret.caret} of ${caret.length}), where the focused text had it`,
  };
}

/**
 * Empties the field (ctrl+a, Backspace) and waits until it reads empty: typing before the app has
 * handled the two keys put the new text beside the old, or let the old text pass for the new.
 * Undefined where it cannot be read (not a text field, no Text interface).
 */
export async function emptied(
  context: ToolContext,
  hands: Hands,
  place: ResolvedPlace | undefined,
): Promise<FieldStart | undefined> {
  await hands.chord(parseChord("ctrl+a"), 1);
  await hands.chord(parseChord("Backspace"), 1);
  if (!place?.handle || !EDITS_TEXT.has(place.element?.role ?? "")) return undefined;
  const caret = await caretUntil(context, place.handle, (c) => c.length === 0, SHOWN_WITHIN_MS);
  if (caret === null) return undefined;
  if (caret === undefined || caret.length > 0)
    throw new Error(
      `ctrl+a and Backspace did not empty ${place.ref ?? "the field"}: ${caret ? `it still holds ${caret.length} character(s)` : "it could not be read"} after ${SHOWN_WITHIN_MS / 1000} s; nothing was typed. Read it again, and set it with act set_value if typing cannot clear it`,
    );
  return { before: "", at: 0, singleLine: singleLine(place), how: "emptied" };
}

/**
 * Whether the field shows what was typed. "exact": its whole text is what it should now be (the old
 * text with the typed text at the caret, or the typed text alone after a clear); "ends with it":
 * only its end could be compared (no text read before); "differs", with what differs; "unreadable".
 */
export type ReadBack = "exact" | "ends with it" | "rewritten" | "same length" | "differs" | "unreadable";

/**
 * Typed characters the field does not hold: how many, which (typed text: the journal keeps only the
 * count), and where they were in the typed text, one-based ("11–15").
 */
export interface Lost {
  characters: number;
  /** Absent for a password field, whose text is never read: only its length is. */
  text?: string;
  typed_at?: string;
  /** Characters the field holds that were not typed (an "A" where "a" was): others arrived instead. */
  instead?: number;
}

/**
 * The typed characters `shown` lacks, where `whole` is what it should hold with `typed` at `at`
 * (undefined: only its end can be compared). Undefined when none is missing or it cannot be said.
 */
export function lostOf(shown: string, typed: string, whole?: { text: string; at: number }): Lost | undefined {
  const typedLength = [...typed].length;
  const aligned = whole
    ? lostCharacters(shown, whole.text)
    : lostCharacters([...shown].slice(-2 * typedLength).join(""), typed);
  if (!aligned) return undefined;
  const offset = whole?.at ?? 0;
  const inTyped = aligned.at.map((k) => k - offset).filter((k) => k >= 0 && k < typedLength);
  if (inTyped.length === 0) return undefined;
  const chars = [...typed];
  return {
    characters: inTyped.length,
    text: inTyped.map((k) => chars[k]).join(""),
    typed_at: offsetRuns(inTyped),
    ...(aligned.extra > 0 ? { instead: aligned.extra } : {}),
  };
}

/**
 * The spaces and tabs an editor added at the starts of the typed lines (its auto-indent keeps a
 * line's indentation on the next), where the text shows every typed line so, in order; undefined
 * where it added none or shows them otherwise.
 */
export function addedIndent(shown: string, typed: string): number | undefined {
  const lines = typed.split(/\r\n|[\r\n]/u);
  if (lines.length < 2) return undefined;
  const escaped = (line: string) => line.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&");
  const pattern = lines.map((line, i) => (i === 0 ? escaped(line) : `([ \\t]*)${escaped(line)}`));
  const found = new RegExp(pattern.join("\\r?\\n"), "u").exec(shown);
  const added = found?.slice(1).reduce((sum, indent) => sum + (indent?.length ?? 0), 0) ?? 0;
  return added > 0 ? added : undefined;
}

/**
 * Waits until the field shows what was typed, bounded: "done" means the app has taken the text, not
 * only that the keys were sent. A password field is never read. Undefined where the place is not a
 * field that shows its typed text (a cell takes it into an editor of its own, seen once committed).
 */
export async function untilShown(
  context: ToolContext,
  place: ResolvedPlace | undefined,
  sent: string,
  start: FieldStart | undefined,
): Promise<
  { read_back: ReadBack; read_back_differs?: string; read_back_reason?: string; lost?: Lost } | undefined
> {
  if (!place || !SHOWS_TYPED_ROLES.has(place.element?.role ?? "")) return undefined;
  if (!place.handle) return { read_back: "unreadable" };
  // A Tab moves the focus on from a single-line field: what follows it went to another field.
  const tab = singleLine(place) ? sent.indexOf("\t") : -1;
  const typed = tab >= 0 ? sent.slice(0, tab) : sent;
  if (place.element?.role === PASSWORD_ROLE) return passwordLength(context, place.handle, typed, start);
  const backend = await context.backend();
  // A field does not keep a trailing newline the same way everywhere: Enter was a key there.
  const trim = (text: string) => text.replace(/[\r\n]+$/, "");
  const whole =
    start?.before !== undefined
      ? trim(textAfterTyping(start.before, start.at, typed, start.singleLine))
      : undefined;
  const deadline = Date.now() + SHOWN_WITHIN_MS;
  for (;;) {
    const node = await backend
      .describe(place.handle, {
        maxText: COMPARED_TEXT,
        ...(place.windowId === undefined ? {} : { windowId: place.windowId }),
      })
      .catch(() => undefined);
    const shown = node?.text ?? node?.value;
    if (shown === undefined)
      return {
        read_back: "unreadable",
        read_back_reason: node ? "it has no text to read back" : "it could not be re-read",
      };
    if ((node?.textLength ?? 0) > shown.length)
      return { read_back: "unreadable", read_back_reason: "its text is too long to compare" };
    const now = trim(shown);
    if (whole === undefined ? now.endsWith(trim(typed)) : now === whole)
      return { read_back: whole === undefined ? "ends with it" : "exact" };
    // A calculator writes "×" for "*": the text arrived, written the app's way.
    const rewritten =
      whole === undefined
        ? rewrittenAs([...now].slice(-[...trim(typed)].length).join(""), trim(typed))
        : rewrittenAs(now, whole);
    if (rewritten) return { read_back: "rewritten", read_back_differs: `the app wrote ${rewritten}` };
    if (Date.now() > deadline) {
      // Offsets count the characters that went in: a single-line field takes no line break.
      const inserted = start?.singleLine ? typed.replace(/[\r\n]/g, "") : typed.replace(/\r/g, "\n");
      const lost = lostOf(now, inserted, whole === undefined ? undefined : { text: whole, at: start!.at });
      return {
        read_back: "differs",
        read_back_differs:
          whole === undefined ? "it does not end with the typed text" : textDifference(now, whole)!,
        ...(lost ? { lost } : {}),
      };
    }
    await sleep(30);
  }
}

/**
 * A password field's text is never read, but its length is (Text.CharacterCount): as many characters
 * as it held before and was typed is "same length"; fewer, the count that did not arrive.
 */
async function passwordLength(
  context: ToolContext,
  handle: string,
  typed: string,
  start: FieldStart | undefined,
): Promise<{ read_back: ReadBack; read_back_differs?: string; read_back_reason?: string; lost?: Lost }> {
  const never = "a password field's text is never read";
  if (!start) return { read_back: "unreadable", read_back_reason: never };
  const inserted = start.singleLine ? typed.replace(/[\r\n]/g, "") : typed.replace(/\r/g, "\n");
  const wanted = start.at + [...inserted].length;
  const caret = await caretUntil(context, handle, (c) => c.length === wanted, SHOWN_WITHIN_MS);
  if (!caret) return { read_back: "unreadable", read_back_reason: `${never}, and its length could not be` };
  if (caret.length === wanted) return { read_back: "same length" };
  return {
    read_back: "differs",
    read_back_differs: `it holds ${caret.length} characters, ${wanted} expected`,
    ...(caret.length < wanted ? { lost: { characters: wanted - caret.length } } : {}),
  };
}
