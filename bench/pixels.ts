// bench/pixels: what observe's pixels part costs where the tree is silent, on the Swing canvas (a
// pixels-only panel in a readable window) and on xmessage (no tree at all): observe with pixels off
// (the tree alone), cold (a new session: capture, password fields, the engine) and kept (the same
// session, pixels unchanged: a capture and its hash). Medians of BENCH_RUNS; the figures go into
// docs/benchmarks.md by hand.
import { type ChildProcess, spawn } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { callTool } from "../src/tools/call.js";
import { createContext, type ToolContext } from "../src/tools/context.js";
import { findTool } from "../src/tools/registry.js";
import { median } from "./stats.js";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const XMESSAGE = "Bench xmessage";
const observeTool = findTool("observe")!;

interface Timing {
  ms: number;
  pixelsMs: number | null;
  targets: number;
}

async function observe(context: ToolContext, glob: string, pixels = true): Promise<Timing> {
  const started = performance.now();
  const result = await callTool(context, observeTool, { target: { kind: "title", glob }, pixels });
  const ms = performance.now() - started;
  if (!result.ok) throw new Error(`${glob}: ${JSON.stringify(result.error.toJSON())}`);
  const data = result.output.data as { pixels?: { ms: number }; targets: unknown[] };
  return { ms, pixelsMs: data.pixels?.ms ?? null, targets: data.targets.length };
}

const fresh = () => createContext({ refLifetime: "while-verified" });

async function series(glob: string): Promise<string> {
  const off: number[] = [];
  const cold: Timing[] = [];
  const kept: Timing[] = [];
  for (let i = 0; i < RUNS; i++) {
    const context = fresh();
    try {
      if (!glob.startsWith(XMESSAGE)) off.push((await observe(context, glob, false)).ms);
      await sleep(200);
      cold.push(await observe(context, glob));
      await sleep(200);
      kept.push(await observe(context, glob));
    } finally {
      await context.close();
    }
  }
  const m = (values: number[]) => `${Math.round(median(values))} ms`;
  const pixels = (t: Timing[]) => m(t.map((x) => x.pixelsMs ?? Number.NaN));
  return `| ${glob} | ${off.length ? m(off) : "– (no tree)"} | ${m(cold.map((t) => t.ms))} (pixels ${pixels(cold)}) | ${m(kept.map((t) => t.ms))} (pixels ${pixels(kept)}) | ${cold[0]?.targets ?? 0} |`;
}

/** Until the window shows words from pixels (the canvas: once its tree has registered, on its surface). */
async function waitForWindow(glob: string, ready: RegExp): Promise<void> {
  const context = fresh();
  try {
    for (let i = 0; i < 150; i++) {
      const result = await callTool(context, observeTool, { target: { kind: "title", glob } });
      if (result.ok && ready.test(result.output.text ?? "")) return;
      await sleep(200);
    }
    throw new Error(`${glob} did not show words from pixels in 30 s`);
  } finally {
    await context.close();
  }
}

const xmessage: ChildProcess = spawn(
  "xmessage",
  ["-title", XMESSAGE, "-buttons", "okay:0,later:1", "Quarterly report ready"],
  { stdio: "ignore", detached: true },
);
try {
  await waitForWindow("Swing Canvas*", /\(pixels only\)[\s\S]*\(from pixels\)/);
  await waitForWindow(XMESSAGE, /\(from pixels\)/);
  console.log(`\n# bench/pixels · observe's pixels part, medians of ${RUNS}`);
  console.log("| window | observe, pixels off | cold (new session) | kept (pixels unchanged) | targets |");
  console.log("|---|---|---|---|---|");
  console.log(await series("Swing Canvas*"));
  console.log(await series(XMESSAGE));
} finally {
  process.kill(-xmessage.pid!, "SIGKILL");
}
process.exit(0);
