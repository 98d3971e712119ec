// Builds data/english-verbs.txt: every English verb of one word, as WordNet 3.0 lists it (Debian's
// `wordnet-base`), one a line in byte order. The gate reads a command whose first word is one of
// them as a verb, and asks where no catalog shows that verb leading a harmless label ("Settle
// invoice"). Run by a developer, not by the tests:
//
//   npx tsx scripts/build-english-verbs.ts [WORDNET_DIR]
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const WORDNET = process.argv[2] ?? "/usr/share/wordnet";
const verbs = new Set<string>();
for (const line of readFileSync(join(WORDNET, "index.verb"), "utf8").split("\n")) {
  // Its license text is indented; a lemma of several words has underscores.
  const lemma = line.startsWith(" ") ? "" : (line.split(" ")[0] ?? "");
  if (/^[a-z]+$/.test(lemma)) verbs.add(lemma);
}
const sorted = [...verbs].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
writeFileSync("data/english-verbs.txt", `${sorted.join("\n")}\n`);
console.log(`data/english-verbs.txt: ${sorted.length} verbs`);
