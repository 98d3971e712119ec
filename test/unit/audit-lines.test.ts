// `deskhand audit` shows an attempt and its outcome as one line, with how it ended: done, refused or
// error. It once looked for outcome lines in a list it had already filtered, so every finished call
// read "attempted" and refusals and failures were hidden.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { auditLines } from "../../src/frontends/cli/hands.js";

const line = (id: string, phase: "attempt" | "outcome", extra: Record<string, unknown> = {}) => ({
  time: "2026-12-04T17:00:00.000Z",
  id,
  phase,
  tool: "click",
  level: "L2",
  intent: "Press it",
  target: { role: "push button", name: "Next" },
  ...extra,
});

describe("deskhand audit", () => {
  it("shows each finished call's outcome, refused and failed ones included, once", () => {
    const lines = auditLines([
      line("a", "attempt"),
      line("a", "outcome", { decision: "done" }),
      line("b", "attempt"),
      line("b", "outcome", { decision: "refused", reason: "the focus moved" }),
      line("c", "attempt"),
      line("c", "outcome", { decision: "error", reason: "the app died" }),
      { ...line("d", "attempt"), unfinished: true },
    ]);
    assert.equal(lines.length, 4, lines.join("\n"));
    assert.match(lines[0]!, /click push button "Next": done — Press it$/);
    assert.match(lines[1]!, /: refused \(the focus moved\) — /);
    assert.match(lines[2]!, /: error \(the app died\) — /);
    assert.match(lines[3]!, /no outcome recorded/);
    assert.ok(!lines.some((l) => l.includes("attempted")), lines.join("\n"));
  });
});
