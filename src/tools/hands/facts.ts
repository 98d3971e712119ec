// What the gate judges a press by, read from the app just before the input goes: the element's own
// facts, its window's role and modality, whether a dialog holds input, and, for keys, what they will
// activate (the focused element, the default button, the element whose key binding the chord is).
// A read that fails or comes back incomplete is reported as such: the gate then assumes the worst.

import { isShown, reportsShowing } from "../../core/flatten.js";
import { placeholderOf } from "../../core/value.js";
import { bindingChords, type Chord, chordText, MOVING_KEYS, sameChord } from "../../platform/keys.js";
import type { AppBindings, RawNode } from "../../platform/types.js";
import {
  EDITABLE_ROLES,
  MENU_ITEM_ROLES,
  MENU_ITEMS,
  roleSet,
  TABLE_ROLES,
  TYPED_TEXT_ROLES,
  WINDOW_ROLES,
} from "../../platform/vocabulary.js";
import {
  acknowledgedMessage,
  BUTTON_ROLES,
  COMMAND_ROLES,
  closesWindow,
  DIALOG_ROLES,
  PRESSABLE_ROLES,
  type TargetFacts,
  type WindowQuestion,
  windowQuestions,
} from "../../safety/classify.js";
import { committingMeaning } from "../../safety/meanings.js";
import { matchLabel, normalizeLabel } from "../../safety/vocabulary.js";
import type { ToolContext } from "../context.js";
import { closingFacts, SETS_A_VALUE } from "./closing.js";
import type { ResolvedPlace } from "./placed.js";
import { everyNode, READ, readWhole, type WindowRead } from "./window-read.js";

type WindowFacts = NonNullable<TargetFacts["window"]>;

/** The element with the keyboard focus: the deepest that reports it. */
const focusedOf = (nodes: RawNode[]): RawNode | undefined => everyFocused(nodes).at(-1);

/** Every element that reports the focus: Qt leaves it on some it has left (Kate's status bar). */
export const everyFocused = (nodes: RawNode[]): RawNode[] =>
  nodes.filter((n) => n.states?.includes("focused"));

/** A field that takes typed text: an editable text role, editable now. */
const takesText = (node: { role?: string | undefined; states?: string[] | undefined }) =>
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
): Promise<{ focused: RawNode[]; complete: boolean }> {
  const read = await readWhole(context, windowId);
  const focused = everyFocused(read.nodes).filter(shownIn(read));
  return { focused, complete: read.complete };
}

/**
 * Whether an element of this read is on screen, by the one judgement the reader and find use
 * (flatten's isShown): GTK 4.8 reports no `showing`, and there `visible` and an area stand in.
 */
function shownIn(read: WindowRead): (node: RawNode) => boolean {
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
  // to search, and so does a field named for it: closing loses nothing a person wrote.
  const modeless = !read.root.states?.includes("modal");
  const searching = (name: string | undefined) => !!name && !!matchLabel(name).searches;
  const searchOnly = modeless && searching(read.root.name);
  const shown = shownIn(read);
  const editable = read.nodes.filter(
    (n) =>
      TYPED_TEXT_ROLES.has(n.role) &&
      n.states?.includes("editable") &&
      shown(n) &&
      !(searchOnly || (modeless && searching(n.name ?? n.inferredLabel))),
  );
  if (editable.some((n) => n.role === "password text")) return true;
  const backend = await context.backend();
  await backend.enrich(editable, {
    maxText: 1,
    actions: false,
    accessibleIds: false,
    timeoutMs: 1000,
    windowId,
  });
  if (editable.some((n) => (n.textLength ?? 0) > 0)) return true;
  if (!read.complete || editable.some((n) => n.unread.includes("text"))) return undefined;
  return false;
}

/**
 * A window's role, states and its app's language. A modal top-level is a dialog, whatever its role
 * (GTK 4.8's file chooser says "filler").
 */
