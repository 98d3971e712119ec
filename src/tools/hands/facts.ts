// What the gate judges a press by, read from the app just before the input goes: the element's own
// facts, its window's role and modality, whether a dialog holds input, and, for keys, what they will
// activate (the focused element, the default button, the element whose key binding the chord is).
// A read that fails or comes back incomplete is reported as such: the gate then assumes the worst.

import { isShown, reportsShowing } from "../../core/flatten.js";
import { inferLabelsOf } from "../../core/labels.js";
import { everyNode } from "../../platform/nodes.js";
import {
  EDITABLE_ROLES,
  MENU_ITEM_ROLES,
  MENU_ITEMS,
  ONE_LINE_TEXT_ROLES,
  roleSet,
  TABLE_ROLES,
  TYPED_TEXT_ROLES,
} from "../../platform/roles.js";
import { PASSWORD_ROLE, type RawNode } from "../../platform/types.js";
import {
  acknowledgedMessage,
  BUTTON_ROLES,
  commitReason,
  DIALOG_ROLES,
  PRESSABLE_ROLES,
  type TargetFacts,
  type WindowQuestion,
  windowQuestions,
} from "../../safety/classify.js";
import { labelIs, matchLabel } from "../../safety/committing-words.js";
import { readLabel } from "../../safety/label-reading.js";
import { withoutNamedThings } from "../../safety/named-things.js";
import { labelWords, MNEMONIC_ONLY } from "../../safety/phrases.js";
import type { ToolContext } from "../context.js";
import { SETS_A_VALUE } from "./closing.js";
import { isFindBar, replaces, searches } from "./find-bar.js";
import { READ, readWhole, type WindowRead } from "./window-read.js";

export type WindowFacts = NonNullable<TargetFacts["window"]>;

/** The element with the keyboard focus: the deepest that reports it. */
export const focusedOf = (nodes: RawNode[]): RawNode | undefined => everyFocused(nodes).at(-1);

/** Every element that reports the focus: Qt leaves it on some it has left (Kate's status bar). */
export const everyFocused = (nodes: RawNode[]): RawNode[] =>
  nodes.filter((n) => n.states?.includes("focused"));

/** A field that takes typed text: an editable text role, editable now. */
export const takesText = (node: { role?: string | undefined; states?: string[] | undefined }) =>
  node.role !== undefined && EDITABLE_ROLES.has(node.role) && !!node.states?.includes("editable");

/** Where the keyboard is in the menus: a menu bar a person entered with alt or F10, or an open menu. */
const KEYBOARD_IN_MENUS = roleSet(
  "menu bar",
  "menu",
  "popup menu",
  "menu item",
  "check menu item",
  "radio menu item",
);

/**
 * Whether the keys go to the menus: an element of them reports the focus. There a letter is a key
 * (a title's or an item's mnemonic), and the letter after it lands in the menu the first opened.
 */
export const keysInMenus = (focused: RawNode[]): boolean =>
  focused.some((n) => KEYBOARD_IN_MENUS.has(n.role));

/**
 * Where typed text goes among the elements reporting the focus: the menus, where they have it (a
 * KWrite whose menu bar kept the keyboard after Escape took "ghi" as mnemonics); else a field that
 * takes text, as Qt reports the focus on every widget whose focus proxy has it (KWrite's status
 * bar buttons beside its document); else the last in tree order.
 */
export const typedInto = (focused: RawNode[]): RawNode | undefined =>
  (keysInMenus(focused) ? focused.filter((n) => KEYBOARD_IN_MENUS.has(n.role)).at(-1) : undefined) ??
  focused.filter(takesText).at(-1) ??
  focused.at(-1);

/**
 * Every element of a window on screen that reports the focus, in tree order, and whether the window
 * was read whole (a part not read may hold the focus).
 */
export async function focusedElements(
  context: ToolContext,
  windowId: number,
): Promise<{ focused: RawNode[]; complete: boolean; read: WindowRead }> {
  const read = await readWhole(context, windowId);
  const focused = everyFocused(read.nodes).filter(shownIn(read));
  return { focused, complete: read.complete, read };
}

/**
 * Whether an element of this read is on screen, by the one judgement the reader and find use
 * (flatten's isShown): GTK 4.8 reports no `showing`, and there `visible` and an area stand in.
 */
export function shownIn(read: WindowRead): (node: RawNode) => boolean {
  const showingKnown = reportsShowing(read.root);
  return (node) => isShown(node, showingKnown);
}

