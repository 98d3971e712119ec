// Typed text judged key by key as the focus moves through one call: a Tab (or a line break, or a
// space that pressed something) can move the focus, so the Enter or space after it presses whatever
// it reached. The text goes in pieces, each ending with such a key; after each, the focus is read
// again once it visibly moved, and the next piece's Enter and spaces are judged on it before it is
// sent. A single-line field may move the focus by itself (a card number field that jumps to "Pay"):
// there a piece also ends before each space and line break, judged where the focus is once the
// text before it shows. Where the move cannot be seen, the next piece counts as pressing what
// cannot be read.
import { setTimeout as sleep } from "node:timers/promises";
import type { Hands } from "../../platform/hands.js";
import { roleSet, TABLE_ROLES } from "../../platform/roles.js";
import type { Rect } from "../../platform/types.js";
import type { Secret } from "../../safety/audit.js";
import type { TargetFacts } from "../../safety/classify.js";
import { PRESSABLE_ROLES } from "../../safety/classify.js";
import type { ActingSurfaces } from "../acting.js";
import type { ToolContext } from "../context.js";
import { gateStep, PartlySent } from "./attempt.js";
import { everyFocused, keysInMenus, typedInto } from "./facts.js";
import { SHOWN_WITHIN_MS } from "./field.js";
import { keyEffect } from "./key-effect.js";
import { typePiece } from "./outside-keymap.js";
import { elementPixels } from "./pixel-readback.js";
import { readWhole } from "./window-read.js";

/** Keys that may move the focus or press what has it. */
const MOVES_OR_PRESSES = /[\t\n\r]/;
/** Keys the gate judges by what has the focus. */
const ACTIVATES = /[\n\r ]/;

/** The length of the character at `from` (a code point: one or two UTF-16 units). */
export const firstCharacter = (text: string, from = 0): number =>
  String.fromCodePoint(text.codePointAt(from) ?? 0).length;

/**
 * Where the piece starting at `from` ends: just after the next Tab or line break, or, where the
 * focus is on something a space presses, after the next space too.
 */
export function pieceEnd(text: string, from: number, spacePresses: boolean): number {
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (MOVES_OR_PRESSES.test(c) || (spacePresses && c === " ")) return i + 1;
  }
  return text.length;
}

const ONE_LINE = roleSet("text", "entry", "password text");

/** Whether typing into an element may move the focus by itself: an editable single-line field. */
export const movesItself = (node: { role: string; states?: string[] | undefined } | undefined): boolean =>
  !!node &&
  ONE_LINE.has(node.role) &&
  !!node.states?.includes("editable") &&
  !node.states.includes("multi line");

interface Focus {
  windowId: number | undefined;
  handle: string | undefined;
  /** Every element reporting the focus: Qt leaves it on some it has left, so a move shows as a gain. */
  all: string[];
  /** What has it, as a reply names it: 'list item "Welcome"', or that no element reports it. */
  what: string;
  /** A text of many lines: a Tab or line break may go into it as text instead of moving on. */
  multiLine: boolean;
  /** Its text's length, where it has one. */
  length: number | undefined;
  /** Whether a space presses it. */
  pressable: boolean;
  /** A table reports the focus: its cells, left out of the read, take Tab and line breaks as moves. */
  inGrid?: boolean;
  /** That table's handle. */
  grid?: string | undefined;
  /** A single-line field: it may move the focus by itself. */
  movesItself?: boolean;
  /** The keys go to the menus: each letter is a key, judged where the one before left the focus. */
  inMenus?: boolean;
  /**
   * Nothing of it can be read but its pixels (a document canvas: AbiWord's drawing area), with the
   * region and pixels it showed just before the piece.
   */
  opaque?: boolean;
  shows?: { region: Rect; pixels: Buffer } | undefined;
}

