// Builds data/meanings.json, the verbs whose press commits, by meaning rather than by a word list:
// the English ones from WordNet 3.0 (Debian's `wordnet-base`), taken as the senses that commit
// (money leaves, data leaves, something is destroyed, a state is fixed), each with its synonyms and
// its troponyms (WordNet's "ways to pay": prepay, tip, remit…), their inflections (paying, paid,
// booked) and the nouns WordNet derives from them (payment, booking, subscription); the other
// languages' button words for the same meanings from the table in scripts/meanings-translations.ts.
// Every other language the vocabulary covers gets the same verbs as the gettext catalogs of the
// packages scripts/build-vocabulary.ts reads translate them ("_Export", "Subscribe", "Sync"): a
// label found as the translation in two packages or more. Run by a developer, not by the tests
// (`apt-get install wordnet-base` first; DEBS: a folder of those packages' .deb files, as
// `apt-get download` leaves them):
//
//   npx tsx scripts/build-meanings.ts [--debs DEBS] [WORDNET_DIR]
//
// A sense is named `lemma#n`, n counting as WordNet's index.verb lists them (most used first). Only
// the senses named commit: "order" commits as "make a request for something" (order#2), not as
// "place in a certain order"; "say", "tell" and "ask" are in verb.communication and name no sense.
import { execFileSync } from "node:child_process";
import { mkdirSync, openSync, readdirSync, readFileSync, readSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { listCatalogs, readCatalog } from "../src/platform/catalogs.js";
import { ENGLISH, labelWords } from "../src/safety/phrases.js";
import { TRANSLATIONS } from "./meanings-translations.js";

const args = process.argv.slice(2);
const DEBS = args[0] === "--debs" ? args[1] : undefined;
const WORDNET = (DEBS ? args[2] : args[0]) ?? "/usr/share/wordnet";

/** What a class of committing presses does, as the gate's reason says it. */
export const CLASSES = {
  money: "money leaves",
  data: "data leaves the app",
  destroys: "something is destroyed",
  fixes: "a state is fixed that the app cannot undo",
} as const;
type MeaningClass = keyof typeof CLASSES;

// The senses that commit. A synset's other words and its troponyms come with it, minus STOP.
const SENSES: Record<MeaningClass, string[]> = {
  money: [
    "pay#1+",
    "pay#3",
    "pay#11",
    "buy#1+",
    "order#2",
    "book#2",
    "reserve#3",
    "bid#1",
    "donate#1+",
    "subscribe#1",
    "subscribe#4",
    "withdraw#9",
    "transfer#5",
    "tip#3",
    "sell#1+",
    "rent#3",
    "lease#1",
    "bet#2",
    "invest#1",
    "fund#6",
    "refund#1",
    "charge#12",
    "checkout#1",
    "prepay#1",
    "remit#1",
    "wire#1",
    "renew#1",
  ],
  data: [
    "send#2",
    "send#3+",
    "send#6",
    "submit#1",
    "submit#4",
    "submit#8",
    "post#2",
    "post#11",
    "publish#2",
    "share#4",
    "share#5",
    "upload#1",
    "export#2",
    "print#1",
    "print#4",
    "sync#1",
    "email#1",
    "forward#1",
    "transmit#4",
    "broadcast#1",
    "fax#1",
    "release#7",
  ],
  destroys: [
    "delete#1",
    "delete#2+",
    "remove#3",
    "erase#1",
    "erase#3+",
    "purge#5",
    "wipe#1",
    "truncate#3",
    "overwrite#1",
    "force#8",
    "discard#1",
    "uninstall#1",
    "format#3",
    "revoke#2",
    "terminate#1",
    "destroy#1+",
    "shred#1",
    "annul#1",
    "void#3",
    "kill#12",
    "kill#14",
    "empty#1",
    "abort#1",
    "reset#2",
    "flush#5",
  ],
  fixes: [
    "confirm#4",
    "apply#8",
    "commit#1",
    "sign#1",
    "sign#2",
    "approve#1",
    "accept#3",
    "install#1",
    "merge#3",
    "deploy#2",
    "finalize#1",
    "authorize#1",
    "grant#2",
    "execute#5",
    "upgrade#2",
    "ratify#1",
    "endorse#1",
    "certify#1",
    "enroll#1",
    "register#1",
  ],
};

// Nouns of the acts that WordNet does not derive from the senses above, as buttons name them after a
// cancel word or a light verb ("Cancel subscription", "Place bid", "Close account").
const NOUNS: Record<MeaningClass, string[]> = {
  money: [
    "subscription",
    "membership",
    "purchase",
    "booking",
    "bid",
    "plan",
    "checkout",
    "donation",
    "deposit",
  ],
  data: ["submission", "upload", "export", "message", "post"],
  destroys: ["account", "removal", "deletion", "contract"],
  fixes: ["merge", "signature", "deployment"],
};

// Words a synset or a troponym brings that do not commit on a button ("edit" is a sense of delete,
// "cancel" one of annul, "lift" one of revoke), or name what a harmless button does ("open", "run").
const STOP = new Set(
  `say tell ask give take get make do have go come put set show open close find search view look see
  add new next edit copy move change select choose pick run start stop play pause keep hold leave call
  enter return back skip cut paste drag mark tag note file present offer draw lift strip pull check
  cancel end finish cease halt reverse use employ place station transport carry direct channel free
  loose clear pass okay o.k. support establish let engage hire take_on charter trade deal level even
  flow scour air turn spread diffuse disperse circulate impart conduct convey communicate rub swipe
  sweep brush mop towel sponge squeegee dust blot dab pat rinse scrub wash clean dry
  hit off dispatch bump_off polish_off issue bring_out put_out ship station resign admit avoid lift
  overturn countermand go_for sanction settle nail_down list register o.k. pass_over put_away break_up
  demonstrate evidence manifest spark spark_off trigger trigger_off trip touch_off set_off set_up pick_up
  put_in get_off take_out take_over take_down put_up prefer express impress subject repair regenerate
  foot fee realise realize dispose fling toss ending presentation registry synchrony uniting backing
  abortion installment regeneration acceptation perpetration mail e-mail email netmail airmail express-mail
  mail_out forward release prostitute corrupt bribe unite unify`
    .split(/\s+/)
    .filter(Boolean),
);

interface Synset {
  lex: number;
  words: string[];
  troponyms: string[];
  nouns: string[];
}

const index = new Map<string, string[]>();
for (const line of readFileSync(join(WORDNET, "index.verb"), "utf8").split("\n")) {
  if (!line || line.startsWith(" ")) continue;
  const parts = line.split(" ");
  const pointers = Number(parts[3]);
  index.set(parts[0]!, parts.slice(4 + pointers + 2).filter(Boolean));
}
const verbData = openSync(join(WORDNET, "data.verb"), "r");
const nounData = openSync(join(WORDNET, "data.noun"), "r");

function lineAt(fd: number, offset: string): string {
  const buffer = Buffer.alloc(4096);
  const read = readSync(fd, buffer, 0, buffer.length, Number(offset));
  return buffer.subarray(0, read).toString("latin1").split("\n")[0]!;
}

function synset(offset: string): Synset {
  const parts = lineAt(verbData, offset).split(" ");
  const count = Number.parseInt(parts[3]!, 16);
  const words = Array.from({ length: count }, (_, i) => parts[4 + 2 * i]!.toLowerCase());
  let at = 4 + 2 * count;
  const pointers = Number(parts[at++]);
  const troponyms: string[] = [];
  const nouns: string[] = [];
  for (let i = 0; i < pointers; i++, at += 4) {
    const [symbol, target, pos, sourceTarget] = parts.slice(at, at + 4) as [string, string, string, string];
    if (symbol === "~" && pos === "v") troponyms.push(target);
    // A derivationally related noun of this very word ("pay" → "payment"), not of a synonym.
    if (symbol === "+" && pos === "n") {
      const source = Number.parseInt(sourceTarget.slice(0, 2), 16);
      const targetWord = Number.parseInt(sourceTarget.slice(2), 16);
      if (source === 1) nouns.push(nounWord(target, targetWord));
    }
  }
  return { lex: Number(parts[1]), words, troponyms, nouns };
}

function nounWord(offset: string, n: number): string {
  const parts = lineAt(nounData, offset).split(" ");
  return parts[4 + 2 * (n - 1)]!.toLowerCase();
}

// WordNet's own exceptions (paid, bought, sent, sold, bid, withdrew…), then the regular rules.
const EXCEPTIONS = new Map<string, string[]>();
for (const line of readFileSync(join(WORDNET, "verb.exc"), "utf8").split("\n")) {
  const [form, base] = line.split(" ");
  if (form && base) EXCEPTIONS.set(base, [...(EXCEPTIONS.get(base) ?? []), form]);
}

const VOWEL = /[aeiou]/;
/** Whether the last consonant doubles before -ing/-ed: one-syllable CVC words (bid, drop, ship). */
const doubles = (verb: string) =>
  /[^aeiou][aeiou][bdgklmnprtv]$/.test(verb) && (verb.match(/[aeiouy]+/g) ?? []).length === 1;

function inflections(verb: string): string[] {
  const forms = new Set([verb, ...(EXCEPTIONS.get(verb) ?? [])]);
  let stem = verb;
  if (doubles(verb)) stem = verb + verb.at(-1);
  if (/[^aeiou]y$/.test(verb)) {
    forms.add(`${verb.slice(0, -1)}ies`);
    forms.add(`${verb.slice(0, -1)}ied`);
    forms.add(`${verb}ing`);
  } else if (/e$/.test(verb) && !/ee$/.test(verb)) {
    forms.add(`${verb}s`);
    forms.add(`${verb}d`);
    forms.add(`${verb.slice(0, -1)}ing`);
  } else {
    forms.add(/(s|x|z|ch|sh)$/.test(verb) ? `${verb}es` : `${verb}s`);
    if (!EXCEPTIONS.has(verb)) forms.add(`${stem}ed`);
    forms.add(`${stem}ing`);
  }
  if (!VOWEL.test(verb)) return [verb];
  return [...forms].sort();
}

/** A multi-word verb ("pay up", "wipe out") is inflected in its first word. */
function phraseForms(lemma: string): string[] {
  const [head, ...rest] = lemma.split("_");
  return inflections(head!).map((form) => [form, ...rest].join(" "));
}

/** The past forms (paid, booked, sent): alone, a label in them names a state ("Sent", "Installed"). */
function pastForms(lemma: string): string[] {
  const [head, ...rest] = lemma.split("_") as [string, ...string[]];
  const present = (form: string) =>
    form === head || /ing$/.test(form) || form === `${head}s` || form === `${head}es`;
  return inflections(head)
    .filter((form) => !present(form) && !/ies$/.test(form))
    .map((form) => [form, ...rest].join(" "));
}

// How often each word was tagged as a verb and as anything else (WordNet's sense counts): a verb that
// is mostly a noun or an adjective ("book", "order", "tip", "forward") commits only as a label's
// first word, where a button puts its verb ("Book now"), not in "Address Book".
const tagged = new Map<string, { verb: number; other: number }>();
for (const line of readFileSync(join(WORDNET, "cntlist.rev"), "utf8").split("\n")) {
  const [key, , count] = line.split(" ");
  if (!key || !count) continue;
  const [lemma, rest] = key.split("%") as [string, string];
  const entry = tagged.get(lemma) ?? { verb: 0, other: 0 };
  if (rest.startsWith("2")) entry.verb += Number(count);
  else entry.other += Number(count);
  tagged.set(lemma, entry);
}
const mostlyNoun = (verb: string) => {
  const counts = tagged.get(verb.split("_")[0]!);
  return !!counts && counts.other * 2 >= counts.verb;
};

const LEXFILES = new Set([30, 32, 35, 36, 40, 41]);

const verbs = new Map<string, MeaningClass>();
const nouns = new Map<string, MeaningClass>();
const unknown: string[] = [];
for (const [meaning, senses] of Object.entries(SENSES) as [MeaningClass, string[]][]) {
  for (const sense of senses) {
    // "pay#1+": the sense and its troponyms (prepay, overpay, tip…); most senses' troponyms are
    // too broad to commit ("restore" and "repair" are ways to "renew").
    const withTroponyms = sense.endsWith("+");
    const [lemma, n] = sense.replace(/\+$/, "").split("#") as [string, string];
    const offset = index.get(lemma)?.[Number(n) - 1];
    if (!offset) {
      // Not in WordNet 3.0 as a verb ("checkout"): the lemma alone.
      unknown.push(sense);
      if (!verbs.has(lemma)) verbs.set(lemma, meaning);
      continue;
    }
    const found = synset(offset);
    const take = (word: string) => {
      if (!STOP.has(word) && !verbs.has(word) && !/[^a-z_-]/.test(word)) verbs.set(word, meaning);
    };
    take(lemma);
    for (const word of found.words) take(word);
    // The act, not its agent: "payment", not "payer" or "printer".
    const agent = (noun: string) => /(er|or|ee|ant)$/.test(noun) && !verbs.has(noun);
    for (const noun of found.nouns)
      if (!STOP.has(noun) && !agent(noun) && !/[^a-z-]/.test(noun)) nouns.set(noun, meaning);
    for (const troponym of withTroponyms ? found.troponyms : []) {
      const sub = synset(troponym);
      if (LEXFILES.has(sub.lex)) for (const word of sub.words) take(word);
    }
  }
}

for (const [meaning, words] of Object.entries(NOUNS) as [MeaningClass, string[]][])
  for (const noun of words) if (!nouns.has(noun)) nouns.set(noun, meaning);

const english: Record<string, { meaning: MeaningClass; forms: string[]; past: string[]; first?: true }> = {};
for (const [verb, meaning] of [...verbs].sort(([a], [b]) => a.localeCompare(b)))
  english[verb.replace(/_/g, " ")] = {
    meaning,
    // A mostly-noun verb's -s form is its plural ("Books", "Tips", "Orders"); a button never says it.
    forms: mostlyNoun(verb)
      ? phraseForms(verb).filter((form) => form === verb || !/s$/.test(form.split(" ")[0]!))
      : phraseForms(verb),
    past: pastForms(verb),
    ...(mostlyNoun(verb) ? { first: true as const } : {}),
  };
/**
 * The catalogs' translations of the English verbs, per language and class: a msgid that is the verb
 * alone ("Export", "_Subscribe"; a mostly-noun verb only with its mnemonic, as a button writes it),
 * translated by two packages or more, and no language's Cancel. Verbs data/vocabulary.json already
 * translates (Delete, Print, Reset) are left to it; so is a translation that stays English ("Fax"),
 * and one of three letters or fewer (Vietnamese "in" for Print), which is some other word too. The
 * toolkits' catalogs are not read here: their "Delete" and "Print" are key names ("Entf", "Impr").
 */
function catalogTranslations(debs: string): Record<string, Record<string, string[]>> {
  const root = join(debs, "root");
  mkdirSync(root, { recursive: true });
  const vocabulary = JSON.parse(readFileSync("data/vocabulary.json", "utf8")) as {
    covered: Record<string, number>;
    phrases: [string, string, string, string, number[]][];
  };
  const cancels = new Set(
    vocabulary.phrases.filter(([k]) => k === "cancels").map(([, , , t]) => t.toLowerCase()),
  );
  const found = new Map<string, Set<string>>();
  // Abort's translations are "interrupt" (a pause, not a loss) in most catalogs.
  const known = new Set([...ENGLISH.commits, "abort"]);
  for (const deb of readdirSync(debs).filter((f) => f.endsWith(".deb") && !f.startsWith("libgtk-"))) {
    const into = join(root, deb.split("_")[0]!);
    execFileSync("dpkg-deb", ["-x", join(debs, deb), into]);
    for (const catalog of listCatalogs([join(into, "usr/share/locale")])) {
      if (!(catalog.language in vocabulary.covered)) continue;
      for (const message of readCatalog(catalog.path, (id) => id.length <= 24, 24)) {
        const id = message.id.replace(/\.\.\.$|…$/, "");
        if (id !== message.id || !/^[_&]?[A-Z][a-z]+$/.test(id)) continue;
        const verb = english[id.replace(/[_&]/g, "").toLowerCase()];
        const lemma = id.replace(/[_&]/g, "").toLowerCase();
        if (!verb || known.has(lemma) || (verb.first && !/[_&]/.test(id))) continue;
        const text = labelWords(message.text).join(" ");
        if ([...text].length < 4 || text.split(" ").length > 3 || cancels.has(text) || english[text])
          continue;
        const key = `${catalog.language}\u0000${verb.meaning}\u0000${text}`;
        found.set(key, (found.get(key) ?? new Set()).add(deb.split("_")[0]!));
      }
    }
  }
  const out: Record<string, Record<string, string[]>> = {};
  for (const [key, packages] of [...found].sort(([a], [b]) => a.localeCompare(b))) {
    if (packages.size < 2) continue;
    const [language, meaning, text] = key.split("\u0000") as [string, string, string];
    const classes = out[language] ?? {};
    classes[meaning] = [...(classes[meaning] ?? []), text];
    out[language] = classes;
  }
  return out;
}

// A word that is also a common English label ("Done", Spanish for "donate!") would make that label
// commit: the English labels data/vocabulary.json lists as found whole in three packages or more.
const englishLabels = new Set(
  (JSON.parse(readFileSync("data/vocabulary.json", "utf8")) as { english_labels: string[] }).english_labels,
);
const notEnglish = (table: Record<string, Record<string, string[]>>) =>
  Object.fromEntries(
    Object.entries(table).map(([language, classes]) => [
      language,
      Object.fromEntries(
        Object.entries(classes).map(([meaning, words]) => [
          meaning,
          words.filter((word) => !englishLabels.has(word.toLowerCase())),
        ]),
      ),
    ]),
  );

const out = {
  about:
    "Generated by scripts/build-meanings.ts. `english`: the verbs whose senses commit, from WordNet 3.0 (Debian's wordnet-base) by sense, with their synonyms, troponyms and inflections (`first`: mostly a noun, so it commits only as a label's first word; `past`: the forms that, alone, name a state and commit only beside other words); `nouns`: the nouns WordNet derives from them (they commit after a cancel word or a light verb: 'Cancel subscription', 'Make payment'); `translations`: each language's button words for the same meanings (verbs and nouns as used on buttons), from scripts/meanings-translations.ts; `catalogs`: the same verbs as the gettext catalogs of scripts/build-vocabulary.ts's packages translate them, found in two packages or more.",
  classes: CLASSES,
  senses: SENSES,
  english,
  nouns: Object.fromEntries([...nouns].sort(([a], [b]) => a.localeCompare(b))),
  translations: notEnglish(TRANSLATIONS),
  catalogs: DEBS ? notEnglish(catalogTranslations(DEBS)) : {},
};
writeFileSync("data/meanings.json", `${JSON.stringify(out, null, 1)}\n`);
console.log(
  `${verbs.size} verbs, ${nouns.size} nouns, ${Object.keys(TRANSLATIONS).length} languages by hand, ${Object.keys(out.catalogs).length} from catalogs; not in WordNet: ${unknown.join(", ") || "none"}`,
);
