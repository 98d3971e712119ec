// Builds data/vocabulary.json, the gate's shipped vocabulary, from Debian's gettext catalogs of widely
// translated apps (mail, chat, files, finance, software centres, desktops): for every language, the
// translations of the English phrases in src/safety/phrases.ts, each with the packages it came from,
// and the words of every short label those catalogs translate (the lexicon that tells whether
// deskhand can read a label's language at all). Run by a developer, not by the tests:
//
//   npx tsx scripts/build-vocabulary.ts [--debs DIR]
//
// It downloads the packages below with `apt-get download` (as root, after `apt-get update`) into a
// temporary folder, unpacks them with `dpkg-deb -x`, and reads their catalogs. Nothing is installed.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { listCatalogs, readCatalog } from "../src/platform/catalogs.js";
import { catalogPhrase, ENGLISH, labelWords } from "../src/safety/phrases.js";

// Chosen for how many languages they carry and which committing verbs they say: sending (mail,
// chat), paying and transfers (finance), emptying and deleting (file managers), installing (software
// centres), signing out and powering off (desktops), and the toolkits' own stock labels.
const PACKAGES = [
  "libgtk-3-common",
  "libgtk-4-common",
  "nautilus-data",
  "thunar-data",
  "evolution-common",
  "geary",
  "claws-mail-i18n",
  "pidgin-data",
  "hexchat-common",
  "polari",
  "gnucash-common",
  "kmymoney",
  "gnome-software-common",
  "synaptic",
  "gnome-control-center-data",
  "gnome-shell-common",
  "gnome-session-common",
  "gnome-disk-utility",
  "gparted-common",
  "file-roller",
  "shotwell-common",
  "rhythmbox-data",
  "transmission-common",
  "epiphany-browser-data",
  "gnome-contacts",
  "deja-dup",
  "libkf5configwidgets-data",
  "libkf5xmlgui-data",
  "dolphin",
  "xfce4-terminal",
  "gnome-terminal-data",
  // English beyond the apps' own labels: the words a fixture or an app names things with.
  "wamerican",
];
// A language counts as covered when its catalogs translate at least this many committing phrases.
const COVERED_AT = 12;
// Labels of up to this many words feed the lexicon: a label's words, not a sentence's.
const LEXICON_LABEL_WORDS = 6;

const args = process.argv.slice(2);
const debs = args[0] === "--debs" && args[1] ? args[1] : mkdtempSync(join(tmpdir(), "deskhand-vocab-"));
if (args[0] !== "--debs") {
  execFileSync("apt-get", ["download", ...PACKAGES], { cwd: debs, stdio: "inherit" });
}
const root = join(debs, "root");
mkdirSync(root, { recursive: true });
const versions: string[] = [];
const owner = new Map<string, string>();
for (const deb of readdirSync(debs)
  .filter((f) => f.endsWith(".deb"))
  .sort()) {
  const [name, version] = deb.replace(/\.deb$/, "").split("_");
  versions.push(`${name} ${decodeURIComponent(version ?? "")}`);
  const into = join(root, name!);
  execFileSync("dpkg-deb", ["-x", join(debs, deb), into]);
  owner.set(into, name!);
}

const phrases = new Map<
  string,
  { kind: string; english: string; language: string; text: string; from: Set<string> }
