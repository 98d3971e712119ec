// What raises a level or needs a person: presses that commit, chords that reach the window manager
// or close things. L3 means the press sends data out of the app, destroys it, cannot be undone in
// the app, or closes a window holding unsaved work. Each rule is one row of docs/safety.md.
// A false alarm costs a confirmation; a miss costs the user's work: what cannot be read counts as
// committing.

import { LABEL_CEILING } from "../core/limits.js";
import { type Chord, chordText } from "../platform/keys.js";
import { ROLES, type Role, roleSet } from "../platform/vocabulary.js";
import type { SafetyLevel } from "./levels.js";
import { committingMeaning } from "./meanings.js";
import { endsInEllipsis, labelIs, matchLabel, normalizeLabel, unknownWords } from "./vocabulary.js";

/** Roles a press (click, Enter, space, an action) activates. */
export const PRESSABLE_ROLES = roleSet(
  "push button",
  "toggle button",
  "menu item",
  "check menu item",
  "radio menu item",
  "link",
  "check box",
  "radio button",
  "list item",
  "tree item",
  "icon",
  "page tab",
  "table cell",
);
export const BUTTON_ROLES = roleSet("push button", "toggle button");
export const DIALOG_ROLES = roleSet("dialog", "alert", "file chooser", "color chooser", "font chooser");

/**
 * Roles whose press sets a value the user can set back (a box ticked, a choice made): a check box
 * "Send me the newsletter" sends nothing. Only an alert's are judged by their words.
 */
export const SETTING_ROLES = roleSet("check box", "radio button", "check menu item", "radio menu item");

/** Roles whose press runs a command: their label is all that says what it does. */
export const COMMAND_ROLES = roleSet("push button", "toggle button", "menu item", "link");

/** Other systems' spellings of a role (a seed's `AXButton`, a web `button`), in the vocabulary's words. */
const SPELLINGS: Record<string, Role> = {
  button: "push button",
  defaultbutton: "push button",
  pushbutton: "push button",
  switch: "toggle button",
  togglebutton: "toggle button",
  checkbox: "check box",
  radiobutton: "radio button",
  menuitem: "menu item",
  link: "link",
  hyperlink: "link",
  option: "list item",
  tab: "page tab",
  textfield: "text",
  textarea: "text",
  combobox: "combo box",
};

/**
 * The role a caller declared (it may only raise the level), as the vocabulary names it. One the
 * vocabulary cannot place, declared with a label, is judged as a command whose label is all that
 * says what it does: a spelling deskhand does not know must not lower the bar.
 */
export function declaredRole(role: string, labelled: boolean): Role {
  const lower = role.trim().toLowerCase();
  if ((ROLES as readonly string[]).includes(lower)) return lower as Role;
  const squashed = lower.replace(/^ax/, "").replace(/[\s_-]+/g, "");
  return SPELLINGS[squashed] ?? (labelled ? "push button" : "unknown");
}

export interface TargetFacts {
  role?: string | undefined;
  name?: string | undefined;
  description?: string | undefined;
  /** The text it shows, when that is not its name: its children's, its own text (a web button's). */
  shown?: string[] | undefined;
  states?: string[] | undefined;
  /** The top-level window holding it, when it was read. */
  window?:
    | {
        role?: string | undefined;
        states?: string[] | undefined;
        /**
         * Whether any editable field in it holds text (in a modeless dialog, other than what was typed
         * to search); undefined: not read.
         */
        holdsInput?: boolean | undefined;
        /** Whether it holds a file chooser (a chooser's Open only names a file); undefined: not read. */
        chooser?: boolean | undefined;
        /** Whether its app shows a terminal (its paste warning's Paste runs commands); undefined: not read. */
        terminalApp?: boolean | undefined;
        /**
         * Whether it only asks: no field to fill, so its buttons answer what it says (a question);
         * undefined: not read.
         */
        asks?: boolean | undefined;
      }
    | undefined;
  /** What the input does beyond a press, read from the target itself ("Enter runs … in a terminal"). */
  runs?: string | undefined;
  /** Why what the input will hit could not be read: it then counts as committing. */
  unreadable?: string | undefined;
  /** It holds the menu a press opens (a menu title, a submenu's item): the press opens that menu. */
  opensMenu?: boolean | undefined;
  /** Pressed twice by a double click: the second press lands on whatever the first put there. */
  twice?: boolean | undefined;
  /** Something is dropped onto it (a drag's end): what it is named for takes what is dropped. */
  dropped?: boolean | undefined;
}

