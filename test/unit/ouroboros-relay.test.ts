// The Ouroboros seed's display cuts: an answer over the host's relay keeps its counts and says what
// it cut (result_size, clipped_fields with original and shown units, shown/omitted), its cut names
// are the seed's limits, and text in receipts shows 4,000 units, marked when longer.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  clipText,
  fitRelay,
  RELAY_UNITS,
  seedCuts,
  TEXT_UNITS,
} from "../../src/frontends/profiles/ouroboros-relay.js";

describe("the Ouroboros relay", () => {
  it("leaves an answer that fits as it is", () => {
    const reply = { elements: [{ id: "a", value: "x".repeat(5000) }], truncated_by: [], notes: [] };
    assert.deepEqual(fitRelay(reply, ["elements"]), reply);
  });

  it("cuts an oversized answer for display only: text at 4,000 units per object, then a prefix of the list", () => {
    const elements = Array.from({ length: 60 }, (_, i) => ({
      id: `e${i}`,
      name: `n${i}`,
      value: "v".repeat(6000),
    }));
    const reply = { elements, truncated_by: ["max_depth"], notes: [] as string[] };
    const fitted = fitRelay(reply, ["elements"]) as any;
    assert.ok(JSON.stringify(fitted).length <= RELAY_UNITS);
    assert.equal(fitted.result_size, JSON.stringify(reply).length);
    assert.equal(fitted.shown + fitted.omitted, 60, "no element is lost from the count");
    assert.equal(fitted.elements.length, fitted.shown);
    assert.ok(fitted.shown > 10, `as many as fit: ${fitted.shown}`);
    assert.deepEqual(fitted.elements[0].clipped_fields, [
      { field: "value", original: 6000, shown: TEXT_UNITS },
    ]);
    assert.equal(fitted.elements[0].value.length, TEXT_UNITS);
    assert.deepEqual(fitted.truncated_by, ["max_depth", "result_size"]);
    assert.match(fitted.notes[0], /display cuts, not unread fields/);
  });

  it("counts each list on its own when an answer has several", () => {
    const big = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ id: `e${i}`, value: "w".repeat(3000) }));
    const fitted = fitRelay({ matches: big(40), unreadable_candidates: big(5) }, [
      "matches",
      "unreadable_candidates",
    ]) as any;
    assert.equal(fitted.shown.matches + fitted.omitted.matches, 40);
    assert.equal(fitted.shown.unreadable_candidates + fitted.omitted.unreadable_candidates, 5);
  });

  it("spells cuts as the seed's limits, and marks text past 4,000 units", () => {
    assert.deepEqual(seedCuts(["maxNodes", "maxText", "timeout", "maxDepth"]), [
      "max_nodes",
      "max_text_chars",
      "timeout_ms",
      "max_depth",
    ]);
    assert.deepEqual(clipText("a".repeat(4001)), { value: "a".repeat(4000), text_truncated: true });
    assert.deepEqual(clipText("short"), { value: "short" });
  });
});