async function readFocus(context: ToolContext, hands: Hands): Promise<Focus | undefined> {
  const windowId = await hands.activeWindow();
  if (windowId === undefined) return undefined;
  const read = await readWhole(context, windowId).catch(() => undefined);
  const all = read ? everyFocused(read.nodes) : [];
  const node = typedInto(all);
  if (!node)
    return {
      windowId,
      handle: undefined,
      all: [],
      what: "on no element of the window",
      multiLine: false,
      length: undefined,
      pressable: false,
    };
  const backend = await context.backend();
  // Null is a field with no text; a read that failed (an app slow under load) is asked once more,
  // or the field would count as unreadable and get the shorter wait (MOVE_SHOWS_WITHIN_MS).
  const length = () => backend.readText(node.handle, 0, 0);
  const text = await length()
    .catch(() => length())
    .catch(() => null);
  const inGrid = all.some((n) => TABLE_ROLES.has(n.role));
  const pressable = PRESSABLE_ROLES.has(node.role);
  return {
    windowId,
    handle: node.handle,
    all: all.map((n) => n.handle),
    what: `on ${node.role}${node.name ? ` ${JSON.stringify(node.name.slice(0, 60))}` : ""}`,
    inGrid,
    grid: all.find((n) => TABLE_ROLES.has(n.role))?.handle,
    multiLine: !!node.states?.includes("multi line"),
    length: text?.length,
    pressable,
    movesItself: movesItself(node),
    inMenus: keysInMenus(all),
    opaque: !text && !pressable && !inGrid && node.role !== "terminal",
  };
}

/** The focus with what its region shows now, where only its pixels can show a key's effect. */
async function withPixels(context: ToolContext, hands: Hands, focus: Focus): Promise<Focus> {
  if (!focus.opaque || !focus.handle) return focus;
  const shown = await elementPixels(context, hands, focus.handle);
  return { ...focus, shows: shown ? { region: shown.region, pixels: shown.image.data } : undefined };
}

/**
 * A document canvas that reports no text (AbiWord's): the piece took effect once its pixels changed
 * and the focus then stayed on it, its window in front, for GRID_SETTLES_MS.
 */
async function drewThenStayed(
  context: ToolContext,
  hands: Hands,
  before: Focus,
  deadline: number,
): Promise<boolean> {
  const shows = before.shows;
  if (!shows || !before.handle) return false;
  for (let poll = 0; Date.now() < deadline; poll++) {
    await sleep(MOVE_POLL_MS[Math.min(poll, MOVE_POLL_MS.length - 1)]!);
    const image = await hands.capture(shows.region).catch(() => undefined);
    if (!image) return false;
    if (!image.data.equals(shows.pixels)) return stayedOn(context, hands, before.windowId, before.handle);
  }
  return false;
}

/**
 * How long a Tab or line break is given to show its effect before where it went counts as unknown.
 * A field whose text can be read is given as long as typed text ever is (SHOWN_WITHIN_MS): the
 * Swing fixture under eight HTTP clients showed a 5-character piece more than 5 s late, and the
 * rest of the text was refused as typed "where the keys land cannot be known".
 */
const MOVE_SHOWS_WITHIN_MS = 5000;
const MOVE_POLL_MS = [30, 60, 120, 250];
/** How long the focus must stay on a table after a Tab or line break before it counts as still there. */
const GRID_SETTLES_MS = 400;

/**
 * The focus after a piece, once the piece visibly arrived: another window in front, another element
 * focused, or (in a text of many lines) the text grown by the whole piece, its last key included.
 * Undefined: none of these showed, so where the next keys go cannot be known.
 */
