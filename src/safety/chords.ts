// What a chord is, before anything is read: the chords that never commit, those a toolkit binds to
// commands, those that need a person whatever has the focus, those that may open or close a window,
// what a terminal takes as a command. One home for every judgement of a chord by its keys alone;
// what an app binds a chord to is read in src/tools/hands/key-effect.ts.

import { type Chord, chordText, MOVING_KEYS, parseChord } from "../platform/keys.js";

/** Space and Enter press whatever has the focus; GTK 4 gives them as every button's "binding". */
export function activationKey(chord: Chord): boolean {
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
/** Keys that only move: the caret, the selection, the view, or the focus (Tab). They commit nothing. */
const MOVES = new Set([...MOVING_KEYS, "Tab"]);
/**
 * Keys that open no window whatever the modifiers: those that move or delete within a field. Tab
 * is not one: ctrl+Tab shows another page, alt+Tab another window.
 */
const OPENS_NOTHING = new Set([...MOVING_KEYS, "Backspace"]);

export function harmlessChord(chord: Chord): boolean {
  const key = chord.key;
  if (key?.kind === "named" && MOVES.has(key.name) && !chord.modifiers.includes("super")) return true;
  return HARMLESS_CHORDS.has(chordText(chord).toLowerCase());
}

/**
 * A chord a toolkit binds to commands: a modifier other than shift, or an F-key; outside a text
 * field also Delete, Backspace and Insert (a file manager's Delete moves the selection to the trash).
 */
export function commandChord(chord: Chord, inTextField: boolean): boolean {
  const named = chord.key?.kind === "named" ? chord.key.name : undefined;
  if (named && /^F\d+$/.test(named)) return true;
  if (!inTextField && (named === "Delete" || named === "Backspace" || named === "Insert")) return true;
  return chord.modifiers.some((m) => m !== "shift");
}

/** A terminal runs its command line on Enter, and a paste's line breaks run as commands too. */
const PASTE_CHORDS = new Set(["ctrl+shift+v", "shift+insert", "ctrl+shift+insert"]);
// Keys a shell takes as a command of its own, beyond Enter: end of input, interrupt, suspend, run.
const SHELL_CHORDS = new Set(["ctrl+d", "ctrl+c", "ctrl+z", "ctrl+o", "ctrl+\\"]);

export function terminalEffect(
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

/** Formatting chords, by the convention editors share. */
export const FORMATTING: Record<string, string> = {
  "ctrl+b": "bold",
  "ctrl+i": "italic",
  "ctrl+u": "underline",
};

/**
 * Alignment chords, by the convention word processors share (AbiWord, LibreOffice Writer, Word):
 * each aligns the paragraph as the item of an Align menu that holds left, center and right says.
 */
export const ALIGNING: Record<string, string[]> = {
  "ctrl+l": ["left"],
  "ctrl+e": ["center", "centre"],
  "ctrl+r": ["right"],
  // ctrl+j justifies there too, but is a line feed to most programs (activates): judged as Enter.
};

/**
 * Chords that end a session, lock the screen, close windows or tabs, or reach the window manager
 * (openbox's default bindings among them): each line says why.
 */
const DANGEROUS_CHORDS: Record<string, string> = {
  "ctrl+alt+Backspace": "kills the X server",
  "ctrl+alt+Delete": "logs out or reboots",
  "ctrl+F4": "closes the document or tab",
  "ctrl+q": "quits the application",
  "ctrl+w": "closes the document, tab or window",
  "ctrl+shift+q": "quits or logs out",
  "ctrl+shift+w": "closes every tab or window",
  "super+l": "locks the screen",
  "alt+space": "opens the window manager's window menu (Close, Kill)",
  "super+e": "runs a program (openbox's default binding)",
  "super+d": "shows the desktop, hiding every window",
  "alt+Escape": "sends the window to the back",
  "alt+Print": "runs a program (openbox's default binding)",
  ...Object.fromEntries(
    Array.from({ length: 12 }, (_, i) => [`ctrl+alt+F${i + 1}`, "switches to a virtual terminal"]),
  ),
};

/**
 * The window manager's chords that close the window in front: judged, as the window tool's close
 * is, by what that window holds (src/tools/hands/closing.ts), not asked of a person whatever it holds.
 */
const WINDOW_CLOSING_CHORDS = ["alt+F4", "shift+alt+F4"];

/** Whether a chord is the window manager's close of the window in front. */
export function closesWindow(chord: Chord): boolean {
  const text = chordText(chord).toLowerCase();
  return WINDOW_CLOSING_CHORDS.some((c) => c.toLowerCase() === text);
}

/** Why a chord is dangerous, or undefined. */
export function dangerousChord(chord: Chord): string | undefined {
  const text = chordText(chord).toLowerCase();
  const hit = Object.entries(DANGEROUS_CHORDS).find(([c]) => c.toLowerCase() === text);
  return hit ? `${hit[0]} ${hit[1]}` : undefined;
}

/** Chords that edit within a field (select, clipboard, undo): they open no window, and are pressed often. */
const EDITING_CHORDS = new Set(
  [
    "ctrl+a",
    "ctrl+c",
    "ctrl+x",
    "ctrl+v",
    "ctrl+z",
    "ctrl+y",
    "ctrl+shift+z",
    "ctrl+Backspace",
    "ctrl+Delete",
  ].map((c) => chordText(parseChord(c))),
);

/** A chord with ctrl, alt or super that edits nothing, Enter, Escape or a function key. */
export function chordMayOpen(chord: Chord): boolean {
  const key = chord.key;
  if (!key) return false;
  const named = key.kind === "named" ? key.name : undefined;
  if ((named && OPENS_NOTHING.has(named)) || EDITING_CHORDS.has(chordText(chord))) return false;
  return (
    chord.modifiers.some((m) => m !== "shift") ||
    named === "Enter" ||
    named === "Escape" ||
    /^F\d+$/.test(named ?? "")
  );
}