function windowFacts({ root, language }: { root: RawNode; language?: string | undefined }): WindowFacts {
  const modal = root.states?.includes("modal") && !DIALOG_ROLES.has(root.role);
  return { role: modal ? "dialog" : root.role, states: root.states, ...(language ? { language } : {}) };
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
 * A menu title (Qt's menu bar item, a submenu's item): a menu item holding the menu its press opens.
 * A button holding one is not: a split button ("Send ▾") runs its command where the arrow is not.
 */
export const opensMenu = (node: RawNode): boolean =>
  MENU_ROLES.has(node.role) ||
  (node.role === "menu item" && node.children.some((c) => MENU_ROLES.has(c.role)));

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
async function shownTexts(
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

/**
 * Whether a window is a message and nothing more: one button on screen, no field or choice, and a
 * text whose words commit nothing (acknowledgedMessage). A window not read whole is unknown.
 */
function onlyAMessage(read: WindowRead, language: string | undefined): boolean | undefined {
  if (!read.complete) return undefined;
  const shown = read.nodes.filter(shownIn(read));
  if (shown.filter((n) => BUTTON_ROLES.has(n.role)).length !== 1) return false;
  if (shown.some((n) => CHOICE_ROLES_READ.has(n.role) || n.states?.includes("editable"))) return false;
  const texts = shown
    .filter((n) => MESSAGE_ROLES.has(n.role))
    .map((n) => (n.name || n.text || "").trim())
    .filter(Boolean);
  return acknowledgedMessage(texts, language);
}

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
async function answer(
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
  facts.window = window;
}

// How far up a button's containers are read: a column header holds its sort button directly, a
// find bar its Close beside its field.
const CONTAINERS_READ = 2;
const BAR_READ = { maxDepth: 5, tableRows: 0, walkTables: false, nodeCeiling: 60, timeoutMs: 800 };

/**
 * A button's containers, nearest first: their roles, and whether its bar (the tool bar holding it,
 * else the nearest container that is not its window) holds a field that searches (a find bar, whose
 * Close hides the bar and loses nothing). A tool bar's Close beside a single-line field is such a
 * bar's, whatever the field says (mousepad's find bar names nothing): a window's Close is never in
 * a tool bar beside a field. Read only for a button whose words close; everything here is a read.
 */
async function containers(
  context: ToolContext,
  handle: string,
  element: { role: string; name: string | undefined },
): Promise<Pick<TargetFacts, "inside" | "searchBar">> {
  if (!BUTTON_ROLES.has(element.role)) return {};
  const backend = await context.backend();
  const ancestors = (await backend.ancestorsOf?.(handle, CONTAINERS_READ).catch(() => [])) ?? [];
  const inside = ancestors.map((a) => a.role);
  const toolBar = ancestors.find((a) => a.role === "tool bar");
  const bar = toolBar ?? ancestors.find((a) => !WINDOW_ROLES.has(a.role));
  if (!bar || !element.name || !matchLabel(element.name).closes) return { inside };
  const read = await backend.readSubtree(bar.handle, BAR_READ).catch(() => undefined);
  const searching = (l: string | undefined) => !!l && !!matchLabel(l).searches;
  const fields = read ? everyNode(read.root).filter((n) => EDITABLE_ROLES.has(n.role)) : [];
  if (toolBar && fields.some((n) => n.states?.includes("single line"))) return { inside, searchBar: true };
  // A field named only by its placeholder ("Search…": GTK 4's search entry has no other name).
  const placeholder = async (n: RawNode) => {
    const attributes = await backend.readAttributes?.(n.handle).catch(() => undefined);
    return searching(placeholderOf(attributes));
  };
  const found =
    fields.some((n) => searching(n.name) || searching(n.description)) ||
    (await Promise.all(fields.slice(0, 4).map(placeholder))).some(Boolean);
  return { inside, ...(found ? { searchBar: true } : {}) };
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
  },
  windowId: number | undefined,
): Promise<TargetFacts> {
  const { handle, ...own } = element;
  const facts: TargetFacts = { ...own };
  if (handle && PRESSABLE_ROLES.has(element.role)) {
    const [shown, held, toggle] = await Promise.all([
      shownTexts(context, handle, windowId),
      containers(context, handle, element),
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
    await answer(context, facts, windowQuestions(facts), windowId);
  } catch {
    // The window could not be read: the rules that need it assume the worst.
  }
  return facts;
}

export interface KeyEffect {
  /** The elements the keys will press, each with its facts; empty when they press nothing. */
  presses: TargetFacts[];
  /** How each press was found: "focused", "default button", "key binding <Control>s". */
  via: string[];
  /** The element that had the keyboard focus when the keys were judged: a reply says where it went. */
  focusedHandle?: string;
  /** Every element that reported the focus then (Qt leaves it on some): what is new after is where it went. */
  focusedHandles?: string[];
  /** The keys go to the menus (a menu bar entered, a menu open): each letter is judged where it lands. */
  keysInMenus?: boolean;
  /** Whether the focused element is one a space presses (a button, a box), not a field. */
  focusPresses?: boolean;
  /** Their roles, in the same order: typed text going into a password field is kept like a password. */
  focusedRoles?: string[];
}

/** Space and Enter press whatever has the focus; GTK 4 gives them as every button's "binding". */
function activationKey(chord: Chord): boolean {
  return chord.key?.kind === "named" && (chord.key.name === "Space" || chord.key.name === "Enter");
}

export function activates(
  chord: Chord | undefined,
  text: string | undefined,
): { enter: boolean; space: boolean } {
  if (text !== undefined) return { enter: /[\n\r]/.test(text), space: text.includes(" ") };
  const key = chord?.key;
  const named = key?.kind === "named" ? key.name : undefined;
  const plain = chord?.modifiers.every((m) => m === "shift") ?? false;
  // ctrl+j and ctrl+m are a line feed and a carriage return to most programs.
  const controlEnter =
    key?.kind === "char" && chord?.modifiers.join("+") === "ctrl" && (key.char === "j" || key.char === "m");
  return { enter: named === "Enter" || controlEnter, space: named === "Space" && plain };
}

/**
 * Chords that commit nothing in any app: moving, selecting, copying, finding and replacing,
 * undoing, zooming, help and menus, renaming in place, and the common ones that only open something
 * (New, Open, a tab, Save As). In an app that reports no key bindings every other chord counts as committing.
 */
const HARMLESS_CHORDS = new Set(
  [
    "ctrl+c",
    "ctrl+shift+c",
    "ctrl+Insert",
    "ctrl+a",
    "ctrl+shift+a",
    "ctrl+f",
    "ctrl+n",
    "ctrl+o",
    "ctrl+t",
    "ctrl+shift+s",
    "ctrl+g",
    "ctrl+shift+g",
    // Find and replace (GNOME, Windows), a browser's history, a file manager's hidden files.
    "ctrl+h",
    // Rename or edit in place (GNOME and KDE): the new name is typed and committed after it.
    "F2",
    "ctrl+z",
    "ctrl+shift+z",
    "ctrl+x",
    "ctrl+v",
    "shift+Insert",
    "ctrl++",
    "ctrl+=",
    "ctrl+-",
    "ctrl+0",
    "F1",
    "F3",
    "shift+F3",
    "F6",
    "shift+F6",
    "F10",
    "shift+F10",
    "F7",
    "ctrl+Tab",
    "ctrl+shift+Tab",
    "alt+Tab",
    "ctrl+PageUp",
    "ctrl+PageDown",
    "ctrl+Home",
    "ctrl+End",
    "ctrl+shift+Home",
    "ctrl+shift+End",
  ].map((c) => c.toLowerCase()),
);
/** Keys that only move: the caret, the selection, the view, or the focus (Tab). */
const MOVES = new Set([...MOVING_KEYS, "Tab"]);

function harmlessChord(chord: Chord): boolean {
  const key = chord.key;
  if (key?.kind === "named" && MOVES.has(key.name) && !chord.modifiers.includes("super")) return true;
  return HARMLESS_CHORDS.has(chordText(chord).toLowerCase());
}

/**
 * A chord a toolkit binds to commands: a modifier other than shift, or an F-key; outside a text
 * field also Delete, Backspace and Insert (a file manager's Delete moves the selection to the trash).
 */
function commandChord(chord: Chord, inTextField: boolean): boolean {
  const named = chord.key?.kind === "named" ? chord.key.name : undefined;
  if (named && /^F\d+$/.test(named)) return true;
  if (!inTextField && (named === "Delete" || named === "Backspace" || named === "Insert")) return true;
  return chord.modifiers.some((m) => m !== "shift");
}

/** A terminal runs its command line on Enter, and a paste's line breaks run as commands too. */
const PASTE_CHORDS = new Set(["ctrl+shift+v", "shift+insert", "ctrl+shift+insert"]);
// Keys a shell takes as a command of its own, beyond Enter: end of input, interrupt, suspend, run.
const SHELL_CHORDS = new Set(["ctrl+d", "ctrl+c", "ctrl+z", "ctrl+o", "ctrl+\\"]);

function terminalEffect(
  chord: Chord | undefined,
  text: string | undefined,
  enter: boolean,
): string | undefined {
  if (enter)
    return `sends ${text === undefined ? "Enter" : "a line break"} to a terminal, which runs the command line typed there`;
  if (!chord) return undefined;
  const name = chordText(chord).toLowerCase();
  if (PASTE_CHORDS.has(name))
    return `pastes into a terminal (${name}), where a pasted line break runs a command`;
  if (SHELL_CHORDS.has(name))
    return `sends ${name} to a terminal, which its shell or program takes as a command`;
  return undefined;
}

const POPUP_HOLDERS = roleSet("menu", "popup menu", "combo box");
const CHOICE_ROLES = roleSet(...MENU_ITEMS, "list item");

/**
 * The item an open popup (a combo box's list, a menu) has chosen: GTK 3 grabs the keyboard for it
 * and reports no focus anywhere, so Enter and space press that item. The deepest, where a submenu
 * is open.
 */
function openPopupChoice(read: WindowRead): RawNode | undefined {
  const shown = shownIn(read);
  return read.nodes
    .filter((n) => CHOICE_ROLES.has(n.role) && n.states?.includes("selected") && shown(n))
    .filter((n) =>
      pathTo(read.root, n)
        .slice(0, -1)
        .some((holder) => POPUP_HOLDERS.has(holder.role)),
    )
    .at(-1);
}

type Activation = { node?: RawNode; via: string } | { unreadable: string; via: string };

/** A text field of many lines: Enter there types a line break (a composer, an editor). */
const multiLine = (facts: TargetFacts) =>
  facts.states?.includes("multi line") || facts.role === "document text" || facts.role === "paragraph";

/** The elements from the root down to `node`, `node` last; empty when it is not in the tree. */
function pathTo(root: RawNode, node: RawNode): RawNode[] {
  if (root === node) return [root];
  for (const child of root.children) {
    const path = pathTo(child, node);
    if (path.length > 0) return [root, ...path];
  }
  return [];
}

/** The keys judged by what has the focus: Enter (with `modified`, ctrl+Enter and the like) and space. */
export interface ActivationKeys {
  enter: boolean;
  space: boolean;
  /** Enter held with ctrl, alt or super: a composer's "send" where plain Enter is a line break. */
  modified?: boolean;
}

/**
 * What Enter or space presses, from the focused element: a pressable one is pressed itself; Enter
 * in a text of many lines types a line break unless something may send it (below); Enter anywhere
 * else activates the window's default button, or, where none is reported, what the field itself
 * runs (below). `node` undefined: the focused element itself (a ref's facts).
 */
async function activationPresses(
  context: ToolContext,
  windowId: number,
  read: WindowRead,
  window: WindowFacts,
  focused: TargetFacts,
  focusedNode: RawNode | undefined,
  keys: ActivationKeys,
): Promise<Activation[]> {
  if (focused.role !== undefined && PRESSABLE_ROLES.has(focused.role))
    return [{ via: "the focused element" }];
  if (!keys.enter) return [];
  const editable = focused.role !== undefined && EDITABLE_ROLES.has(focused.role);
  const shown = shownIn(read);
  if (editable && multiLine(focused)) return composerSends(context, windowId, read, focusedNode, keys);
  // A web form's default (its submit button) is pressed by Enter in that form's fields only: Enter
  // in a field outside it (a page's search box) leaves it alone. Where the field cannot be placed,
  // every default counts.
  const formOf = (node: RawNode) => pathTo(read.root, node).findLast((n) => n.role === "form");
  const ownForm = focusedNode && pathTo(read.root, focusedNode).length > 0 ? formOf(focusedNode) : null;
  const defaults = read.nodes.filter(
    (n) =>
      n.states?.includes("is default") &&
      shown(n) &&
      (ownForm === null || formOf(n) === undefined || formOf(n) === ownForm),
  );
  if (defaults.length > 0) return defaults.map((node) => ({ node, via: "the default button" }));
  // GTK 4.8 reports no default button: in a dialog, Enter may press any of its buttons.
  if (DIALOG_ROLES.has(window.role ?? ""))
    return read.nodes
      .filter((n) => BUTTON_ROLES.has(n.role) && shown(n))
      .map((node) => ({ node, via: "a possible default button (the toolkit reports none)" }));
  if (!editable) return [];
  return fieldActivation(context, read, focused, focusedNode, shown);
}

/** How far up from a text of many lines a button counts as beside it (its pane, its box, their box). */
const BESIDE_LEVELS = 3;
/** The classes of data/meanings.json whose words send: money or data leaves. */
const SENDING = new Set(["money leaves", "data leaves the app"]);

/**
 * Whether a button or link reads as sending: its words mean money or data leaves ("Send", "Post",
 * "Envoyer", "Pay"); with `unnamedToo`, one that says nothing at all (a composer's arrow icon).
 */
function sendsLike(node: RawNode, unnamedToo: boolean): boolean {
  const labels = [node.name, node.description, ...childTexts(node)].filter((l): l is string => !!l?.trim());
  if (labels.length === 0) return unnamedToo;
  return labels.some((label) => SENDING.has(committingMeaning(label)?.what ?? ""));
}

/**
 * What Enter may send from a text of many lines (a chat composer, a web `<textarea>`): a command
 * the app binds to the key; in a web form, the form's buttons; a sending button beside it ("Send",
 * an unnamed arrow). ctrl+Enter, which toolkits never report, may press any sending button or link
 * of the window; a window not read whole may hold one.
 */
async function composerSends(
  context: ToolContext,
  windowId: number,
  read: WindowRead,
  focusedNode: RawNode | undefined,
  keys: ActivationKeys,
): Promise<Activation[]> {
  const shown = shownIn(read);
  const commands = read.nodes.filter((n) => COMMAND_ROLES.has(n.role) && !BUTTON_ROLES.has(n.role));
  const backend = await context.backend();
  await backend.enrich(commands, { ...BINDINGS_READ, windowId });
  const found: Activation[] = commands
    .filter((n) => bindsEnter(n, !!keys.modified))
    .map((node) => ({ node, via: "the command the app binds to Enter" }));
  const path = focusedNode ? pathTo(read.root, focusedNode) : [];
  const form = path.findLast((n) => n.role === "form");
  if (form) found.push(...buttonsIn(form, shown).map((node) => ({ node, via: "the form's submit button" })));
  // The window itself is not beside the text: its buttons are a dialog's, not a composer's.
  const beside = form
    ? []
    : path
        .slice(1, -1)
        .slice(-BESIDE_LEVELS)
        .flatMap((n) => n.children.filter((c) => !path.includes(c)))
        .flatMap((n) => buttonsIn(n, shown))
        .filter((n) => sendsLike(n, true));
  for (const node of new Set(beside)) found.push({ node, via: "a sending button beside the text" });
  if (!keys.modified) return found;
  if (!read.complete)
    return [
      ...found,
      {
        unreadable: "the window was not read whole, so what ctrl+Enter sends cannot be ruled out",
        via: "unknown",
      },
    ];
  const pressed = new Set(found.map((f) => ("node" in f ? f.node : undefined)));
  const sends = read.nodes.filter(
    (n) =>
      (BUTTON_ROLES.has(n.role) || n.role === "link") && shown(n) && !pressed.has(n) && sendsLike(n, false),
  );
  for (const node of sends)
    found.push({ node, via: "a sending button of the window, which ctrl+Enter may press" });
  return found;
}

/** The buttons on screen in a subtree. */
function buttonsIn(root: RawNode, shown: (n: RawNode) => boolean): RawNode[] {
  const found: RawNode[] = [];
  const walk = (n: RawNode) => {
    if (BUTTON_ROLES.has(n.role) && shown(n)) found.push(n);
    n.children.forEach(walk);
  };
  walk(root);
  return found;
}

/** Whether an element's key binding is Enter as an accelerator (GTK 3's ";;Return"), plain or modified. */
function bindsEnter(node: RawNode, modified: boolean): boolean {
  return (node.keyBindings ?? []).some((binding) =>
    bindingChords(binding).some(
      (b) =>
        !b.bare &&
        b.chord.modifiers.some((m) => m !== "shift") === modified &&
        b.chord.key?.kind === "named" &&
        b.chord.key.name === "Enter",
    ),
  );
}

/** Reading what keys an element answers to: its actions and their key bindings, nothing else. */
const BINDINGS_READ = { maxText: 0, actions: true, accessibleIds: false, timeoutMs: 1500 };

/**
 * The shortcut a menu item's own label shows, where it is the chord: GTK 4 shows it in a label of
 * its own beside the item's ("Ctrl+Q", "F11"), Qt after a tab in the item's text ("Save\tCtrl+S").
 * Only a text with a modifier or an F-key counts: a label "Delete" names the item, not its key.
 */
function labelShortcut(node: RawNode, chord: Chord): string | undefined {
  if (!MENU_ITEM_ROLES.has(node.role)) return undefined;
  const name = node.name ?? "";
  const afterTab = name.includes("\t") ? [name.slice(name.lastIndexOf("\t") + 1)] : [];
  return [...childTexts(node).filter((text) => text !== name), ...afterTab].find(
    (text) =>
      /\+|^\s*F\d+\s*$/.test(text) && bindingChords(text).some((c) => !c.bare && sameChord(c.chord, chord)),
  );
}

/** Words naming a field whose Enter only moves a view: a line or page to go to, a spreadsheet's Name Box. */
const MOVES_VIEW =
  /\b(go ?to (line|page)|jump to (line|page)|line number|page number|name ?box|cell reference)\b/i;
/** A page or zoom entry moves the view when it holds a number ("3", "3 of 10", "150%") or nothing. */
const NUMBERED_VIEW = /\b(page|pages|zoom)\b/i;
const NUMBER_SHOWN = /^\s*(\d+([.,]\d+)?\s*(%|(of|\/)\s*\d+)?)?\s*$/;
/** A spreadsheet's cell or range reference ("B7", "$A$1:C3", "Sheet1.A1"), as a Name Box holds one. */
const CELL_REFERENCE = /^(?:[\p{L}\p{N}_ ]+[.!])?\$?[A-Z]{1,3}\$?\d{1,7}(?::\$?[A-Z]{1,3}\$?\d{1,7})?$/u;
const SPREADSHEETS = roleSet("document spreadsheet");

/**
 * Enter in a single-line field with no default button runs the field's own action: a web form's
 * implicit submission, or what the app connected to it (GTK's activate, Qt's returnPressed, a Swing
 * action), which no toolkit reports. A form is judged by its buttons. A field that searches or
 * filters (by its name, label, description or placeholder), or only moves a view (a spin button, a
 * page or line entry, a spreadsheet's Name Box holding a cell reference) commits nothing; anything
 * else cannot be read.
 */
async function fieldActivation(
  context: ToolContext,
  read: WindowRead,
  focused: TargetFacts,
  focusedNode: RawNode | undefined,
  shown: (n: RawNode) => boolean,
): Promise<Activation[]> {
  const path = focusedNode ? pathTo(read.root, focusedNode) : [];
  const form = path.findLast((n) => n.role === "form");
  if (form) {
    const inForm = buttonsIn(form, shown);
    if (inForm.length > 0) return inForm.map((node) => ({ node, via: "the form's submit button" }));
    return [
      {
        unreadable:
          "Enter in a web form's field submits the form, and the form shows no button to judge the submission by; press the button that sends it instead",
        via: "the form's implicit submission",
      },
    ];
  }
  if (focused.role === "spin button" || (await onlySearchesOrMoves(context, read, focused, focusedNode)))
    return [];
  return [
    {
      unreadable:
        "Enter in a single-line field runs the field's own action (GTK's activate, Qt's returnPressed, a Swing action, a page's script), which the app does not report, and the window has no default button; press the button that does it instead",
      via: "the field's own action",
    },
  ];
}

/** Whether a single-line field only searches, filters or moves a view, by what it is named or holds. */
async function onlySearchesOrMoves(
  context: ToolContext,
  read: WindowRead,
  focused: TargetFacts,
  node: RawNode | undefined,
): Promise<boolean> {
  const backend = await context.backend();
  const [attributes, text] = node
    ? await Promise.all([
        backend.readAttributes?.(node.handle).catch(() => undefined),
        backend.readText(node.handle, 0, 40).catch(() => null),
      ])
    : [undefined, null];
  const placeholder = placeholderOf(attributes);
  const labels = [focused.name, node?.inferredLabel, focused.description, placeholder].filter(
    (l): l is string => !!l,
  );
  const holds = text?.text.trim() ?? "";
  if (labels.some((l) => matchLabel(l).searches || MOVES_VIEW.test(l))) return true;
  if (labels.some((l) => NUMBERED_VIEW.test(l)) && NUMBER_SHOWN.test(holds)) return true;
  // LibreOffice names its Name Box nowhere: a cell reference in a spreadsheet's window is one.
  return CELL_REFERENCE.test(holds) && read.nodes.some((n) => SPREADSHEETS.has(n.role));
}

/**
 * The items of the menus open in the window: menu items on screen inside a menu (a menu bar's
 * titles are not in one). A closed menu's items do not show (GTK 3, Qt), or are not in the tree
 * at all (GTK 4's popovers).
 */
function openMenuItems(read: WindowRead): RawNode[] {
  const shown = shownIn(read);
  const items: RawNode[] = [];
  const walk = (node: RawNode, inMenu: boolean) => {
    if (inMenu && MENU_ITEM_ROLES.has(node.role) && shown(node)) items.push(node);
    for (const child of node.children) walk(child, inMenu || MENU_ROLES.has(node.role));
  };
  walk(read.root, false);
  return items;
}

/**
 * Whether a menu is open in the window: items of a menu on screen, or a popup menu window the
 * display shows that the tree leaves out (Qt's). Undefined where the tree shows none and the
 * display cannot list its popups (sway): a Qt menu may be open there. A read, after a key judged
 * to open one.
 */
export async function menuOpen(context: ToolContext, windowId: number): Promise<boolean | undefined> {
  const read = await readWhole(context, windowId).catch(() => undefined);
  if (read && openMenuItems(read).length > 0) return true;
  const popups = await (await context.backend()).openMenus?.().catch(() => undefined);
  return popups === undefined ? undefined : popups.length > 0;
}

/** Why a key or a click into a menu or popup that no accessible tree shows cannot be judged. */
export const UNREAD_MENU =
  "a menu or popup is open on screen that its app leaves out of its accessible tree (Qt's popup menus, a GTK 4 entry's completion list), and it takes the keys and clicks in it: what they press there cannot be read; close it with Escape (the popup takes it before its window does), or act on the element by ref";

/**
 * The letter that presses an item of an open menu: the mnemonic its toolkit reports (GTK's bare
 * "t", Qt's "Alt+A"), else the one its label marks ("_Delete"); undefined where nothing says.
 */
function mnemonicOf(node: RawNode): string | undefined {
  for (const binding of node.keyBindings ?? [])
    for (const { chord, bare } of bindingChords(binding)) {
      const alone = bare || (chord.modifiers.length === 1 && chord.modifiers[0] === "alt");
      if (alone && chord.key?.kind === "char") return chord.key.char.toLowerCase();
    }
  return /(?:^|[^_&])[_&]([\p{L}\p{N}])/u.exec(node.name ?? "")?.[1]?.toLowerCase();
}

/**
 * The letters that reach an open menu: a letter or digit pressed alone, with shift or with alt, or
 * each typed one. In a menu a letter presses the item whose mnemonic it is.
 */
function menuLetters(chord: Chord | undefined, text: string | undefined): string[] {
  if (text !== undefined) return [...new Set([...text.toLowerCase()].filter((c) => /[\p{L}\p{N}]/u.test(c)))];
  const key = chord?.key;
  const plain = chord?.modifiers.every((m) => m === "shift" || m === "alt") ?? false;
  return key?.kind === "char" && plain && /[\p{L}\p{N}]/u.test(key.char) ? [key.char.toLowerCase()] : [];
}

/**
 * What keys press in an open menu: a letter presses the item whose mnemonic it is (an item with
 * none known, any whose label holds the letter); Enter and space press the selected item.
 */
function openMenuPresses(
  items: RawNode[],
  letters: string[],
  activates: boolean,
): { node: RawNode; via: string }[] {
  const presses: { node: RawNode; via: string }[] = [];
  for (const node of items) {
    const mnemonic = mnemonicOf(node);
    const label = normalizeLabel(node.name ?? "").toLowerCase();
    const letter = letters.find((l) => (mnemonic ? mnemonic === l : label.includes(l)));
    if (letter)
      presses.push({
        node,
        via: mnemonic
          ? `the open menu's mnemonic ${letter}`
          : `a possible mnemonic in the open menu (none reported): ${letter}`,
      });
    else if (activates && (["selected", "focused", "armed"] as const).some((s) => node.states?.includes(s)))
      presses.push({ node, via: "the selected item of the open menu" });
  }
  return presses;
}

/**
 * What a key, chord or typed text will press in the window: Enter and "\n" press the focused
 * pressable element, or else the default button, and run a terminal's command line; space presses
 * the focused pressable element; a chord presses whatever element carries it as a key binding (an
 * accelerator or a mnemonic, or the shortcut a menu item's label shows), and where nothing says,
 * counts as committing unless it is one that never commits; while a menu is open, a letter presses
 * its item and Enter its selected one. `focused` is the element the caller is about to focus (a ref).
 */
/** What judging one key or text needs as it goes: the window read, the effect so far, and how to add to it. */
interface KeyJudging {
  context: ToolContext;
  windowId: number;
  read: WindowRead;
  effect: KeyEffect;
  /** Items of an open menu judged already: not judged twice. */
  pressedItems: Set<RawNode>;
  menuItems: RawNode[];
  withWindow(node: RawNode): TargetFacts;
  add(facts: TargetFacts, via: string): Promise<void>;
}

export async function keyEffect(
  context: ToolContext,
  input: {
    windowId: number | undefined;
    chord?: Chord;
    text?: string;
    focused?: TargetFacts;
    /** The handle of `focused`, to find it in the window's tree (the form that holds it). */
    focusedHandle?: string | undefined;
  },
): Promise<KeyEffect> {
  const { enter, space } = activates(input.chord, input.text);
  const bindings = input.chord !== undefined;
  const effect: KeyEffect = { presses: [], via: [] };
  // Letters press an open menu's items; a ref about to take the focus closes the menu first.
  const letters = input.focused ? [] : menuLetters(input.chord, input.text);
  // Typed letters alone press nothing but an open menu's item: a window that cannot be read has
  // none deskhand could know of, and they stay typing.
  const typing = !enter && !space && !bindings;
  if (typing && letters.length === 0) return effect;
  // What could not be read counts beside what was (an open menu's item).
  const unreadable = (why: string): KeyEffect => (typing ? effect : withUnreadable(effect, why));
  if (input.windowId === undefined)
    return unreadable("no window has the keyboard focus that deskhand can read");
  let read: WindowRead;
  try {
    read = await readWhole(context, input.windowId);
  } catch (error) {
    return unreadable(`the window's tree did not answer: ${(error as Error).message}`);
  }
  const j = judging(context, input.windowId, read, effect);
  if (keysInMenus(everyFocused(read.nodes))) effect.keysInMenus = true;
  await openMenuEffect(j, letters, enter || space);
  if (typing) return effect;
  const focusedNode = focusedOf(read.nodes) ?? openPopupChoice(read);
  if (focusedNode) effect.focusedHandle = focusedNode.handle;
  effect.focusedHandles = everyFocused(read.nodes).map((n) => n.handle);
  effect.focusedRoles = everyFocused(read.nodes).map((n) => n.role);
  const window = windowFacts(read);
  const focused = input.focused
    ? { ...input.focused, window }
    : focusedNode
      ? j.withWindow(focusedNode)
      : undefined;

  // A terminal takes Enter, a pasted line and its shell's own keys as commands, whatever its label.
  if (focused?.role === "terminal") {
    const runs = terminalEffect(input.chord, input.text, enter);
    if (runs) await j.add({ ...focused, runs }, "the focused terminal");
    if (runs || !bindings) return effect;
  }

  if (enter || space) {
    if (!focused)
      return unreadable(
        "no element of the window reports the keyboard focus; name the element with a ref (key and type_text take one), or bring the window to the front (window focus), and try again",
      );
    const node = input.focused ? read.nodes.find((n) => n.handle === input.focusedHandle) : focusedNode;
    // ctrl+Enter and its like, never ctrl+j or ctrl+m (a line feed, a carriage return).
    const chord = input.chord;
    const modified = chord?.key?.kind === "named" && chord.modifiers.some((m) => m !== "shift");
    await activationEffect(j, focused, node, { enter, space, modified });
  }

  if (input.chord) {
    const why = await chordEffect(j, input.chord, focused, input.focused ? input.focusedHandle : undefined);
    if (why) return unreadable(why);
  }
  return effect;
}

/** The effect with an unreadable press first: what could not be read counts beside what was. */
function withUnreadable(effect: KeyEffect, why: string): KeyEffect {
  return { ...effect, presses: [{ unreadable: why }, ...effect.presses], via: ["unknown", ...effect.via] };
}

function judging(context: ToolContext, windowId: number, read: WindowRead, effect: KeyEffect): KeyJudging {
  const j: KeyJudging = {
    context,
    windowId,
    read,
    effect,
    pressedItems: new Set(),
    menuItems: [],
    withWindow(node) {
      const shown = childTexts(node);
      return {
        role: node.role,
        name: node.name,
        description: node.description,
        states: node.states,
        ...(shown.length > 0 ? { shown } : {}),
        ...(opensMenu(node) ? { opensMenu: true } : {}),
        window: windowFacts(j.read),
      };
    },
    async add(facts, via) {
      await answer(context, facts, windowQuestions(facts), windowId, j.read);
      effect.presses.push(facts);
      effect.via.push(via);
    },
  };
  return j;
}

/**
 * What an open menu's items take of the keys: its letters and Enter or space press them. A menu open
 * on screen that no tree shows (Qt leaves its popups out) hides what they press: said.
 */
async function openMenuEffect(j: KeyJudging, letters: string[], activates: boolean): Promise<void> {
  const backend = await j.context.backend();
  j.menuItems = openMenuItems(j.read);
  if (j.menuItems.length > 0) {
    await backend.enrich(j.menuItems, { ...BINDINGS_READ, windowId: j.windowId });
    for (const { node, via } of openMenuPresses(j.menuItems, letters, activates)) {
      j.pressedItems.add(node);
      await j.add(j.withWindow(node), via);
    }
  } else if (letters.length > 0 || activates) {
    const unseen = await backend.openMenus?.().catch(() => undefined);
    if (unseen?.length) {
      j.effect.presses.push({ unreadable: UNREAD_MENU });
      j.effect.via.push("a menu open on screen that no accessible tree shows");
    }
  }
}

/** What Enter or space presses from the focus: the focused element, a default button, a form's. */
async function activationEffect(
  j: KeyJudging,
  focused: TargetFacts,
  node: RawNode | undefined,
  keys: ActivationKeys,
): Promise<void> {
  j.effect.focusPresses = focused.role !== undefined && PRESSABLE_ROLES.has(focused.role);
  const window = windowFacts(j.read);
  const found = await activationPresses(j.context, j.windowId, j.read, window, focused, node, keys);
  for (const press of found) {
    if ("unreadable" in press) {
      j.effect.presses.push({ unreadable: press.unreadable });
      j.effect.via.push(press.via);
      continue;
    }
    // An open menu's chosen item, already judged as that, is not judged twice as the focus.
    const pressed = press.node ?? node;
    if (pressed && j.pressedItems.has(pressed)) continue;
    await j.add(press.node ? await withOwnText(j, press.node) : focused, press.via);
  }
}

/**
 * A button's facts with the text it shows through its own Text interface as well (a web button
 * whose aria-label says "Show details" and whose text says "Buy now"), as a press of it reads them.
 */
async function withOwnText(j: KeyJudging, node: RawNode): Promise<TargetFacts> {
  const facts = j.withWindow(node);
  if (!BUTTON_ROLES.has(node.role)) return facts;
  const { texts } = await shownTexts(j.context, node.handle, j.windowId);
  const shown = [...new Set([...(facts.shown ?? []), ...texts])];
  return shown.length > 0 ? { ...facts, shown } : facts;
}

/**
 * What a chord presses: the elements whose key bindings or labels claim it, the items of the menus
 * the app exports that bind it, then the guesses where the app reports none. Judging only reads: no
 * menu is opened to see what it holds. Returns why it cannot be told, where it cannot.
 */
async function chordEffect(
  j: KeyJudging,
  chord: Chord,
  focused: TargetFacts | undefined,
  /** The element a ref names, about to take the focus. */
  refHandle?: string,
): Promise<string | undefined> {
  const { effect } = j;
  // The window manager's close of the window in front: judged by what that window holds.
  if (closesWindow(chord)) {
    for (const facts of await closingFacts(j.context, j.windowId, j.read.root.name ?? ""))
      await j.add(facts, `${chordText(chord)}, the window manager's close of the window in front`);
    return undefined;
  }
  const backend = await j.context.backend();
  // Escape with a menu open (in the tree, or on screen where Qt leaves its popups out) closes that
  // menu: the popup takes it before its window, whose own binding (KCalc's Clear) it never reaches.
  if (chordText(chord) === "Escape") {
    const open = j.menuItems.length > 0 || !!(await backend.openMenus?.().catch(() => undefined))?.length;
    if (open) {
      effect.via.push("Escape, which closes the menu open on screen");
      return undefined;
    }
  }
  const editing = !!focused && takesText(focused);
  const inTextField = focused?.role === "terminal" || editing;
  const pressables = j.read.nodes.filter((n) => PRESSABLE_ROLES.has(n.role));
  const [, app] = await Promise.all([
    backend.enrich(pressables, { ...BINDINGS_READ, windowId: j.windowId }),
    backend.appBindings?.(j.windowId).catch(() => "unread" as const),
  ]);
  const formatting = formats(j.read, chord, editing);
  const decided = harmlessChord(chord) || !!formatting || !commandChord(chord, inTextField);
  const pressedBefore = effect.presses.length;
  await claimedBy(j, pressables, chord);
  if (typeof app === "object") await exportedClaims(j, app, chord);
  // A chord the app's own key bindings or labels tie to an element is judged by that element.
  const found = effect.presses.length > pressedBefore || j.pressedItems.size > 0;
  const reported = pressables.flatMap((n) => (n.keyBindings ?? []).flatMap((b) => bindingChords(b)));
  // Accelerators (ctrl+s, F2, Delete) and mnemonics (alt+d, or a bare letter) are reported apart:
  // the Java wrapper and GTK 4 report no accelerators, GTK 4.8 no mnemonics either.
  const reportsAccelerators = reported.some((c) => !c.bare && !activationKey(c.chord));
  const reportsMnemonics = reported.some((c) => c.chord.key?.kind === "char");
  const key = chord.key;
  const mnemonicLike = chord.modifiers.length === 1 && chord.modifiers[0] === "alt" && key?.kind === "char";
  const guess = !reportsAccelerators && formatting !== "menu" && effect.presses.length === 0;
  if (guess && !mnemonicLike && key?.kind === "char")
    await guessedAccelerators(j, pressables, chord, key.char);
  if (!reportsMnemonics && mnemonicLike && key?.kind === "char")
    await possibleMnemonics(j, pressables, chord, key.char);
  // Delete outside a text field no menu needs to claim: a view takes it itself (a file manager's trash).
  const viewDelete = !inTextField && chord.key?.kind === "named" && chord.key.name === "Delete";
  const named = refHandle === undefined ? [] : j.read.nodes.filter((n) => n.handle === refHandle);
  const outside = bindsOutside(j, app, named.length > 0 ? named : everyFocused(j.read.nodes), focused);
  if (!decided && (!reportsAccelerators || viewDelete || outside) && !mnemonicLike && !found) {
    effect.presses.unshift({ unreadable: unclaimedWhy(chord, { viewDelete, outside }) });
    effect.via.unshift("unknown");
  }
  if (effect.presses.length === 0 && !decided) {
    if (!j.read.complete)
      return "the window was not read whole, so the chord's key binding cannot be ruled out";
    if (pressables.some((n) => n.unread.includes("actions")))
      return "some elements did not answer for their key bindings";
  }
  return undefined;
}

/** Why a command chord nothing claims counts as committing: what it runs is read nowhere. */
function unclaimedWhy(chord: Chord, why: { viewDelete: boolean; outside: string | undefined }): string {
  const name = chordText(chord);
  if (why.viewDelete)
    return `no element claims ${name}, and a list or view takes it itself (a file manager deletes the selection); select the item and act on its menu item or button instead`;
  if (why.outside)
    return `this app binds keys that deskhand cannot read without opening its menus (${why.outside}), and judging never opens them, so what ${name} does is unknown; act on the menu item or button itself instead`;
  return `this app reports no key bindings, so what ${name} does cannot be read; act on the menu item or button itself instead`;
}

/**
 * Where the window's app binds keys that its accessible tree does not show: a GtkApplication (its
 * accelerators need no menu item), GTK 3 menus that fill only as they open (Thunar), a web page's
 * own key handlers, or exported menus that did not answer. Undefined: its bindings are all read.
 */
function bindsOutside(
  j: KeyJudging,
  app: AppBindings | "unread" | undefined,
  focusedNodes: RawNode[],
  focused: TargetFacts | undefined,
): string | undefined {
  // Keys into a page reach its scripts, whatever the browser's menus say.
  const inPage = focusedNodes.flatMap((n) => pathTo(j.read.root, n)).some((n) => n.role === "document web");
  if (inPage || focused?.role === "document web") return "a web page's own key handlers";
  if (app === "unread") return "the menus it exports on the session bus did not answer";
  if (app?.gtkApplication) return "a GtkApplication, whose accelerators need no menu item";
  if (app?.partial) return "its exported menus fill only as they open";
  const empty = (menu: RawNode) => menu.role === "menu" && menu.children.length === 0 && !menu.childrenCut;
  const bars = j.read.nodes.filter((n) => n.role === "menu bar");
  if (bars.some((bar) => bar.children.some(empty))) return "its menus are empty until they open";
  return undefined;
}

/** The items of the app's exported menus whose accelerator is the chord, judged as presses of them. */
async function exportedClaims(j: KeyJudging, app: AppBindings, chord: Chord): Promise<void> {
  for (const item of app.items) {
    if (!item.accel || !bindingChords(item.accel).some((b) => !b.bare && sameChord(b.chord, chord))) continue;
    const facts: TargetFacts = { role: "menu item", name: item.label, window: windowFacts(j.read) };
    await j.add(facts, `the accelerator ${item.accel} of the app's exported menu item "${item.label}"`);
  }
}

/** Formatting chords, by the convention editors share. */
const FORMATTING: Record<string, string> = { "ctrl+b": "bold", "ctrl+i": "italic", "ctrl+u": "underline" };

/**
 * Whether a chord only formats text: bold, italic or underline, in a window whose menus name that
 * formatting ("menu": AbiWord's canvas reports no text, its Format menu says "Bold") or into an
 * editable text ("editing"; a terminal is none: its shell takes them).
 */
function formats(read: WindowRead, chord: Chord, editing: boolean): "menu" | "editing" | undefined {
  const word = FORMATTING[chordText(chord).toLowerCase()];
  if (!word) return undefined;
  const named = (n: RawNode) => normalizeLabel(n.name ?? "").toLowerCase() === word;
  if (read.nodes.some((n) => MENU_ITEM_ROLES.has(n.role) && named(n))) return "menu";
  return editing ? "editing" : undefined;
}

// Qt writes a mnemonic, and an accelerator of alt and a letter, as "Alt+E". Where a title on screen
// has the chord as its mnemonic, an item of a closed menu bound the same does not fire: its own
// mnemonic works only once its menu is open, and an accelerator two actions share is ambiguous,
// which Qt triggers for neither ("Ambiguous shortcut overload"). KWrite's Tools > "&Emmet" is no alt+e.
const QT_ALT_LETTER = /^Alt\+\p{L}$/u;

/** The elements whose key bindings claim the chord, or whose label shows it (GTK 4 and Qt). */
async function claimedBy(j: KeyJudging, pressables: RawNode[], chord: Chord): Promise<void> {
  const showing = (n: RawNode) => !!n.states?.includes("showing");
  const titleOnScreen = pressables.some(
    (n) => showing(n) && (n.keyBindings ?? []).some((b) => QT_ALT_LETTER.test(b) && bindingHit(n, b, chord)),
  );
  for (const node of pressables) {
    if (j.pressedItems.has(node)) continue;
    for (const binding of node.keyBindings ?? []) {
      if (titleOnScreen && !showing(node) && QT_ALT_LETTER.test(binding)) continue;
      if (bindingHit(node, binding, chord)) {
        await j.add(j.withWindow(node), `the key binding ${binding}`);
        break;
      }
    }
    const label = labelShortcut(node, chord);
    if (label && !node.keyBindings?.some((b) => bindingChords(b).some((c) => sameChord(c.chord, chord))))
      await j.add(j.withWindow(node), `the shortcut its label shows, ${label}`);
  }
}

/** An app that reports no accelerators: ctrl+letter is taken to press the menu item that starts with it. */
async function guessedAccelerators(
  j: KeyJudging,
  pressables: RawNode[],
  chord: Chord,
  char: string,
): Promise<void> {
  if (!chord.modifiers.includes("ctrl")) return;
  for (const node of pressables.filter((n) => n.role.endsWith("menu item"))) {
    const first = normalizeLabel(node.name ?? "")
      .charAt(0)
      .toLowerCase();
    if (first && first === char.toLowerCase())
      await j.add(
        j.withWindow(node),
        `a guess: the app reports no accelerators, and ${chordText(chord)} usually presses "${node.name}"`,
      );
  }
}

/**
 * GTK 4.8 reports no key bindings at all, mnemonics included: alt+letter is taken to press each
 * element whose label marks that letter ("_Delete"), or, unmarked, contains it.
 */
async function possibleMnemonics(
  j: KeyJudging,
  pressables: RawNode[],
  chord: Chord,
  char: string,
): Promise<void> {
  const letter = char.toLowerCase();
  for (const node of pressables) {
    const name = node.name ?? "";
    const marked = /(?:^|[^_&])[_&]([\p{L}\p{N}])/u.exec(name)?.[1]?.toLowerCase();
    const possible = marked ? marked === letter : normalizeLabel(name).toLowerCase().includes(letter);
    if (possible && !j.effect.presses.some((p) => p.name === node.name && p.role === node.role))
      await j.add(
        j.withWindow(node),
        `a possible mnemonic (the app reports no key bindings): ${chordText(chord)}`,
      );
  }
}

/**
 * Whether a binding of `node` is `chord`. A mnemonic (GTK's and the Java wrapper's bare letter, Qt's
 * "Alt+e") presses only what is on screen: unmodified or with alt, while its menu or dialog shows.
 * An item of a closed menu takes no alt+letter of its label (KWrite's "Clos&e All" is no alt+e).
 */
function bindingHit(node: RawNode, binding: string, chord: Chord): boolean {
  const showing = !!node.states?.includes("showing");
  return bindingChords(binding).some(
    (b) =>
      !activationKey(b.chord) &&
      (b.mnemonic
        ? showing && (sameChord(b.chord, chord) || sameChord({ modifiers: ["alt"], key: b.chord.key }, chord))
        : sameChord(b.chord, chord)),
  );
}

/** How the pointer meets a place: which button, once or twice, a press or a drag's drop. */
export interface PlaceInputKind {
  button?: "left" | "right" | "middle";
  count?: 1 | 2;
  drop?: boolean;
}

/**
 * What a press at a resolved place would press: the element there, every pressable element holding
 * it (a click on a button's icon presses the button) and every other pressable element on screen at
 * the point (a button under an overlay). A double click presses each twice; a drop lands on each
 * named element there too (a trash or folder view). A point whose element could not be read is
 * judged as unreadable, never as nothing.
 */
export async function placeFacts(
  context: ToolContext,
  place: ResolvedPlace,
  kind: PlaceInputKind = {},
): Promise<TargetFacts[]> {
  if (place.how === "unknown")
    return [{ unreadable: place.unknownBecause ?? "the point could not be probed" }];
  if (!place.element) return [];
  const ancestors = place.ancestors ?? [];
  const around = [...ancestors, ...(place.beneath ?? [])];
  // The window itself takes no drop by its name: its title names a document, not what takes it.
  const root = ancestors.at(-1) ?? place.element;
  const judged = [
    place.element,
    ...around.filter((e) => PRESSABLE_ROLES.has(e.role) || (kind.drop && e.name && e !== root)),
  ];
  const facts = await Promise.all(
    judged.map(async (e) => ({
      ...(await pressFacts(context, e, place.windowId)),
      ...(kind.count === 2 ? { twice: true } : {}),
      ...(kind.drop && e !== root ? { dropped: true } : {}),
    })),
  );
  // A middle click pastes the selection where it lands; in a terminal, its line breaks run.
  const terminal = [place.element, ...ancestors].find((e) => e.role === "terminal");
  if (kind.button === "middle" && terminal)
    facts.unshift({
      ...terminal,
      runs: "pastes the selection into a terminal, where a line break in it runs a command",
    });
  return facts;
}
