// Builds data/english-verbs.txt: every English verb WordNet 3.0 knows (Debian's `wordnet-base`), in
// its inflections. The label reading takes a word of the English word list (data/english.txt) as
// harmless only when it is no verb: a verb may say what a press does, and one no catalog shows in a
// harmless label ("Settle", "Disburse") is not read as harmless. Run by a developer:
//
//   apt-get install wordnet-base && npx tsx scripts/build-english-verbs.ts [WORDNET_DIR]
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const WORDNET = process.argv[2] ?? "/usr/share/wordnet";
const VOWEL = /[aeiou]/;

/** A regular verb's forms, and the doubled-consonant ones WordNet's exceptions do not all list. */
function inflections(verb: string): string[] {
  const stem = verb.endsWith("e") ? verb.slice(0, -1) : verb;
  const last = verb.at(-1)!;
  const doubled = !VOWEL.test(last) && VOWEL.test(verb.at(-2) ?? "") ? verb + last : verb;
  const s = /(s|x|z|ch|sh|o)$/.test(verb)
    ? `${verb}es`
    : /[^aeiou]y$/.test(verb)
      ? `${verb.slice(0, -1)}ies`
      : `${verb}s`;
  const ed = /[^aeiou]y$/.test(verb) ? `${verb.slice(0, -1)}ied` : `${stem}ed`;
  return [verb, s, ed, `${stem}ing`, `${doubled}ed`, `${doubled}ing`];
}

const verbs = new Set<string>();
for (const line of readFileSync(join(WORDNET, "index.verb"), "utf8").split("\n")) {
  const lemma = line.split(" ")[0] ?? "";
  if (line.startsWith(" ") || !/^[a-z]+$/.test(lemma)) continue;
  for (const form of inflections(lemma)) verbs.add(form);
}
for (const line of readFileSync(join(WORDNET, "verb.exc"), "utf8").split("\n")) {
  const form = line.split(" ")[0] ?? "";
  if (/^[a-z]+$/.test(form)) verbs.add(form);
}
const sorted = [...verbs].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
writeFileSync("data/english-verbs.txt", `${sorted.join("\n")}\n`);
console.log(`data/english-verbs.txt: ${sorted.length} forms of WordNet's verbs`);
