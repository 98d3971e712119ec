import { bindingChords, type Chord, chordText, sameChord } from "../../platform/keys.js";
import { unfilledMenus } from "../../platform/nodes.js";
import { MENU_ITEM_ROLES } from "../../platform/roles.js";
import type { AppBindings, RawNode } from "../../platform/types.js";
import {
  ALIGNING,
  activates,
  activationKey,
  closesWindow,
  commandChord,
  FORMATTING,
  harmlessChord,
  terminalEffect,
} from "../../safety/chords.js";
import { BUTTON_ROLES, PRESSABLE_ROLES, type TargetFacts, windowQuestions } from "../../safety/classify.js";
import { labelIs, normalizeLabel } from "../../safety/committing-words.js";
import type { ToolContext } from "../context.js";
import { closingFacts } from "./closing.js";
import { type ActivationKeys, activationPresses, openPopupChoice, pathTo } from "./enter-effect.js";
import {
  answer,
  BINDINGS_READ,
  childTexts,
  everyFocused,
  focusedOf,
  keysInMenus,
  opensMenu,
  shownTexts,
  takesText,
  windowFacts,
} from "./facts.js";
import { menuLetters, openMenuItems, openMenuPresses, UNREAD_MENU } from "./menu-keys.js";
import { readWhole, type WindowRead } from "./window-read.js";

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

/**
 * What a key, chord or typed text will press in the window: Enter and "\n" press the focused
 * pressable element, or else the default button, and run a terminal's command line; space presses
 * the focused pressable element; a chord presses whatever element carries it as a key binding (an
 * accelerator or a mnemonic, or the shortcut a menu item's label shows), and where nothing says,
 * counts as committing unless it is one that never commits; while a menu is open, a letter presses
 * its item and Enter its selected one. `focused` is the element the caller is about to focus (a ref).
 */
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
  // Delete outside a text field no menu needs to claim: a view takes it itself (a file manager's trash).
  const viewDelete = !inTextField && chord.key?.kind === "named" && chord.key.name === "Delete";
  const named = refHandle === undefined ? [] : j.read.nodes.filter((n) => n.handle === refHandle);
  const outside = bindsOutside(j, app, named.length > 0 ? named : everyFocused(j.read.nodes), focused);
  // ctrl+s saves wherever the app's own menus hold Save and it reports no accelerators (AbiWord):
  // judged as a press of that item, as ctrl+n and ctrl+o are trusted to open, not as unknown.
  const saves = reportsAccelerators || outside || found ? [] : conventionalSave(pressables, chord);
  for (const item of saves)
    await j.add(j.withWindow(item), `${chordText(chord)}, Save by the convention editors share`);
  // A chord that never commits is not guessed at: its own convention says what it does (ctrl+shift+s
  // is Save As, not the "Save" a ctrl+s guess would name).
  const guess =
    !reportsAccelerators && formatting !== "menu" && effect.presses.length === 0 && !harmlessChord(chord);
  if (guess && !mnemonicLike && key?.kind === "char")
    await guessedAccelerators(j, pressables, chord, key.char);
  // Qt reports each mnemonic it has ("&Send": Alt+S); where it reports none, no label has one.
  if (!reportsMnemonics && mnemonicLike && key?.kind === "char" && j.read.toolkit !== "Qt")
    await possibleMnemonics(j, pressables, chord, key.char);
  // alt+letter is a mnemonic where a label may show it; where none can, it is a chord like any other
  // (a Qt app's QShortcut alt+s, Send).
  const mnemonicOf = mnemonicLike && effect.presses.length > pressedBefore;
  if (
    !decided &&
    (!reportsAccelerators || viewDelete || outside) &&
    !mnemonicOf &&
    !found &&
    saves.length === 0
  ) {
    effect.presses.unshift({ unreadable: unclaimedWhy(chord, { viewDelete, outside }) });
    effect.via.unshift("unknown");
  }
  return effect.presses.length === 0 && !decided ? readFellShort(j, pressables) : undefined;
}

/** Why a chord nothing claims may still be bound to something unread: the read fell short. */
function readFellShort(j: KeyJudging, pressables: RawNode[]): string | undefined {
  if (!j.read.complete)
    return "the window was not read whole, so the chord's key binding cannot be ruled out";
  if (pressables.some((n) => n.unread.includes("actions")))
    return "some elements did not answer for their key bindings";
  return undefined;
}

/** The menu items ctrl+s presses by convention: those that say Save alone, in the app's language. */
function conventionalSave(pressables: RawNode[], chord: Chord): RawNode[] {
  if (chordText(chord).toLowerCase() !== "ctrl+s") return [];
  return pressables.filter((n) => n.role.endsWith("menu item") && labelIs(n.name ?? "", "saves"));
}

