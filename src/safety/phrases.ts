// The English phrases whose translations make the gate's vocabulary, by what pressing them does.
// Translations are not written by hand: they are looked up in gettext catalogs, both at development
// time (scripts/build-vocabulary.ts, from Debian's catalogs of widely translated apps, shipped as
// data/vocabulary.json) and at run time (every catalog installed on the machine).

/** commits: presses that commit; closes: close a window; edits: change a document, undoably;
 * cancels: back out; asks: open a further step (a file chooser); picks: a chooser's answer that
 * only names a file; searches: a search field's words; pastes: paste the clipboard; saves: Save
 * alone; untitled: a document never saved, as its window's title names it; settings: a window of
 * the app's settings, as its title names it; keeps: what keeps a settings window's values (OK,
 * Apply, Save alone). */
export type WordKind =
  | "commits"
  | "closes"
  | "edits"
  | "cancels"
  | "asks"
  | "picks"
  | "searches"
  | "pastes"
  | "saves"
  | "untitled"
  | "settings"
  | "keeps";

// The committing phrases that, in a settings window, only keep what was set there.
export const KEEPS: readonly string[] = ["ok", "okay", "apply", "save"];

// English, beyond what catalogs translate: the verbs of commerce, publishing, accounts and systems.
export const ENGLISH: Record<WordKind, string[]> = {
  commits: [
    "ok",
    "okay",
    "save",
    "send",
    "delete",
    "submit",
    "apply",
    "confirm",
    "yes",
    "remove",
    "discard",
    "erase",
    "format",
    "pay",
    "buy",
    "purchase",
    "order",
    "checkout",
    "check out",
    "publish",
    "post",
    "overwrite",
    "finish",
    "install",
    "uninstall",
    "reset",
    "destroy",
    "drop",
    "empty",
    "sign out",
    "log out",
    "logout",
    "quit",
    "exit",
    "accept",
    "agree",
    "commit",
    "merge",
    "deploy",
    "transfer",
    "shut down",
    "shutdown",
    "power off",
    "restart",
    "reboot",
    "trash",
    "proceed",
    "continue",
    "approve",
    "revoke",
    "print",
    "execute",
    "end process",
    "kill",
    "terminate",
    "wipe",
    "purge",
    "authorize",
    "grant",
    "unsubscribe",
    "archive",
    "restore",
    "revert",
    "forget",
    "leave",
    "decline",
    "reject",
    "clear",
    "donate",
    // What a message says of its act: it stays done.
    "cannot be undone",
    "can't be undone",
    "can not be undone",
    "cannot be reversed",
    "irreversible",
    "upload",
    "share",
  ],
  closes: ["close"],
  edits: ["replace", "replace all"],
  cancels: ["cancel", "help", "back", "previous", "dismiss"],
  asks: ["save as", "save a copy", "save copy as", "save as copy", "export as", "save copy"],
  picks: ["open", "select", "choose", "pick", "select folder", "open folder", "select file"],
  // A find bar's own options and moves name nothing else: "Match case" beside a field is a search's.
  searches: [
    "find",
    "search",
    "search for",
    "find next",
    "find previous",
    "look for",
    "find what",
    "filter",
    "match case",
    "case sensitive",
    "whole words",
    "whole word",
    "match whole word",
    "regular expression",
    "next match",
    "previous match",
  ],
  pastes: ["paste"],
  // Save alone, and what an editor titles a document never saved: there, Save asks for a name first.
  saves: ["save"],
  untitled: ["untitled", "untitled document", "new document", "unsaved document"],
  // A window titled so holds the app's settings: each a value the same window sets back.
  settings: ["preferences", "settings", "options", "configuration", "configure"],
  keeps: [...KEEPS],
};

/**
 * The catalog messages whose translations are taken: a label that is exactly one phrase, or a
 * committing verb with its usual object ("Empty Trash", "Send Message", "Pay Invoice"). Words that are
 * also nouns or adjectives ("Empty", "Order", "Post") count only as a button's label, with a mnemonic.
 */
export const CATALOG_PHRASES: Record<WordKind, string[]> = {
  ...ENGLISH,
  commits: [
    ...ENGLISH.commits.filter((w) => !["empty", "order", "post", "format", "archive", "drop"].includes(w)),
    "empty trash",
    "empty wastebasket",
    "move to trash",
    "delete permanently",
    "send now",
    "send message",
    "send email",
    "send mail",
    "send file",
    "send files",
    "pay now",
    "pay invoice",
    "pay bill",
    "buy now",
    "place order",
    "delete all",
    "remove all",
    "clear all",
    "clear history",
    "uninstall",
    "sign out",
    "log out",
    "power off",
    "restart",
    "shut down",
    "end session",
    "delete account",
    "remove account",
    "delete file",
    "delete files",
    "delete folder",
    "delete message",
    "delete messages",
    "delete selected",
  ],
};

/** Verbs that are also nouns or adjectives: a catalog's translation of them counts with a mnemonic. */
export const MNEMONIC_ONLY = new Set([
  "empty",
  "order",
  "post",
  "format",
  "archive",
  "drop",
  "clear",
  "purchase",
  "transfer",
]);

/**
 * English verbs that commit by what they act on. With what a document only shows (its cells' look, its
 * zoom, a filter) they change how it looks and keep its data: "Format Cells", "Clear Direct
 * Formatting", "Reset Zoom", "Drop Caps". With anything else they commit as the phrases say: "Format
 * Disk", "Clear History", "Clear Cells", "Reset Password", "Drop Table".
 */
