// bench/run: what one task costs a model, done step by step (a call per step, each act finding its
// element) and as one `run`: calls, reply characters and time, on the Swing fixture. The task is the
// run test's: eight acting steps and a read. Run with `npm run bench -- run`.
import { callTool } from "../src/tools/call.js";
import { createContext } from "../src/tools/context.js";
import { findTool } from "../src/tools/registry.js";
import { median } from "./stats.js";

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const target = { kind: "title", glob: "Deskhand Fixture" };
const intent = "Fill the form for the bench";
const status = (said: string) => ({ role: "label", name: "Status", description: said });
const act = (find: Record<string, unknown>, action: Record<string, unknown>, expect?: string) => ({
  tool: "act",
  find: { target, ...find },
  args: { action, intent },
  ...(expect ? { expect: { condition: { kind: "element", target, ...status(expect) } } } : {}),
});

function task(round: number) {
  return [
    act({ role: "text", name: "Name" }, { kind: "set_value", text: `Ada ${round}` }),
    act({ role: "text", name: "Notes" }, { kind: "set_value", text: `Run ${round}` }),
    act({ role: "check box", name: "Subscribe" }, { kind: "toggle" }),
    act({ role: "push button", name: "Alpha" }, { kind: "invoke" }, "Pressed Alpha"),
    act({ role: "radio button", name: round % 2 ? "Large" : "Small" }, { kind: "invoke" }),
    act({ role: "push button", name: "Beta" }, { kind: "invoke" }, "Pressed Beta"),
    act({ role: "push button", name: "Note" }, { kind: "invoke" }, "Note added"),
    act({ role: "push button", name: "Note" }, { kind: "invoke" }, "Note removed"),
    { tool: "find", args: { target, ...status("Note removed") } },
  ];
}

async function main(): Promise<void> {
  const context = createContext({ refLifetime: "while-verified" });
  const call = async (name: string, input: Record<string, unknown>) => {
    const result = await callTool(context, findTool(name)!, input);
    if (!result.ok || result.outcome !== "done")
      throw new Error(`${name}: ${result.ok ? result.output.text : result.error.message}`);
    return result.output.text.length;
  };
  const rows: Record<string, { calls: number; chars: number[]; ms: number[] }> = {
    "step by step (act with its find, then wait)": { calls: 0, chars: [], ms: [] },
    "one run": { calls: 1, chars: [], ms: [] },
  };
  for (let round = 0; round < RUNS; round++) {
    // Step by step: each step its own call, and each expect a wait the model asks for.
    const steps = task(round * 2);
    let started = Date.now();
    let chars = 0;
    let calls = 0;
    for (const step of steps) {
      const input = "find" in step ? { find: step.find, ...step.args } : step.args;
      chars += await call(step.tool, input);
      calls++;
      if ("expect" in step && step.expect) {
        chars += await call("wait", step.expect);
        calls++;
      }
    }
    const stepwise = rows["step by step (act with its find, then wait)"]!;
    stepwise.calls = calls;
    stepwise.chars.push(chars);
    stepwise.ms.push(Date.now() - started);
    started = Date.now();
    const one = rows["one run"]!;
    one.chars.push(await call("run", { steps: task(round * 2 + 1) }));
    one.ms.push(Date.now() - started);
  }
  console.log("\n# bench/run · one task of 8 acting steps and a read, on the Swing fixture");
  console.log("| done as | calls | reply characters (median) | ms (median) |");
  console.log("|---|---|---|---|");
  for (const [label, row] of Object.entries(rows))
    console.log(`| ${label} | ${row.calls} | ${median(row.chars)} | ${median(row.ms)} |`);
  await context.close();
}

await main();