type WindowFacts = NonNullable<TargetFacts["window"]>;
/** The window facts a rule may ask for, read only when the answer would change the verdict. */
export type WindowQuestion = "holdsInput" | "chooser" | "terminalApp" | "asks";

/**
 * Which window facts judging the target needs: asked of the rules themselves (does the verdict
 * change with the answer?), so that the reads cannot drift from them.
 */
export function windowQuestions(target: TargetFacts): WindowQuestion[] {
  const window = target.window;
  if (!window) return [];
  return (["holdsInput", "chooser", "terminalApp", "asks"] as const).filter((question) => {
    if (window[question] !== undefined) return false;
    const judged = (answer: boolean) => pressReason({ ...target, window: { ...window, [question]: answer } });
    return judged(true) !== judged(false);
  });
}

/** Whether judging the target needs to know if its window holds input (a dialog's "Close"). */
export function needsInputCheck(target: TargetFacts): boolean {
  return windowQuestions(target).includes("holdsInput");
}

/** Why pressing the target commits, as a clause ("it presses …"), or undefined when it does not. */
export function commitReason(target: TargetFacts): string | undefined {
  if (target.unreadable) return `deskhand cannot tell what it would press (${target.unreadable})`;
  if (target.runs) return `it ${target.runs}`;
  const reason = pressReason(target);
  if (!reason) return undefined;
  const dropped = target.dropped && !PRESSABLE_ROLES.has(target.role?.toLowerCase() ?? "");
  return dropped ? `it drops what it drags onto ${reason}` : `it presses ${reason}`;
}

interface Label {
  text: string;
  shown: boolean;
  /** Its whole length, where it is longer than the gate reads (LABEL_CEILING). */
  longer?: number;
}

/** Every label the element shows: its name, the text it shows, its description; each once. */
function labelsOf(target: TargetFacts): Label[] {
  const labels: Label[] = [];
  const add = (text: string | undefined, shown: boolean) => {
    const normal = normalizeLabel(text ?? "");
    if (!normal || labels.some((l) => l.text === normal)) return;
    const longer = text && text.length > LABEL_CEILING ? { longer: text.length } : {};
    labels.push({ text: normal, shown, ...longer });
  };
  add(target.name, true);
  for (const text of target.shown ?? []) add(text, true);
  add(target.description, false);
  return labels;
}

/** What one label says: it commits (why), it decides that nothing commits, or it says nothing. */
type Verdict = { commits: string } | { safe: true } | undefined;

// A committing word that names a thing, not the act: a character ("Close Bracket", a calculator's
// ")"), a view or a setting ("Print Preview", "Sort Order"), a place in a drawing's stack ("Send to
// Back"), a session ("Sign in"). Taken out before the label's words are judged; the rest is judged.
const NAMES_A_THING = new RegExp(
  [
    "clos(e|ing) (round |square |curly |angle )?(bracket|brace|paren|parenthesis|quote|quotation mark|tag)s?",
    "print (preview|layout|view|ranges?|areas?|setup|settings|options|margins|scaling|titles|queue)",
    "send (to back|backwards?|to background)",
    "sort order",
    "order by",
    "sign (in|on|up)",
    "tip of the day",
    "book marks?",
  ]
    .map((phrase) => `\\b${phrase}\\b`)
    .join("|"),
  "giu",
);

/** The label without the things it names, or the label itself where it names none. */
function withoutNamedThings(label: string): string {
  const normal = normalizeLabel(label);
  const rest = normal.replace(NAMES_A_THING, " ").replace(/\s+/g, " ").trim();
  return rest === normal ? label : rest;
}

