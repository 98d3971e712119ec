// One outcome, three front ends: whichever way a tool reports a refusal or a failure (a thrown
// DeskhandError, or a result whose status says so), MCP, NDJSON and the CLI tell the same story.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DeskhandError } from "../../src/core/errors.js";
import { exitStatus } from "../../src/frontends/cli/exit.js";
import { mcpResult } from "../../src/frontends/mcp/server.js";
import { ProtocolError, protocolResult } from "../../src/frontends/ndjson/protocol.js";
import { type CallResult, failed, outcomeOf } from "../../src/tools/call.js";
import type { ToolOutput } from "../../src/tools/tool.js";

const returned = (data: Record<string, unknown>, text: string): CallResult => {
  const output: ToolOutput = { data, text };
  return { ok: true, outcome: outcomeOf(output), output };
};

const CASES: {
  name: string;
  result: CallResult;
  mcp: { isError: boolean; text: RegExp };
  ndjson: string | "result";
  exit: number;
}[] = [
  {
    name: "act refused (a thrown refused error)",
    result: failed(new DeskhandError("refused", "Save commits: needs a person", "Ask the person")),
    mcp: { isError: true, text: /^refused: / },
    ndjson: "action_failed",
    exit: 3,
  },
  {
    name: "click refused (a result with status refused)",
    result: returned({ status: "refused", reason: "Save commits", level: "L3" }, "refused: Save commits"),
    mcp: { isError: true, text: /^refused: / },
    ndjson: "action_failed",
    exit: 3,
  },
  {
    name: "type_text failed (a result with status error)",
    result: returned({ status: "error", reason: "no focus", level: "L2" }, "error: no focus"),
    mcp: { isError: true, text: /^error: / },
    ndjson: "input_failed",
    exit: 1,
  },
  {
    name: "a thrown failure",
    result: failed(new DeskhandError("timeout", "the app did not answer", "Retry")),
    mcp: { isError: true, text: /^timeout: / },
    ndjson: "internal_error",
    exit: 1,
  },
  {
    name: "bad arguments",
    result: failed(new DeskhandError("invalid_params", "no argument x", "Use y")),
    mcp: { isError: true, text: /^invalid_params: / },
    ndjson: "invalid_params",
    exit: 2,
  },
  {
    name: "done",
    result: returned({ status: "done", level: "L2" }, "done: pressed Tab"),
    mcp: { isError: false, text: /^done: / },
    ndjson: "result",
    exit: 0,
  },
  {
    name: "a reading tool's reply (no status)",
    result: returned({ windows: [] }, "0 windows"),
    mcp: { isError: false, text: /^0 windows/ },
    ndjson: "result",
    exit: 0,
  },
];

describe("one outcome on every front end", () => {
  for (const c of CASES) {
    it(c.name, () => {
      const mcp = mcpResult(c.result);
      assert.equal(Boolean(mcp.isError), c.mcp.isError);
      assert.match(mcp.content[0]?.text ?? "", c.mcp.text);
      if (c.ndjson === "result")
        assert.deepEqual(protocolResult(c.result), c.result.ok && c.result.output.data);
      else
        assert.throws(
          () => protocolResult(c.result),
          (e: unknown) => e instanceof ProtocolError && e.code === c.ndjson,
        );
      assert.equal(exitStatus(c.result), c.exit);
    });
  }
  it("a refusal carries why on NDJSON, whichever way it came", () => {
    for (const c of CASES.filter((x) => x.result.outcome === "refused")) {
      try {
        protocolResult(c.result);
        assert.fail("not thrown");
      } catch (e) {
        assert.ok(e instanceof ProtocolError);
        assert.equal(e.extra.reason, "refused", c.name);
      }
    }
  });
});
