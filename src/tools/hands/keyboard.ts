// Keyboard tools: type_text (full Unicode, through a temporary keymap remap where needed) and key
// (validated chords). Text goes where the focus is; a ref moves the focus there first.

import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { labelBeside } from "../../core/labels.js";
import { elementState, RECEIPT_TEXT } from "../../core/receipt.js";
import type { Hands } from "../../platform/hands.js";
import { type Chord, chordText, parseChord } from "../../platform/keys.js";
import { TABLE_ROLES } from "../../platform/roles.js";
import { PASSWORD_ROLE, type RawNode } from "../../platform/types.js";
import type { Secret } from "../../safety/audit.js";
import { activates } from "../../safety/chords.js";
import type { ToolContext } from "../context.js";
import { activateWindow } from "../guard.js";
import { defineInputTool, type InputPlan } from "../input-tool.js";
import { refSchema, typedTextSchema } from "../schemas.js";
import type { Verdict } from "./attempt.js";
import { pathTo } from "./enter-effect.js";
import { everyFocused, focusedElements, pressFacts, typedInto } from "./facts.js";
import {
  AT_CARET,
  addedIndent,
  caretAtEnd,
  caretWhereItIs,
  emptied,
  type Lost,
  lostOf,
  untilShown,
} from "./field.js";
import { fieldFaceBefore, fieldFaceChange } from "./field-face.js";
import { clicksToFocus, focusPlace } from "./focus.js";
import { type KeyEffect, keyEffect } from "./key-effect.js";
import { menuOpen } from "./menu-keys.js";
import { firstCharacter, KEY_AGAIN_MS, movesItself, pieceEnd, takesText, typeInPieces } from "./pieces.js";
import { pixelsBefore, readBackFromPixels } from "./pixel-readback.js";
import { type PlaceInput, placeRef, resolvePlace } from "./place.js";
import type { ResolvedPlace } from "./placed.js";
import { INPUT, modifiersSchema, readBack, targetWindow } from "./pointer.js";
import { elementRule, elementShape, intentSchema, reversibleSchema, windowShape } from "./schemas.js";
import { keyedFacts } from "./sets.js";
import { cellsTyped } from "./sheet-cells.js";
import { type FieldTexts, fieldTextsBefore, fieldThatTook } from "./unfocused.js";
import { listedWindow, oneReadEach, readWhole } from "./window-read.js";

/** What the read-back found, as the reply says it. */
const READ_BACK_WORDS: Record<string, string> = {
  exact: "the field reads back exactly as it should",
  "same length": "the password field holds as many characters as it should (its text is never read)",
  "ends with it": "the field reads back ending with it",
  contains: "it reads back containing it",
  "last line": "it reads back containing its last line (the lines before went into paragraphs of their own)",
  indented: "it reads back containing its lines, with indentation the editor added at their starts",
  differs: "the field reads back different",
  rewritten: "the field reads back as typed, some characters written its own way",
  "across cells":
    "its Tabs and line breaks moved it across the table's cells, so no one field holds it: read_table reads them",
  unreadable: "it could not be read back",
  "from pixels": "its pixels show it now, read by OCR (it has no text to read)",
};

/** What type_text and key are given that says where their keys go and what they may press. */
type KeyboardInput = PlaceInput & {
  intent: string;
  reversible: boolean;
  ensure_focus: boolean;
  include_changes?: boolean;
  window?: { id: number } | { title: string } | { pid: number } | undefined;
  /** key: the chord, judged by what it activates. */
  chord?: Chord;
  /** type_text: the text, whose spaces and newlines press what has the focus. */
  text?: string;
  /** key: whether the ref gets the focus first. */
  focus?: boolean;
  /** key: how many times the chord is pressed. */
  count?: number;
  /** Whether the keys type text (type_text, a printable key): then where it goes is read. */
  typing?: boolean;
};

/** What type_text and key share: the ref's place (if any), its window, the declared intent. */
async function keyboardTarget(context: ToolContext, input: KeyboardInput) {
  const hands = await context.hands();
  const ref = await placeRef(context, input);
  const place = ref !== undefined ? await resolvePlace(context, hands, { ref }) : undefined;
  const windowId = await targetWindow(context, input, place);
  // Keys land in the window in front. The one named comes forward first (an L1 step), so that the
  // element that will receive them reports its focus and can be judged.
  if (windowId !== undefined && input.ensure_focus && (await hands.activeWindow()) !== windowId) {
    await activateWindow(context, { id: windowId }, input.chord ? "key" : "type_text", input.intent);
  }
  // Without a window named, the keys go where the focus is now (the input chain refuses later if the
  // named window did not come forward).
  const keysGoTo = windowId !== undefined && input.ensure_focus ? windowId : await hands.activeWindow();
  return oneReadEach(() => judgeKeys(context, input, { place, windowId, keysGoTo }));
}

