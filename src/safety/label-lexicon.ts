// What each word of a label means to the gate, learnt from the translation catalogs on the machine:
// in every language, the words of translated labels whose English msgid commits (pay, send, delete,
// transfer, order, publish…: the classes of data/meanings.json and the committing phrases) against
// those of labels whose msgid commits nothing. A word seen mostly in committing labels commits; one
// seen in harmless labels, and not mostly in committing ones, reads as harmless; any other word is
// unread, and a command holding one asks a person. English reads by the msgids themselves.
//
// Context decides where words alone cannot: a short label seen whole only in harmless labels reads as
// harmless ("Yeniden Yükle", reload, though "Yükle" uploads); a word the language's
// messages, sentences too, use mostly where the English says a committing verb is a verb, however
// many harmless labels one catalog's list adds ("Envoyer", KWin's "Envoyer une fenêtre…").
//
// Words are counted a language at a time (the catalogs are listed by language), so a first build
// holds one language's counts, not all of them: a CLI process has a 96 MB heap. The result is cached
// beside the catalogs' other caches, as sorted word lists read off the heap (lexicon.ts).
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { CATALOG_READER, type CatalogFile, listCatalogs, readCatalog } from "../platform/catalogs.js";
import { type CatalogSource, cachedOnce } from "../platform/translations.js";
import { Lexicon } from "./lexicon.js";
import { committingMeaning, LIGHT_VERBS } from "./meanings.js";
import { NAMED_THINGS_MODULE, withoutEnglishThings } from "./named-things.js";
import {
  CATALOG_PHRASES,
  catalogPhrase,
  ENGLISH,
  labelWords,
  MNEMONIC_ONLY,
  PHRASES_MODULE,
} from "./phrases.js";

/** Which catalogs a lexicon is built from: all, or (for measuring it) all but some. */
export interface CatalogFilter {
  /** Keeps a catalog's language ("de", "pt_BR") and domain ("gtk30"). */
  keep?: ((language: string, domain: string) => boolean) | undefined;
  /** A name for the filter, part of the cache's key; without one a filtered build is not cached. */
  name?: string | undefined;
}

export interface LabelLexicon {
  /** Words seen mostly in labels that commit, in some language. */
  commits: Lexicon;
  /** Verbs written as two words, "first second", that commit together ("нест кардан", "skriv ut"). */
  pairs: Lexicon;
  /** Words seen in harmless labels, and not mostly in committing ones. */
  harmless: Lexicon;
  /** The languages it learnt from, by their base code ("pt" for pt_BR), English among them. */
  languages: Set<string>;
  /** The first words of the English msgids that commit nothing ("open", "show", "address"). */
  leads: Lexicon;
  /**
   * The words of English msgids that commit nothing, in two or more: English as labels write it. A
   * dictionary's word ("del", "cuir") is no reading of a label in a language deskhand has no catalog of.
   */
  english: Lexicon;
  /**
   * Each language's own committing verbs, as "de\u0001senden": a word that commits in the app's
   * language though other languages write it in harmless labels (Estonian "saada", send; Finnish
   * "saada", get).
   */
  ownVerbs: Lexicon;
  /**
   * One language's own harmless words, by its base code: in an app whose language is known, a word is
   * read as harmless by that language's labels, not another's ("beli" is white in Serbian and buy in
   * Malay). Learnt from its catalogs alone when first asked (cached); undefined for a language with none.
   * A word only its own language vouches for is there a second time, after VOUCHED.
   */
  ownHarmless(language: string): Lexicon | undefined;
  /**
   * Labels of one or two words that a language's catalogs show whole in harmless labels, twice or
   * more, and no language in a committing one ("Zooma ut", "Yeniden Yükle", "Tillbaka"): read as
   * harmless together though a word of theirs commits elsewhere ("Skriv ut" prints, "Yükle" uploads).
   */
  units: Lexicon;
  /**
   * In a language written a syllable at a time (Vietnamese), the syllable pairs its harmless labels
   * hold, twice or more, and none of its committing ones: there a word is often two syllables, each
   * of which alone means something else ("thanh toán", pay, is "bar" and "math").
   */
  syllablePairs: Lexicon;
}

/**
 * Before a word of a language's own harmless words that its own labels vouch for, though the counts
 * of all do not: it reads as harmless in that language only (label-reading.ts harmlessWordsOf).
 */
export const VOUCHED = "\u0002";

