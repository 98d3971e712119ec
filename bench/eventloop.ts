// bench/eventloop: how long one request holds the event loop at once, while deskhand reads the largest
// windows of the suite. A setImmediate loop times every turn of the event loop during the calls; each
// turn is split into what the garbage collector took (perf_hooks "gc" entries), what the main thread
// ran on the CPU (/proc/thread-self/schedstat), and the rest, which is the process waiting for a CPU
// (this machine has two, shared with the app answering and the X server). Prints figures for
// docs/benchmarks.md; the bound itself is kept by src/platform/slice.ts.
import { readFileSync } from "node:fs";
import { PerformanceObserver } from "node:perf_hooks";
import { callTool } from "../src/tools/call.js";
import { createContext } from "../src/tools/context.js";
import { TOOLS } from "../src/tools/registry.js";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);

const gtk4 = { kind: "title", glob: "GTK Widget Factory" };
const calc = { kind: "title", glob: "*LibreOffice Calc" };
const swing = { kind: "title", glob: "Deskhand Fixture" };
// test/fixtures/dialogs/gtk3_huge.py: a button whose accessible name and description are 5 MB each.
const huge = { kind: "title", glob: "Deskhand huge" };
const FULL = { format: "full", maxNodes: 5000, maxDepth: 60 };
type Args = Record<string, unknown> | (() => Promise<Record<string, unknown>>);
/** The huge button's ref, found once. */
let hugeRef: string | undefined;
const pressHuge: Args = async () => {
  if (!hugeRef) {
    const found = await callTool(context, tool("find"), { target: huge, name_contains: "Huge Huge" });
    if (!found.ok) throw new Error(found.error.message);
    hugeRef = (found.output.data as { matches: { ref: string }[] }).matches[0]!.ref;
  }
  return { ref: hugeRef, action: { kind: "invoke" }, intent: "bench: refused, never pressed" };
};
const CASES: [label: string, tool: string, args: Args][] = [
  ["gtk4-widget-factory, default snapshot", "snapshot", { target: gtk4 }],
  ["gtk4-widget-factory, full snapshot", "snapshot", { target: gtk4, ...FULL }],
  ["LibreOffice Calc, default snapshot", "snapshot", { target: calc }],
  ["LibreOffice Calc, full snapshot", "snapshot", { target: calc, ...FULL }],
  ["LibreOffice Calc, snapshot since the last", "snapshot", { target: calc, since: "last" }],
  ["LibreOffice Calc, descendant locator", "find", { target: calc, locator: '//*[@name=contains("e")]' }],
  ["LibreOffice Calc, observe", "observe", { target: calc }],
  ["Swing fixture, full snapshot", "snapshot", { target: swing, ...FULL }],
  ["huge: a 5 MB accessible name, observe", "observe", { target: huge, pixels: false }],
  ["huge: a 5 MB accessible name, full snapshot", "snapshot", { target: huge, ...FULL }],
  ["huge: a 5 MB accessible name, act (the gate refuses)", "act", pressHuge],
];

const gcs: [number, number][] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcs.push([e.startTime, e.startTime + e.duration]);
}).observe({ entryTypes: ["gc"] });

/** Milliseconds this thread has run on a CPU. */
const onCpu = () => Number(readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[0]) / 1e6;

interface Turn {
  wall: number;
  gc: number;
  cpu: number;
  start: number;
  end: number;
}
let turns: Turn[] = [];
let recording = false;
let lastWall = performance.now();
let lastCpu = onCpu();
const tick = () => {
  const wall = performance.now();
  const cpu = onCpu();
  if (recording) turns.push({ wall: wall - lastWall, gc: 0, cpu: cpu - lastCpu, start: lastWall, end: wall });
  lastWall = wall;
  lastCpu = cpu;
  if (running) setImmediate(tick);
};
let running = true;
tick();

// The refused act is journaled like any other (its line bounded and scrubbed), into /dev/null.
const context = createContext({
  refLifetime: "while-verified",
  env: { ...process.env, DESKHAND_AUDIT: process.env.DESKHAND_AUDIT ?? "/dev/null" },
});
const tool = (name: string) => TOOLS.find((t) => t.name === name)!;
const fmt = (n: number) => n.toFixed(1);
const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))] ?? 0;

console.log("# bench/eventloop · the longest turns of the event loop during a call, in ms");
console.log(
  "| case | call | longest turn | its GC | its CPU | longest own CPU (no GC) | 99th pct. turn | turns over 10 ms |",
);
console.log("|---|---|---|---|---|---|---|---|");
let lastSnapshot: string | undefined;
// BENCH_ONLY=huge runs only the cases whose label holds it (and needs only their apps).
const only = process.env.BENCH_ONLY;
for (const [label, name, args] of CASES.filter(([label]) => !only || label.includes(only))) {
  const call = async () => {
    const given = typeof args === "function" ? await args() : args;
    const input = given.since === "last" ? { ...given, since: lastSnapshot } : given;
    const result = await callTool(context, tool(name), input);
    if (!result.ok) {
      if (result.outcome === "refused") return;
      throw new Error(`${label}: ${result.error.message}`);
    }
    const id = (result.output.data as { snapshotId?: string }).snapshotId;
    if (id) lastSnapshot = id;
  };
  await call(); // warm-up: the first read connects and compiles
  turns = [];
  gcs.length = 0;
  recording = true;
  const started = performance.now();
  for (let i = 0; i < RUNS; i++) await call();
  const perCall = (performance.now() - started) / RUNS;
  recording = false;
  await new Promise((resolve) => setTimeout(resolve, 20)); // the last gc entries arrive late
  for (const turn of turns)
    for (const [s, e] of gcs)
      if (e > turn.start && s < turn.end) turn.gc += Math.min(e, turn.end) - Math.max(s, turn.start);
  const longest = turns.reduce((a, b) => (b.wall > a.wall ? b : a));
  const ownCpu = Math.max(...turns.map((t) => Math.max(0, t.cpu - t.gc)));
  console.log(
    `| ${label} | ${fmt(perCall)} | ${fmt(longest.wall)} | ${fmt(longest.gc)} | ${fmt(longest.cpu)} | ${fmt(ownCpu)} | ${fmt(
      quantile(
        turns.map((t) => t.wall),
        0.99,
      ),
    )} | ${turns.filter((t) => t.wall > 10).length} of ${turns.length} |`,
  );
}
running = false;
await context.close();
process.exit(0);