/** What the keys will reach and do, judged on one read of the window they go to. */
async function judgeKeys(
  context: ToolContext,
  input: KeyboardInput,
  {
    place,
    windowId,
    keysGoTo,
  }: { place: ResolvedPlace | undefined; windowId: number | undefined; keysGoTo: number | undefined },
) {
  const focused =
    place?.element && input.focus !== false
      ? await pressFacts(context, place.element, place.windowId)
      : undefined;
  // Typed text is judged up to its first Tab or line break: what follows lands where that key
  // leaves the focus, and is judged there as it is typed (pieces.ts).
  const judge = (text: string | undefined) =>
    keyEffect(context, {
      windowId: keysGoTo,
      ...(input.chord ? { chord: input.chord } : {}),
      ...(text !== undefined ? { text } : {}),
      ...(focused ? { focused, focusedHandle: place?.handle } : {}),
    });
  // A single-line field may move the focus by itself as it fills: its spaces and line breaks are
  // sent once the focus is seen still there (pieces.ts).
  const field =
    /[\n\r ]/.test(input.text?.slice(1) ?? "") && (await typedIntoField(context, place, keysGoTo));
  let firstEnd = input.text === undefined ? 0 : pieceEnd(input.text, 0, false);
  let effect = await judge(input.text?.slice(0, firstEnd));
  if (input.text !== undefined && effect.focusPresses) {
    // A space presses the focused button, which may move the focus: the first piece ends there too.
    firstEnd = pieceEnd(input.text, 0, true);
    effect = await judge(input.text.slice(0, firstEnd));
  }
  if (input.text && effect.keysInMenus && firstEnd > firstCharacter(input.text)) {
    // In the menus a letter opens a menu or presses an item, and the next lands in what it opened:
    // the first piece is one character.
    firstEnd = firstCharacter(input.text);
    effect = await judge(input.text.slice(0, firstEnd));
  }
  if (input.chord) {
    // The element the keys reach: the ref's (focused first), else the focused one.
    const reached = place?.handle ?? effect.focusedHandle;
    await movingKeySets(context, effect, input.chord, { count: input.count ?? 1, reached }, keysGoTo);
  }
  if (input.chord && (input.count ?? 1) > 1) repeatedPress(effect, input.chord);
  const typedInto =
    input.typing || input.text !== undefined
      ? await typesIntoPassword(context, place, keysGoTo, effect.focusedRoles)
      : undefined;
  return {
    ...(typedInto !== undefined ? { password: typedInto.password } : {}),
    intent: input.intent,
    reversible: input.reversible,
    place,
    windowId,
    ensureFocus: input.ensure_focus,
    presses: effect.presses,
    pressedVia: effect.via,
    focusedBefore: effect.focusedHandles,
    /** The element the keys reach: the ref's, else the focused one. */
    reaches: place?.handle ?? effect.focusedHandle ?? typedInto?.focused,
    /** Where no element reports the focus: the window's text fields as they were (unfocused.ts). */
    unfocused: typedInto?.unfocused,
    includeChanges: input.include_changes ?? false,
    changesWindow: keysGoTo,
    firstEnd,
    movesItself: field,
    keysInMenus: effect.keysInMenus ?? false,
  };
}

/** Whether typed text goes into a single-line field (the ref's, else the focused one), which may move the focus. */
async function typedIntoField(
  context: ToolContext,
  place: ResolvedPlace | undefined,
  windowId: number | undefined,
): Promise<boolean> {
  if (place?.element) return movesItself(place.element);
  if (windowId === undefined) return false;
  const { focused } = await focusedElements(context, windowId).catch(() => ({ focused: [] as RawNode[] }));
  return movesItself(focused.at(-1));
}

/**
 * Enter or space pressed more than once, or a letter where the menus hold the keyboard: each press
 * after the first lands where the one before left the focus (a dialog it opened, the menu a mnemonic
 * opened), which cannot be read before the keys go. Only a text of many lines keeps the focus for
 * sure (Enter types a line break there).
 */
function repeatedPress(effect: KeyEffect, chord: Chord): void {
  const { enter, space } = activates(chord, undefined);
  const letterInMenus =
    effect.keysInMenus &&
    chord.key?.kind === "char" &&
    chord.modifiers.every((m) => m === "shift" || m === "alt");
  const pressesSomething = (enter || space) && (effect.presses.length > 0 || effect.focusPresses);
  if (!letterInMenus && !pressesSomething) return;
  effect.presses.push({
    unreadable: `the presses after the first ${chordText(chord)} land where the first leaves the focus, which cannot be read before they go; press it once, then again`,
  });
  effect.via.push("a repeated press");
}

/**
 * Whether typed text goes into a password field: the ref's own role, else the focused element's (any
 * that reports the focus: Qt leaves it on some it has left). A focus that cannot be read counts as
 * a password field, as the recorder counts it: its text is kept out like a password. With it, the
 * focused element the keys reach, where this read found it.
 */