/**
 * Whether any editable field holds text. A password field is never read, so its presence counts as
 * input; a field that does not answer, or a window not read whole, leaves it unknown.
 */
async function holdsInput(
  context: ToolContext,
  read: WindowRead,
  windowId: number,
): Promise<boolean | undefined> {
  // A modeless dialog titled for searching ("Search", "Find and Replace") holds only what was typed
  // to search: closing loses nothing a person wrote.
  const modeless = !read.root.states?.includes("modal");
  const shown = shownIn(read);
  const fields = read.nodes.filter((n) => TYPED_TEXT_ROLES.has(n.role) && shown(n));
  const editable =
    modeless && searches(read.root.name) ? [] : fields.filter((n) => n.states?.includes("editable"));
  if (editable.some((n) => n.role === "password text")) return true;
  const backend = await context.backend();
  await backend.enrich(editable, {
    maxText: 1,
    actions: false,
    accessibleIds: false,
    timeoutMs: 1000,
    windowId,
  });
  const holding = editable.filter((n) => (n.textLength ?? 0) > 0);
  if (holding.length > 0 && !(modeless && (await searchTermsOnly(context, read, windowId, holding))))
    return true;
  if (!read.complete || editable.some((n) => n.unread.includes("text"))) return undefined;
  return false;
}

/** How long the labels beside a dialog's fields may take to place. */
const LABELS_WITHIN_MS = 800;

/**
 * Whether every field holding text holds a search's terms: it is named for searching, or for
 * replacing what a field beside it searches for (Pluma's "Substituir por:" beside "Pesquisar por:").
 * A field is named by its own name, the label beside it, or those of the combo box holding it. The
 * labels are placed from bounds; nothing is acted on.
 */
async function searchTermsOnly(
  context: ToolContext,
  read: WindowRead,
  windowId: number,
  holding: RawNode[],
): Promise<boolean> {
  const backend = await context.backend();
  await inferLabelsOf(backend, [{ node: read.root, windowId }], LABELS_WITHIN_MS).catch(() => undefined);
  const holders = new Map<RawNode, RawNode>();
  for (const node of read.nodes)
    if (node.role === "combo box") for (const child of node.children ?? []) holders.set(child, node);
  const labels = (n: RawNode) =>
    [n.name, n.inferredLabel, holders.get(n)?.inferredLabel, holders.get(n)?.description].filter(
      (l): l is string => !!l?.trim(),
    );
  const fields = read.nodes.filter((n) => TYPED_TEXT_ROLES.has(n.role));
  const searching = fields.some((f) => labels(f).some(searches));
  return holding.every((n) => labels(n).some((l) => searches(l) || (searching && replaces(l))));
}

/**
 * A window's role, states and its app's language. A modal top-level is a dialog, whatever its role
 * (GTK 4.8's file chooser says "filler").
 */
export function windowFacts({
  root,
  language,
  toolkit,
  catalogs,
}: {
  root: RawNode;
  language?: string | undefined;
  toolkit?: string | undefined;
  catalogs?: string[] | undefined;
}): WindowFacts {
  const modal = root.states?.includes("modal") && !DIALOG_ROLES.has(root.role);
  return {
    role: modal ? "dialog" : root.role,
    states: root.states,
    ...(language ? { language } : {}),
    ...(toolkit ? { toolkit } : {}),
    ...(catalogs?.length ? { catalogs } : {}),
    ...(root.name ? { title: root.name } : {}),
  };
}

/** Where a window holds a file chooser: its own role, or a chooser inside (GTK 4, Qt). */
const holdsChooser = (read: WindowRead) => read.nodes.some((n) => n.role === "file chooser");

const SHOWN_READ = { maxDepth: 2, tableRows: 0, walkTables: false, nodeCeiling: 24, timeoutMs: 800 };
// The unnamed children whose text is read, at most.
const SHOWN_CHILDREN = 8;

// A menu title's children are the menu it opens and its items: what the press opens, not what the
// title shows ("File" is not "Save/Restore Session").
const OPENED_ROLES = roleSet("menu", ...MENU_ITEMS, "popup menu");

export const MENU_ROLES = roleSet("menu", "popup menu");

/**
 * A menu title (Qt's menu bar item, a submenu's item): a menu item holding the menu its press opens;
 * a toggle button holding a menu or its items is a menu button (GTK 3's GtkMenuButton holds the
 * items), pressed to show them. A push button holding one is not: a split button ("Send ▾") runs its
 * command where the arrow is not.
 */