/** Languages written with a space between syllables, not words: read by syllable pairs. */
export const SYLLABLE_SPACED = new Set(["vi"]);

/** The key of a language's own verb in `ownVerbs`. */
export const ownVerb = (language: string, word: string) => `${baseLanguage(language)}\u0001${word}`;

const bases = new Map<string, string>();

/**
 * A language's base code, as CLDR writes it: "pt" for "pt_BR", "sr" for "sr@latin", "de" for
 * "de_DE.UTF-8", "hy" for "hye" (a folder of its own beside "hy"), "ro" for "mo".
 */
export function baseLanguage(language: string): string {
  const code = language.split(/[_@.-]/u)[0]!.toLowerCase();
  let base = bases.get(code);
  if (base === undefined) {
    try {
      base = Intl.getCanonicalLocales(code)[0]!.toLowerCase();
    } catch {
      base = code;
    }
    bases.set(code, base);
  }
  return base;
}

/** A catalog's message that is a label: short, capitalized (or a mnemonic), no format or markup. */
const NOT_A_LABEL = /%|<|\n|\{|\$|\ufffd|\\/u;
// Code lists (countries, languages, places, keyboard layouts) are names, not labels.
export const NOT_LABELS = /^iso_|locations|^xkeyboard-config/;
// A message's context says what it is: one that names a kind of name (a key's, "keyboard-key-name":
// "Del"; a paper size, a colour, a font, a script, a mouse button, a place, an accessible role, the
// translators) is no label. Other contexts are a UI's words ("@action:button", "Stock label", "Wacom
// action-type"): KDE's labels all have one.
const NAME_CONTEXT =
  /\b(key|keyboard|paper|colou?r|font|fontface|opentype|script|mouse|city|state in|country|region|accessibility|translators)\b/iu;
/** Whether a message with this context (none: "") may be a label. */
export const labelContext = (context: string) => !NAME_CONTEXT.test(context);
// A msgid of up to this many bytes and words: labels, and the short messages that say the same words.
const LABEL_ID_BYTES = 64;
const LABEL_WORDS = 8;
const MEANINGS = new URL("../../data/meanings.json", import.meta.url);
const labelStart = (byte: number) => (byte >= 0x41 && byte <= 0x5a) || byte === 0x5f || byte === 0x26;

/** The catalog's domain: its file name without ".mo". */
export const domainOf = (file: CatalogFile) => basename(file.path, ".mo");

// The English words a committing msgid must hold one of: the meanings' verbs in every form, the
// light verbs and cancel words their nouns follow, the committing phrases' first words. Asking the
// meanings only then keeps a first build fast.
let candidates: Set<string> | undefined;

function candidateWords(): Set<string> {
  if (candidates) return candidates;
  const meanings = JSON.parse(readFileSync(MEANINGS, "utf8")) as {
    english: Record<string, { forms: string[] }>;
  };
  const phrases = [
    ...Object.values(meanings.english).flatMap((entry) => entry.forms),
    ...LIGHT_VERBS,
    ...ENGLISH.cancels,
    ...CATALOG_PHRASES.commits,
  ];
  candidates = new Set(phrases.map((phrase) => labelWords(phrase)[0] ?? ""));
  return candidates;
}

const STATUS_LEAD = /^[a-z]{3,}ing$/u;

// English committing words that are also nouns ("Order", "Trash", "Format"): they make a msgid commit
// only as catalogPhrase takes them (a button's label, with a mnemonic). "Clear History" clears.
const NOUNS_TOO = new Set([...MNEMONIC_ONLY, "trash"].filter((word) => word !== "clear"));
const COMMITS_FIRST = new Set(
  ENGLISH.commits.filter((phrase) => !phrase.includes(" ") && !NOUNS_TOO.has(phrase)),
);

/**
 * Whether an English msgid commits: a committing phrase, a committing verb first ("Clear History",
 * "Restore Defaults") or a verb by its meaning ("Pay Invoice", "Truncate Table").
 */
function committingId(id: string, text: string, words: string[]): boolean {
  if (!words.some((word) => candidateWords().has(word))) return false;
  // A msgid that says what the app is doing ("Calculating upgrade", "Checking for updates") is a
  // status, no command: led by an -ing form that commits nothing, what it names is not pressed.
  if (STATUS_LEAD.test(words[0] ?? "") && !committingMeaning(words[0]!, "english")) return false;
  // "Order by Name", "Print Preview" name a thing: what else the msgid says decides.
  const bareId = id.replace(/[_&]/g, "").trim();
  const unnamed = withoutEnglishThings(bareId);
  if (unnamed !== bareId) return unnamed !== "" && committingId(unnamed, text, labelWords(unnamed));
  if (COMMITS_FIRST.has(words[0]!) && words.length <= 4) return true;
  return catalogPhrase(id, text)?.kind === "commits" || !!committingMeaning(id.replace(/[_&]/g, ""));
}

// The pieces of a Chinese or Japanese run counted as words of their own: its words have no spaces
// between them. (A piece of Thai or Myanmar would be part of a syllable.)
const CJK_PIECE = { shortest: 2, longest: 4 };
export const HAN_KANA = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー]+$/u;