async function typesIntoPassword(
  context: ToolContext,
  place: ResolvedPlace | undefined,
  windowId: number | undefined,
  focusedRoles: string[] | undefined,
): Promise<{ password: boolean; focused?: string | undefined; unfocused?: FieldTexts | undefined }> {
  if (place?.element) return { password: place.element.role === PASSWORD_ROLE };
  if (windowId === undefined) return { password: true };
  if (focusedRoles) return { password: focusedRoles.length === 0 || focusedRoles.includes(PASSWORD_ROLE) };
  const found = await focusedElements(context, windowId).catch(() => undefined);
  const roles = found?.focused.map((n) => n.role) ?? [];
  // No focus reported: where the text goes is found afterwards by the field it changed.
  const unfocused =
    found && roles.length === 0 ? await fieldTextsBefore(context, found.read, windowId) : undefined;
  return {
    password: roles.length === 0 || roles.includes(PASSWORD_ROLE),
    focused: found?.focused.at(-1)?.handle,
    ...(unfocused ? { unfocused } : {}),
  };
}

export const chordSchema = z
  .string()
  .min(1)
  .max(100)
  .superRefine((chord, ctx) => {
    try {
      parseChord(chord);
    } catch (error) {
      ctx.addIssue({ code: "custom", message: (error as Error).message });
    }
  })
  .describe('"Enter", "ctrl+shift+p", "alt+F4", "a"');

const typeTextInput = z
  .object({
    text: typedTextSchema,
    ...elementShape,
    ref: refSchema.optional().describe("Field (default: the focus)"),
    clear: z.boolean().default(false),
    intent: intentSchema,
    reversible: reversibleSchema.default(true),
    ...windowShape,
    settleMs: z.number().int().min(0).max(5000).default(150),
  })
  .refine(...elementRule);

export const typeTextTool = defineInputTool({
  name: "type_text",
  typedValues: "text",
  group: "hands",
  title: "Type text",
  description:
    "Type with the real keyboard into the focused field or a ref (at its end; in a focused multi-line text, at the caret). A newline or space that would press a committing button needs a person.",
  level: "L2",
  highest: "L3",
  annotations: INPUT,
  opens: "text",
  input: typeTextInput,
  plan: (context, input) => typeTextPlan(context, input),
});

/**
 * Without a ref the text went to the focused element: it is found and read back, so the reply says
 * where the text went and whether it shows there (`contains`), which an empty name never could.
 */
async function focusedReadBack(
  context: ToolContext,
  windowId: number | undefined,
  text: string,
  settleMs: number,
  unfocused?: FieldTexts,
): Promise<Record<string, unknown>> {
  if (windowId === undefined) return {};
  await sleep(settleMs);
  try {
    const backend = await context.backend();
    // A key in them pressed one of its buttons, or its app closed it: the keys after went elsewhere.
    const window = await listedWindow(context, windowId);
    if (window === null)
      return {
        read_back: "unreadable",
        read_back_reason:
          "the window the keys went to closed while they were typed (a key in them may have pressed one of its buttons), so where the rest went is not known: read the window now in front before typing again",
      };
    // A trailing line break is Enter as much as text: a single-line field keeps none of it.
    const kept = text.replace(/[\r\n]+$/, "");
    if (kept === "")
      return {
        read_back: "unreadable",
        read_back_reason:
          "only line breaks were typed: they are Enter, a key, and leave no text to read back",
      };
    const read = await readWhole(context, windowId).catch(() => undefined);
    const focused = read ? everyFocused(read.nodes) : [];
    const took =
      focused.length === 0 && unfocused ? await fieldThatTook(context, unfocused, kept) : undefined;
    if (took) {
      const typed = { readable: [took], kept, windowId, title: window?.title };
      return { ...(await readBackIn(context, typed)), focus_unreported: true };
    }
    if (focused.length === 0)
      return {
        read_back: "unreadable",
        read_back_reason: read
          ? "no element there reports the keyboard focus, so nothing reads the text back"
          : "the window's tree could not be read",
      };
    // A spreadsheet moves from cell to cell on Tab and Enter: the text is in several cells.
    const table = focused.find((n) => n.role === "table" || n.role === "tree table");
    if (/[\t\n\r]/.test(text) && table)
      return (read && (await cellsTyped(context, read, table, text))) || { read_back: "across cells" };
    // A word processor leaves the focus in the new paragraph a trailing line break made: the text
    // is in the one before it (Writer's), read as well.
    const before = /[\r\n]$/.test(text) && read ? focused.map((n) => paragraphBefore(read.root, n)) : [];
    const described = await Promise.all(
      [...focused, ...before.filter((n): n is RawNode => n !== undefined)].map((n) =>
        backend.describe(n.handle, { maxText: 10_000, windowId }).catch(() => undefined),
      ),
    );
    return await readBackIn(context, {
      readable: described.filter((n): n is RawNode => n !== undefined),
      kept,
      windowId,
      title: window?.title,
    });
  } catch {
    return { read_back: "unreadable" };
  }
}