export const opensMenu = (node: RawNode): boolean =>
  MENU_ROLES.has(node.role) ||
  (node.role === "menu item" && node.children.some((c) => MENU_ROLES.has(c.role))) ||
  (node.role === "toggle button" &&
    node.children.length > 0 &&
    node.children.every((c) => MENU_ROLES.has(c.role) || MENU_ITEM_ROLES.has(c.role)));

/** The children a node shows itself through, at any depth: never the menu it opens. */
function shownChildren(node: RawNode): RawNode[] {
  return node.children
    .filter((child) => !OPENED_ROLES.has(child.role))
    .flatMap((child) => [child, ...shownChildren(child)]);
}

/** The texts a node's children show (a web button's text leaf, a GTK button's label). */
export function childTexts(node: RawNode): string[] {
  return shownChildren(node).flatMap((child) => [
    ...(child.name ? [child.name] : []),
    ...(child.text && child.text !== "\ufffc" ? [child.text] : []),
  ]);
}

/**
 * The text an element shows besides its name: its own text (a web button whose aria-label says one
 * thing and whose text another) and its children's. What cannot be read is left out: the name and
 * the structural rules still judge it.
 */
export async function shownTexts(
  context: ToolContext,
  handle: string,
  windowId: number | undefined,
): Promise<{ texts: string[]; opensMenu: boolean }> {
  const backend = await context.backend();
  const scope = windowId === undefined ? {} : { windowId };
  // Its own text is read through the Text interface, named or not (Chromium's button holds its
  // visible text there, with no child).
  const [own, inside] = await Promise.all([
    backend.readText(handle, 0, 200).catch(() => null),
    backend.readSubtree(handle, SHOWN_READ).catch(() => undefined),
  ]);
  const texts = inside ? childTexts(inside.root) : [];
  const text = own?.text?.replace(/\ufffc/g, "").trim();
  if (text) texts.unshift(text);
  // A child with no name shows its text through the Text interface (Chromium's static text).
  const unnamed = inside
    ? shownChildren(inside.root)
        .filter((child) => !child.name)
        .slice(0, SHOWN_CHILDREN)
    : [];
  const read = await Promise.all(
    unnamed.map((child) => backend.describe(child.handle, { maxText: 200, ...scope }).catch(() => undefined)),
  );
  for (const child of read) {
    const shown = child?.text?.replace(/\ufffc/g, "").trim();
    if (shown) texts.push(shown);
  }
  return { texts, opensMenu: !!inside && opensMenu(inside.root) };
}

/**
 * Whether a window only asks: no field on screen to type in or set (an entry, a spin button), so its
 * buttons answer what it says. A window not read whole leaves it unknown.
 */
function onlyAsks(read: WindowRead): boolean | undefined {
  const shown = shownIn(read);
  const fields = read.nodes.some(
    (n) => EDITABLE_ROLES.has(n.role) && n.states?.includes("editable") && shown(n),
  );
  if (fields) return false;
  return read.complete ? true : undefined;
}

/** What a person sets or chooses in a window: with one, its only button applies the choice. */
const CHOICE_ROLES_READ = roleSet(
  ...SETS_A_VALUE,
  "toggle button",
  "list",
  "list box",
  "tree",
  "tree table",
  "table",
);
/** A message's words. */
const MESSAGE_ROLES = roleSet("label", "static", "paragraph", "heading", "text");

/** A message's own options: "Do not show this message again" sets how the app warns, as a setting. */
const MESSAGE_OPTION_ROLES = roleSet("check box");
/** Options whose words say what a dialog's OK will do with them ("Also delete the thumbnails"). */
const OPTION_ROLES = roleSet("check box", "radio button", "toggle button");

/**
 * Whether a window is a message and nothing more: one button on screen, no field or choice but its
 * check boxes, and a text, theirs too, whose words commit nothing (acknowledgedMessage: "Also delete
 * the backups" asks). A window not read whole is unknown.
 */
function onlyAMessage(read: WindowRead, language: string | undefined): boolean | undefined {
  if (!read.complete) return undefined;
  const shown = read.nodes.filter(shownIn(read));
  if (shown.filter((n) => BUTTON_ROLES.has(n.role)).length !== 1) return false;
  const choice = (n: RawNode) => CHOICE_ROLES_READ.has(n.role) && !MESSAGE_OPTION_ROLES.has(n.role);
  if (shown.some((n) => choice(n) || n.states?.includes("editable"))) return false;
  const texts = shown
    .filter((n) => MESSAGE_ROLES.has(n.role) || MESSAGE_OPTION_ROLES.has(n.role))
    .map((n) => (n.name || n.text || "").trim())
    .filter(Boolean);
  return acknowledgedMessage(texts, language);
}

