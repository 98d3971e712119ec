// bench/vocabulary: what the gate's vocabulary costs a process that judges its first press (every CLI
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
  console.log(JSON.stringify({ build: performance.now() - loaded, phrases: v.phrases.length }));`;

function build(cacheDir: string): { build: number; phrases: number } {
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
      for (const f of readdirSync(dir)) if (f.startsWith("phrases-")) rmSync(join(dir, f));
    },
  ],
  ["both cached", () => undefined],
];
console.log("\n# bench/vocabulary · the gate's vocabulary, built in a fresh process");
console.log("| cache | median build | runs | phrases |");
console.log("|---|---|---|---|");
const dir = mkdtempSync(join(tmpdir(), "deskhand-bench-vocabulary-"));
build(dir);
for (const [label, prepare] of cases) {
  const times: number[] = [];
  let phrases = 0;
  for (let i = 0; i < RUNS; i++) {
    prepare(dir);
    const result = build(dir);
    times.push(result.build);
    phrases = result.phrases;
  }
  console.log(`| ${label} | ${median(times).toFixed(0)} ms | ${RUNS} | ${phrases} |`);
}
rmSync(dir, { recursive: true, force: true });
