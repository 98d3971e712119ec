import assert from "node:assert/strict";
import { it } from "node:test";
import { LEVEL_NAMES, raiseLevel, withinCeiling } from "../../src/safety/levels.js";

it("a target raises a tool's level, never lowers it", () => {
  assert.equal(raiseLevel("L2", "L3"), "L3");
  assert.equal(raiseLevel("L3", "L1"), "L3");
  assert.equal(LEVEL_NAMES.L4, "autonomous");
});

it("a level passes a ceiling at or above it, and only then", () => {
  assert.ok(withinCeiling("L1", "L1"));
  assert.ok(withinCeiling("L2", "L3"));
  assert.ok(!withinCeiling("L4", "L3"));
});