/** The pieces of a run written without spaces ("ファイルを削除": ファイ, ファイル, 削除…); none for others. */
export function pieces(run: string): string[] {
  if (!HAN_KANA.test(run)) return [];
  const chars = [...run];
  const found: string[] = [];
  for (let start = 0; start < chars.length; start++)
    for (
      let length = CJK_PIECE.shortest;
      length <= CJK_PIECE.longest && start + length <= chars.length;
      length++
    )
      if (length < chars.length) found.push(chars.slice(start, start + length).join(""));
  return found;
}

// Words side by side are counted as one too, for the committing verbs written as two ("нест кардан",
// "gỡ bỏ", "o weka"), whose words each stand in harmless labels as well. A pair is only ever a
// committing word: a label is harmless when each of its words is.
const isPair = (word: string) => word.includes(" ");

/** A label's words side by side, as "first second". */
export function pairsOf(words: string[]): string[] {
  return words.slice(1).map((word, i) => `${words[i]} ${word}`);
}

/** A label's words and whether its msgid commits. */
interface Seen {
  words: string[];
  commits: boolean;
  /** The label's own words (no pieces or pairs), joined by spaces, for a label of UNIT_WORDS or fewer. */
  unit?: string | undefined;
  /** Its English backs out ("Cancel", "Close"): many languages say that with their delete word. */
  backsOut?: true;
}

// A label this short, seen whole, is a unit of meaning of its own (units in LabelLexicon).
const UNIT_WORDS = 2;

// In one language, a word is a committing verb when it stands in at least STRONG times as many
// committing labels as harmless ones (and in two): it commits in every language (a spelling is one
// word to the gate, whatever its language). The other words beside it ("Delete File", "Zaplatit
// fakturu") count only the committing labels no such verb explains, summed over all languages: a
// word commits when it stands in as many committing labels so counted as harmless ones; it reads as
// harmless when it stands in HARMLESS_LABELS harmless labels or more of one language (once is a
// translator's whim).
const STRONG = 4;
const HARMLESS_LABELS = 2;

// The counts of all languages, a number a word (committing * HARMLESS_UNIT + harmless): 500,000
// words as objects would not fit a CLI process's heap.
const HARMLESS_UNIT = 2 ** 24;
/** A packed count's committing part, and its other part (harmless labels, or all messages). */
const committingOf = (n: number | undefined) => Math.floor((n ?? 0) / HARMLESS_UNIT);
const othersOf = (n: number | undefined) => (n ?? 0) % HARMLESS_UNIT;

/** Per word: committing labels it stands in (or explains), harmless labels it stands in. */
type Counts = Map<string, { commits: number; harmless: number }>;

function tally(labels: Seen[], into: Counts = new Map()): Counts {
  for (const { words, commits } of labels)
    for (const word of new Set(words)) {
      const c = into.get(word) ?? { commits: 0, harmless: 0 };
      if (commits) c.commits++;
      else c.harmless++;
      into.set(word, c);
    }
  return into;
}

// A language's messages of up to this many bytes, sentences too, say what a word translates: one
// that stands mostly in messages whose English says a committing verb ("Envoyer": send) is a verb of
// that language where its labels commit as well, though a catalog's list of like harmless labels
// outnumbers them (KWin's twelve "Envoyer une fenêtre…").
const SENTENCE_BYTES = 160;
const TRANSLATES_SHARE = 0.5;
const TRANSLATES_LEAST = 3;
// The committing words that are also nouns or answers, which a sentence says in other senses.
const NOT_VERBS = new Set([
  ...MNEMONIC_ONLY,
  "trash",
  "ok",
  "okay",
  "yes",
  "continue",
  "proceed",
  "accept",
  "agree",
  "exit",
  "quit",
  "leave",
  "share",
  "print",
  "restore",
]);

