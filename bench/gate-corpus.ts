// bench/gate's corpus part: the label reading (src/safety/label-reading.ts) measured on labels its
// lexicon was not built from. The corpus is the machine's catalogs' translations of English msgids
// whose class is known: committing (pay, send, delete, transfer, order, publish, purchase, buy,
// submit, remove, erase, with their objects: "Send Message", "_Delete", "Pay Invoice") and harmless
// (Next, Back, View, Sort, Filter, Settings, Zoom In…). The lexicon is learnt from the same catalogs
// less every fifth language (those languages are held out whole) and every fifth catalog domain
// (their labels in the other languages are held out: wordings nobody taught it).
//
// Each label is read as a main window's push button is judged: it commits unless it reads as
// harmless. A miss is a committing label read as harmless, judged by the learnt lexicon and English
// rules alone (a language left out gets no phrase table either); a false alarm is a harmless label
// not read as harmless, judged with every table deskhand has (each can only add alarms).
import { closeSync, openSync, readSync } from "node:fs";
import { listCatalogs, readCatalog } from "../src/platform/catalogs.js";
import { deskhandCacheDir } from "../src/platform/translations.js";
import { systemVocabulary } from "../src/safety/committing-words.js";
import {
  baseLanguage,
  buildLabelLexicon,
  domainOf,
  labelContext,
  NOT_LABELS,
  UNSPACED,
} from "../src/safety/label-lexicon.js";
import { readLabel } from "../src/safety/label-reading.js";
import { labelWords } from "../src/safety/phrases.js";

const ROOTS = ["/usr/share/locale", "/usr/share/locale-langpack"];

type Class = "money" | "data" | "destroys" | "harmless";
// The committing verbs measured, by what pressing them does; the target is 0 misses on these in the
// languages held out.
const VERBS: Record<string, Class> = {
  pay: "money",
  purchase: "money",
  buy: "money",
  order: "money",
  transfer: "money",
  send: "data",
  publish: "data",
  submit: "data",
  delete: "destroys",
  remove: "destroys",
  erase: "destroys",
};
const TARGET_VERBS = new Set(["pay", "send", "delete", "transfer", "order", "publish", "purchase"]);
// Verbs that are nouns as often ("Order number", "Transfer data"): they count only as a button's
// label, with a mnemonic.
const NOUN_TOO = new Set(["order", "transfer", "purchase"]);
// Labels that start with a committing verb and name a thing: a drawing's stacking order, a setting.
const NOT_COMMANDS =
  /^send (to back|backward)|^order by|\b(options|settings|preferences|status|queue|history|number|date|rate|speed|limit|size|type|mode|interval|progress|error|method|time|key|button|dialog)$/;
const HARMLESS = new Set(
  [
    "next",
    "back",
    "previous",
    "forward",
    "go back",
    "go forward",
    "go up",
    "up",
    "down",
    "home",
    "view",
    "show",
    "hide",
    "show all",
    "show details",
    "hide details",
    "details",
    "information",
    "sort",
    "sort by name",
    "filter",
    "refresh",
    "reload",
    "settings",
    "preferences",
    "properties",
    "options",
    "open",
    "open file",
    "search",
    "find",
    "find next",
    "find previous",
    "zoom in",
    "zoom out",
    "normal size",
    "best fit",
    "fullscreen",
    "full screen",
    "help",
    "about",
    "contents",
    "select all",
    "copy",
    "expand",
    "collapse",
    "expand all",
    "collapse all",
    "first",
    "last",
    "browse",
    "new window",
    "new tab",
    "show hidden files",
    "tools",
    "view details",
  ].map((l) => l),
);

interface Item {
  language: string;
  domain: string;
  /** The English msgid's verb, for a committing one. */
  verb?: string | undefined;
  cls: Class;
  text: string;
}

/**
 * The class of an English msgid, or undefined when it is not in the corpus: a label that opens a
 * dialog (an ellipsis) or names a field (a colon, "Remove _From Position:") is no command.
 */
function classOf(id: string): { cls: Class; verb?: string } | undefined {
  if (/(\.\.\.|…|:)\s*$/.test(id)) return undefined;
  const words = labelWords(id);
  const bare = words.join(" ");
  if (words.length === 0 || words.length > 4) return undefined;
  if (HARMLESS.has(bare)) return { cls: "harmless" };
  const verb = words[0]!;
  const cls = VERBS[verb];
  if (!cls || NOT_COMMANDS.test(bare)) return undefined;
  if (NOUN_TOO.has(verb) && !/[_&]/.test(id)) return undefined;
  return { cls, verb };
}