/**
 * Whether a dialog only asks (no field to fill) and its message says a committing word, or is in a
 * language deskhand cannot read (acknowledgedMessage). A window not read whole is unknown.
 */
function messageCommits(read: WindowRead, language: string | undefined): boolean | undefined {
  const asks = onlyAsks(read);
  if (asks !== true) return asks;
  const acknowledged = acknowledgedMessage(wordsShown(read, MESSAGE_ROLES), language);
  return acknowledged === undefined ? false : !acknowledged;
}

/**
 * Whether a window of fields or choices is titled for what it is for, and that commits nothing, in
 * its app's language (LibreOffice's "Text Import - [scores.csv]"; file names aside), and none of its
 * texts on screen says a committing word: its OK then does what the title says. A window not read
 * whole is unknown.
 */
function titledHarmless(read: WindowRead, language: string | undefined): boolean | undefined {
  if (!read.complete) return undefined;
  // A dialog with nothing to fill or choose only asks: its message says what OK does, not its title.
  const shown = read.nodes.filter(shownIn(read));
  if (!shown.some((n) => CHOICE_ROLES_READ.has(n.role) || n.states?.includes("editable"))) return false;
  const title = withoutNamedThings(read.root.name ?? "");
  if (!/\p{L}\p{L}/u.test(title)) return false;
  const words = matchLabel(title, undefined, language);
  if (!readLabel(title, { language }).harmless || words.asks || words.saves) return false;
  // Its options' own words too: a check box "Also delete the thumbnails" says what OK will do.
  const texts = wordsShown(read, MESSAGE_ROLES, OPTION_ROLES);
  return texts.length === 0 || acknowledgedMessage(texts, language) === true;
}

/** The texts a window shows in these roles, its fields' values and the labels naming a field aside. */
function wordsShown(read: WindowRead, ...roles: ReadonlySet<string>[]): string[] {
  return read.nodes
    .filter(shownIn(read))
    .filter((n) => roles.some((set) => set.has(n.role)) && !n.states?.includes("editable"))
    .map((n) => (n.name || n.text || "").trim())
    .filter((text) => text && !namesAField(text));
}

/**
 * A text that names a field beside it, not what OK does: one ending in a colon ("Decimal places:"),
 * or one word that is a noun as often as a committing verb ("Format", "Order" above a list).
 */
const namesAField = (text: string) => /:\s*$/u.test(text) || MNEMONIC_ONLY.has(labelWords(text).join(" "));

/** Whether any window of the app (by pid) shows a terminal: its paste warning's Paste runs commands. */
async function appShowsTerminal(context: ToolContext, windowId: number): Promise<boolean | undefined> {
  const backend = await context.backend();
  const windows = await backend.listWindows();
  const pid = windows.find((w) => w.id === windowId)?.pid;
  if (pid === undefined) return undefined;
  let unknown = false;
  for (const window of windows.filter((w) => w.pid === pid)) {
    try {
      const read = await readWhole(context, window.id);
      if (read.nodes.some((n) => n.role === "terminal")) return true;
      if (!read.complete) unknown = true;
    } catch {
      unknown = true;
    }
  }
  return unknown ? undefined : false;
}

/** Answers the window questions the rules asked, from one read of the window. */
export async function answer(
  context: ToolContext,
  facts: TargetFacts,
  questions: WindowQuestion[],
  windowId: number,
  known?: WindowRead,
): Promise<void> {
  if (questions.length === 0 || !facts.window) return;
  const read = known ?? (await readWhole(context, windowId));
  const window = { ...facts.window };
  if (questions.includes("holdsInput")) window.holdsInput = await holdsInput(context, read, windowId);
  if (questions.includes("chooser"))
    window.chooser = holdsChooser(read) || (read.complete ? false : undefined);
  if (questions.includes("terminalApp")) window.terminalApp = await appShowsTerminal(context, windowId);
  if (questions.includes("asks")) window.asks = onlyAsks(read);
  if (questions.includes("acknowledges")) window.acknowledges = onlyAMessage(read, window.language);
  if (questions.includes("titled")) window.titled = titledHarmless(read, window.language);
  if (questions.includes("messageCommits")) window.messageCommits = messageCommits(read, window.language);
  facts.window = window;
}

