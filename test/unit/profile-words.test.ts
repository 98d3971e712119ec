// A profile's client is advised in its own tools' names: an error's `next` names java_snapshot, not
// snapshot, where the pyjab client has no snapshot to call.
import assert from "node:assert/strict";
import { it } from "node:test";
import { DeskhandError } from "../../src/core/errors.js";
import { mcpResult } from "../../src/frontends/mcp/server.js";
import { inOwnWords, PROFILES } from "../../src/frontends/profiles/index.js";

it("names the profile's tools in advice, whole words only, and leaves the rest", () => {
  const words = PROFILES.ouroboros!.words;
  assert.equal(
    inOwnWords("Scroll it into view (act scroll_into_view) and snapshot again.", words),
    "Scroll it into view (element_act scroll_into_view) and window_read again.",
  );
  // A name inside another word or a field name stays; a tool the profile lacks stays deskhand's.
  assert.equal(
    inOwnWords("the snapshot_id, a findings list, read_text", words),
    "the snapshot_id, a findings list, read_text",
  );
  assert.equal(inOwnWords("Call `windows` first.", PROFILES.pyjab!.words), "Call java_list_windows first.");
  // A tool the profile has no word for is no advice to its client: the sentence is left out.
  assert.equal(
    inOwnWords("No window is titled X. Call `windows` to see what is open.", PROFILES.daimon!.words),
    "No window is titled X.",
  );
});

it("an MCP error from a profile's tool advises in its words, in the text and the structured reply", () => {
  const error = new DeskhandError("stale_element", "it changed", "Take a new snapshot and use its refs.");
  const result = mcpResult({ ok: false, outcome: "error", error } as never, PROFILES.pyjab);
  assert.match(
    (result.content[0] as { text: string }).text,
    /Next: Take a new java_snapshot and use its refs\./,
  );
  assert.equal(
    (result.structuredContent as { error: { next: string } }).error.next,
    "Take a new java_snapshot and use its refs.",
  );
  const plain = mcpResult({ ok: false, outcome: "error", error } as never);
  assert.match((plain.content[0] as { text: string }).text, /Next: Take a new snapshot and use its refs\./);
});

it("Daimon: a failure in the doing is its {status: error} reply; what the host lacks is motor_unavailable", () => {
  const failed = mcpResult(
    {
      ok: false,
      outcome: "error",
      error: new DeskhandError("timeout", "the app did not answer", "Retry."),
    } as never,
    PROFILES.daimon,
  );
  assert.deepEqual(failed.structuredContent, { status: "error", reason: "the app did not answer" });
  assert.equal((failed.content[0] as { text: string }).text, JSON.stringify(failed.structuredContent));
  const motor = mcpResult(
    {
      ok: false,
      outcome: "error",
      error: new DeskhandError("hands_unavailable", "no display", "Start one."),
    } as never,
    PROFILES.daimon,
  );
  assert.equal((motor.structuredContent as { error: string }).error, "motor_unavailable");
  const argument = mcpResult(
    {
      ok: false,
      outcome: "error",
      error: new DeskhandError("window_not_found", "no such window", "List."),
    } as never,
    PROFILES.daimon,
  );
  assert.equal((argument.structuredContent as { error: string }).error, "invalid_arguments");
});