/**
 * The ref typed into, re-read: a sheet's table whose text went through its cells (Tab, line
 * breaks) is read by the cells it went to, as where the keys went to the focus (cellsTyped).
 */
async function placeReadBack(
  context: ToolContext,
  place: ResolvedPlace,
  text: string,
  settleMs: number,
): Promise<Record<string, unknown>> {
  const handle = place.element?.handle ?? place.handle;
  const table = place.element && TABLE_ROLES.has(place.element.role) && handle ? { handle } : undefined;
  if (!table || place.windowId === undefined || !/[\t\n\r]/.test(text))
    return readBack(context, place, settleMs);
  await sleep(settleMs);
  const read = await readWhole(context, place.windowId).catch(() => undefined);
  const cells = read && (await cellsTyped(context, read, table, text).catch(() => undefined));
  return cells ?? readBack(context, place, 0);
}

/** The sibling just before a focused paragraph, where its text went before a line break ended it. */
function paragraphBefore(root: RawNode, node: RawNode): RawNode | undefined {
  if (node.role !== "paragraph") return undefined;
  const parent = pathTo(root, node).at(-2);
  const at = parent?.children.indexOf(node) ?? -1;
  const previous = at > 0 ? parent!.children[at - 1] : undefined;
  return previous?.role === "paragraph" || previous?.role === "heading" ? previous : undefined;
}

/** What the focused elements show of the typed text, read again until it shows or time is up. */
async function readBackIn(
  context: ToolContext,
  typed: { readable: RawNode[]; kept: string; windowId: number; title: string | undefined },
): Promise<Record<string, unknown>> {
  const { readable, kept, windowId } = typed;
  const backend = await context.backend();
  const shownIn = (n: RawNode) => (n.role === PASSWORD_ROLE ? undefined : (n.value ?? n.text));
  // Several can report the focus (a page tab keeps it beside the find field the keys went to): the
  // text went where it shows; else where typed text goes (typedInto).
  // A word processor puts each line in a paragraph of its own, and the focus in the last one.
  const lastLine = /[\n\r]/.test(kept) ? kept.split(/\r\n|[\r\n]/).at(-1) : undefined;
  let now =
    readable.find((n) => shownIn(n)?.includes(kept)) ??
    (lastLine ? readable.find((n) => shownIn(n)?.includes(lastLine)) : undefined) ??
    typedInto(readable);
  if (!now) return { read_back: "unreadable", read_back_reason: "the focused element could not be read" };
  // The lines before the last went elsewhere only where the element holds one line: one that holds
  // them all shows what became of them (Geany's auto-indent).
  const judged = (shown: string | undefined) =>
    shown === undefined
      ? "unreadable"
      : shown.includes(kept)
        ? "contains"
        : addedIndent(shown, kept)
          ? "indented"
          : lastLine && shown.includes(lastLine) && !/[\n\r]/u.test(shown)
            ? "last line"
            : "differs";
  // A loaded app may still be taking the keys: "differs" is said only once it has had time.
  const deadline = Date.now() + FOCUSED_SHOWN_WITHIN_MS;
  while (judged(shownIn(now)) === "differs" && Date.now() < deadline) {
    await sleep(100);
    now = (await backend.describe(now.handle, { maxText: 10_000, windowId }).catch(() => undefined)) ?? now;
  }
  const shown = shownIn(now);
  const readBack = judged(shown);
  const state = elementState(now);
  const into = {
    role: state.role,
    name: state.name,
    ...(state.value !== undefined ? { value: state.value } : {}),
    // No ref was given: the reply names the window the keys went to, which may not be the one meant.
    ...(typed.title ? { window: typed.title } : {}),
  };
  // A text that takes no typing (a help page, a label): the keys went there, and were not lost.
  if (readBack === "differs" && !now.states?.includes("editable"))
    return {
      typed_into: into,
      read_back: "unreadable",
      read_back_reason: `the focused ${state.role} is read-only: it takes no typed text, so the keys went to it and changed nothing there; give type_text the ref of the field meant`,
    };
  const lost = readBack === "differs" ? lostOf(shown!, kept) : undefined;
  const indent = readBack === "indented" ? addedIndent(shown!, kept) : undefined;
  return {
    typed_into: into,
    read_back: readBack,
    ...(indent ? { read_back_indent_added: indent } : {}),
    ...(readBack === "unreadable"
      ? {
          read_back_reason:
            now.role === PASSWORD_ROLE
              ? "a password field is never read back"
              : now.states?.includes("editable")
                ? `the focused ${state.role} has no text to read back`
                : state.name
                  ? `the focused ${state.role} has no text to read back; its name reads ${JSON.stringify(state.name)} now (a display shows its result so)`
                  : `the focused ${state.role} says it is not editable and has no text: what the keys did there cannot be read back`,
        }
      : {}),
    ...(lost ? { lost } : {}),
  };
}

