// The newcomer's exercise (docs/adding-a-tool.md), done in a scratch copy of src/: a reading tool and an
// input tool, each in its own file plus its line in the registry. Nothing else is touched, and each is
// then served everywhere: MCP's tools/list with its levels, NDJSON by name, `deskhand call`'s help,
// `--tools` groups; the input tool's press goes through the gate and the journal under its own name.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, it } from "node:test";

const scratch = mkdtempSync(join(tmpdir(), "deskhand-newcomer-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

// A reading tool, as the checklist's step 1 says.
const READER = `import { z } from "zod";
import { resolveWindowSpec } from "./hands/place.js";
import { windowSchema } from "./hands/schemas.js";
import { defineTool, READ_ONLY } from "./tool.js";

export const windowTitleTool = defineTool({
  name: "window_title",
  group: "read",
  title: "A window's title",
  description: "The title of one window.",
  level: "L1",
  annotations: READ_ONLY,
  input: z.object({ window: windowSchema }),
  async handler(context, input) {
    const window = await resolveWindowSpec(context, input.window);
    return { data: { title: window.title }, text: window.title };
  },
});
`;

// An input tool: a plan, and nothing that reaches the gate, the journal or the hands by hand.
const INPUT_TOOL = `import { z } from "zod";
import { defineInputTool } from "../input-tool.js";
import { resolvePlace } from "./place.js";
import { INPUT } from "./pointer.js";
import { intentSchema, pointSchema } from "./schemas.js";

export const nudgeTool = defineInputTool({
  name: "nudge",
  group: "hands",
  title: "Nudge the pointer",
  description: "Move the pointer to a point.",
  level: "L2",
  annotations: INPUT,
  input: z.object({ at: pointSchema, intent: intentSchema }),
  async plan(context, input) {
    const place = await resolvePlace(context, await context.hands(), { at: input.at });
    return {
      nominal: "L2",
      intent: input.intent,
      reversible: true,
      place,
      presses: [],
      ensureFocus: false,
      async execute(hands) {
        await hands.move(place.point);
        return { point: place.point };
      },
      describe: () => \`nudged to (\${place.point.x}, \${place.point.y})\`,
    };
  },
});
`;

// What the exercise checks, run inside the scratch copy against the fake desktop.
const PROBE = `import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HELP } from "./src/frontends/cli/usage.js";
import { dispatch } from "./src/frontends/ndjson/protocol.js";
import { callTool } from "./src/tools/call.js";
import { selectTools, TOOL_GROUPS, TOOLS, toolNamed } from "./src/tools/registry.js";
import { fakeContext } from "./test/unit/fake-desktop.js";
import { listedTools } from "./test/mcp-listing.js";

const dir = mkdtempSync(join(tmpdir(), "probe-"));
const rect = { x: 0, y: 0, width: 400, height: 300 };
const desktop = (ceiling) =>
  fakeContext({
    windows: [{ id: 7, title: "Editor", pid: 11, app: "fake", rect, root: { role: "frame", name: "Editor", bounds: rect } }],
    hands: { windows: [{ id: 7, rect }], active: 7 },
    dir,
    ...(ceiling ? { ceiling } : {}),
  });
const listed = (await listedTools({ tools: TOOLS })).tools.filter((t) => t.name === "window_title" || t.name === "nudge");
const fake = desktop();
const viaNdjson = await dispatch(fake.context, "window_title", { window: { id: 7 } });
const nudged = await callTool(fake.context, toolNamed("nudge"), { at: { space: "global", x: 30, y: 40 }, intent: "Point at it" });
const low = desktop("L1");
const refused = await callTool(low.context, toolNamed("nudge"), { at: { space: "global", x: 5, y: 5 }, intent: "Point at it" });
const journalFile = join(dir, "audit.jsonl");
const journal = existsSync(journalFile)
  ? readFileSync(journalFile, "utf8").trim().split("\\n").map((l) => JSON.parse(l))
  : [];
console.log(JSON.stringify({
  groups: { read: TOOL_GROUPS.read.includes("window_title"), hands: TOOL_GROUPS.hands.includes("nudge") },
  selected: selectTools("read").some((t) => t.name === "window_title"),
  help: HELP.call.includes("window_title") && HELP.call.includes("nudge"),
  listed: listed.map((t) => ({ name: t.name, description: t.description, annotations: t.annotations })),
  ndjson: viaNdjson,
  nudged: nudged.ok ? nudged.output.data.status : nudged.error.message,
  sent: fake.hands.sent,
  refused: refused.ok ? refused.output.data.status : refused.error.message,
  refusedSent: low.hands.sent,
  journal: journal.map((e) => ({ tool: e.tool, entry: e.decision ?? e.phase })),
}));
await fake.context.close();
await low.context.close();
`;

function scratchCopy(): void {
  for (const part of [
    "src",
    "test/unit/fake-desktop.ts",
    "test/mcp-listing.ts",
    "package.json",
    "tsconfig.json",
  ])
    cpSync(resolve(part), join(scratch, part), { recursive: true });
  for (const shared of ["node_modules", "data"]) symlinkSync(resolve(shared), join(scratch, shared));
}

/** The checklist's step 2: one import and one line in the registry's list. */
function register(): void {
  const path = join(scratch, "src/tools/registry.ts");
  const source = readFileSync(path, "utf8")
    .replace(
      'import { windowsTool } from "./windows.js";',
      'import { windowsTool } from "./windows.js";\nimport { windowTitleTool } from "./window-title.js";\nimport { nudgeTool } from "./hands/nudge.js";',
    )
    .replace("  doctorTool,\n]", "  doctorTool,\n  windowTitleTool,\n  nudgeTool,\n]");
  writeFileSync(path, source);
}

it("a reading tool and an input tool, each in its own file and one registry line, are served everywhere", () => {
  scratchCopy();
  writeFileSync(join(scratch, "src/tools/window-title.ts"), READER);
  mkdirSync(join(scratch, "src/tools/hands"), { recursive: true });
  writeFileSync(join(scratch, "src/tools/hands/nudge.ts"), INPUT_TOOL);
  register();
  // Only those three files differ from the checkout.
  const changed = spawnSync("diff", ["-rq", resolve("src"), join(scratch, "src")], { encoding: "utf8" });
  const lines = changed.stdout.trim().split("\n").sort();
  assert.deepEqual(
    lines,
    [
      `Files ${resolve("src/tools/registry.ts")} and ${join(scratch, "src/tools/registry.ts")} differ`,
      `Only in ${join(scratch, "src/tools")}: window-title.ts`,
      `Only in ${join(scratch, "src/tools/hands")}: nudge.ts`,
    ].sort(),
  );
  writeFileSync(join(scratch, "probe.ts"), PROBE);
  const run = spawnSync(process.execPath, ["--import", "tsx", "probe.ts"], {
    cwd: scratch,
    encoding: "utf8",
    env: { ...process.env, DESKHAND_CEILING: "" },
  });
  assert.equal(run.status, 0, run.stderr);
  const found = JSON.parse(run.stdout.trim().split("\n").at(-1)!);
  assert.deepEqual(found.groups, { read: true, hands: true });
  assert.ok(found.selected, "--tools read serves the reading tool");
  assert.ok(found.help, "`deskhand call`'s help lists both");
  const [title, nudge] = ["window_title", "nudge"].map((n) =>
    found.listed.find((t: { name: string }) => t.name === n),
  );
  assert.match(title.description, /\(level L1\)$/);
  assert.equal(title.annotations.readOnlyHint, true);
  assert.match(nudge.description, /\(level L2\)$/);
  assert.equal(nudge.annotations.destructiveHint, false);
  assert.equal(found.ndjson.title, "Editor", "NDJSON serves it by its name");
  assert.equal(found.nudged, "done");
  assert.deepEqual(found.sent, ["move to 30,40"], "the pointer moved where the plan said");
  assert.equal(found.refused, "refused", "under a ceiling of L1 the gate refuses it");
  assert.deepEqual(found.refusedSent, [], "and nothing was sent");
  // The journal names each input after its tool, the refused one too.
  assert.deepEqual(
    found.journal.filter((e: { tool: string }) => e.tool === "nudge").map((e: { entry: string }) => e.entry),
    ["attempt", "done", "refused"],
  );
});

/** One pinning test in the scratch copy: its status, and what it said. */
function pinTest(file: string, pattern: string): { status: number | null; out: string } {
  // NODE_TEST_CONTEXT would make the child report to this runner instead of exiting by its own result.
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  const run = spawnSync(
    process.execPath,
    ["--import", "tsx", "--test", `--test-name-pattern=${pattern}`, file],
    {
      cwd: scratch,
      encoding: "utf8",
      env: { ...env, DESKHAND_CEILING: "" },
    },
  );
  return { status: run.status, out: `${run.stdout}${run.stderr}` };
}

it("the tests that pin every tool fail for the new ones, naming them, and pass once the checklist's pins are set", () => {
  // The same scratch copy, with the two tools registered (the first test made it).
  for (const file of ["test/unit/catalog.test.ts", "test/unit/every-tool-outcome.test.ts"])
    cpSync(resolve(file), join(scratch, file));
  const outcome = "every tool that can act above L1 has a case here";
  const budget = "the default catalog is at most";
  const before = [
    pinTest("test/unit/every-tool-outcome.test.ts", outcome),
    pinTest("test/unit/catalog.test.ts", budget),
  ];
  assert.notEqual(before[0]!.status, 0, "the new input tool has no case yet");
  assert.match(before[0]!.out, /nudge/, "the outcome test names it");
  assert.notEqual(before[1]!.status, 0, "two tools more do not fit the catalog's budget");
  assert.match(before[1]!.out, /\d+ characters/, "the catalog test says how many");
  // The checklist's pins: a case for the acting tool (step 4), and the budget raised (step 3).
  const outcomeFile = join(scratch, "test/unit/every-tool-outcome.test.ts");
  writeFileSync(
    outcomeFile,
    readFileSync(outcomeFile, "utf8").replace(
      "  raw_input: {",
      '  nudge: { at: { space: "global", x: 30, y: 40 }, intent },\n  raw_input: {',
    ),
  );
  const registry = join(scratch, "src/tools/registry.ts");
  writeFileSync(
    registry,
    readFileSync(registry, "utf8").replace(/CATALOG_BUDGET = [\d_]+/, "CATALOG_BUDGET = 19_000"),
  );
  const after = [
    pinTest("test/unit/every-tool-outcome.test.ts", outcome),
    pinTest("test/unit/catalog.test.ts", budget),
  ];
  assert.equal(after[0]!.status, 0, after[0]!.out.slice(-2000));
  assert.equal(after[1]!.status, 0, after[1]!.out.slice(-2000));
});