async function focusAfter(
  context: ToolContext,
  hands: Hands,
  before: Focus | undefined,
  piece: string,
): Promise<Focus | undefined> {
  if (!before?.handle) return undefined;
  const started = Date.now();
  const grown = before.length === undefined ? undefined : before.length + [...piece].length;
  const deadline = started + shownWithin(before);
  if (before.inGrid && before.grid && (await stayedOn(context, hands, before.windowId, before.grid)))
    return before;
  if (before.opaque && (await drewThenStayed(context, hands, before, deadline))) return before;
  // A piece that ends before a space or line break (in a single-line field) shows whole as text.
  const cut = !MOVES_OR_PRESSES.test(piece.at(-1) ?? "");
  const showsAsText = before.multiLine || cut;
  // Its field's length is asked alone until it shows the piece, then the window read once: a read
  // of the whole window at every poll cost each space of a sentence.
  if (
    cut &&
    grown !== undefined &&
    (await grownTo(context, before.handle, grown, started + shownWithin(before) / 2))
  )
    return readFocus(context, hands);
  for (let poll = 0; Date.now() < deadline; poll++) {
    await sleep(MOVE_POLL_MS[Math.min(poll, MOVE_POLL_MS.length - 1)]!);
    const now = await readFocus(context, hands);
    if (!now?.handle) continue;
    const gained = now.all.some((handle) => !before.all.includes(handle));
    if (now.windowId !== before.windowId || now.handle !== before.handle || gained) return now;
    if (showsAsText && grown !== undefined && (now.length ?? 0) >= grown) return now;
    // A spreadsheet moves its cursor to a cell the read leaves out (LibreOffice Calc keeps the focus
    // on its table): once the focus has stayed there a while, the keys still go to the table.
    if (before.inGrid && now.inGrid && Date.now() - started >= GRID_SETTLES_MS) return now;
  }
  return undefined;
}

/** How long the focus is given to show a piece: longer where its text can be read. */
const shownWithin = (focus: Focus | undefined): number =>
  focus?.length === undefined ? MOVE_SHOWS_WITHIN_MS : SHOWN_WITHIN_MS;

/** Whether an element's text reaches a length before the deadline, its length alone asked. */
async function grownTo(
  context: ToolContext,
  handle: string,
  length: number,
  deadline: number,
): Promise<boolean> {
  const backend = await context.backend();
  for (let poll = 0; Date.now() < deadline; poll++) {
    await sleep(MOVE_POLL_MS[Math.min(poll, MOVE_POLL_MS.length - 1)]!);
    const text = await backend.readText(handle, 0, 0).catch(() => null);
    if ((text?.length ?? 0) >= length) return true;
  }
  return false;
}

/**
 * Whether the focus stayed on an element (a spreadsheet's table, a document canvas) through
 * GRID_SETTLES_MS after a key: its window still in front and the element still focused, each asked
 * alone, not by a read of the whole window (LibreOffice's is 1,850 elements, read several times a
 * piece). A window that came to the front, or an element that lost the focus, is left to the full reads.
 */
async function stayedOn(
  context: ToolContext,
  hands: Hands,
  windowId: number | undefined,
  handle: string,
): Promise<boolean> {
  const backend = await context.backend();
  const started = Date.now();
  for (;;) {
    const [window, node] = await Promise.all([
      hands.activeWindow().catch(() => undefined),
      backend.describe(handle, { maxText: 0 }).catch(() => undefined),
    ]);
    if (window !== windowId || !node?.states?.includes("focused")) return false;
    if (Date.now() - started >= GRID_SETTLES_MS) return true;
    await sleep(MOVE_POLL_MS[1]!);
  }
}

export interface TypedPieces {
  text: string;
  /** Where the first piece ends: it was judged with the call. */
  firstEnd: number;
  tool: string;
  intent: string;
  reversible: boolean | undefined;
  /** The call's values, kept out of a later step's journal line. */
  secrets: Secret[];
  /** The text goes into a single-line field, which may move the focus by itself. */
  movesItself?: boolean;
  /** The keys go to the menus: the first piece is one letter, and so is each after it there. */
  inMenus?: boolean;
  /** The keys reach no text: a key pressed again waits as a person's finger would (KEY_AGAIN_MS). */
  paced?: boolean;
}

// A key pressed again sooner than this after itself is taken once by a Qt button it is the shortcut
// of: KCalc's "4" animates its button for 100 ms, and a second press within them only restarts it
// ("144/12" came out "14/2"). A person's finger takes longer to press a key again.
export const KEY_AGAIN_MS = 150;

/** The text in parts, each cut before a character its part already holds (case aside). */
export function apartRepeats(text: string): string[] {
  const parts: string[] = [];
  let part = "";
  for (const character of text) {
    if (part.toLowerCase().includes(character.toLowerCase())) {
      parts.push(part);
      part = "";
    }
    part += character;
  }
  if (part) parts.push(part);
  return parts;
}