/** How long the focused element is read again before it is said not to hold what was typed. */
const FOCUSED_SHOWN_WITHIN_MS = 5_000;

/**
 * type_text's plan, also fill_form's typed route: `otherSecrets` are the call's other values, kept
 * out of this journal line too.
 */
export async function typeTextPlan(
  context: ToolContext,
  input: z.output<typeof typeTextInput>,
  otherSecrets: Secret[] = [],
): Promise<InputPlan> {
  const {
    place,
    firstEnd,
    movesItself: field,
    keysInMenus,
    reaches,
    unfocused,
    ...target
  } = await keyboardTarget(context, input);
  const secrets: Secret[] = [{ text: input.text, password: place?.element?.role === PASSWORD_ROLE }];
  return {
    ...target,
    place,
    approach: clicksToFocus(place),
    secret: input.text,
    typed: true,
    otherSecrets,
    journalOutcome: typedOutcome,
    verdict: (r) => typedVerdict(r, place),
    async execute(h, acting) {
      // The focus, the caret and the typing go as one: another deskhand's click in between would
      // send this text into its field.
      const { focused, start, remapped, written, pressed, started, shown, pixels, face } = await h.exclusive(
        async () => {
          const focused = place ? await focusPlace(context, h, acting, place, input.clear) : undefined;
          // An element with no text to read back shows what it took only in its pixels.
          const pixels = await pixelsBefore(context, place, input.text);
          const face = await fieldFaceBefore(context, reaches, target.changesWindow);
          // A document that had the focus is typed into at its caret; any other field at its end.
          const kept = focused === "already focused" ? await caretWhereItIs(context, place) : undefined;
          const start = input.clear
            ? await emptied(context, h, place)
            : (kept ?? (await caretAtEnd(context, h, acting, place)));
          const started = Date.now();
          const { remapped, written, pressed } = await typeInPieces(context, h, acting, {
            text: input.text,
            firstEnd,
            movesItself: field,
            inMenus: keysInMenus,
            paced: !(await takesText(context, place?.element, reaches)),
            tool: "type_text",
            intent: input.intent,
            reversible: input.reversible,
            secrets: [...secrets, ...otherSecrets],
          });
          // The lock is held until the field shows the text (or 10 s pass): remapped keys become
          // characters when the app reads them, with the keymap of that moment, and another deskhand
          // remapping the same keycodes before then would change what arrives.
          const shown = await untilShown(context, place, input.text, start);
          return { focused, start, remapped, written, pressed, started, shown, pixels, face };
        },
      );
      const result = {
        characters: [...input.text].length,
        ...(focused ? { focused_by: focused } : {}),
        cleared: input.clear,
        ...(start && !input.clear ? { caret: start.how } : {}),
        remapped_keys: remapped,
        ...(written ? { written_as_text: written } : {}),
        ...(pressed.length > 0 ? { keys_pressed: pressed } : {}),
        typing_ms: Date.now() - started,
        ...shown,
        ...(place
          ? await placeReadBack(context, place, input.text, shown ? 0 : input.settleMs)
          : await focusedReadBack(context, target.changesWindow, input.text, input.settleMs, unfocused)),
      };
      const colours = face ? await fieldFaceChange(context, face) : undefined;
      const seen: Record<string, unknown> = colours ? { ...result, field_colours: colours } : result;
      if (!pixels || typedVerdict(result, place)?.status !== "unverified") return seen;
      const read = await readBackFromPixels(context, pixels, input.text);
      return read.shown ? { ...seen, read_back: "from pixels" } : { ...seen, read_back_pixels: read.why };
    },
    describe: (r) => `${typedDescription(r, input, place)}${pressedWords(r)}${coloursWords(r)}`,
  };
}

/** What a Tab's focus and the keys after it pressed, as the reply says it: the text went elsewhere too. */
const pressedWords = (r: Record<string, unknown>) =>
  Array.isArray(r.keys_pressed)
    ? `; its keys also pressed what had the focus (${r.keys_pressed.join("; ")})`
    : "";

/** type_text's journal outcome: the difference quotes the field, typed text and all, so only the reply has it. */
const typedOutcome = ({ read_back_differs: _differs, lost, ...outcome }: Record<string, unknown>) => ({
  ...outcome,
  ...(lost ? { lost_characters: (lost as Lost).characters } : {}),
});