>();
const perLanguage = new Map<string, Set<string>>();
const wordsByLanguage = new Map<string, Set<string>>();
const english = new Set<string>();
// English labels as whole msgids ("Normal", "Bold"), and in how many packages: a translation that is
// one of the common ones is English to a reader, whatever catalog says it.
const englishLabels = new Map<string, Set<string>>();
// For deriving a verb's own translation: the translations of "<verb> <object>" labels ("Pay Invoice",
// "Pay Bill"), per verb and language, and how often each word stands in any label of the language.
const VERBS = new Set(ENGLISH.commits.filter((w) => !w.includes(" ")));
const verbLabels = new Map<string, { words: Set<string>; from: string }[]>();
const wordCounts = new Map<string, Map<string, number>>();
const labelCounts = new Map<string, number>();
for (const [into, name] of owner) {
  for (const catalog of listCatalogs([join(into, "usr/share/locale")])) {
    const language = catalog.language;
    const messages = readCatalog(catalog.path, (id) => id.length <= 80, 80);
    for (const message of messages) {
      const found = catalogPhrase(message.id, message.text);
      if (found) {
        const key = `${found.kind}\u0000${found.english}\u0000${language}\u0000${found.text}`;
        const entry = phrases.get(key) ?? { ...found, language, from: new Set<string>() };
        entry.from.add(name);
        phrases.set(key, entry);
        if (found.kind === "commits") {
          const set = perLanguage.get(language) ?? new Set<string>();
          set.add(found.english);
          perLanguage.set(language, set);
        }
      }
      // The lexicon: words of short labels only (a tooltip's sentence teaches nothing about labels).
      if (message.id.length > 40 || !/^[_&]?[A-Z]/.test(message.id) || /%|<|\n|\{|\$/.test(message.id))
        continue;
      const words = labelWords(message.text);
      if (words.length === 0 || words.length > LEXICON_LABEL_WORDS) continue;
      const idWords = labelWords(message.id);
      const counts = wordCounts.get(language) ?? new Map<string, number>();
      for (const word of new Set(words)) counts.set(word, (counts.get(word) ?? 0) + 1);
      wordCounts.set(language, counts);
      labelCounts.set(language, (labelCounts.get(language) ?? 0) + 1);
      if (idWords.length >= 2 && idWords.length <= 4 && VERBS.has(idWords[0]!) && !/[.…]$/.test(message.id)) {
        const key = `${idWords[0]}\u0000${language}`;
        const list = verbLabels.get(key) ?? [];
        list.push({ words: new Set(words), from: name });
        verbLabels.set(key, list);
      }
      const set = wordsByLanguage.get(language) ?? new Set<string>();
      for (const word of words) set.add(word);
      wordsByLanguage.set(language, set);
      for (const word of labelWords(message.id)) english.add(word);
      const whole = labelWords(message.id).join(" ");
      if (whole && whole.split(" ").length <= 3) {
        const seen = englishLabels.get(whole) ?? new Set<string>();
        seen.add(name);
        englishLabels.set(whole, seen);
      }
    }
  }
}

// A verb's translation is the word most of its "<verb> <object>" labels share and other labels rarely
// have: "zaplatit" from "Zaplatit fakturu" and "Zaplatit účet".
for (const [key, labels] of verbLabels) {
  const [verb, language] = key.split("\u0000") as [string, string];
  if (labels.length < 2) continue;
  const counts = new Map<string, { n: number; from: Set<string> }>();
  for (const label of labels)
    for (const word of label.words) {
      const c = counts.get(word) ?? { n: 0, from: new Set<string>() };
      c.n++;
      c.from.add(label.from);
      counts.set(word, c);
    }
  const total = labelCounts.get(language) ?? 1;
  for (const [word, c] of counts) {
    // The object of a verb that always takes the same one ("Papierkorb" of "Empty Trash") also stands in
    // other labels ("Move to Trash") more often than with the verb: it is not the verb.
    const elsewhere = (wordCounts.get(language)?.get(word) ?? 0) - c.n;
    if (c.n < 2 || c.n / labels.length < 0.5 || elsewhere >= c.n || elsewhere / total > 0.01) continue;
    if ([...word].length < 2) continue;
    const entryKey = `commits\u0000${verb}\u0000${language}\u0000${word}`;
    if (phrases.has(entryKey)) continue;
    phrases.set(entryKey, { kind: "commits", english: verb, language, text: word, from: c.from });
  }
}

// Debian's English word list, for the lexicon only (a word list says nothing of what commits).
for (const [into] of owner) {
  try {
    for (const line of readFileSync(join(into, "usr/share/dict/american-english"), "utf8").split("\n"))
      for (const word of labelWords(line)) english.add(word);
  } catch {
    // Not the word list's package.
  }
}

const covered = [...perLanguage]
  .filter(([, set]) => set.size >= COVERED_AT)
  .map(([language]) => language)
  .sort();
// English apart: a translation that is all English words ("Normal", a catalog's "OK") is no
// committing phrase of another language. The other covered languages' words beside it.
const lexicon = new Set<string>();
for (const language of covered)
  for (const word of wordsByLanguage.get(language) ?? [])
    if ((wordCounts.get(language)?.get(word) ?? 0) >= 2 && !english.has(word)) lexicon.add(word);

const entries = [...phrases.values()].sort((a, b) =>
  `${a.kind} ${a.english} ${a.language} ${a.text}`.localeCompare(
    `${b.kind} ${b.english} ${b.language} ${b.text}`,
  ),
);
const sources = [...new Set(entries.flatMap((e) => [...e.from]))].sort();
const out = {
  about:
    "Generated by scripts/build-vocabulary.ts from the gettext catalogs of the Debian 12 packages in `packages`. " +
    "Each phrase: [kind, English phrase, language, label, indexes into `packages` it came from]. " +
    "`english_labels`: English labels found whole in three packages or more (a translation that is one is not taken). `covered`: languages whose catalogs translate at least 12 committing phrases, with that count. A verb's own " +
    "translation is also derived from its '<verb> <object>' labels. data/english.txt: English words (msgids, Debian's " +
    "word list); data/words.txt: the other covered languages' words of short labels (seen in two labels or more). " +
    "Together they tell whether a label's language can be read.",
  packages: versions.filter((v) => sources.includes(v.split(" ")[0]!) || v.startsWith("wamerican ")),
  covered: Object.fromEntries(covered.map((l) => [l, perLanguage.get(l)!.size])),
  phrases: [] as unknown[],
  // English labels found whole in three packages or more.
  english_labels: [...englishLabels]
    .filter(([, packages]) => packages.size >= 3)
    .map(([label]) => label)
    .sort(),
};
const index = new Map(out.packages.map((p, i) => [p.split(" ")[0]!, i]));
out.phrases = entries.map((e) => [
  e.kind,
  e.english,
  e.language,
  e.text,
  [...e.from].map((f) => index.get(f)),
]);
mkdirSync("data", { recursive: true });
// One phrase a line, so that a change reads as a diff.
const json = JSON.stringify(out, null, 0)
  .replace(/\],\[/g, "],\n[")
  .replace(/"phrases":\[\[/, '"phrases":[\n[')
  .replace(/","/g, '",\n"');
writeFileSync("data/vocabulary.json", `${json}\n`);
// In UTF-8 byte order: deskhand searches the files as bytes, off its heap (src/safety/lexicon.ts).
const byteOrder = (words: Iterable<string>) =>
  [...words].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))).join("\n");
writeFileSync("data/words.txt", `${byteOrder(lexicon)}\n`);
writeFileSync("data/english.txt", `${byteOrder(english)}\n`);
console.log(
  `data/vocabulary.json, words.txt and english.txt: ${entries.length} phrases in ${covered.length} covered languages, ${lexicon.size} words and ${english.size} English ones, from ${out.packages.length} packages`,
);
