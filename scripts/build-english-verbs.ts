// Builds data/english-verbs.txt: every English verb of one word, as WordNet 3.0 lists it (Debian's
// `wordnet-base`), one a line in byte order. The gate reads a command whose first word is one of
// them as a verb, and asks where no catalog shows that verb leading a harmless label ("Settle
// invoice"). It also builds data/english-verbs-alone.txt: those of them read as a verb on their own,
// a label of one word ("Vote", "Claim"): WordNet's tagged texts use them as verbs more often than as
// nouns, or it has no noun of them at all and tags neither ("Twin", "Flag" and "Rate" are nouns
// first). Run by a developer, not by the tests:
//
//   npx tsx scripts/build-english-verbs.ts [WORDNET_DIR]
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const WORDNET = process.argv[2] ?? "/usr/share/wordnet";

/** The lemmas of one word of an index file (its license text is indented; a lemma of several words has underscores). */
function lemmas(file: string): Set<string> {
  const found = new Set<string>();
  for (const line of readFileSync(join(WORDNET, file), "utf8").split("\n")) {
    const lemma = line.startsWith(" ") ? "" : (line.split(" ")[0] ?? "");
    if (/^[a-z]+$/.test(lemma)) found.add(lemma);
  }
  return found;
}

/** How often the tagged texts use each lemma as a noun (1) and as a verb (2): cntlist.rev's "key sense count". */
function tagCounts(): Map<string, { noun: number; verb: number }> {
  const counts = new Map<string, { noun: number; verb: number }>();
  for (const line of readFileSync(join(WORDNET, "cntlist.rev"), "utf8").split("\n")) {
    const [key, , count] = line.split(" ");
    const [lemma, rest] = (key ?? "").split("%");
    if (!lemma || !rest) continue;
    const entry = counts.get(lemma) ?? { noun: 0, verb: 0 };
    if (rest.startsWith("1")) entry.noun += Number(count);
    if (rest.startsWith("2")) entry.verb += Number(count);
    counts.set(lemma, entry);
  }
  return counts;
}

const write = (file: string, words: Iterable<string>) => {
  const sorted = [...words].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  writeFileSync(file, `${sorted.join("\n")}\n`);
  console.log(`${file}: ${sorted.length} verbs`);
};

const verbs = lemmas("index.verb");
const nouns = lemmas("index.noun");
const counts = tagCounts();
write("data/english-verbs.txt", verbs);
write(
  "data/english-verbs-alone.txt",
  [...verbs].filter((verb) => {
    const { noun, verb: asVerb } = counts.get(verb) ?? { noun: 0, verb: 0 };
    return asVerb > noun || (asVerb === 0 && noun === 0 && !nouns.has(verb));
  }),
);