/** type_text's reply line: what was typed where, and what its read-back found. */
function typedDescription(
  r: Record<string, unknown>,
  input: { text: string; clear: boolean },
  place: ResolvedPlace | undefined,
): string {
  const into = r.typed_into as { role: string; name: string | null; window?: string } | undefined;
  // A field that reports no focus was found by its text, which changed to hold what was typed.
  const found = r.focus_unreported
    ? " (it reports no keyboard focus: found by its text, changed by the keys)"
    : "";
  const where = into
    ? ` into the ${found ? "" : "focused "}${into.role}${into.name ? ` ${JSON.stringify(into.name)}` : ""}${found}${into.window ? ` of window ${JSON.stringify(into.window)}` : ""}`
    : "";
  const asText = r.written_as_text
    ? ` (${r.written_as_text} outside the keymap written into its text, not keyed)`
    : "";
  const verdict = typedVerdict(r, place);
  if (verdict?.status === "unverified") return `${r.characters} character(s) sent as keys${where}${asText}`;
  const caret = typeof r.caret === "string" ? r.caret : undefined;
  const at = caret?.startsWith(AT_CARET) ? ` ${caret}` : caret ? " at the end of its text" : "";
  if (verdict) return `typed ${r.characters} character(s)${where}${at}${asText}`;
  const unsure = arrivalUnsure(r, input.text, input.clear);
  if (unsure) return `sent ${r.characters} character(s) as keys${where}, but ${unsure}`;
  return `typed ${r.characters} character(s)${where}${at}${input.clear ? " after clearing" : ""}${asText}${readBackWords(r)}`;
}

/** What the read-back found, as the reply ends: "; the field reads back…", or the sheet's cells read. */
function readBackWords(r: Record<string, unknown>): string {
  const differs = r.read_back_differs
    ? `: ${String(r.read_back_differs)}`
    : r.read_back_indent_added
      ? ` (${String(r.read_back_indent_added)} spaces or tabs not typed)`
      : "";
  if (r.read_back_cells)
    return `; across the sheet's cells, which read ${r.read_back === "exact" ? "as typed" : `differently${differs}`}: ${String(r.read_back_cells)}`;
  return r.read_back
    ? `; ${READ_BACK_WORDS[String(r.read_back)] ?? `reads back ${String(r.read_back)}`}${differs}`
    : "";
}

/** Cells: typed into an editor of their own, their text read once committed, not as it is typed. */
const EDITED_APART = new Set(["table cell", "cell"]);

/**
 * What typed text's read-back makes of the reply: typed characters the field does not hold are an
 * error naming them; where nothing can read the text back (no Text interface: a canvas, a terminal
 * with no tree, a password field, an app gone), "typed, not verified". Undefined: done.
 */
function typedVerdict(r: Record<string, unknown>, place: ResolvedPlace | undefined): Verdict | undefined {
  const lost = r.lost as Lost | undefined;
  if (lost) {
    const of = `${lost.characters} of ${String(r.characters)} typed character(s)`;
    return {
      status: "error",
      lead: "error",
      note: `but ${of} did not arrive${lost.text !== undefined ? `: ${JSON.stringify(lost.text)} (typed at ${lost.typed_at})` : " (a password field: which cannot be read)"}${lost.instead && r.read_back_differs ? `; ${String(r.read_back_differs)}` : ""}`,
      reason: `${of} did not arrive (read back from the field)`,
    };
  }
  const unverified = (why: string): Verdict => ({
    status: "unverified",
    lead: "typed, not verified",
    note: why,
  });
  const after = r.after as { role?: string; value?: string } | null | undefined;
  if (after === null) {
    const why = (r.unread as string[] | undefined)?.[0];
    return unverified(
      `the field cannot be re-read now${why ? ` (${why})` : ""}: how many arrived is unknown; its window closed (a line break that pressed its default button) or its app stopped: the windows below say which`,
    );
  }
  const pixels = r.read_back_pixels ? `; ${String(r.read_back_pixels)}` : "";
  if (r.read_back === "unreadable")
    return unverified(`${String(r.read_back_reason ?? "it could not be read back")}${pixels}`);
  if (r.read_back !== undefined) return undefined;
  if (!place) return unverified("no window has the keyboard focus that deskhand can read");
  // A cell takes typed text into an editor of its own, seen once committed (read_table reads it).
  if (after && after.value === undefined && !EDITED_APART.has(after.role ?? ""))
    return unverified(`the ${after.role ?? "element"} has no text to read back${pixels}`);
  return undefined;
}

/**
 * Why "typed N" would claim too much: the field re-read after typing is gone (its app stopped or
 * crashed mid-way: the keys were sent, what arrived is unknown) or shows less than was typed after a
 * clear (then how much of the text it holds). Undefined when the field shows the text.
 */
function arrivalUnsure(r: Record<string, unknown>, text: string, cleared: boolean): string | undefined {
  const after = r.after as { value?: string } | null | undefined;
  if (after === null) {
    const why = (r.unread as string[] | undefined)?.[0];
    return `the field cannot be re-read now${why ? ` (${why})` : ""}: how many arrived is unknown; its window closed (a line break that pressed its default button) or its app stopped: the windows below say which`;
  }
  // The receipt's value is cut at RECEIPT_TEXT: a longer one cannot be counted from it.
  if (r.read_back !== "differs" || !cleared || typeof after?.value !== "string") return undefined;
  if ([...after.value].length >= RECEIPT_TEXT) return undefined;
  const shown = [...after.value];
  const wanted = [...text];
  let same = 0;
  while (same < shown.length && same < wanted.length && shown[same] === wanted[same]) same++;
  return `the field re-read holds ${same} of them as typed (${shown.length} character(s) in all)`;
}

