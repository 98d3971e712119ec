// bench/snapshot: deskhand's snapshot against a pyatspi walk of the same window, in the same run, on the
// same desktop. Prints medians, the ratio, and deskhand's memory. Run with `npm run bench` (it starts the
// sandbox and the apps); the figures go into docs/benchmarks.md by hand.
import { execFile } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { SNAPSHOT_CEILINGS, SNAPSHOT_DEFAULTS, type SnapshotLimits } from "../src/core/limits.js";
import { RefStore } from "../src/core/refs.js";
import { SnapshotStore } from "../src/core/snapshot.js";
import { AtspiBackend } from "../src/platform/atspi/backend.js";
import { readCache } from "../src/platform/atspi/reader.js";
import { median } from "./stats.js";

const run = promisify(execFile);
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const WARMUP = 3;

interface Case {
  label: string;
  title: RegExp;
  limits: SnapshotLimits;
  /** pyatspi walker flags for the equivalent work. */
  peer: string[];
  target?: string;
}

const FULL: SnapshotLimits = {
  ...SNAPSHOT_DEFAULTS,
  maxDepth: SNAPSHOT_CEILINGS.maxDepth,
  maxNodes: SNAPSHOT_CEILINGS.maxNodes,
  timeoutMs: 60_000,
};

const CASES: Case[] = [
  {
    label: "gtk4-widget-factory, full snapshot with bounds",
    title: /^GTK Widget Factory$/,
    limits: { ...FULL, walkTables: true },
    peer: ["--extents"],
    target: "≥ 10× faster",
  },
  // The sheet (1,048,576 × 16,384 cells) is skipped by both sides: neither walks a huge child list.
  {
    label: "LibreOffice Calc, full snapshot with bounds",
    title: /LibreOffice Calc$/,
    limits: { ...FULL, tableRows: 0 },
    peer: ["--extents"],
    target: "≥ 5× faster",
  },
  // The peer skips the table's cells here too: walking them makes Java mint 800 new objects per walk,
  // which slows the app for every reader after it.
  {
    label: "Swing fixture, default snapshot",
    title: /^Deskhand Fixture$/,
    limits: SNAPSHOT_DEFAULTS,
    peer: ["--extents", "--skip-tables"],
    target: "≤ 150 ms",
  },
  // A real Swing editor's shape (issue 12): a menu bar of 300 items, nested panels, a text area.
  {
    label: "Swing editor (300 menu items, nested panels), full snapshot with bounds",
    title: /^Deskhand Editor$/,
    limits: FULL,
    peer: ["--extents"],
    target: "faster than pyatspi",
  },
  // A real Swing app of hundreds of elements (issue 55): jEdit's main window, read as an agent reads it,
  // on jEdit's first start, whose Help window holds nearly half the app's elements beside it.
  {
    label: "jEdit (Help window open beside), default snapshot",
    title: /^jEdit - /,
    limits: SNAPSHOT_DEFAULTS,
    peer: ["--extents", "--skip-tables"],
    target: "≥ 1× pyatspi",
  },
  {
    label: "Swing fixture, full snapshot with bounds (all 800 cells)",
    title: /^Deskhand Fixture$/,
    limits: { ...FULL, walkTables: true },
    peer: ["--extents"],
  },
];

/**
 * Idle time before each measured run, on both sides, as between an agent's calls. Reads of the same
 * Java app less than about 50 ms apart make its wrapper spend three times the CPU on the next one
 * (measured from /proc: 150 against 50 ms for one GetItems of the editor), whoever asks; the
 * back-to-back column shows that case for both sides.
 */
const REST_MS = 200;

async function peerWalk(
  pid: number,
  frameIndex: number,
  flags: string[],
  repeat = 1,
): Promise<{ ms: number; nodes: number; times: number[]; setupMs: number }> {
  const { stdout } = await run(
    "/usr/bin/python3",
    [
      "test/peers/pyatspi_walk.py",
      "--pid",
      String(pid),
      "--frame-index",
      String(frameIndex),
      "--repeat",
      String(repeat),
      ...flags,
    ],
    { maxBuffer: 256 << 20, timeout: 300_000 },
  );
  const parsed = JSON.parse(stdout) as { nodes: unknown[]; times_ms: number[]; setup_ms: number };
  return {
    ms: parsed.times_ms[0]!,
    nodes: parsed.nodes.length,
    times: parsed.times_ms,
    setupMs: parsed.setup_ms,
  };
}