export const LOOKS_ONLY: Readonly<Record<string, readonly string[]>> = {
  format: [
    ...["cells", "cell", "text", "paragraph", "paragraphs", "character", "characters", "page", "pages"],
    ...["table", "chart", "axis", "legend", "shape", "object", "image", "picture", "frame", "painter"],
    ...["number", "numbers", "code", "columns", "column", "rows", "row", "selection"],
  ],
  // A calculator's "Clear Display" clears what it shows.
  clear: [
    "formatting",
    "format",
    "formats",
    "selection",
    "filter",
    "filters",
    "search",
    "highlighting",
    "display",
  ],
  reset: ["zoom", "view", "layout", "filter", "filters", "sort", "search", "formatting"],
  drop: ["caps", "cap", "shadow"],
};

const ELLIPSIS = /\s*(\.\.\.|…)\s*$/u;
// A mnemonic as catalogs write it: "_Save", "&Save", "Save (_S)".
const MNEMONIC = /[_&][\p{L}\p{N}]|\([_&][\p{L}\p{N}]\)/u;
// What makes a catalog string not a label: a format directive, markup, a line break.
const NOT_A_LABEL = /%|<|\n|\{|\$|\ufffd/u;

const LOOKUP = new Map<string, { kind: WordKind; english: string }>();
for (const [kind, phrases] of Object.entries(CATALOG_PHRASES) as [WordKind, string[]][])
  for (const english of phrases) if (!LOOKUP.has(english)) LOOKUP.set(english, { kind, english });

/**
 * NFKC, as labels are compared, but Thai's and Lao's vowel AM kept whole: NFKC splits "ำ" into a
 * nikhahit and "า", and ICU then finds no word in "ชำระ" (pay).
 */
export function foldForms(text: string): string {
  return text
    .normalize("NFKC")
    .replace(/\u0e4d\u0e32/gu, "\u0e33")
    .replace(/\u0ecd\u0eb2/gu, "\u0eb3");
}

/** The label as a catalog writes it, for matching: mnemonics out, spaces folded, lower case. */
function bare(text: string): string {
  return foldForms(text)
    .replace(/\s*\([_&][\p{L}\p{N}]\)/gu, "")
    .split("&&")
    .map((part) => part.replace(/[_&]/g, ""))
    .join("&")
    .replace(/\s+/g, " ")
    .trim();
}

const FIRST_WORDS = new Set([...LOOKUP.keys()].map((phrase) => phrase.split(" ")[0]!));

/**
 * Whether a msgid may be one of the phrases, cheap enough to run on every catalog string: a capital
 * (or a mnemonic marker and a capital) starting a word that starts a phrase.
 */
export function mayBePhrase(id: string): boolean {
  if (id.length > 40) return false;
  let word = "";
  for (const char of id) {
    if (char === "_" || char === "&") continue;
    if (char === " " || char === "." || char === "…") break;
    word += char;
    if (word.length > 12) return false;
  }
  const first = word.charCodeAt(0);
  return first >= 0x41 && first <= 0x5a && FIRST_WORDS.has(word.toLowerCase());
}

/**
 * The phrase a catalog message translates, with its label as the catalog gives it, or undefined. An
 * ellipsis asks for more before anything happens: only an "asks" phrase keeps one.
 */
export function catalogPhrase(
  id: string,
  text: string,
): { kind: WordKind; english: string; text: string } | undefined {
  if (!mayBePhrase(id) || NOT_A_LABEL.test(id) || NOT_A_LABEL.test(text)) return undefined;
  const ellipsis = ELLIPSIS.test(id);
  const english = bare(id).replace(ELLIPSIS, "").toLowerCase();
  const found = LOOKUP.get(english);
  if (!found || (ellipsis && found.kind !== "asks")) return undefined;
  if (MNEMONIC_ONLY.has(english) && !MNEMONIC.test(id)) return undefined;
  const label = bare(text).replace(ELLIPSIS, "");
  // A translation that runs to a sentence is a tooltip's, not a button's.
  if (!label || label.split(" ").length > 5 || label.length > 40) return undefined;
  return { ...found, text: label };
}

// Scripts written without spaces between words, whose words ICU's dictionaries find ("ลบไฟล์":
// ลบ, ไฟล์). Chinese and Japanese are read by their pieces instead (label-lexicon.ts).
export const UNSPACED = /[\p{Script=Thai}\p{Script=Lao}\p{Script=Myanmar}\p{Script=Khmer}]/u;
let segmenter: Intl.Segmenter | undefined;

/** A run of letters as its words: itself, or the words ICU finds in a run of an unspaced script. */
export function wordsOfRun(run: string): string[] {
  if (!UNSPACED.test(run)) return [run];
  segmenter ??= new Intl.Segmenter("und", { granularity: "word" });
  const words = [...segmenter.segment(run)].filter((s) => s.isWordLike).map((s) => s.segment);
  return words.length > 0 ? words : [run];
}

/** The words of a label, as the lexicon keeps them: letters and marks, lower case. */
export function labelWords(text: string): string[] {
  return (
    bare(text)
      .toLowerCase()
      .match(/[\p{L}\p{M}]+(?:['’][\p{L}\p{M}]+)*/gu) ?? []
  ).flatMap((w) => wordsOfRun(w.normalize("NFC")));
}

/** This module's own file, whose source is part of the cached phrases' key (committing-words.ts). */
export const PHRASES_MODULE = import.meta.url;

/** A label without the key it is bound to, in brackets at its end: GNOME Calculator's "End Group [)]". */
export const withoutBoundKey = (text: string): string => text.replace(/\s*\[[^\]]{1,12}\]\s*$/u, "");