/** Parts sent KEY_AGAIN_MS apart, what each needed summed. */
async function sentApart(
  parts: string[],
  send: (part: string) => Promise<{ remapped: number; written: number }>,
): Promise<{ remapped: number; written: number }> {
  const sum = { remapped: 0, written: 0 };
  for (const [i, part] of parts.entries()) {
    if (i > 0) await sleep(KEY_AGAIN_MS);
    const sent = await send(part);
    sum.remapped += sent.remapped;
    sum.written += sent.written;
  }
  return sum;
}

/**
 * Whether the keys reach an element that takes them as text (it says it is editable). Elsewhere (a
 * calculator's buttons, a canvas, a focus no element reports) keys are commands, taken one at a time.
 */
export async function takesText(
  context: ToolContext,
  element: { role?: string; states?: string[] | undefined } | undefined,
  handle: string | undefined,
): Promise<boolean> {
  // A sheet's table takes typed text into its cells' editor, as a field does.
  const takes = (node: { role?: string; states?: string[] | undefined }) =>
    !!node.states?.includes("editable") || TABLE_ROLES.has(node.role ?? "");
  if (element?.states) return takes(element);
  if (handle === undefined) return false;
  const backend = await context.backend();
  const node = await backend.describe(handle, { maxText: 0 }).catch(() => undefined);
  return !!node && takes(node);
}

/**
 * Types the text piece by piece, judging each later piece that holds an Enter or a space on the focus
 * the earlier ones left. A piece the gate refuses is not sent: PartlySent says how much was typed.
 */
export async function typeInPieces(
  context: ToolContext,
  hands: Hands,
  acting: ActingSurfaces,
  typing: TypedPieces,
): Promise<{ remapped: number; pieces: number; written: number; pressed: string[] }> {
  const { text } = typing;
  // What the keys after the first piece pressed, the gate allowing it: "line break: push button "Post"".
  const pressed: string[] = [];
  let at = 0;
  // The text before `end` is judged on the focus it goes to.
  let end = typing.firstEnd;
  // A single-line field may move the focus by itself: its spaces and line breaks go as pieces of
  // their own, sent only once the focus is seen still there.
  let selfMoving = typing.movesItself ?? false;
  // In the menus each letter is a key: the next is judged where the one before left the focus.
  let inMenus = typing.inMenus ?? false;
  let remapped = 0;
  let written = 0;
  let pieces = 0;
  // A later piece the gate allowed on its own journal line: its outcome follows once it is sent.
  let allowed: ((outcome: Record<string, unknown>) => void) | undefined;
  // The focus the last piece left, read after it: nothing is sent between that read and the next piece.
  let known: Focus | undefined;
  // What the next piece's keys press where the focus stayed in one table: the same as last time.
  let judged: { spot: string; keys: string; effect: Awaited<ReturnType<typeof keyEffect>> } | undefined;
  while (at < text.length) {
    const cut = selfMoving ? cutBefore(text, at, end) : undefined;
    // Where nothing after the judged text is judged by the focus, the rest goes with it.
    const judgedLater =
      cut !== undefined || (end < text.length && (inMenus || ACTIVATES.test(text.slice(end))));
    const piece = judgedLater ? text.slice(at, cut ?? end) : text.slice(at);
    const focus = judgedLater ? (known ?? (await readFocus(context, hands))) : undefined;
    const before = focus && (await withPixels(context, hands, focus));
    const send = (part: string) =>
      typePiece(context, hands, acting, part, async () => (await readFocus(context, hands))?.all);
    const sent = typing.paced ? await sentApart(apartRepeats(piece), send) : await send(piece);
    remapped += sent.remapped;
    written += sent.written;
    pieces++;
    at += piece.length;
    allowed?.({ characters: [...piece].length, part_of: typing.tool });
    allowed = undefined;
    if (at >= text.length) break;
    const now = await focusAfter(context, hands, before, piece);
    known = now;
    // Still in the field, which took the text: the keys after it land where they were judged.
    if (cut !== undefined && now && stayed(before, now)) continue;
    selfMoving = !!now?.movesItself;
    // Where the focus went cannot be told after a letter sent to the menus: the next is still a key.
    inMenus = now ? !!now.inMenus : inMenus;
    end = inMenus ? at + firstCharacter(text, at) : pieceEnd(text, at, now?.pressable ?? true);
    const next = text.slice(at, end);
    if (!inMenus && !ACTIVATES.test(next)) continue;
    const keys = [...new Set(next.match(/[\n\r ]/g))].sort().join("");
    // Where the focus stayed in one table, or in one field that takes a space as text, the next
    // keys press what they pressed last time.
    const spot = now?.inGrid ? now.grid : keys === " " && !now?.pressable ? now?.handle : undefined;
    const effect =
      spot && judged?.spot === spot && judged.keys === keys
        ? judged.effect
        : await nextEffect(context, now, next, unknownMove(piece, before));
    judged = spot ? { spot, keys, effect } : undefined;
    const step = await gateStep(context, {
      tool: typing.tool,
      intent: typing.intent,
      reversible: typing.reversible,
      presses: effect.presses,
      via: effect.via,
      windowId: now?.windowId,
      secrets: typing.secrets,
    });
    if (step && !step.allowed) throw stoppedAt(text, at, piece, next, step.reason);
    if (step) allowed = step.end;
    pressed.push(...surelyPressed(effect, next));
  }
  return { remapped, pieces, written, pressed };
}

