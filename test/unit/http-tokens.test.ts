// A token file names one client a line; what it cannot mean is refused at start, naming the line.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { HttpConfigError, parseTokenFile } from "../../src/frontends/mcp/http.js";

const A = "a-token-0123456789abcdef";
const B = "b-token-0123456789abcdef";

describe("parseTokenFile", () => {
  it("reads NAME TOKEN and bare TOKEN lines, skipping blanks and comments", () => {
    assert.deepEqual(parseTokenFile(`# clients\nalice ${A}\n\n  ${B}  \r\n`, "f"), [
      { name: "alice", token: A },
      { name: "client 2", token: B },
    ]);
  });
  for (const [text, message] of [
    ["", /f holds no token/],
    ["# only a comment\n", /f holds no token/],
    [`alice short`, /f line 1: the token is shorter than 16 characters/],
    [`alice ${A}\nalice ${B}`, /f line 2: the name "alice" is used twice/],
    [`alice ${A}\nbob ${A}`, /f line 2: the same token is given twice/],
    [`alice smith ${A}`, /f line 1: expected TOKEN or NAME TOKEN, got 3 words/],
  ] as const) {
    it(`refuses ${JSON.stringify(text)}`, () => {
      assert.throws(
        () => parseTokenFile(text, "f"),
        (e: unknown) => e instanceof HttpConfigError && message.test(e.message),
      );
    });
  }
});