let verbForms: Set<string> | undefined;

/** The committing English verbs of one word, in all their forms ("send", "sent", "deleting"). */
function committingVerbForms(): Set<string> {
  if (verbForms) return verbForms;
  const meanings = JSON.parse(readFileSync(MEANINGS, "utf8")) as {
    english: Record<string, { forms: string[] }>;
  };
  verbForms = new Set();
  for (const verb of ENGLISH.commits) {
    if (verb.includes(" ") || NOT_VERBS.has(verb)) continue;
    for (const form of meanings.english[verb]?.forms ?? [verb, `${verb}s`, `${verb}ed`, `${verb}ing`])
      if (!form.includes(" ")) verbForms.add(form);
  }
  return verbForms;
}

// Words written without spaces between them, found in a message by their letters.
export const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const WORD = /[\p{L}\p{M}]+(?:['’][\p{L}\p{M}]+)*/gu;

/**
 * Per word, how many of a language's messages hold it, and how many of those say a committing verb
 * in English, packed as the counts of all are (committingOf, othersOf): tens of thousands of words a
 * language.
 */
type MessageCounts = Map<string, number>;

/**
 * These words of one language in its messages (sentences too). Only these words are counted, so a
 * first build reads the messages once more at little cost.
 */
function inMessages(files: CatalogFile[], words: Set<string>): MessageCounts {
  const counts: MessageCounts = new Map();
  if (words.size === 0) return counts;
  const verbs = committingVerbForms();
  // A run of letters written without spaces holds its words as pieces of these lengths.
  const lengths = new Set([...words].filter((word) => UNSPACED.test(word)).map((word) => word.length));
  // The words found in one message, each once (a word seen twice in it counts once).
  const found = new Set<string>();
  for (const file of files)
    for (const { id, text } of readCatalog(file.path, (m) => !/[<\n]/u.test(m), SENTENCE_BYTES)) {
      found.clear();
      for (const run of text.toLowerCase().match(WORD) ?? []) {
        const word = run.normalize("NFC");
        if (words.has(word)) found.add(word);
        if (lengths.size === 0 || !UNSPACED.test(word)) continue;
        for (const length of lengths)
          for (let at = 0; at + length <= word.length; at++) {
            const piece = word.slice(at, at + length);
            if (words.has(piece)) found.add(piece);
          }
      }
      if (found.size === 0) continue;
      const says = (id.toLowerCase().match(/[a-z]+/g) ?? []).some((word) => verbs.has(word));
      for (const word of found) counts.set(word, (counts.get(word) ?? 0) + 1 + (says ? HARMLESS_UNIT : 0));
    }
  return counts;
}

/** Whether a word translates a committing verb: it stands mostly where the English says one. */
const translatesVerb = (n: number | undefined) =>
  committingOf(n) >= TRANSLATES_LEAST && committingOf(n) >= TRANSLATES_SHARE * othersOf(n);

// A word seen in one harmless label, and in no committing one, reads as harmless where the language's
// messages hold it CORROBORATED times or more and the English of none of them says a committing verb
// (Czech "Oddálit", zoom out). Once alone it may be a translator's whim (Indonesian "Padam", off, is
// Malay's delete); two messages were too few (a miss more on a split held out to check it).
const CORROBORATED = 3;
// Not a pair, nor a piece of a run written without spaces: counted in every message, those would not
// fit a CLI process's heap.
const whimMayBeRead = (word: string) => !isPair(word) && !UNSPACED.test(word) && [...word].length > 1;
const corroborates = (n: number | undefined) => othersOf(n) >= CORROBORATED && committingOf(n) === 0;

/** What one language's counts add to besides the counts of all (none for English's msgids). */
interface LanguageSinks {
  /** A word that commits in this language's labels. */
  ownVerb(word: string): void;
  /** A word this language's harmless labels hold, as the counts of all read one. */
  ownHarmless?(word: string): void;
  /** A word this language's labels vouch for as harmless, though the counts of all do not. */
  ownVouched?(word: string): void;
  units: Units;
  /** These words in the language's messages. */
  inMessages(words: Set<string>): MessageCounts;
  /** In a language written a syllable at a time: its harmless syllable pairs. */
  syllablePairs?: Set<string>;
}

/**
 * The committing labels no word verb explains, tallied twice: whole (what a pair of words explains),
 * and without the particles of the pairs that commit as verbs ("skriv ut", print): a word of such a
 * pair that stands in more harmless labels than committing ones, and is no committing label by
 * itself ("ut", out, of "Zoom ut"; but "Bỏ", remove, of "gỡ bỏ"), is no verb of its own there.
 */
function explainedByPairs(
  labels: Seen[],
  counts: Counts,
  byWords: Seen[],
): { pairsLeft: Counts; pairVerb: (word: string) => boolean; unexplained: Counts } {
  const pairsLeft = tally(byWords);
  const pairVerb = (word: string) =>
    isPair(word) &&
    (pairsLeft.get(word)?.commits ?? 0) >= 2 &&
    (pairsLeft.get(word)?.commits ?? 0) >= STRONG * (counts.get(word)?.harmless ?? 0);
  const alone = new Set(labels.flatMap((l) => (l.commits && l.unit && !isPair(l.unit) ? [l.unit] : [])));
  const particle = (word: string, held: Set<string>) => {
    const c = counts.get(word);
    return !!c && held.has(word) && c.harmless > c.commits && !alone.has(word);
  };
  const withoutParticles = byWords.map((l) => {
    const held = new Set(l.words.filter(pairVerb).flatMap((pair) => pair.split(" ")));
    return { ...l, words: l.words.filter((word) => !particle(word, held)) };
  });
  return { pairsLeft, pairVerb, unexplained: tally(withoutParticles) };
}

/** One language's labels, counted into the counts of all. */
function countLanguage(
  labels: Seen[],
  all: Map<string, number>,
  verbs: Set<string>,
  sinks?: LanguageSinks,
): void {
  const counts = tally(labels);
  if (sinks) countUnits(labels, sinks.units);
  // A word in committing labels, but not STRONG times as many as harmless ones, is a verb where the
  // language's messages say it translates one. A pair explains no label: it commits only where no
  // word of its own does ("нест кардан").
  const unsure = new Set<string>();
  for (const [word, c] of counts)
    if (!isPair(word) && c.commits >= 2 && c.commits < STRONG * c.harmless) unsure.add(word);
  const whims = new Set<string>();
  for (const [word, c] of counts)
    if (c.harmless === 1 && c.commits === 0 && whimMayBeRead(word)) whims.add(word);
  const messages: MessageCounts = sinks?.inMessages(new Set([...unsure, ...whims])) ?? new Map();
  const inUnit = new Set(
    labels.flatMap((l) => (l.unit && !l.commits && !l.backsOut ? l.unit.split(" ") : [])),
  );
  const translating = new Set([...unsure].filter((word) => translatesVerb(messages.get(word))));
  const verb = (word: string, c: { commits: number; harmless: number } | undefined) =>
    !!c && !isPair(word) && c.commits >= 2 && (c.commits >= STRONG * c.harmless || translating.has(word));
  for (const [word, c] of counts) if (verb(word, c)) verbs.add(word);
  const { pairsLeft, pairVerb, unexplained } = explainedByPairs(
    labels,
    counts,
    labels.filter((l) => l.commits && !l.words.some((w) => verb(w, counts.get(w)))),
  );
  // A pair beside a verb that explains its committing labels ("tất cả", all, of "Xóa tất cả") is not
  // what commits there.
  if (sinks?.syllablePairs)
    for (const [word, c] of counts)
      if (
        isPair(word) &&
        c.harmless >= HARMLESS_LABELS &&
        (pairsLeft.get(word)?.commits ?? 0) * STRONG < c.harmless
      )
        sinks.syllablePairs.add(word);
  for (const [word, c] of counts) {
    const explained = verb(word, c)
      ? c.commits
      : ((pairVerb(word) ? pairsLeft : unexplained).get(word)?.commits ?? 0);
    // In its own language a word commits where it alone explains a fifth of its labels committing
    // (Estonian "saada": send, and a window moved to a workspace): the two senses cannot be told
    // apart from the word. What a verb beside it explains ("all" of "Delete all") is not its own.
    if (!isPair(word) && [...word].length > 1 && explained >= 2 && explained * STRONG >= c.harmless)
      sinks?.ownVerb(word);
    // A word one harmless label of a language has is a translator's whim there; kept, the whims of
    // every language would not fit a CLI process's heap.
    const harmless = whims.has(word) && corroborates(messages.get(word)) ? HARMLESS_LABELS : c.harmless;
    // A whim that is a short label's word, whose English names no backing out, and that no message
    // shows committing, says what it means in its own language: "Oddálit" (Zoom Out).
    if (whims.has(word) && inUnit.has(word) && committingOf(messages.get(word)) === 0)
      sinks?.ownVouched?.(word);
    // Once is enough in its own language: whether it commits is the counts of all's to say.
    if (!isPair(word) && c.harmless > 0) sinks?.ownHarmless?.(word);
    if (explained === 0 && (harmless < HARMLESS_LABELS || isPair(word))) continue;
    all.set(word, (all.get(word) ?? 0) + explained * HARMLESS_UNIT + harmless);
  }
}

/** Units of meaning: the short labels seen whole, harmless in some language, committing in any. */
interface Units {
  harmless: Set<string>;
  commits: Set<string>;
}

/**
 * A language's short labels into the units: one seen whole in two harmless labels or more and no
 * committing one of the language; any short committing label, to be left out at the end.
 */
function countUnits(labels: Seen[], units: Units): void {
  const seen = new Map<string, { commits: number; harmless: number }>();
  for (const { unit, commits } of labels) {
    if (!unit) continue;
    const c = seen.get(unit) ?? { commits: 0, harmless: 0 };
    if (commits) c.commits++;
    else c.harmless++;
    seen.set(unit, c);
  }
  for (const [unit, c] of seen) {
    if (c.commits > 0) units.commits.add(unit);
    else if (c.harmless >= HARMLESS_LABELS) units.harmless.add(unit);
  }
}

const BACKS_OUT = new Set([...ENGLISH.cancels, "close", "abort"]);

/** A catalog's labels into its language's (by their text) and English's (by their msgid). */
function readLabels(file: CatalogFile, labels: Map<string, Seen>, english: Map<string, Seen>): void {
  for (const { context, id, text } of readCatalog(
    file.path,
    (m) => !NOT_A_LABEL.test(m),
    LABEL_ID_BYTES,
    labelStart,
  )) {
    if (!labelContext(context)) continue;
    // Labels that differ only in a number ("Move window to workspace 1" … 12) are one label: counted
    // twelve times, one catalog's list outweighed every other use of its words.
    const key = `${id}\u0000${text}`.replace(/\p{Nd}+/gu, "#");
    if (labels.has(key) || NOT_A_LABEL.test(text)) continue;
    const words = labelWords(text);
    if (words.length === 0 || words.length > LABEL_WORDS) continue;
    const unit = words.length <= UNIT_WORDS ? words.join(" ") : undefined;
    words.push(...words.flatMap(pieces), ...pairsOf(words));
    let source = english.get(id);
    if (!source) {
      const idWords = labelWords(id);
      source = { words: idWords, commits: committingId(id, text, idWords) };
      english.set(id, source);
    }
    const backsOut = BACKS_OUT.has(source.words.join(" "));
    labels.set(key, { words, commits: source.commits, unit, ...(backsOut ? { backsOut } : {}) });
  }
}

/** The words of all languages' counts that commit, and those that read as harmless. */
function classified(
  all: Map<string, number>,
  verbs: Set<string>,
): { commits: string[]; pairs: string[]; harmless: string[] } {
  const commits: string[] = [];
  const pairs: string[] = [];
  const harmless: string[] = [];
  for (const [word, n] of all) {
    const committing = committingOf(n);
    const harmlessLabels = othersOf(n);
    // A verb of one language that is a common harmless word of others ("la", "del") is theirs.
    const verb = verbs.has(word) && committing * STRONG >= harmlessLabels;
    // A pair commits as a verb does: in two labels or more, and far more often than not.
    const pair = isPair(word) && committing >= 2 && committing >= STRONG * harmlessLabels;
    if (pair) pairs.push(word);
    else if (verb || (!isPair(word) && committing > 0 && committing >= harmlessLabels)) commits.push(word);
    else if (harmlessLabels >= HARMLESS_LABELS && !isPair(word)) harmless.push(word);
  }
  return { commits, pairs, harmless };
}

/**
 * The first words of harmless English msgids: the verbs a harmless command starts with ("Open",
 * "Show", "Go"), and the nouns a label may start with ("Address Book"); and their words in two or more.
 */
function englishOf(english: Map<string, Seen>): { leads: Set<string>; englishWords: string[] } {
  const leads = new Set<string>();
  for (const { words, commits: committing } of english.values())
    if (!committing && words[0]) leads.add(words[0]);
  const englishCounts = tally([...english.values()].filter((seen) => !seen.commits));
  const englishWords = [...englishCounts].filter(([, c]) => c.harmless >= HARMLESS_LABELS).map(([w]) => w);
  return { leads, englishWords };
}

/**
 * The catalogs' labels a language at a time, English's msgids into `english`. A language's two codes
 * are counted as one ("hye" with "hy"). Its countries' and scripts' variants are not: pooled,
 * Serbian's "Бриши" (delete) read as harmless, by the variants that clear with it.
 */
function* byLanguage(
  files: CatalogFile[],
  english: Map<string, Seen>,
): Generator<{ language: string; group: CatalogFile[]; labels: Seen[] }> {
  const sorted = files
    .map((file) => ({ ...file, language: file.language.replace(/^[^_@.-]+/u, baseLanguage) }))
    .sort((a, b) => (a.language < b.language ? -1 : a.language > b.language ? 1 : 0));
  let at = 0;
  while (at < sorted.length) {
    const language = sorted[at]!.language;
    const labels = new Map<string, Seen>();
    const group: CatalogFile[] = [];
    for (; at < sorted.length && sorted[at]!.language === language; at++) {
      group.push(sorted[at]!);
      readLabels(sorted[at]!, labels, english);
    }
    yield { language, group, labels: [...labels.values()] };
  }
}

/** One language's harmless words, its catalogs counted as learnWords counts them (its variants together). */
function learnOwnHarmless(files: CatalogFile[]): string[] {
  const own = new Set<string>();
  for (const { group, labels } of byLanguage(files, new Map()))
    countLanguage(labels, new Map(), new Set(), {
      ownVerb: () => undefined,
      ownHarmless: (word) => own.add(word),
      ownVouched: (word) => own.add(`${VOUCHED}${word}`),
      units: { harmless: new Set(), commits: new Set() },
      inMessages: (words) => inMessages(group, words),
    });
  return [...own];
}

/**
 * The committing and harmless words of the catalogs' labels, counted a language at a time; English
 * from the msgids of every catalog kept.
 */
function learnWords(files: CatalogFile[]): {
  commits: string[];
  pairs: string[];
  harmless: string[];
  leads: string[];
  english: string[];
  ownVerbs: string[];
  units: string[];
  syllablePairs: string[];
} {
  const all = new Map<string, number>();
  const units: Units = { harmless: new Set(), commits: new Set() };
  const verbs = new Set<string>();
  const ownVerbs = new Set<string>();
  const syllablePairs = new Set<string>();
  // English is read by its own rules (its phrases, the verbs' senses): "Size" is no verb of en_GB's.
  const sinksOf = (language: string | undefined, files: CatalogFile[]): LanguageSinks | undefined =>
    language === undefined || baseLanguage(language) === "en"
      ? undefined
      : {
          ownVerb: (word) => ownVerbs.add(ownVerb(language, word)),
          units,
          inMessages: (words) => inMessages(files, words),
          ...(SYLLABLE_SPACED.has(baseLanguage(language)) ? { syllablePairs } : {}),
        };
  const english = new Map<string, Seen>();
  for (const { language, group, labels } of byLanguage(files, english))
    countLanguage(labels, all, verbs, sinksOf(language, group));
  countLanguage([...english.values()], all, verbs);
  const { commits, pairs, harmless } = classified(all, verbs);
  const { leads, englishWords } = englishOf(english);
  return {
    commits,
    pairs,
    harmless,
    leads: [...leads],
    english: englishWords,
    ownVerbs: [...ownVerbs],
    units: [...units.harmless].filter((unit) => !units.commits.has(unit)),
    syllablePairs: [...syllablePairs],
  };
}

/** Words one a line in UTF-8 byte order, as a Lexicon searches them. */
function lines(words: string[]): string {
  return `${[...words].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))).join("\n")}\n`;
}

/** What makes the learnt words: this module, the phrases and the meanings. A change of any re-learns. */
function rulesVersion(): string {
  const source = (url: string | URL) => readFileSync(url, "utf8");
  return createHash("sha256")
    .update(source(new URL(import.meta.url)))
    .update(source(new URL(PHRASES_MODULE)))
    .update(source(new URL(NAMED_THINGS_MODULE)))
    .update(source(MEANINGS))
    .update(source(new URL(CATALOG_READER)))
    .digest("hex");
}

/** The learnt words as cached: seven lists, one word a line. */
interface Learnt {
  commits: string;
  pairs: string;
  harmless: string;
  leads: string;
  english: string;
  ownVerbs: string;
  units: string;
  syllablePairs: string;
}

const isLearnt = (value: Learnt | undefined): value is Learnt =>
  typeof value?.commits === "string" &&
  typeof value.pairs === "string" &&
  typeof value.harmless === "string" &&
  typeof value.leads === "string" &&
  typeof value.english === "string" &&
  typeof value.ownVerbs === "string" &&
  typeof value.units === "string" &&
  typeof value.syllablePairs === "string";

/**
 * The label lexicon of these catalogs (those the filter keeps), cached by the catalogs' stamps and
 * the rules: a first build reads every catalog (a few seconds), later processes read one file.
 */
export function buildLabelLexicon(source: CatalogSource, filter: CatalogFilter = {}): LabelLexicon {
  const files = listCatalogs(source.roots).filter(
    (file) => !NOT_LABELS.test(domainOf(file)) && (filter.keep?.(file.language, domainOf(file)) ?? true),
  );
  const cacheDir = filter.keep && !filter.name ? undefined : source.cacheDir;
  const keyOf = (of: CatalogFile[]) =>
    createHash("sha256")
      .update(
        JSON.stringify({ rules: rulesVersion(), filter: filter.name ?? "", files: of.map((f) => f.stamp) }),
      )
      .digest("hex")
      .slice(0, 16);
  // A measuring build has a kind of its own in the cache, so it does not push out the one in use.
  const kind = filter.keep ? "labels_filtered" : "labels";
  const name = `${kind}-${keyOf(files)}.json`;
  const cached = cachedOnce(cacheDir, name, isLearnt, () => {
    const learnt = learnWords(files);
    return {
      commits: lines(learnt.commits),
      pairs: lines(learnt.pairs),
      harmless: lines(learnt.harmless),
      leads: lines(learnt.leads),
      english: lines(learnt.english),
      ownVerbs: lines(learnt.ownVerbs),
      units: lines(learnt.units),
      syllablePairs: lines(learnt.syllablePairs),
    };
  });
  return {
    commits: new Lexicon(Buffer.from(cached.commits)),
    pairs: new Lexicon(Buffer.from(cached.pairs)),
    harmless: new Lexicon(Buffer.from(cached.harmless)),
    languages: new Set(["en", ...files.map((file) => baseLanguage(file.language))]),
    leads: new Lexicon(Buffer.from(cached.leads)),
    english: new Lexicon(Buffer.from(cached.english)),
    ownVerbs: new Lexicon(Buffer.from(cached.ownVerbs)),
    units: new Lexicon(Buffer.from(cached.units)),
    syllablePairs: new Lexicon(Buffer.from(cached.syllablePairs)),
    ownHarmless: ownHarmlessOf(files, (base, of) =>
      cacheDir === undefined ? undefined : { cacheDir, name: `${kind}_${base}-${keyOf(of)}.json` },
    ),
  };
}

/**
 * Each language's own harmless words, learnt from its catalogs when first asked for and cached in
 * a file of its own: all languages' at once would not fit a CLI process's heap.
 */
function ownHarmlessOf(
  files: CatalogFile[],
  cacheOf: (base: string, files: CatalogFile[]) => { cacheDir: string; name: string } | undefined,
): LabelLexicon["ownHarmless"] {
  const learnt = new Map<string, Lexicon | undefined>();
  return (language) => {
    const base = baseLanguage(language);
    if (learnt.has(base)) return learnt.get(base);
    const mine = files.filter((file) => baseLanguage(file.language) === base);
    const cache = cacheOf(base, mine);
    const words =
      mine.length === 0
        ? undefined
        : cachedOnce(
            cache?.cacheDir,
            cache?.name ?? "",
            (value: { words: string } | undefined): value is { words: string } =>
              typeof value?.words === "string",
            () => ({ words: lines(learnOwnHarmless(mine)) }),
          ).words;
    const found = words === undefined ? undefined : new Lexicon(Buffer.from(words));
    learnt.set(base, found);
    return found;
  };
}