/**
 * Where the keyboard focus went, when a key moved it within the window (Tab, an arrow in a group, a
 * chord that opens a bar): the element that reports it now and did not when the key was judged. Qt
 * leaves the focus state on elements it has left, so only one that gained it is named; when none
 * did, or several, nothing is claimed.
 */
async function focusMoved(
  context: ToolContext,
  windowId: number | undefined,
  before: string[] | undefined,
  settleMs: number,
  sentAt: number,
): Promise<{ focus_now?: { role: string; name: string | null; label?: string } }> {
  if (windowId === undefined || before === undefined) return {};
  // The settle counts from the keys: the checks made after them may have spent it.
  await sleep(Math.max(0, settleMs - (Date.now() - sentAt)));
  const had = new Set(before);
  const now = await focusedElements(context, windowId).catch(() => undefined);
  if (!now?.complete) return {};
  const gained = now.focused.filter((n) => !had.has(n.handle));
  // A control and its part may both gain it (Qt's combo box and its entry): the innermost is named.
  const inner = gained.at(-1);
  if (!inner || !gained.every((n) => n === inner || holds(n, inner))) return {};
  // Unnamed, it is told by the label a person reads beside it ("Find:" beside Kate's find field).
  const backend = await context.backend();
  const label = inner.name
    ? undefined
    : await labelBeside(backend, now.read.root, inner, windowId, LABEL_WITHIN_MS).catch(() => undefined);
  return { focus_now: { role: inner.role, name: inner.name ?? null, ...(label ? { label } : {}) } };
}

/** How long the label beside a newly focused field may take to place. */
const LABEL_WITHIN_MS = 500;

/** Whether `outer` holds `node` somewhere below it. */
function holds(outer: RawNode, node: RawNode): boolean {
  return outer.children.some((child) => child === node || holds(child, node));
}

export const keyTool = defineInputTool({
  name: "key",
  group: "hands",
  title: "Press a key or chord",
  description:
    "Press a key or chord (Enter, ctrl+s, alt+F4). What it presses is judged; what commits needs a person.",
  level: "L2",
  highest: "L3",
  annotations: INPUT,
  opens: "chord",
  input: z
    .object({
      key: chordSchema,
      modifiers: modifiersSchema,
      count: z.number().int().min(1).max(100).default(1),
      ref: refSchema.optional(),
      find: elementShape.find,
      focus: z.boolean().default(true).describe("Focus the ref first"),
      intent: intentSchema,
      reversible: reversibleSchema.default(true),
      ...windowShape,
      settleMs: z.number().int().min(0).max(5000).default(150),
    })
    .refine(...elementRule),
  async plan(context, input) {
    const chord = parseChord(input.key, input.modifiers);
    // A printable key pressed alone types its character: the journal keeps it out like typed text
    // (a password typed one key at a time), and says only "a printable key".
    const printable = chord.key?.kind === "char" && chord.modifiers.every((m) => m === "shift");
    const {
      place,
      firstEnd: _firstEnd,
      movesItself: _field,
      keysInMenus: _inMenus,
      reaches,
      ...target
    } = await keyboardTarget(context, {
      ...input,
      chord,
      typing: printable,
    });
    // A menu title the chord opens (a mnemonic): the reply says whether its menu showed.
    const opens = target.presses.find((p) => (p as { opensMenu?: boolean }).opensMenu) as
      | { name?: string | null }
      | undefined;
    const menuWindow = opens && input.count === 1 ? target.changesWindow : undefined;
    const typedChar = printable ? charactersOf(chord, input.count) : undefined;
    // A printable key pressed again where no text takes it goes as a person's would (pieces.ts).
    const paced =
      typedChar !== undefined && input.count > 1 && !(await takesText(context, place?.element, reaches));
    return {
      ...target,
      place,
      approach: input.focus && clicksToFocus(place),
      chord,
      ...(typedChar !== undefined
        ? {
            secret: typedChar,
            typed: true,
            journalOutcome: (outcome: Record<string, unknown>) => ({ ...outcome, key: "a printable key" }),
          }
        : {}),
      ...(menuWindow !== undefined ? { verdict: menuVerdict(opens?.name) } : {}),
      async execute(h, acting) {
        const menuBefore = menuWindow !== undefined ? await menuOpen(context, menuWindow) : undefined;
        const { focused, face } = await h.exclusive(async () => {
          const focused = place && input.focus ? await focusPlace(context, h, acting, place) : undefined;
          // GTK 3 selects an entry's whole text when it takes the accessibility focus, and Backspace
          // then took it all: the caret goes to the end, where a click past the text puts it.
          if (focused === "accessibility focus") await caretAtEnd(context, h, acting, place);
          if (focused) await sleep(50);
          const face = await fieldFaceBefore(context, reaches, target.changesWindow);
          await pressTimes(h, chord, input.count, paced);
          return { focused, face };
        });
        const sentAt = Date.now();
        const after = await readBack(context, place, input.settleMs);
        const colours = face ? await fieldFaceChange(context, face) : undefined;
        // Checked only where no menu was open before: then the chord may close one.
        const opened =
          menuBefore === false && menuWindow !== undefined ? await menuShows(context, menuWindow) : undefined;
        return {
          key: chordText(chord),
          count: input.count,
          ...(opened !== undefined ? { menu_opened: opened } : {}),
          ...(focused ? { focused_by: focused } : {}),
          ...after,
          ...(colours ? { field_colours: colours } : {}),
          ...(await focusMoved(
            context,
            target.changesWindow,
            target.focusedBefore,
            place ? 0 : input.settleMs,
            sentAt,
          )),
        };
      },
      describe: (r) => pressedDescription(r, input.count),
    };
  },
});