// The split chooses among the catalogs' folder codes; a chosen language is held out with its
// variants as the lexicon counts them ("hy" with "hye").
const folderLanguage = (language: string) => language.split(/[_@.]/)[0]!;

/** Every fifth of a sorted list, from an offset: a held-out set no one picked by hand. */
function everyFifth(values: Iterable<string>, offset: number): Set<string> {
  return new Set([...new Set(values)].sort().filter((_, i) => i % 5 === offset));
}

/**
 * The corpus, holding out every fifth language and domain from these offsets: the bench's split by
 * default; another (1, 1) to choose a rule's constants on, so that the bench's figures stay held out.
 */
export function corpus(split = { languages: 2, domains: 0 }): {
  items: Item[];
  languages: Set<string>;
  domains: Set<string>;
} {
  const files = listCatalogs(ROOTS).filter((f) => !NOT_LABELS.test(domainOf(f)));
  const languages = new Set(
    [
      ...everyFifth(
        files.map((f) => folderLanguage(f.language)).filter((l) => l !== "en"),
        split.languages,
      ),
    ].map(baseLanguage),
  );
  const domains = everyFifth(files.map(domainOf), split.domains);
  const items: Item[] = [];
  const seen = new Set<string>();
  const add = (item: Item) => {
    const key = JSON.stringify([item.language, item.cls, item.text]);
    if (seen.has(key)) return;
    seen.add(key);
    items.push(item);
  };
  for (const file of files) {
    const domain = domainOf(file);
    for (const { context, id, text } of readCatalog(file.path, (m) => classOf(m) !== undefined, 40)) {
      const found = classOf(id);
      if (!found || !labelContext(context) || /[%<\n{$]/.test(text) || /(\.\.\.|…)\s*$/.test(text)) continue;
      add({ language: file.language, domain, cls: found.cls, verb: found.verb, text });
      // English: the msgid itself, from the domains held out.
      if (domains.has(domain)) add({ language: "en", domain, cls: found.cls, verb: found.verb, text: id });
    }
  }
  return { items, languages, domains };
}

const SCRIPTS: [string, RegExp][] = [
  ["Latin", /\p{Script=Latin}/u],
  ["Cyrillic", /\p{Script=Cyrillic}/u],
  ["Greek", /\p{Script=Greek}/u],
  ["Arabic, Hebrew", /[\p{Script=Arabic}\p{Script=Hebrew}]/u],
  [
    "Indic",
    /[\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Gurmukhi}\p{Script=Gujarati}\p{Script=Oriya}\p{Script=Tamil}\p{Script=Telugu}\p{Script=Kannada}\p{Script=Malayalam}\p{Script=Sinhala}]/u,
  ],
  ["CJK, Hangul", /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u],
  ["Southeast Asian", /[\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u],
];
/** The script most of a label's letters are in (a Latin mnemonic beside Bengali is Bengali). */
function scriptOf(text: string): string {
  const letters = [...text].filter((c) => /\p{L}/u.test(c));
  let best = "other";
  let most = 0;
  for (const [name, re] of SCRIPTS) {
    const count = letters.filter((c) => re.test(c)).length;
    if (count > most) [best, most] = [name, count];
  }
  return best;
}

interface Row {
  labels: number;
  wrong: string[];
}

function addTo(rows: Map<string, Row>, key: string, wrong: string | undefined): void {
  const row = rows.get(key) ?? { labels: 0, wrong: [] };
  row.labels++;
  if (wrong) row.wrong.push(wrong);
  rows.set(key, row);
}

const percent = (row: Row) => `${((100 * row.wrong.length) / Math.max(1, row.labels)).toFixed(2)}%`;

// How many wrong labels a row names: BENCH_GATE_EXAMPLES=40 lists more of them, to find a class.
const EXAMPLES = Number(process.env.BENCH_GATE_EXAMPLES) || 4;

function printRows(title: string, rows: Map<string, Row>, what: string): void {
  console.log(`\n${title}`);
  console.log(`| set | labels | ${what} | rate | examples |`);
  console.log("|---|---|---|---|---|");
  for (const [key, row] of [...rows].sort(([a], [b]) => a.localeCompare(b)))
    console.log(
      `| ${key} | ${row.labels} | ${row.wrong.length} | ${percent(row)} | ${row.wrong.slice(0, EXAMPLES).join("; ")} |`,
    );
}

/** The lexicon learnt without the held-out languages and domains (cached under their names). */
export function heldOutLexicon(languages: Set<string>, domains: Set<string>) {
  return buildLabelLexicon(
    { roots: ROOTS, cacheDir: deskhandCacheDir(process.env) },
    {
      keep: (language, domain) => !languages.has(baseLanguage(language)) && !domains.has(domain),
      name: `held out: ${[...languages, ...domains].join(" ")}`,
    },
  );
}

/**
 * The asked labels by the evidence the machine holds for their unread words: a word only held-out
 * domains hold (nothing kept could vouch for it), one in 1–3 kept domains (seen, too rarely to
 * vouch), more; a label asked for a word read as committing, apart.
 */
function whereUnread(
  asked: Map<string, { language: string; words: string[] }>,
  heldDomains: Set<string>,
): Map<string, Row> {
  const wanted = new Map<string, Set<string>>();
  for (const { language, words } of asked.values())
    for (const word of words) {
      const set = wanted.get(folderLanguage(language)) ?? new Set<string>();
      set.add(word);
      wanted.set(folderLanguage(language), set);
    }
  // Per language and word, the kept domains whose messages (sentences too) hold it.
  const keptDomains = new Map<string, Set<string>>();
  for (const file of listCatalogs(ROOTS)) {
    const words = wanted.get(folderLanguage(file.language));
    if (!words || heldDomains.has(domainOf(file))) continue;
    for (const { text } of readCatalog(file.path, () => true, 400)) {
      // Its words as the reading cuts them (a run written without spaces is found inside one).
      const lower = text.toLowerCase().replace(/[_&]/g, "").normalize("NFC");
      const inText = new Set(lower.match(/[\p{L}\p{M}]+/gu) ?? []);
      for (const word of words)
        if (inText.has(word) || (UNSPACED.test(word) && lower.includes(word))) {
          const key = `${folderLanguage(file.language)} ${word}`;
          keptDomains.set(key, (keptDomains.get(key) ?? new Set()).add(domainOf(file)));
        }
    }
  }
  const rows = new Map<string, Row>();
  const classes = [
    "a word read as committing",
    "a word no kept domain holds",
    "a word in 1–3 kept domains",
    "its words in 4 or more kept domains",
  ];
  for (const [name, { language, words }] of asked) {
    const fewest = Math.min(
      ...words.map((w) => keptDomains.get(`${folderLanguage(language)} ${w}`)?.size ?? 0),
    );
    const cls = words.length === 0 ? 0 : fewest === 0 ? 1 : fewest <= 3 ? 2 : 3;
    for (const [i, key] of classes.entries()) addTo(rows, key, i === cls ? name : undefined);
  }
  return rows;
}

// The kept catalogs' size of a language, in messages: what the lexicon could learn it from.
const SIZES: [string, number][] = [
  ["under 1,000 messages", 1_000],
  ["1,000 to 20,000", 20_000],
  ["20,000 or more", Number.POSITIVE_INFINITY],
];

/** A catalog's message count, from its header (a .mo's third word, in its own byte order). */
function messageCount(path: string): number {
  const header = Buffer.alloc(12);
  const fd = openSync(path, "r");
  try {
    if (readSync(fd, header, 0, 12, 0) < 12) return 0;
  } finally {
    closeSync(fd);
  }
  return header.readUInt32LE(0) === 0x950412de ? header.readUInt32LE(8) : header.readUInt32BE(8);
}

/** Per language, the messages of its catalogs the lexicon was learnt from. */
function keptMessages(languages: Set<string>, domains: Set<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const file of listCatalogs(ROOTS)) {
    const domain = domainOf(file);
    if (NOT_LABELS.test(domain) || languages.has(baseLanguage(file.language)) || domains.has(domain))
      continue;
    counts.set(file.language, (counts.get(file.language) ?? 0) + messageCount(file.path));
  }
  return counts;
}