// How far up a button's containers are read: a column header holds its sort button directly, a
// find bar its Close beside its field.
const CONTAINERS_READ = 2;
const BAR_READ = { maxDepth: 5, tableRows: 0, walkTables: false, nodeCeiling: 60, timeoutMs: 800 };

/**
 * A button's containers, nearest first: their roles, and whether its bar (the tool bar holding it,
 * else the nearest container that is not its window) holds a field that searches (a find bar, whose
 * Close hides the bar and loses nothing; find-bar.ts says what makes one). Read only for a button
 * whose words close; everything here is a read.
 */
async function containers(
  context: ToolContext,
  handle: string,
  element: { role: string; name: string | undefined },
  windowId: number | undefined,
): Promise<Pick<TargetFacts, "inside" | "searchBar" | "besideDisabledSave" | "keypadKey">> {
  if (!BUTTON_ROLES.has(element.role)) return {};
  const backend = await context.backend();
  const ancestors = (await backend.ancestorsOf?.(handle, CONTAINERS_READ).catch(() => [])) ?? [];
  const inside = ancestors.map((a) => a.role);
  if (await onKeypad(context, element, ancestors)) return { inside, keypadKey: true };
  const toolBar = ancestors.find((a) => a.role === "tool bar");
  // A frame inside the window (a dock panel: FeatherPad's replace panel) is a bar; the window is not.
  const bar = toolBar ?? ancestors.find((a) => !a.topLevel);
  if (!bar || !element.name || !matchLabel(element.name).closes) return { inside };
  const read = await backend.readSubtree(bar.handle, BAR_READ).catch(() => undefined);
  const found = read && (await isFindBar(context, read.root, windowId ?? null));
  // Beside it a Save, and every Save there disabled: what the close would lose was saved.
  const saves = read
    ? everyNode(read.root).filter((n) => BUTTON_ROLES.has(n.role) && labelIs(n.name ?? "", "saves"))
    : [];
  const saved =
    saves.length > 0 &&
    saves.every((n) => !!n.states && !n.states.includes("enabled") && !n.states.includes("sensitive"));
  return { inside, ...(found ? { searchBar: true } : {}), ...(saved ? { besideDisabledSave: true } : {}) };
}

// A key's name on a keypad: a digit, a symbol or a few letters ("C", "AC", "M+", "x²", "sin").
const KEY_NAME = /^[^\s]{1,4}$/u;
// How far a keypad's container is read for its digits: a grid of keys, or rows of them.
const KEYPAD_READ = { maxDepth: 3, tableRows: 0, walkTables: false, nodeCeiling: 150, timeoutMs: 800 };

/**
 * Whether a button with a key's name sits on a keypad: a container of its (within two levels) holds
 * the ten digits, each a button of its own (a calculator's, a PIN pad's). Read only for such a name.
 */
async function onKeypad(
  context: ToolContext,
  element: { name: string | undefined },
  ancestors: { handle: string; topLevel?: true }[],
): Promise<boolean> {
  if (!KEY_NAME.test(element.name?.trim() ?? "")) return false;
  const backend = await context.backend();
  for (const container of ancestors.filter((a) => !a.topLevel)) {
    const read = await backend.readSubtree(container.handle, KEYPAD_READ).catch(() => undefined);
    const digits = new Set(
      (read ? everyNode(read.root) : [])
        .filter((n) => BUTTON_ROLES.has(n.role) && /^\d$/u.test(n.name?.trim() ?? ""))
        .map((n) => n.name!.trim()),
    );
    if (digits.size === 10) return true;
  }
  return false;
}

/**
 * Whether a push button says it is a toggle by its object attribute "pressed" (Firefox maps a page's
 * `aria-pressed` there, "true" or "false", and keeps the push button's role): its press sets a value
 * the user can set back, as a toggle button's does.
 */
async function pressedAttribute(context: ToolContext, handle: string, role: string): Promise<boolean> {
  if (role !== "push button") return false;
  const backend = await context.backend();
  const attributes = await backend.readAttributes?.(handle).catch(() => undefined);
  return ["true", "false", "mixed"].includes(attributes?.pressed ?? "");
}