async function main(): Promise<void> {
  const backend = await AtspiBackend.connect();
  const store = new SnapshotStore(async () => backend, new RefStore("latest-snapshot"));
  const windows = await backend.listWindows();
  const rows: string[] = [];
  console.log(`# bench/snapshot · ${RUNS} runs each, medians · node ${process.versions.node}`);
  // BENCH_ONLY=editor runs the cases whose label contains it.
  for (const c of CASES.filter(
    (k) => !process.env.BENCH_ONLY || k.label.toLowerCase().includes(process.env.BENCH_ONLY),
  )) {
    // An app whose first window is not its main one (jEdit shows a splash first) may still be opening it.
    const match = (w: (typeof windows)[number]) => c.title.test(w.title) && w.accessible;
    let window = windows.find(match);
    for (let waited = 0; !window && waited < 60_000; waited += 500) {
      await sleep(500);
      window = (await backend.listWindows()).find(match);
    }
    if (!window?.pid) {
      console.log(`${c.label}: SKIPPED (no window matching ${c.title})`);
      continue;
    }
    const take = async () => {
      const start = performance.now();
      let page = await store.take({ kind: "window", id: window.id }, c.limits);
      // The window's own index among its app's children, from the first page (the others start deeper).
      const frameIndex = page.elements[0]?.index ?? 0;
      let nodes = page.elements.length;
      while (page.cursor) {
        page = await store.continue(page.cursor);
        nodes += page.elements.length;
      }
      return { ms: performance.now() - start, nodes, frameIndex };
    };
    // Warm-up: realizes lazily built objects (GTK4) on the app's side and lets V8 compile ours. Each
    // side then runs its series back to back, ours first: one side's load on the app (a pyatspi walk
    // keeps GTK4 busy for seconds) does not land in the other's timings.
    const warm = await take();
    for (let i = 0; i < WARMUP - 1; i++) await take();
    await peerWalk(window.pid, warm.frameIndex, c.peer);
    const ours: number[] = [];
    const theirs: number[] = [];
    const theirSetup: number[] = [];
    let peerNodes = 0;
    let ourNodes = 0;
    for (let i = 0; i < RUNS; i++) {
      await sleep(REST_MS);
      const mine = await take();
      ours.push(mine.ms);
      ourNodes = mine.nodes;
    }
    for (let i = 0; i < RUNS; i++) {
      await sleep(REST_MS);
      const peer = await peerWalk(window.pid, warm.frameIndex, c.peer);
      theirs.push(peer.ms);
      theirSetup.push(peer.setupMs);
      peerNodes = peer.nodes;
    }
    // Back to back: each side's runs with no pause between them (pyatspi's in one process).
    const oursTight: number[] = [];
    for (let i = 0; i < RUNS; i++) oursTight.push((await take()).ms);
    await sleep(REST_MS);
    const theirsTight = (await peerWalk(window.pid, warm.frameIndex, c.peer, RUNS)).times;
    // The app's own share: one Cache.GetItems, which no client can make faster.
    const app = (await backend.applications()).find((a) => a.pid !== null && a.name === window.app);
    const cacheTimes: number[] = [];
    for (let i = 0; app && i < 5; i++) {
      await sleep(REST_MS);
      const start = performance.now();
      await readCache(app, 10_000);
      cacheTimes.push(performance.now() - start);
    }
    const cacheMs = cacheTimes.length ? `${median(cacheTimes).toFixed(0)} ms` : "–";
    const ratio = median(theirs) / median(ours);
    const tight = `${median(oursTight).toFixed(0)} / ${median(theirsTight).toFixed(0)} ms (${(median(theirsTight) / median(oursTight)).toFixed(1)}×)`;
    const row = `| ${c.label} | ${ourNodes} | ${median(ours).toFixed(0)} ms | ${peerNodes} | ${median(theirs).toFixed(0)} ms | ${ratio.toFixed(1)}× | ${tight} | ${cacheMs} | ${median(theirSetup).toFixed(0)} ms | ${c.target ?? "–"} |`;
    rows.push(row);
    console.log(row);
  }
  const rss = process.memoryUsage().rss / (1 << 20);
  console.log(
    "\n| case | deskhand nodes | deskhand median | pyatspi nodes | pyatspi median | pyatspi ÷ deskhand | back to back: deskhand / pyatspi | the app's one GetItems | pyatspi's untimed setup | target |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|---|");
  for (const row of rows) console.log(row);
  console.log(`\ndeskhand RSS after the run: ${rss.toFixed(0)} MB`);
  await backend.close();
}

await main();
