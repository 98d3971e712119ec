// bench/vocabulary: what the gate's vocabulary and label lexicon cost a process that judges its first press (every CLI
// command that clicks, presses a key or invokes), each build in a fresh process: with no cache (the
// machine's catalogs read), with the catalogs' labels cached but not the phrases made from them, and
// with both cached (every start after the first). Prints figures for docs/benchmarks.md.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const SCRIPT = `
  const started = performance.now();
  const { systemVocabulary } = await import("./src/safety/vocabulary.ts");
  const loaded = performance.now();
  const v = systemVocabulary();
  const built = performance.now();
  const { systemLabelLexicon } = await import("./src/safety/label-reading.ts");
  const lexicon = systemLabelLexicon();
  console.log(JSON.stringify({
    build: built - loaded,
    lexicon: performance.now() - built,
    phrases: v.phrases.length,
    words: lexicon.harmless.size + lexicon.commits.size,
  }));`;

interface Built {
  build: number;
  lexicon: number;
  phrases: number;
  words: number;
}

function build(cacheDir: string): Built {
  const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", SCRIPT], {
    encoding: "utf8",
    env: { ...process.env, DESKHAND_CACHE_DIR: cacheDir },
  });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const cases: [string, (dir: string) => void][] = [
  ["no cache (the machine's catalogs read)", (dir) => rmSync(dir, { recursive: true, force: true })],
  [
    "catalogs' labels cached, phrases not",
    (dir) => {
      for (const f of readdirSync(dir)) if (/^(phrases|labels)-/.test(f)) rmSync(join(dir, f));
    },
  ],
  ["both cached", () => undefined],
];
console.log("\n# bench/vocabulary · the gate's vocabulary, built in a fresh process");
console.log("| cache | median build | median label lexicon | runs | phrases | lexicon words |");
console.log("|---|---|---|---|---|---|");
const dir = mkdtempSync(join(tmpdir(), "deskhand-bench-vocabulary-"));
build(dir);
for (const [label, prepare] of cases) {
  const runs: Built[] = [];
  for (let i = 0; i < RUNS; i++) {
    prepare(dir);
    runs.push(build(dir));
  }
  const ms = (key: "build" | "lexicon") => `${median(runs.map((r) => r[key])).toFixed(0)} ms`;
  console.log(
    `| ${label} | ${ms("build")} | ${ms("lexicon")} | ${RUNS} | ${runs[0]!.phrases} | ${runs[0]!.words} |`,
  );
}
rmSync(dir, { recursive: true, force: true });