/** Whether a cell sits in a table of two columns or more (its row is a record), read from the table. */
async function rowOfSeveral(context: ToolContext, handle: string): Promise<boolean> {
  const backend = await context.backend();
  const ancestors = (await backend.ancestorsOf?.(handle, 2).catch(() => [])) ?? [];
  const table = ancestors.find((a) => TABLE_ROLES.has(a.role));
  if (!table) return false;
  const read = await backend.readTable(table.handle, 0, 0, 0).catch(() => undefined);
  return (read?.columns ?? 0) >= 2;
}

// A dialog's filled fields named in a person's question, at most, and each text's length shown.
const FILLED_NAMED = 2;
const FILLED_TEXT = 60;

/**
 * A dialog's one-line fields that hold text, as 'Name: "note.txt"' (a save dialog's file name): what
 * a person confirming its press commits. A password field is never read.
 */
async function filledFields(
  context: ToolContext,
  read: WindowRead,
  windowId: number,
): Promise<{ label: string; text: string }[]> {
  const shown = shownIn(read);
  const fields = read.nodes.filter(
    (n) =>
      ONE_LINE_TEXT_ROLES.has(n.role) &&
      n.role !== PASSWORD_ROLE &&
      n.states?.includes("editable") &&
      !n.states.includes("multi line") &&
      shown(n),
  );
  const backend = await context.backend();
  await backend.enrich(fields, {
    maxText: FILLED_TEXT,
    actions: false,
    accessibleIds: false,
    timeoutMs: 1000,
    windowId,
  });
  return fields
    .filter((n) => n.text)
    .slice(0, FILLED_NAMED)
    .map((n) => ({
      label: (n.name || n.inferredLabel || n.role).replace(/\s*:\s*$/u, ""),
      text: (n.textLength ?? 0) > FILLED_TEXT ? `${n.text}…` : n.text!,
    }));
}

/**
 * The facts of an element about to be pressed: its window's role and states, and whether the window
 * holds input when the label's rule asks. A window that cannot be read leaves those unknown.
 */
export async function pressFacts(
  context: ToolContext,
  element: {
    role: string;
    name: string | undefined;
    states?: string[] | undefined;
    description?: string | undefined;
    handle?: string | undefined;
    opensMenu?: boolean | undefined;
    /** Where the words' language is read, for an element with no handle of its own (an option by its list). */
    languageFrom?: string | undefined;
  },
  windowId: number | undefined,
): Promise<TargetFacts> {
  const { handle, languageFrom: _, ...own } = element;
  const facts: TargetFacts = { ...own };
  if (handle && PRESSABLE_ROLES.has(element.role)) {
    const [shown, held, toggle] = await Promise.all([
      shownTexts(context, handle, windowId),
      containers(context, handle, element, windowId),
      pressedAttribute(context, handle, element.role),
    ]);
    if (toggle) facts.role = "toggle button";
    if (element.role === "table cell" && (await rowOfSeveral(context, handle))) facts.record = true;
    if (shown.texts.length > 0) facts.shown = shown.texts;
    if (shown.opensMenu) facts.opensMenu = true;
    Object.assign(facts, held);
  }
  if (windowId === undefined) return facts;
  const backend = await context.backend();
  try {
    const top = await backend.readWindow(windowId, { ...READ, maxDepth: 0, nodeCeiling: 1 });
    facts.window = windowFacts(top);
    // A page has no app's language: the element's own (its page's `lang`) reads its words.
    const declared = top.language
      ? undefined
      : await declaredLanguage(context, element.languageFrom ?? handle);
    if (declared) facts.window.language = declared;
    // One read of the window serves the rules' questions and the person's (what its fields hold).
    const questions = windowQuestions(facts);
    const whole = questions.length > 0 ? await readWhole(context, windowId) : undefined;
    await answer(context, facts, questions, windowId, whole);
    if (DIALOG_ROLES.has(facts.window.role ?? "") && commitReason(facts) !== undefined)
      facts.window = {
        ...facts.window,
        filled: await filledFields(context, whole ?? (await readWhole(context, windowId)), windowId),
      };
  } catch {
    // The window could not be read: the rules that need it assume the worst.
  }
  return facts;
}

/** The language an element's content declares, where its toolkit says it. */
async function declaredLanguage(
  context: ToolContext,
  handle: string | undefined,
): Promise<string | undefined> {
  if (!handle) return undefined;
  const backend = await context.backend();
  return backend.readLanguage?.(handle).catch(() => undefined);
}

/** Reading what keys an element answers to: its actions and their key bindings, nothing else. */
export const BINDINGS_READ = { maxText: 0, actions: true, accessibleIds: false, timeoutMs: 1500 };
