// Every tool, run for real on a fake desktop: each acting tool refused by a ceiling below it tells the
// same story on MCP (isError, "refused: …"), NDJSON (action_failed, reason refused) and the CLI
// (exit 3); each tool that takes a ref, given one that names nothing, fails alike (exit 1). A new
// acting tool without a case here fails the first test.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { exitStatus } from "../../src/frontends/cli/exit.js";
import { mcpResult } from "../../src/frontends/mcp/server.js";
import { ProtocolError, protocolResult } from "../../src/frontends/ndjson/protocol.js";
import type { FakeElement } from "../../src/platform/fake/backend.js";
import { levelRank } from "../../src/safety/levels.js";
import { type CallResult, callTool } from "../../src/tools/call.js";
import { TOOLS, type ToolName, toolNamed } from "../../src/tools/registry.js";
import { fakeContext } from "./fake-desktop.js";

const dir = mkdtempSync(join(tmpdir(), "deskhand-every-tool-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const field: FakeElement = {
  role: "text",
  name: "Notes",
  states: ["enabled", "sensitive", "showing", "visible", "focusable", "editable"],
  interfaces: ["Accessible", "Component", "Text", "EditableText"],
  bounds: { x: 20, y: 40, width: 200, height: 24 },
};

function context() {
  const rect = { x: 0, y: 0, width: 400, height: 300 };
  const root: FakeElement = { role: "frame", name: "Editor", bounds: rect, children: [{ ...field }] };
  return fakeContext({
    windows: [{ id: 7, title: "Editor", pid: 11, app: "fake", rect, root }],
    hands: { windows: [{ id: 7, rect }], active: 7 },
    dir,
    ceiling: "L1",
  }).context;
}

const point = { space: "global", x: 50, y: 50 };
const intent = "Test the ceiling";
/** A valid call of each tool whose least level is above L1; `REF` is replaced by a found ref. */
const ACTING_CALLS: Partial<Record<ToolName, Record<string, unknown>>> = {
  act: { ref: "REF", action: { kind: "set_value", text: "x" }, intent },
  fill_form: { fields: [{ ref: "REF", value: "x" }], intent },
  click: { at: point, window: { id: 7 }, intent },
  type_text: { text: "x", intent },
  key: { key: "Tab", intent },
  drag: { from: { at: point }, to: { at: { ...point, x: 60 } }, window: { id: 7 }, intent },
  raw_input: { primitive: { kind: "key_down", key: "a" }, intent },
};
/** Tools that start at L1 and are raised above it by what they are asked: a call that raises them. */
const RAISED_CALLS: Partial<Record<ToolName, Record<string, unknown>>> = {
  window: { action: "close", window: { id: 7 }, intent },
  // A wheel with no place: what it would scroll cannot be told, so it is input (L2).
  wheel: { direction: "down", intent },
  // Writing the clipboard is input (L2); reading it is L1.
  clipboard: { text: "x", intent },
  // A run is refused where its step is: the step's own gate.
  run: { steps: [{ tool: "act", args: { ref: "REF", action: { kind: "set_value", text: "x" }, intent } }] },
};
/** Starts at L1 and is raised only by what is under the pointer, which needs a real app: none now. */
const RAISED_ONLY_BY_A_TARGET: string[] = [];

function sameStory(result: CallResult, outcome: "refused" | "error", name: string) {
  assert.equal(
    result.outcome,
    outcome,
    `${name}: ${JSON.stringify(result.ok ? result.output.data : result.error)}`,
  );
  const mcp = mcpResult(result);
  assert.equal(mcp.isError, true, name);
  assert.match(mcp.content[0]?.text ?? "", outcome === "refused" ? /^refused: / : /^\w+: /, name);
  assert.throws(
    () => protocolResult(result),
    (e: unknown) =>
      e instanceof ProtocolError &&
      (outcome === "refused"
        ? e.code === "action_failed" && e.extra.reason === "refused"
        : e.code !== "invalid_params"),
    name,
  );
  assert.equal(exitStatus(result), outcome === "refused" ? 3 : 1, name);
}

describe("every tool, one outcome on every front end", () => {
  it("every tool that can act above L1 has a case here", () => {
    const acting = TOOLS.filter((t) => levelRank(t.level) > 1).map((t) => t.name);
    assert.deepEqual(acting.sort(), Object.keys(ACTING_CALLS).sort());
    const raised = TOOLS.filter((t) => t.level === "L1" && t.highest && t.highest !== "L1").map(
      (t) => t.name,
    );
    assert.deepEqual(raised.sort(), [...Object.keys(RAISED_CALLS), ...RAISED_ONLY_BY_A_TARGET].sort());
  });

  it("refused by a ceiling of L1: refused on MCP, NDJSON and the CLI", async () => {
    const ctx = context();
    try {
      const found = await callTool(ctx, toolNamed("find"), {
        target: { kind: "title", glob: "Editor" },
        role: "text",
      });
      const ref = found.ok ? (found.output.data.matches as { ref: string }[])[0]?.ref : undefined;
      assert.ok(ref, "the fake field is found");
      for (const [name, input] of Object.entries({ ...ACTING_CALLS, ...RAISED_CALLS })) {
        const withRef = JSON.parse(JSON.stringify(input).replaceAll('"REF"', JSON.stringify(ref)));
        const result = await callTool(ctx, toolNamed(name as ToolName), withRef);
        sameStory(result, "refused", name);
        const reason = result.ok ? String(result.output.data.reason) : result.error.message;
        assert.match(reason, /above the ceiling L1/, name);
      }
    } finally {
      await ctx.close();
    }
  });

  it("a ref that names nothing: an error on MCP, NDJSON and the CLI, for every tool that takes one", async () => {
    const ctx = context();
    const takesRef = TOOLS.filter((t) => "ref" in t.input.shape);
    assert.ok(takesRef.length >= 8, takesRef.map((t) => t.name).join(", "));
    try {
      for (const tool of takesRef) {
        const input: Record<string, unknown> = { ref: "s9:e9", intent };
        if (tool.name === "act") input.action = { kind: "invoke" };
        if (tool.name === "type_text") input.text = "x";
        if (tool.name === "key") input.key = "Tab";
        if (tool.name === "wheel") input.direction = "down";
        const accepted = Object.fromEntries(Object.entries(input).filter(([k]) => k in tool.input.shape));
        sameStory(await callTool(ctx, tool, accepted), "error", tool.name);
      }
    } finally {
      await ctx.close();
    }
  });
});