/**
 * What keys pressed, as the reply says it ('space: push button "Twin"'): only what they press, not
 * what they may (a default a toolkit may pick instead).
 */
function surelyPressed(effect: Awaited<ReturnType<typeof keyEffect>>, keys: string): string[] {
  return effect.presses.flatMap((press, i) =>
    press.role && press.name && !/\bmay\b|possible/.test(effect.via[i] ?? "")
      ? [`${keyName(keys, true) ?? "key"}: ${press.role} ${JSON.stringify(press.name)}`]
      : [],
  );
}

/** What the next keys press where the focus is now; where it cannot be told, why (it counts as committing). */
async function nextEffect(
  context: ToolContext,
  now: Focus | undefined,
  next: string,
  unknown: string,
): Promise<Awaited<ReturnType<typeof keyEffect>>> {
  if (now) return await keyEffect(context, { windowId: now.windowId, text: next });
  return { presses: [{ unreadable: unknown } as TargetFacts], via: ["unknown"] };
}

/** The gate refused the piece after `at`: how much was typed, and the key it stopped after or before. */
function stoppedAt(text: string, at: number, piece: string, next: string, reason: string): PartlySent {
  const typed = [...text.slice(0, at)].length;
  const key = keyName(piece);
  return new PartlySent(
    key
      ? `typed ${typed} of ${[...text].length} character(s), up to and including the ${key}, then stopped before the rest: ${reason}`
      : `typed ${typed} of ${[...text].length} character(s), then stopped before the ${keyName(next, true) ?? "next character"}: ${reason}`,
    {
      characters: typed,
      ...(key ? { stopped_after: key } : { stopped_before: keyName(next, true) ?? "next character" }),
    },
  );
}

/** Where a piece typed into a single-line field ends before `end`: just before its next space or line break. */
function cutBefore(text: string, from: number, end: number): number | undefined {
  for (let i = from + 1; i < end; i++) if (ACTIVATES.test(text[i]!)) return i;
  return undefined;
}

/** Whether the focus is where it was: the same element of the same window, none gained. */
const stayed = (before: Focus | undefined, now: Focus) =>
  !!before &&
  now.windowId === before.windowId &&
  now.handle === before.handle &&
  now.all.every((handle) => before.all.includes(handle));

/** The key a piece ends with (Tab, space, line break), or, for a piece's first, the one it starts with. */
function keyName(piece: string, first = false): string | undefined {
  const key = first ? piece[0] : piece.at(-1);
  return key === "\t"
    ? "Tab"
    : key === " "
      ? "space"
      : key === "\n" || key === "\r"
        ? "line break"
        : undefined;
}

const unknownMove = (piece: string, before: Focus | undefined) =>
  `after the ${keyName(piece) ?? "text typed before it"} the keyboard focus${before ? ` (${before.what})` : ""} neither moved nor took it as text within ${shownWithin(before) / 1000} s, so where the next keys land cannot be known; type the rest as its own call once the focus is where it should be`;
