// What raises a level or needs a person: presses that commit, chords that reach the window manager
// or close things. L3 means the press sends data out of the app, destroys it, cannot be undone in
// the app, or closes a window holding unsaved work. Each rule is one row of docs/safety.md.
// A false alarm costs a confirmation; a miss costs the user's work: what cannot be read counts as
// committing.

import { LABEL_CEILING } from "../core/limits.js";
import { EDITABLE_ROLES, ROLES, type Role, roleSet, TYPED_TEXT_ROLES } from "../platform/roles.js";
import { englishOf, englishOfFormatted } from "./app-catalog.js";
import { endsInEllipsis, labelIs, matchLabel, normalizeLabel, unknownWords } from "./committing-words.js";
import { committingPhrase, readLabel } from "./label-reading.js";
import { agentOf, committingMeaning } from "./meanings.js";
import { withoutNamedThings } from "./named-things.js";
import { labelWords } from "./phrases.js";

/** "a push button", "an entry": a role with its article. */
const aRole = (role: string) => `${/^[aeiou]/iu.test(role) ? "an" : "a"} ${role}`;

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
 * Roles whose press sets a value the user can set back (a box ticked, a toggle pressed, a choice
 * made): a check box "Send me the newsletter" sends nothing, a toggle "Paid only" filters a view.
 * Only an alert's are judged by their words.
 */
const SETTING_ROLES = roleSet(
  "check box",
  "radio button",
  "toggle button",
  "check menu item",
  "radio menu item",
);

/** Roles whose press shows part of a view (a page, a column's order), whatever they are named. */
const HEADER_ROLES = roleSet("column header", "row header", "table column header", "table row header");

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
        /** The language its app shows its labels in ("pt_BR"), where the platform could tell. */
        language?: string | undefined;
        /** The toolkit its app reports ("Qt"), where known. */
        toolkit?: string | undefined;
        /** The app's own gettext catalogs, where its process has them mapped: its labels' English. */
        catalogs?: string[] | undefined;
        /** Its title, where read: it names the document a main window shows ("Untitled — Kate"). */
        title?: string | undefined;
        /**
         * Whether it is a message and nothing more: a dialog whose only button is the one pressed,
         * with no field or choice, whose text holds no committing word (acknowledgedMessage);
         * undefined: not read.
         */
        acknowledges?: boolean | undefined;
        /**
         * Whether its title names what it is for and that commits nothing, and none of its texts
         * says a committing word (LibreOffice's "Text Import", whose OK imports): there OK does what
         * the title says. Undefined: not read.
         */
        titled?: boolean | undefined;
        /**
         * Whether a dialog only asks (no field to fill) and its message says it commits ("All 12
         * files will be deleted", "This cannot be undone"), or is in a language deskhand cannot
         * read: then an edit that answers it ("Replace All") commits. Undefined: not read.
         */
        messageCommits?: boolean | undefined;
        /**
         * What its filled one-line fields hold ('Name: "note.txt"'), read for a press in a dialog
         * that commits: the person asked reads what they confirm. No rule judges by it.
         */
        filled?: { label: string; text: string }[] | undefined;
      }
    | undefined;
  /** What the input does beyond a press, read from the target itself ("Enter runs … in a terminal"). */
  runs?: string | undefined;
  /** Why what the input will hit could not be read: it then counts as committing. */
  unreadable?: string | undefined;
  /** It holds the menu a press opens (a menu title, a submenu's item): the press opens that menu. */
  opensMenu?: boolean | undefined;
  /** The roles of its nearest ancestors, nearest first, where read (a button inside a column header). */
  inside?: string[] | undefined;
  /**
   * A command with no element, named where the app lists its shortcuts (its shortcuts window):
   * judged as a menu item of that name, and said as the command it is.
   */
  listedCommand?: boolean | undefined;
  /**
   * A key of a keypad (its container holds the ten digits as buttons) named as a key is ("C", ")",
   * "M+"): it types into the entry or computes, whatever its description says ("Clear display",
   * German "Block schließen" for a bracket). Its own name is still judged ("OK" on a PIN pad).
   */
  keypadKey?: boolean | undefined;
  /** It sits in a bar beside a field that searches (a find bar): its Close hides the bar. */
  searchBar?: boolean | undefined;
  /**
   * Its words close, and it sits beside a Save that is disabled (Kate's settings page): there is
   * nothing unsaved for the close to lose.
   */
  besideDisabledSave?: boolean | undefined;
  /**
   * One cell of a table row of several columns: a press or a select selects the row, and its words
   * are data ("Tar archive", a printer "Print to File"), not a command. Keys that activate it and a
   * double click are not selections, and are judged by the words.
   */
  record?: boolean | undefined;
  /** Pressed twice by a double click: the second press lands on whatever the first put there. */
  twice?: boolean | undefined;
  /** Something is dropped onto it (a drag's end): what it is named for takes what is dropped. */
  dropped?: boolean | undefined;
  /** Set, not pressed: the value it takes, or (an option) the list it is chosen in; judged by their words. */
  sets?: { value?: string | undefined; list?: { role?: string; name?: string | undefined } } | undefined;
  /** The input presses and sets nothing, only does this ("moves the pointer"): the judge still sees it. */
  nothing?: string | undefined;
}

