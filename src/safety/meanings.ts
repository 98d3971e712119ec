// Committing by meaning: the verbs (and the nouns of their acts) whose press makes money leave, data
// leave, something be destroyed or a state be fixed, from data/meanings.json (built from WordNet's
// senses by scripts/build-meanings.ts, with each covered language's button words). A command's label
// that says one commits, in any inflection ("Paying", "Booked", "Truncate table"), whether or not a
// catalog ever translated it.
import { readFileSync } from "node:fs";
import { forms, labelIs } from "./committing-words.js";

type MeaningClass = "money" | "data" | "destroys" | "fixes";

interface Meanings {
  classes: Record<MeaningClass, string>;
  english: Record<string, { meaning: MeaningClass; forms: string[]; past: string[]; first?: true }>;
  nouns: Record<string, MeaningClass>;
  translations: Record<string, Partial<Record<MeaningClass, string[]>>>;
  catalogs: Record<string, Partial<Record<MeaningClass, string[]>>>;
}

interface Entry {
  /** The label's words this entry matches, in order (lower-case skeletons). */
  words: string[];
  word: string;
  meaning: MeaningClass;
  /** Counts only as the label's first word: a verb that is mostly a noun ("Book now", not "Address Book"). */
  first: boolean;
  /** A past form: alone it names a state ("Sent", "Installed"), so it counts only beside other words. */
  past?: boolean;
}

interface Matcher {
  classes: Record<MeaningClass, string>;
  /** Verbs and translated words, by their first word. */
  verbs: Map<string, Entry[]>;
  /** Nouns of the acts: they commit after a cancel word or a light verb. */
  nouns: Map<string, Entry[]>;
  /** Words of scripts written without spaces, matched as substrings ("결제하기"). */
  joined: Entry[];
  /** LIGHT_VERBS as the label's words are compared (skeletons: "make" reads "rnake"). */
  light: Set<string>;
}

// Words that, first in a label, make a committing noun the thing done: "Make payment", "Place bid".
export const LIGHT_VERBS = ["make", "place", "complete", "process", "start", "end", "stop", "renew", "close"];
const SPACELESS =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/** The label's words as matching compares them: lower-case UTS #39 skeletons, camel case split. */
function wordsOf(text: string): string[] {
  return forms(text)[1]!.trim().split(" ").filter(Boolean);
}

function index(map: Map<string, Entry[]>, entry: Entry): void {
  const head = entry.words[0];
  if (!head) return;
  map.set(head, [...(map.get(head) ?? []), entry]);
}

function build(data: Meanings): Matcher {
  const matcher: Matcher = {
    classes: data.classes,
    verbs: new Map(),
    nouns: new Map(),
    joined: [],
    light: new Set(LIGHT_VERBS.flatMap(wordsOf)),
  };
  const add = (
    map: Map<string, Entry[]>,
    text: string,
    word: string,
    meaning: MeaningClass,
    first = false,
  ) => {
    if (SPACELESS.test(text)) matcher.joined.push({ words: [wordsOf(text).join("")], word, meaning, first });
    else index(map, { words: wordsOf(text), word, meaning, first });
  };
  for (const entry of Object.values(data.english)) {
    const past = new Set(entry.past);
    for (const form of entry.forms)
      index(matcher.verbs, {
        words: wordsOf(form),
        word: form,
        meaning: entry.meaning,
        first: !!entry.first,
        ...(past.has(form) ? { past: true } : {}),
      });
  }
  for (const [noun, meaning] of Object.entries(data.nouns)) add(matcher.nouns, noun, noun, meaning);
  for (const classes of [...Object.values(data.translations), ...Object.values(data.catalogs)])
    for (const [meaning, words] of Object.entries(classes) as [MeaningClass, string[]][])
      for (const word of words) add(matcher.verbs, word, word, meaning);
  return matcher;
}

const matchers: Partial<Record<"all" | "english", Matcher>> = {};

/** The shipped meanings: every language's words, or (to measure what the rest adds) English alone. */
function shippedMatcher(languages: "all" | "english"): Matcher {
  let matcher = matchers[languages];
  if (matcher) return matcher;
  const data = JSON.parse(
    readFileSync(new URL("../../data/meanings.json", import.meta.url), "utf8"),
  ) as Meanings;
  matcher = build(languages === "all" ? data : { ...data, translations: {}, catalogs: {} });
  matchers[languages] = matcher;
  return matcher;
}

const startsAt = (words: string[], at: number, wanted: string[]) =>
  wanted.every((w, i) => words[at + i] === w);