function judgeLabel(label: string, role: string, window: WindowFacts | undefined, shownAs = label): Verdict {
  const windowRole = window?.role;
  const inDialog = DIALOG_ROLES.has(windowRole ?? "");
  const what = `a ${role} ${JSON.stringify(shownAs)}`;
  // GNOME, Apple and Windows guidelines: an ellipsis means more input is asked before anything happens.
  if (endsInEllipsis(label)) return { safe: true };
  if (labelIs(label, "cancels")) return { safe: true };
  const judged = withoutNamedThings(label);
  if (!/[\p{L}\p{N}]/u.test(judged)) return undefined;
  const words = matchLabel(judged);
  // "Save As", "Save a Copy", "Export As" open a chooser, whatever their punctuation.
  if (words.asks) return { safe: true };
  // A terminal's paste warning: its Paste sends the clipboard to the shell.
  if (words.pastes && inDialog && window?.terminalApp !== false)
    return {
      commits: `${what} answers a terminal's paste warning: the pasted text runs${window?.terminalApp ? "" : " (whether this app is a terminal could not be read)"}`,
    };
  // A file chooser's Open or Select names a file for the app; the app has done nothing yet.
  if (words.picks && !words.commits && window?.chooser) return { safe: true };
  if (words.commits) return { commits: `${what} ("${words.commits}" commits)` };
  // A command's verb by its meaning, in any inflection ("Paying", "Truncate table", "결제"), and a
  // cancel word's object ("Cancel subscription"): a main window has no other signal to fall back on.
  const meaning = COMMAND_ROLES.has(role) ? committingMeaning(judged) : undefined;
  if (meaning) return { commits: `${what} ("${meaning.word}": ${meaning.what})` };
  if (words.closes) {
    if (inDialog && window?.holdsInput === false) return { safe: true };
    return {
      commits: inDialog
        ? `${what} closes a ${windowRole}${window?.holdsInput ? " holding input" : " whose fields could not be read"}`
        : `${what} closes a window that may hold unsaved work`,
    };
  }
  // A find bar's "Replace All" edits the document, and the app's undo reverts it; in an alert
  // ("A file named … already exists") "Replace" overwrites a file.
  if (words.edits)
    return windowRole === "alert"
      ? { commits: `${what} in an alert ("${words.edits}" overwrites)` }
      : { safe: true };
  return undefined;
}

// A calculator's or a pager's keys: symbols that say what they do. Any other label with no letter
// or digit ("✓", "⏻", "$") says nothing deskhand can read.
const KEYPAD_SYMBOLS = /^[\s+\-−–×÷*/=%.,()√^±²³⌫←<>]+$/u;
const symbolsOnly = (label: string) => !/[\p{L}\p{N}]/u.test(label) && !KEYPAD_SYMBOLS.test(label);

const DROP_WORDS = /\b(drop|drag)\b/giu;

/**
 * A drop onto an element that is not pressed (a trash or folder view, a label of a drop area): what
 * it is named for takes what is dropped, so its words are judged as a command's.
 */
function dropReason(target: TargetFacts, role: string): string | undefined {
  const verdict = labelsOf(target)
    .filter((l) => l.shown)
    // "Drop here" names the drop itself, not what the area does with it.
    .map((l) => ({ label: l.text, text: l.text.replace(DROP_WORDS, " ").trim() }))
    .filter(({ text }) => text !== "")
    .map(({ label, text }) => judgeLabel(text, role, target.window, label))
    .find((v): v is { commits: string } => !!v && "commits" in v);
  return verdict?.commits;
}

