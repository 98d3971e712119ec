// bench/act: the round trip of one semantic action (verify the ref, act, re-read the element), against
// the same work through pyatspi in the same run. Run with `npm run bench -- act`.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { callTool } from "../src/tools/call.js";
import { createContext } from "../src/tools/context.js";
import { findTool } from "../src/tools/registry.js";
import { median } from "./stats.js";

const run = promisify(execFile);
const RUNS = Number(process.env.BENCH_RUNS ?? 15);

async function main(): Promise<void> {
  const context = createContext({ refLifetime: "while-verified" });
  const call = async (name: string, input: Record<string, unknown>) => {
    const result = await callTool(context, findTool(name)!, input);
    if (!result.ok) throw new Error(`${name}: ${result.error.message}`);
    return result.output.data as Record<string, any>;
  };
  const snapshot = await call("snapshot", {
    target: { kind: "title", glob: "Deskhand Fixture" },
    maxDepth: 30,
    format: "json",
  });
  const window = snapshot.windows[0] as { id: number; pid: number };
  const frameIndex = snapshot.elements[0].index as number;
  const cases = [
    {
      label: "invoke a button (tool bar New)",
      pick: (e: any) => e.role === "push button" && e.name === "New",
      action: { kind: "invoke" },
      peer: ["--action", "invoke"],
    },
    {
      label: "set_value on a text field (Name)",
      pick: (e: any) => e.role === "text" && e.name === "Name",
      action: { kind: "set_value", text: "bench" },
      peer: ["--action", "set_value"],
    },
  ];
  console.log(`# bench/act · ${RUNS} round trips each, medians · node ${process.versions.node}`);
  console.log("| round trip | deskhand median | pyatspi median | deskhand − pyatspi | target |");
  console.log("|---|---|---|---|---|");
  for (const c of cases) {
    const element = snapshot.elements.find(c.pick);
    const path = context.refs.lookup(element.ref).fingerprint.path.join(",");
    const ours: number[] = [];
    for (let i = 0; i < RUNS + 1; i++) {
      const start = performance.now();
      // waitMs 0: the pause before the re-read is the caller's choice, not deskhand's work.
      await call("act", { ref: element.ref, action: c.action, waitMs: 0 });
      if (i > 0) ours.push(performance.now() - start);
    }
    const { stdout } = await run(
      "/usr/bin/python3",
      [
        "test/peers/pyatspi_act.py",
        "--pid",
        String(window.pid),
        "--frame-index",
        String(frameIndex),
        "--path",
        path,
        "--repeat",
        String(RUNS + 1),
        ...c.peer,
      ],
      { timeout: 120_000 },
    );
    const theirs = (JSON.parse(stdout) as { times_ms: number[] }).times_ms.slice(1);
    const difference = median(ours) - median(theirs);
    console.log(
      `| ${c.label} | ${median(ours).toFixed(1)} ms | ${median(theirs).toFixed(1)} ms | ${difference.toFixed(1)} ms | ≤ 30 ms over the app's own work |`,
    );
  }
  await context.close();
}

await main();