// Words that may follow a past form that still says an act was done to something ("Booked for me");
// any other word after a leading past form is the thing it describes.
const AFTER_PAST = new Set(["for", "to", "by", "as", "with", "at", "on", "in", "from", "via", "into"]);

/**
 * Whether a past form of a verb that is mostly a noun (book, order) leads its label as an adjective
 * before what it describes, in the verb's other sense: LibreOffice's "Ordered List" is a list in
 * order, no order placed. Another verb's past form there still commits ("Truncated table").
 */
const describes = (words: string[], at: number, entry: Entry) =>
  (!!entry.past &&
    entry.first &&
    at === 0 &&
    words.length > entry.words.length &&
    !AFTER_PAST.has(words[entry.words.length]!)) ||
  shownState(words, at, entry);

// Verbs that show a view: what follows them is what the view shows.
const SHOWS = new Set(["show", "hide", "view", "display", "list", "filter"]);

/**
 * Whether a past form follows a verb that shows a view, as the state of what it shows ("Show sent",
 * "Hide deleted items", "View paid invoices"): a filter, no act.
 */
const shownState = (words: string[], at: number, entry: Entry) =>
  !!entry.past && at > 0 && SHOWS.has(words[at - 1]!);

// Beside a past form, this says what a view shows ("Paid only", "Only installed"): a state, no act.
const FILTERS = new Set(["only"]);

function findIn(words: string[], map: Map<string, Entry[]>, from: number): Entry | undefined {
  const others = words.filter((word) => !FILTERS.has(word)).length;
  for (let at = from; at < words.length; at++) {
    const hit = map
      .get(words[at]!)
      ?.find(
        (e) =>
          (!e.first || at === 0) &&
          (!e.past || others > e.words.length) &&
          !describes(words, at, e) &&
          startsAt(words, at, e.words),
      );
    if (hit) return hit;
  }
  return undefined;
}

const stems = new Map<string, { word: string; what: string } | undefined>();

/**
 * The meaning of a one-word entry that starts with this stem: an inflection no table lists reads
 * as the word it inflects ("subskrypcję", of "subskrypcja": money leaves).
 */
export function meaningOfStem(stem: string): { word: string; what: string } | undefined {
  if (stems.has(stem)) return stems.get(stem);
  const matcher = shippedMatcher("all");
  let found: { word: string; what: string } | undefined;
  for (const entries of matcher.verbs.values()) {
    const entry = entries.find((e) => e.words.length === 1 && e.word.toLowerCase().startsWith(stem));
    if (entry) {
      found = { word: entry.word, what: matcher.classes[entry.meaning] };
      break;
    }
  }
  stems.set(stem, found);
  return found;
}

/** What a command's label commits by its meaning, as a clause ("money leaves"), or undefined. */
export function committingMeaning(
  label: string,
  languages: "all" | "english" = "all",
): { word: string; what: string } | undefined {
  const matcher = shippedMatcher(languages);
  const words = wordsOf(label);
  if (words.length === 0) return undefined;
  const said = (entry: Entry) => ({ word: entry.word, what: matcher.classes[entry.meaning] });
  const joined = words.join("");
  const spaceless = matcher.joined.find((e) => joined.includes(e.words[0]!));
  if (spaceless && SPACELESS.test(label)) return said(spaceless);
  const verb = findIn(words, matcher.verbs, 0);
  if (verb) return said(verb);
  // "Cancel subscription", "Place bid": the noun names what the press does to it.
  const lead = words[0]!;
  if (words.length > 1 && (matcher.light.has(lead) || labelIs(lead, "cancels"))) {
    const noun = findIn(words, matcher.nouns, 1);
    if (noun) return said(noun);
  }
  return undefined;
}

// A thing named for what it does, as its agent noun: "Shredder" shreds, "Eraser" erases.
const AGENT_NOUN = /(?:er|or)$/u;

/** The verbs an agent noun may come from: "shredder" shred, "eraser" erase, "incinerator" incinerate. */
function agentVerbs(word: string): string[] {
  if (!AGENT_NOUN.test(word) || word.length < 5) return [];
  const stem = word.slice(0, -2);
  const undoubled = /(.)\1$/u.test(stem) ? [stem.slice(0, -1)] : [];
  return [stem, `${stem}e`, ...undoubled];
}

/** The committing verb a word names the doer of ("remover": remove), or undefined. */
export function agentOf(word: string): string | undefined {
  return agentVerbs(word).find((verb) => committingMeaning(verb, "english"));
}