function pressReason(target: TargetFacts): string | undefined {
  const role = target.role?.toLowerCase();
  if (role && target.dropped && !PRESSABLE_ROLES.has(role)) return dropReason(target, role);
  if (!role || !PRESSABLE_ROLES.has(role)) return undefined;
  // A menu title opens its menu, whatever it or its items say: the items are pressed later, and judged then.
  if (target.opensMenu) return undefined;
  // A command pressed twice: its first press may put another command under the pointer (a "Delete…"
  // that shows its confirming "Delete" there), which the second presses unread.
  if (target.twice && COMMAND_ROLES.has(role))
    return (
      pressReason({ ...target, twice: false }) ??
      `a ${role} ${JSON.stringify(normalizeLabel(target.name ?? ""))} twice (a double click): what its first press puts under the pointer, the second presses unread; click once, then again, to have each press judged`
    );
  const window = target.window;
  const windowRole = window?.role;
  const inDialog = DIALOG_ROLES.has(windowRole ?? "");
  const labels = labelsOf(target);
  if (labels.length === 0)
    return inDialog && BUTTON_ROLES.has(role)
      ? `an unnamed ${role} in a ${windowRole}: what it does cannot be read`
      : undefined;
  if (SETTING_ROLES.has(role) && windowRole !== "alert") return undefined;
  // What the gate did not read may say anything: a label longer than it reads counts as committing.
  const long = labels.find((l) => l.longer !== undefined);
  if (long)
    return `a ${role} whose label runs to ${long.longer!.toLocaleString("en-US")} characters: deskhand reads only the first ${LABEL_CEILING.toLocaleString("en-US")}, so it counts as committing`;
  // Every label shown is judged and the strictest wins: a web button named "Show details" that
  // shows "Buy now". A description or tooltip is heard only where the shown labels decide nothing:
  // it explains ("Save current document as another file") a label that already says "Save As…".
  const judge = (shown: boolean) =>
    labels.filter((l) => l.shown === shown).map((label) => judgeLabel(label.text, role, window));
  let verdicts = judge(true);
  if (!verdicts.some((v) => v)) verdicts = judge(false);
  const commits = verdicts.find((v): v is { commits: string } => !!v && "commits" in v);
  if (commits) return commits.commits;
  if (verdicts.some((v) => v && "safe" in v)) return undefined;
  const what = `a ${role} ${JSON.stringify(labels[0]!.text)}`;
  if (windowRole === "alert" && BUTTON_ROLES.has(role)) return `${what} answers an alert`;
  // A modal dialog's default answers it; so does a modeless one's that only asks (no field to fill: a
  // question left open beside its window), which a modeless Find dialog with its field is not.
  if (inDialog && target.states?.includes("is default")) {
    if (window?.states?.includes("modal")) return `${what}, the default button of a modal ${windowRole}`;
    if (window?.asks !== false)
      return `${what}, the default button of a ${windowRole} that asks a question (no field to fill${window?.asks === undefined ? ", or its fields could not be read" : ""})`;
  }
  // A command's label in a language deskhand has no vocabulary for cannot be judged: it counts as
  // committing. Selection roles (a list item, a cell, a tab) show data (file names), not commands.
  if (COMMAND_ROLES.has(role)) {
    if (labels.every((l) => symbolsOnly(l.text)))
      return `${what}: its label is symbols only, which say nothing deskhand can read, so it counts as committing`;
    const unknown = labels.filter((l) => l.shown).flatMap((l) => unknownWords(l.text));
    if (unknown.length > 0)
      return `${what}: deskhand cannot judge labels in this language (no vocabulary it has knows ${unknown
        .slice(0, 3)
        .map((w) => JSON.stringify(w))
        .join(", ")}), so it counts as committing`;
  }
  return undefined;
}

/** The level the target itself carries: L3 for one that commits, otherwise none (L1). */
export function targetLevel(target: TargetFacts | undefined): SafetyLevel {
  return target && commitReason(target) ? "L3" : "L1";
}

/** Roles whose value a wheel turn changes: the wheel over them is input (L2), not a scroll. */
const VALUE_ROLES = roleSet("slider", "spin button", "combo box", "dial");

export function wheelChangesValue(role: string | undefined): boolean {
  return role !== undefined && VALUE_ROLES.has(role.toLowerCase());
}

/**
 * Chords that end a session, lock the screen, close windows or tabs, or reach the window manager
 * (openbox's default bindings among them): each line says why.
 */
export const DANGEROUS_CHORDS: Record<string, string> = {
  "ctrl+alt+Backspace": "kills the X server",
  "ctrl+alt+Delete": "logs out or reboots",
  "alt+F4": "closes the window",
  "ctrl+F4": "closes the document or tab",
  "shift+alt+F4": "closes the window",
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

/** Why a chord is dangerous, or undefined. */
export function dangerousChord(chord: Chord): string | undefined {
  const text = chordText(chord).toLowerCase();
  const hit = Object.entries(DANGEROUS_CHORDS).find(([c]) => c.toLowerCase() === text);
  return hit ? `${hit[0]} ${hit[1]}` : undefined;
}