type WindowFacts = NonNullable<TargetFacts["window"]>;
/** The window facts a rule may ask for, read only when the answer would change the verdict. */
export type WindowQuestion =
  | "holdsInput"
  | "chooser"
  | "terminalApp"
  | "asks"
  | "acknowledges"
  | "titled"
  | "messageCommits";

/**
 * Which window facts judging the target needs: asked of the rules themselves (does the verdict
 * change with the answer?), so that the reads cannot drift from them.
 */
export function windowQuestions(target: TargetFacts): WindowQuestion[] {
  const window = target.window;
  if (!window) return [];
  const questions = [
    "holdsInput",
    "chooser",
    "terminalApp",
    "asks",
    "acknowledges",
    "titled",
    "messageCommits",
  ] as const;
  return questions.filter((question) => {
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
  if (target.listedCommand) return `it runs the app's command ${reason.replace(/^a menu item /u, "")}`;
  return target.dropped ? `it drops what it drags onto ${reason}` : `it presses ${reason}`;
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
  add(withoutShortcut(target.name), true);
  for (const text of target.shown ?? []) add(withoutShortcut(text), true);
  add(target.description, false);
  return labels;
}

/** Qt's menu item text "Save As...\tCtrl+Shift+S": the label is what stands before its shortcut. */
const withoutShortcut = (text: string | undefined) => text?.replace(/\t[^\t]{1,24}$/u, "");

// How long a label is quoted in a reason: a longer one shows its head and its tail, so the words
// that decided (quoted on their own) stay within what a person reads.
const QUOTED_LABEL = 80;

/** A label as a reason quotes it: whole up to 80 characters, else its head and its tail. */
function quoteLabel(label: string): string {
  const chars = [...label];
  if (chars.length <= QUOTED_LABEL) return JSON.stringify(label);
  const head = chars.slice(0, 52).join("");
  const tail = chars.slice(-20).join("");
  return `${JSON.stringify(`${head}…${tail}`)} (${chars.length.toLocaleString("en-US")} characters)`;
}

/**
 * Whether a main window's title names a document never saved: its first part ("*Untitled 1",
 * "Untitled *", "New Document (Draft)"), without an edited mark, a number or a note in brackets, is
 * a catalog's word for one. A file named "Untitled.txt" is titled so, and is no such document.
 */
export function untitledDocument(title: string | undefined, catalogs: string[] = []): boolean {
  const document = titleFirstPart(title);
  if (!document) return false;
  const marked = withoutEditMark(document);
  const bare = marked
    .replace(/\s*[(（][^)）]*[)）]$/u, "")
    .replace(/\s*\d+$/u, "")
    .replace(/\s*\*$/u, "");
  if (bare !== "" && labelIs(bare, "untitled")) return true;
  // The app's own words for it, made with its number: Pluma's "Documento não-salvo 1".
  return englishOfFormatted(catalogs, marked).some((english) => labelIs(english, "untitled"));
}

/**
 * Whether a window's title names it a window of the app's settings: its first part ("Preferences",
 * "Einstellungen — Kate", "Preferenze") is a catalog's word for one.
 */
export function settingsWindow(title: string | undefined): boolean {
  const first = titleFirstPart(title)?.trim();
  if (!first) return false;
  if (labelIs(first, "settings")) return true;
  // The app's name, then the word: "Terminal Preferences", "Terminal-Einstellungen". Not where the
  // rest commits: a dialog titled "Reset Settings" does what its title says.
  const words = first.split(/[\s-]+/u);
  const last = words.at(-1);
  return words.length > 1 && !!last && labelIs(last, "settings") && !committingPhrase(first);
}

/** A title's document name without the "*" an editor marks unsaved edits with. */
const withoutEditMark = (document: string) => document.replace(/^\*\s*|\s*\*$/gu, "");

/** What a window's title names before " — " or " - " (its app's name after): "Untitled", "Preferences". */
const titleFirstPart = (title: string | undefined) => title?.split(/ [—–-] /u)[0];

/** A window's title with its first part in its app's own English, where its catalogs say it. */
function titleInEnglish(title: string | undefined, catalogs: string[]): string | undefined {
  const first = titleFirstPart(title);
  if (!title || !first) return title;
  const marked = withoutEditMark(first);
  const english = englishOf(catalogs, marked)?.[0] ?? englishOfFormatted(catalogs, marked)[0];
  return english ? title.replace(marked, english) : title;
}

// Readings of a target in its app's own English judged at most, where a text translates several.
const OWN_READINGS = 8;

/**
 * The target as its app's own catalog says it in English, where every label it shows or is described
 * by is a translation there (a label the catalog lacks, a page's text or a name the app made up, is
 * read in its own language, as ever): one reading for each msgid a text translates. Its toolkit's
 * catalogs are not the app's: a label that only they hold is read in its own language too.
 */
function inOwnEnglish(target: TargetFacts): TargetFacts[] | undefined {
  const window = target.window;
  const catalogs = window?.catalogs;
  if (!window || !catalogs?.length || !window.language || target.sets) return undefined;
  // A text of no letters (")", "7") is in no language: it stays as it is.
  const texts = [target.name, target.description, ...(target.shown ?? [])].filter(
    (t): t is string => !!t && /\p{L}/u.test(t),
  );
  if (texts.length === 0) return undefined;
  const english = new Map(texts.map((t) => [t, englishOf(catalogs, t)]));
  if ([...english.values()].some((ids) => !ids?.length)) return undefined;
  const inEnglish = (pick: (text: string) => string) => ({
    ...target,
    ...(target.name ? { name: pick(target.name) } : {}),
    ...(target.description ? { description: pick(target.description) } : {}),
    ...(target.shown ? { shown: target.shown.map(pick) } : {}),
    window: { ...window, language: "en", catalogs: undefined, title: titleInEnglish(window.title, catalogs) },
  });
  const first = (text: string) => english.get(text)?.[0] ?? text;
  const readings = [inEnglish(first)];
  for (const [text, ids] of english)
    for (const id of ids!.slice(1)) readings.push(inEnglish((t) => (t === text ? id : first(t))));
  return readings.slice(0, OWN_READINGS);
}

/** Whether a label is, whole, a verb of a committing meaning ("エクスポート", export). */
function wholeCommits(label: string): boolean {
  const meaning = committingMeaning(label);
  return !!meaning && labelWords(meaning.word).join(" ") === labelWords(label).join(" ");
}

/** What one label says: it commits (why), it decides that nothing commits, or it says nothing. */
type Verdict = { commits: string } | { safe: true } | undefined;

function judgeLabel(
  label: string,
  role: string,
  window: WindowFacts | undefined,
  shownAs = label,
  losesNothing = false,
): Verdict {
  const windowRole = window?.role;
  const inDialog = DIALOG_ROLES.has(windowRole ?? "");
  const what = `${aRole(role)} ${quoteLabel(shownAs)}`;
  // GNOME, Apple and Windows guidelines: an ellipsis means more input is asked before anything happens.
  if (endsInEllipsis(label)) return { safe: true };
  if (labelIs(label, "cancels")) return { safe: true };
  const judged = withoutNamedThings(label);
  if (!/[\p{L}\p{N}]/u.test(judged)) return undefined;
  const words = matchLabel(judged, undefined, window?.language);
  // Its committing phrase or verb, read as the label reading reads it: a label its catalogs show
  // whole as harmless ("Yeniden Yükle", reload) is committed by English phrases alone.
  const commits = committingPhrase(judged, { language: window?.language, toolkit: window?.toolkit });
  // "Save As", "Save a Copy", "Export As" open a chooser, whatever their punctuation; not where the
  // whole label is a committing verb that a catalog gives for Export As too (Japanese "エクスポート").
  if (words.asks && !wholeCommits(judged)) return { safe: true };
  // A terminal's paste warning: its Paste sends the clipboard to the shell.
  if (words.pastes && inDialog && window?.terminalApp !== false)
    return {
      commits: `${what}, which answers a terminal's paste warning: the pasted text runs${window?.terminalApp ? "" : " (whether this app is a terminal could not be read)"}`,
    };
  // A file chooser's Open or Select names a file for the app; the app has done nothing yet.
  if (words.picks && !commits && window?.chooser) return { safe: true };
  // Save of a document never saved asks for its name first, as Save As does (GNOME, KDE and Apple
  // guidelines): the window's title names it "Untitled".
  if (
    !inDialog &&
    words.saves &&
    labelIs(judged, "saves") &&
    untitledDocument(window?.title, window?.catalogs)
  )
    return { safe: true };
  // A settings window's OK, Apply, Save and Close keep or leave what was set there: values the same
  // window sets back, as a toggle's press sets one (GNOME's preferences apply as they are set).
  if (settingsWindow(window?.title) && (labelIs(judged, "keeps") || labelIs(judged, "closes")))
    return { safe: true };
  // A phrase, or a verb by its meaning in any inflection ("Paying", "Truncate table", "결제"), and a
  // cancel word's object ("Cancel subscription"): a main window has no other signal to fall back on.
  if (commits)
    return { commits: `${what} ("${commits.word}"${commits.what ? `: ${commits.what}` : " commits"})` };
  if (words.closes) {
    if (inDialog && window?.holdsInput === false) return { safe: true };
    // A find bar's Close hides the bar, and a Close beside a disabled Save has nothing unsaved.
    if (losesNothing) return { safe: true };
    return {
      commits: inDialog
        ? `${what}, which closes ${aRole(windowRole ?? "window")}${window?.holdsInput ? " holding input" : " whose fields could not be read"}`
        : `${what}, which closes a window that may hold unsaved work`,
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
// Where a drop only moves what is dropped into a view (a folder's list, a document, a canvas).
const DROP_CONTAINERS = roleSet(
  "list",
  "list box",
  "table",
  "tree",
  "tree table",
  "layered pane",
  "scroll pane",
  "viewport",
  "document frame",
  "document text",
  "text",
  "entry",
  "canvas",
  "drawing area",
  "panel",
  "filler",
  // A drag on a value control moves its knob: what it sets is judged as a value set.
  "slider",
  "scroll bar",
  "spin button",
  "dial",
  "split pane",
  "separator",
);
/**
 * A drop onto an element that is not pressed (a trash or folder view, a drop area): what it is named
 * for takes what is dropped, so it commits unless its name reads as harmless ("Documents"); an
 * unnamed one commits unless it is a view that only holds what is dropped (a folder's list).
 */
function dropReason(target: TargetFacts, role: string): string | undefined {
  const labels = labelsOf(target)
    .filter((l) => l.shown)
    // "Drop here" names the drop itself, not what the area does with it.
    .map((l) => ({ label: l.text, text: l.text.replace(DROP_WORDS, " ").trim() }))
    .filter(({ text }) => text !== "");
  if (labels.length === 0)
    return DROP_CONTAINERS.has(role)
      ? undefined
      : `an unnamed ${role}: what it does with a drop cannot be read`;
  for (const { label, text } of labels) {
    const verdict = judgeLabel(text, role, target.window, label);
    if (verdict && "commits" in verdict) return verdict.commits;
    const agent = labelWords(text)
      .map(agentOf)
      .find((verb) => verb);
    if (agent) return `${aRole(role)} ${quoteLabel(label)} (it takes a drop to ${agent})`;
    if (symbolsOnly(text)) return `${aRole(role)} ${quoteLabel(label)}: a drop target named by symbols only`;
    const unknown = readLabel(text, { language: target.window?.language }).unknown;
    if (unknown.length > 0)
      return `${aRole(role)} ${quoteLabel(label)}: deskhand cannot read ${JSON.stringify(unknown[0])} as harmless`;
  }
  return undefined;
}

/**
 * What a control is, before any of its words: whether its press can commit at all. A control that
 * opens something (a menu title, an item with a popup), shows a view (a page tab, a sortable
 * header) or sets a value the user can set back commits nothing whatever it is named; a command
 * (a push button, a menu item) commits unless its label reads as harmless; a link or a choice (a
 * list item, a cell) commits where its words say so.
 */
type ControlKind = "opens" | "view" | "setting" | "command" | "link" | "choice";

function controlKind(target: TargetFacts, role: string): ControlKind {
  // A menu title opens its menu, whatever it or its items say: the items are pressed later, and judged then.
  if (target.opensMenu || target.states?.includes("has popup")) return "opens";
  // A button that reports itself expandable or expanded (a page's aria-expanded, "Ver desglose") shows
  // or hides what it holds.
  if (BUTTON_ROLES.has(role) && DISCLOSES.some((state) => target.states?.includes(state))) return "opens";
  if (role === "page tab" || HEADER_ROLES.has(role) || target.inside?.some((r) => HEADER_ROLES.has(r)))
    return "view";
  if (role === "table cell" && target.record && !target.twice) return "view";
  if (SETTING_ROLES.has(role) || pressedToggle(target, role)) return "setting";
  if (role === "link") return "link";
  // An item of a combo box's list is one of its options, a menu item's role or not.
  if (target.inside?.includes("combo box")) return "choice";
  return COMMAND_ROLES.has(role) ? "command" : "choice";
}

/** States of a button that shows or hides a section: a disclosure, not a command. */
const DISCLOSES = ["expandable", "expanded", "collapsed"];

/**
 * A name written as a program writes one, lower-case words joined by "-", "_" or "." with no space
 * ("edit-delete", an icon; "delete-old.txt", a file): a thing a view lists, not a command's label,
 * which is written for a person to read.
 */
const IDENTIFIER = /^[\p{Ll}\p{Nd}]+(?:[-_.][\p{Ll}\p{Nd}]+)+$/u;

/**
 * A toggle reported as a push button: GTK 4.8 gives its toggle buttons the push button's role, and
 * only the "pressed" state (shown while it is on) tells them apart. A push button held down by the
 * pointer reports "armed" too (Java), and is not one; an untoggled GTK 4 toggle shows nothing, so it
 * is judged by its words as a command.
 */
const pressedToggle = (target: TargetFacts, role: string) =>
  role === "push button" && !!target.states?.includes("pressed") && !target.states.includes("armed");

function pressReason(target: TargetFacts): string | undefined {
  const readings = inOwnEnglish(target);
  if (readings) {
    // Each English the app's catalog gives is judged; the strictest stands. Its words are named
    // beside the English they are: 'a push button "Close" ("Fechar" in its app's own words)'.
    for (const reading of readings) {
      const reason = pressReason(reading);
      if (reason === undefined) continue;
      const own = `(${quoteLabel(target.name || target.description || "")} in its app's own words)`;
      const english = quoteLabel(reading.name || reading.description || "");
      return reason.includes(english) ? reason.replace(english, `${english} ${own}`) : `${reason} ${own}`;
    }
    return undefined;
  }
  if (target.nothing) return undefined;
  const role = target.role?.toLowerCase();
  // A drop lands on what its target is named for, pressable or not (an icon "Shredder").
  if (role && target.dropped)
    return (
      dropReason(target, role) ??
      (PRESSABLE_ROLES.has(role) ? pressReason({ ...target, dropped: false }) : undefined)
    );
  // A tab chosen shows its page, whatever the route (act select on the tab list, a click).
  if (target.sets && role !== "page tab") return setReason(target, role ?? "element");
  if (!role || !PRESSABLE_ROLES.has(role)) return undefined;
  const kind = controlKind(target, role);
  const windowRole = target.window?.role;
  if (kind === "opens" || kind === "view" || (kind === "setting" && windowRole !== "alert")) return undefined;
  // A command pressed twice: its first press may put another command under the pointer (a "Delete…"
  // that shows its confirming "Delete" there), which the second presses unread.
  if (target.twice && (kind === "command" || kind === "link"))
    return (
      pressReason({ ...target, twice: false }) ??
      `${aRole(role)} ${quoteLabel(target.name ?? "")} twice (a double click): what its first press puts under the pointer, the second presses unread; click once, then again, to have each press judged`
    );
  const labels = labelsOf(target);
  if (labels.length === 0)
    return kind === "command" && BUTTON_ROLES.has(role)
      ? `an unnamed ${role}${windowRole ? ` in ${aRole(windowRole)}` : ""}: what it does cannot be read`
      : undefined;
  // What the gate did not read may say anything: a label longer than it reads counts as committing.
  const long = labels.find((l) => l.longer !== undefined);
  if (long)
    return `${aRole(role)} whose label runs to ${long.longer!.toLocaleString("en-US")} characters: deskhand reads only the first ${LABEL_CEILING.toLocaleString("en-US")}, so it counts as committing`;
  // A choice named as a program names things (an icon browser's "edit-delete" cell) holds data.
  if (kind === "choice" && labels.every((l) => IDENTIFIER.test(l.text))) return undefined;
  // A message's only button says only that it was read (an information box's OK): nothing commits.
  if (acknowledging(target, role, labels)) return undefined;
  // A keypad's key: its own name is judged ("OK" commits on a PIN pad), never its description.
  if (target.keypadKey) {
    const own = labels.filter((l) => l.shown);
    return own.length ? wordsDecide(target, role, own) || undefined : undefined;
  }
  // A dialog of fields titled for what commits nothing: its OK does that ("Text Import").
  if (confirmsTitled(target, role, labels)) return undefined;
  const answers = answersMessage(target, role, labels);
  if (answers) return answers;
  const decided = wordsDecide(target, role, labels);
  if (decided !== undefined) return decided || undefined;
  return (
    structureReason(target, role, labels[0]!.text) ??
    unreadReason(kind, role, labels, target.window?.language)
  );
}

/**
 * What the labels' words decide: a reason where one commits, "" where one decides nothing commits
 * (an ellipsis, a cancel word), undefined where they decide nothing. Every label shown is judged and
 * the strictest wins (a web button named "Show details" that shows "Buy now"); the description is
 * heard only where the shown labels decide nothing: it explains ("Save current document as another
 * file") a label that already says "Save As…".
 */
function wordsDecide(target: TargetFacts, role: string, labels: Label[]): string | undefined {
  const judge = (shown: boolean) =>
    labels
      .filter((l) => l.shown === shown)
      .map((label) =>
        judgeLabel(
          label.text,
          role,
          target.window,
          label.text,
          !!(target.searchBar || target.besideDisabledSave),
        ),
      );
  let verdicts = judge(true);
  if (!verdicts.some((v) => v)) verdicts = judge(false);
  const commits = verdicts.find((v): v is { commits: string } => !!v && "commits" in v);
  if (commits) return commits.commits;
  return verdicts.some((v) => v && "safe" in v) ? "" : undefined;
}

/**
 * An edit the app's undo reverts commits nothing (rule 7), unless it answers a question whose
 * message says it commits: "Replace All" under "This cannot be undone". Its other answers ("Keep",
 * "Cancel") are judged by their own words.
 */
function answersMessage(target: TargetFacts, role: string, labels: Label[]): string | undefined {
  const window = target.window;
  if (!BUTTON_ROLES.has(role) || !DIALOG_ROLES.has(window?.role ?? "") || window?.messageCommits !== true)
    return undefined;
  const edit = labels.find((l) => l.shown && matchLabel(l.text, undefined, window.language).edits);
  if (!edit) return undefined;
  return `${aRole(role)} ${quoteLabel(edit.text)}, an edit that answers a message that says what commits (or that deskhand cannot read)`;
}

/** Labels that say only that a message was read: "OK" in most languages' catalogs. */
const ACKNOWLEDGES = /^(ok|okay)$/iu;

/** Whether the press is a message's only button, labelled only to acknowledge it. */
function acknowledging(target: TargetFacts, role: string, labels: Label[]): boolean {
  if (!BUTTON_ROLES.has(role) || !DIALOG_ROLES.has(target.window?.role ?? "")) return false;
  if (!labels.filter((l) => l.shown).every((l) => ACKNOWLEDGES.test(l.text))) return false;
  return target.window?.acknowledges === true;
}

/**
 * Whether the press is OK in a dialog of fields or choices whose title names what it is for, and that
 * commits nothing ("Text Import", "Sort", "Insert Table"; `titled`, read by the hands): OK does what
 * the title says. A dialog that only asks is judged by its message instead (acknowledging).
 */
function confirmsTitled(target: TargetFacts, role: string, labels: Label[]): boolean {
  const window = target.window;
  if (!BUTTON_ROLES.has(role) || !DIALOG_ROLES.has(window?.role ?? "")) return false;
  if (!labels.filter((l) => l.shown).every((l) => ACKNOWLEDGES.test(l.text))) return false;
  return window?.titled === true;
}

/**
 * Whether a dialog's text says nothing that commits, so that acknowledging it does nothing: every
 * text read, none with a committing word ("All files will be deleted" asks), and in a language
 * deskhand reads (an unread one asks). No text read: undefined, so it asks.
 */
export function acknowledgedMessage(texts: string[], language: string | undefined): boolean | undefined {
  if (texts.length === 0) return undefined;
  return texts.every((text) => {
    const reading = readLabel(withoutNamedThings(text), { language, sentence: true });
    return !reading.commits && !reading.unreadLanguage;
  });
}

/** What the window's structure says of a press its words left undecided: an alert's answer, a default. */
function structureReason(target: TargetFacts, role: string, label: string): string | undefined {
  const window = target.window;
  const windowRole = window?.role;
  const what = `${aRole(role)} ${quoteLabel(label)}`;
  if (windowRole === "alert" && BUTTON_ROLES.has(role)) return `${what}, which answers an alert`;
  // A modal dialog's default answers it; so does a modeless one's that only asks (no field to fill: a
  // question left open beside its window), which a modeless Find dialog with its field is not.
  if (DIALOG_ROLES.has(windowRole ?? "") && target.states?.includes("is default")) {
    // A dialog of fields titled for what commits nothing ("Insert Table", "Rename"): its default, whose
    // own words read as harmless, does that.
    if (window?.titled === true && readLabel(label, { language: window.language }).harmless) return undefined;
    if (window?.states?.includes("modal")) return `${what}, the default button of a modal ${windowRole}`;
    if (window?.asks !== false)
      return `${what}, the default button of ${aRole(windowRole ?? "window")} that asks a question (no field to fill${window?.asks === undefined ? ", or its fields could not be read" : ""})`;
  }
  return undefined;
}

/**
 * A command commits unless its label reads as harmless: every word read by a lexicon deskhand has,
 * none committing (a word the catalogs show only in committing labels, "Zaplaťte", commits). A link
 * commits where it cannot be read at all (symbols only, a language deskhand has no words for); a
 * choice (a list item, a cell) shows data, not a command.
 */
function unreadReason(
  kind: ControlKind,
  role: string,
  labels: Label[],
  language: string | undefined,
): string | undefined {
  if (kind !== "command" && kind !== "link") return undefined;
  const what = `${aRole(role)} ${quoteLabel(labels[0]!.text)}`;
  if (labels.every((l) => symbolsOnly(l.text)))
    return `${what}: its label is symbols only, which say nothing deskhand can read, so it counts as committing`;
  const shown = labels.filter((l) => l.shown && !symbolsOnly(l.text));
  // A command with no readable shown label is read by its description (an icon button's tooltip).
  const read = shown.length > 0 ? shown : labels.filter((l) => !symbolsOnly(l.text));
  if (kind === "link") {
    const unknown = read.flatMap((l) => unknownWords(l.text));
    return unknown.length > 0 ? `${what}: ${unreadWords(unknown)}` : undefined;
  }
  // The words that remain once the things a label names are taken out ("Print Preview").
  const readings = read.map((l) => readLabel(withoutNamedThings(l.text), { language }));
  const commits = readings.find((r) => r.commits)?.commits;
  if (commits) return `${what} ("${commits.word}": ${commits.what ?? "commits"})`;
  const unknown = readings.flatMap((r) => r.unknown);
  if (unknown.length === 0) return undefined;
  const foreign = readings.find((r) => r.unreadLanguage)?.unreadLanguage;
  const verb = readings.find((r) => r.unreadVerb)?.unreadVerb;
  if (verb)
    return `${what}: ${JSON.stringify(verb)} is an English verb no catalog on this machine shows leading a harmless label, so what it does cannot be read and it counts as committing`;
  return foreign
    ? `${what}: its app shows its labels in ${JSON.stringify(foreign)}, a language no catalog on this machine is in, so deskhand cannot read ${JSON.stringify(unknown[0])} as harmless and it counts as committing`
    : `${what}: ${unreadWords(unknown)}`;
}

const unreadWords = (unknown: string[]) =>
  `deskhand cannot read ${unknown
    .slice(0, 3)
    .map((w) => JSON.stringify(w))
    .join(
      ", ",
    )} as harmless (no lexicon it has knows ${unknown.length > 1 ? "them" : "it"}), so it counts as committing`;

/**
 * A value set or an option chosen (a slider "Slide to pay" moved to its end, "Truncate all tables"
 * chosen): judged by the words of the control or the option, as a command's would be. A list's name
 * says what its choice is about ("Método de envío", shipping method), not what choosing does. What
 * is typed into a text field is data, not a command: neither it nor the field's name is judged
 * ("Nota para el repartidor"). An option's price is what choosing it would cost later ("Urgente
 * (9,00 €)"): choosing it pays nothing.
 */
function setReason(target: TargetFacts, role: string): string | undefined {
  if (TYPED_TEXT_ROLES.has(role)) return undefined;
  const option = target.sets?.list !== undefined;
  // A list named for a search or a filter ("Filter", "Φίλτρο") chooses what a view shows ("Sent").
  const list = target.sets?.list?.name;
  if (option && list && matchLabel(list, undefined, target.window?.language).searches) return undefined;
  const texts = [target.name, ...(EDITABLE_ROLES.has(role) ? [] : [target.sets?.value])];
  for (const text of texts) {
    if (!text) continue;
    const commits = readLabel(text, { language: target.window?.language }).commits;
    if (commits && !(commits.amount && option))
      return `${target.name === text ? `${aRole(role)}` : "an option or value"} ${quoteLabel(text)} ("${commits.word}"${commits.what ? `: ${commits.what}` : " commits"})`;
  }
  return undefined;
}

/** Roles whose value a wheel turn changes: the wheel over them is input (L2), not a scroll. */
const VALUE_ROLES = roleSet("slider", "spin button", "combo box", "dial");

export function wheelChangesValue(role: string | undefined): boolean {
  return role !== undefined && VALUE_ROLES.has(role.toLowerCase());
}