const COVERED = "held-out domains, covered languages";
const KNOWN = "held-out languages, the app's language known";
const COVERED_KNOWN = "held-out domains, covered languages, the app's language known";

/** Prints the corpus's figures; returns how many targets were missed. */
export function corpusReport(): number {
  const started = performance.now();
  const { items, languages, domains } = corpus();
  const lexicon = heldOutLexicon(languages, domains);
  // The languages deskhand claims a committing vocabulary for (doctor's list): the target's ground.
  const covered = new Set([...systemVocabulary().languages, "en"]);
  console.log(
    `\n# bench/gate · the label reading on ${items.length} catalog labels it was not built from (${((performance.now() - started) / 1000).toFixed(0)} s to gather and learn)`,
  );
  console.log(`Held out whole: ${languages.size} languages (${[...languages].join(" ")}).`);
  // Each language's own harmless words are learnt when an app in it is first judged, on the
  // server's thread: what that first judgement pays, per language (uncached here).
  const learnt: number[] = [];
  for (const language of new Set(items.map((item) => baseLanguage(item.language)))) {
    const at = performance.now();
    if (lexicon.ownHarmless(language)) learnt.push(performance.now() - at);
  }
  learnt.sort((a, b) => a - b);
  const ms = (q: number) =>
    Math.round(learnt[Math.min(learnt.length - 1, Math.floor(q * learnt.length))] ?? 0);
  console.log(
    `A language's own words, learnt at its first judgement: ${learnt.length} languages, median ${ms(0.5)} ms, 90th percentile ${ms(0.9)} ms, most ${ms(1)} ms.`,
  );
  console.log(
    `Held out in every language: ${domains.size} catalog domains (${[...domains].slice(0, 12).join(" ")}…).`,
  );
  const misses = new Map<string, Row>();
  const alarms = new Map<string, Row>();
  const bySplit = new Map<string, Row>();
  const bySize = new Map<string, Row>();
  const kept = keptMessages(languages, domains);
  // The unread words of each harmless label asked with its language known: where the machine holds them.
  const unread = new Map<string, { language: string; words: string[] }>();
  const sizeOf = (language: string) => SIZES.find(([, below]) => (kept.get(language) ?? 0) < below)![0];
  for (const item of items) {
    const heldLanguage = languages.has(baseLanguage(item.language));
    if (!heldLanguage && !domains.has(item.domain)) continue;
    const split = heldLanguage
      ? "held-out languages"
      : `held-out domains, ${covered.has(item.language) ? "covered" : "other"} languages`;
    const name = `${item.language} ${JSON.stringify(item.text)}`;
    if (item.cls === "harmless") {
      const asked = !readLabel(item.text, { lexicon }).harmless;
      if (heldLanguage || covered.has(item.language)) {
        const reading = readLabel(item.text, { lexicon, language: item.language });
        const inApp = !reading.harmless;
        addTo(bySplit, `${heldLanguage ? KNOWN : COVERED_KNOWN} · harmless asked`, inApp ? name : undefined);
        if (inApp && !heldLanguage)
          unread.set(name, { language: item.language, words: reading.commits ? [] : reading.unknown });
        if (!heldLanguage) addTo(bySize, sizeOf(item.language), inApp ? name : undefined);
      }
      addTo(alarms, `${split} · ${scriptOf(item.text)}`, asked ? name : undefined);
      addTo(bySplit, `${split} · harmless asked`, asked ? name : undefined);
    } else {
      const missed = readLabel(item.text, { lexicon, englishOnly: true }).harmless;
      const target = TARGET_VERBS.has(item.verb!) ? "the seven verbs" : "other verbs";
      addTo(
        misses,
        `${split} · ${item.cls} · ${scriptOf(item.text)}`,
        missed ? `${name} (${item.verb})` : undefined,
      );
      addTo(bySplit, `${split} · ${target} missed`, missed ? `${name} (${item.verb})` : undefined);
      // As the gate reads a native app, whose language its process names (a web page's it does not).
      if (heldLanguage || covered.has(item.language)) {
        const inApp = readLabel(item.text, { lexicon, englishOnly: true, language: item.language }).harmless;
        addTo(
          bySplit,
          `${heldLanguage ? KNOWN : COVERED_KNOWN} · ${target} missed`,
          inApp ? `${name} (${item.verb})` : undefined,
        );
      }
    }
  }
  printRows("Committing labels read as harmless (misses), by class and script", misses, "misses");
  printRows("Harmless labels asked (false alarms), by script", alarms, "asked");
  printRows("Totals", bySplit, "wrong");
  printRows(
    "Harmless labels asked on held-out domains, the app's language known, by what the kept catalogs hold of its language",
    bySize,
    "asked",
  );
  printRows(
    "The same asked labels, by where the machine's catalogs of their language hold their unread words",
    whereUnread(unread, domains),
    "asked",
  );
  const rate = (key: string) => {
    const row = bySplit.get(key);
    return row ? row.wrong.length / row.labels : 0;
  };
  const missed = [
    bySplit.get(`${KNOWN} · the seven verbs missed`)?.wrong.length ? "misses on held-out languages" : "",
    rate(`${COVERED} · the seven verbs missed`) > 0.01 ? "over 1% missed on held-out domains" : "",
    rate(`${COVERED} · other verbs missed`) > 0.01 ? "over 1% of other verbs missed on held-out domains" : "",
    rate(`${COVERED} · harmless asked`) > 0.03 ? "over 3% harmless asked on held-out domains" : "",
  ].filter(Boolean);
  console.log(missed.length ? `\nTargets missed: ${missed.join("; ")}` : "\nTargets met.");
  return missed.length;
}