/** Why a command chord nothing claims counts as committing: what it runs is read nowhere. */
function unclaimedWhy(chord: Chord, why: { viewDelete: boolean; outside: string | undefined }): string {
  const name = chordText(chord);
  if (why.viewDelete)
    return `no element claims ${name}, and a list or view takes it itself: it may delete what is selected (a file manager's does), so it counts as committing, as a menu item that deletes would`;
  if (why.outside)
    return `this app binds keys that deskhand cannot read without opening its menus (${why.outside}), and judging never opens them, so what ${name} does is unknown; act on the menu item or button itself instead, which the gate can read and judge`;
  return `this app reports no key bindings, so what ${name} does cannot be read; act on the menu item or button itself instead, which the gate can read and judge`;
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
  if (unfilledMenus(j.read.nodes).length > 0) return "its menus are empty until they open";
  return undefined;
}

/**
 * The items of the app's exported menus whose accelerator is the chord, and the shortcuts its
 * shortcuts window lists for it, judged as presses of commands so named.
 */
async function exportedClaims(j: KeyJudging, app: AppBindings, chord: Chord): Promise<void> {
  const binds = (accel: string) => bindingChords(accel).some((b) => !b.bare && sameChord(b.chord, chord));
  const command = (name: string): TargetFacts => ({ role: "menu item", name, window: windowFacts(j.read) });
  for (const item of app.items)
    if (item.accel && binds(item.accel))
      await j.add(
        command(item.label),
        `the accelerator ${item.accel} of the app's exported menu item "${item.label}"`,
      );
  // The window lists several accelerators apart by spaces; a range ("<ctrl>1...<ctrl>9") claims none.
  for (const { accel, title } of app.shortcuts)
    if (accel.split(/\s+/).some((one) => !one.includes("...") && binds(one)))
      await j.add(
        { ...command(title), listedCommand: true },
        `the app's shortcuts window, which lists ${accel} as "${title}"`,
      );
}

/**
 * Whether a chord only formats text: bold, italic or underline, in a window whose menus name that
 * formatting ("menu": AbiWord's canvas reports no text, its Format menu says "Bold") or into an
 * editable text ("editing"; a terminal is none: its shell takes them).
 */
function formats(read: WindowRead, chord: Chord, editing: boolean): "menu" | "editing" | undefined {
  const text = chordText(chord).toLowerCase();
  if (ALIGNING[text]) return aligns(read, ALIGNING[text]) ? "menu" : undefined;
  const word = FORMATTING[text];
  if (!word) return undefined;
  const named = (n: RawNode) => normalizeLabel(n.name ?? "").toLowerCase() === word;
  if (read.nodes.some((n) => MENU_ITEM_ROLES.has(n.role) && named(n))) return "menu";
  return editing ? "editing" : undefined;
}

/**
 * Whether an alignment chord aligns: a menu of the window holds check or radio items for left,
 * center and right (AbiWord's Format > Align), one of them named as the chord aligns. A lone item
 * "Right" (a panel's side) says nothing of ctrl+r.
 */
function aligns(read: WindowRead, words: string[]): boolean {
  const settings = new Set(["check menu item", "radio menu item"]);
  const nameOf = (n: RawNode) => normalizeLabel(n.name ?? "").toLowerCase();
  const centre = ALIGNING["ctrl+e"]!;
  return read.nodes.some((menu) => {
    const items = new Set(menu.children.filter((c) => settings.has(c.role)).map(nameOf));
    const sides = items.has("left") && items.has("right") && centre.some((w) => items.has(w));
    return sides && words.some((w) => items.has(w));
  });
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
        // Said as the chord it binds: a toolkit's own syntax ("s;<Alt>f:s;<Primary>s") reads as noise.
        await j.add(j.withWindow(node), `its key binding, ${chordText(chord)}`);
        break;
      }
    }
    const label = labelShortcut(node, chord);
    if (label && !node.keyBindings?.some((b) => bindingChords(b).some((c) => sameChord(c.chord, chord))))
      await j.add(j.withWindow(node), `the shortcut its label shows, ${label}`);
  }
}

/**
 * An app that reports no accelerators: ctrl+letter is taken to press the menu item that starts with
 * it. ctrl with shift or alt is another command than ctrl alone, and no guess: nothing claims it.
 */
async function guessedAccelerators(
  j: KeyJudging,
  pressables: RawNode[],
  chord: Chord,
  char: string,
): Promise<void> {
  if (chord.modifiers.length !== 1 || chord.modifiers[0] !== "ctrl") return;
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
    // Unmarked, any letter it shows may be it: "(D)" after a Japanese label too, which normalizing
    // drops (GTK 4.8's doubled name, read once, loses its marked copy).
    const possible = marked ? marked === letter : name.replace(/[_&]/gu, "").toLowerCase().includes(letter);
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