/** key's reply line: the chord, and where the focus went and what the field's pixels showed. */
function pressedDescription(r: Record<string, unknown>, count: number): string {
  const moved = r.focus_now as { role: string; name: string | null; label?: string } | undefined;
  const named = moved?.name
    ? ` ${JSON.stringify(moved.name)}`
    : moved?.label
      ? ` ~${JSON.stringify(moved.label)}`
      : "";
  const now = moved ? `; the focus is now on ${moved.role}${named}` : "";
  return `pressed ${r.key}${count > 1 ? ` ×${count}` : ""}${now}${coloursWords(r)}`;
}

/** A field's colours changed by the keys, which only its pixels show: "; its pixels show…". */
function coloursWords(r: Record<string, unknown>): string {
  return r.field_colours
    ? `; the field's pixels show what its tree does not: ${String(r.field_colours)}`
    : "";
}

/** A chord pressed `count` times; paced, KEY_AGAIN_MS apart, as a person's finger presses again. */
async function pressTimes(
  h: Pick<Hands, "chord">,
  chord: Chord,
  count: number,
  paced: boolean,
): Promise<void> {
  if (!paced) return h.chord(chord, count);
  for (let press = 0; press < count; press++) {
    if (press > 0) await sleep(KEY_AGAIN_MS);
    await h.chord(chord, 1);
  }
}

/** The characters a printable key pressed `count` times types (shift gives its capital). */
function charactersOf(chord: Chord, count: number): string | undefined {
  if (chord.key?.kind !== "char") return undefined;
  return (chord.modifiers.includes("shift") ? chord.key.char.toUpperCase() : chord.key.char).repeat(count);
}

/** A chord that opens a menu is not verified where the menu did not show. */
const menuVerdict =
  (name: string | null | undefined) =>
  (r: Record<string, unknown>): Verdict | undefined =>
    r.menu_opened === false
      ? {
          status: "unverified",
          lead: "pressed, not verified",
          note: `the menu it opens${name ? ` (${JSON.stringify(name)})` : ""} did not show within ${MENU_SHOWS_WITHIN_MS / 1000} s`,
        }
      : undefined;

/** How long a menu a chord opens is given to show, on a loaded machine too. */
const MENU_SHOWS_WITHIN_MS = 3000;

/** Whether a menu shows in the window within MENU_SHOWS_WITHIN_MS; undefined where that cannot be seen. */
async function menuShows(context: ToolContext, windowId: number): Promise<boolean | undefined> {
  const deadline = Date.now() + MENU_SHOWS_WITHIN_MS;
  for (;;) {
    const open = await menuOpen(context, windowId);
    if (open !== false || Date.now() > deadline) return open;
    await sleep(100);
  }
}

/**
 * A moving key on a focused value control or list sets its value or chooses an option (End on a
 * slider "Slide to pay", Down on a <select>): what it sets joins what the key presses, judged by its
 * words. The focused element is read again by its handle, a read.
 */
async function movingKeySets(
  context: ToolContext,
  effect: KeyEffect,
  chord: Chord,
  { count, reached }: { count: number; reached: string | undefined },
  windowId: number | undefined,
): Promise<void> {
  const key = chord.key;
  if (key?.kind !== "named" || chord.modifiers.length > 0 || !reached) return;
  const backend = await context.backend();
  const node = await backend
    .describe(reached, { maxText: 0, ...(windowId === undefined ? {} : { windowId }) })
    .catch(() => undefined);
  if (!node) return;
  const element = { ...node, handle: reached };
  for (const set of (await keyedFacts(context, element, { name: key.name, count }, windowId)) ?? []) {
    effect.presses.push(set);
    effect.via.push(`what ${key.name} sets on the focused ${node.role}`);
  }
}
