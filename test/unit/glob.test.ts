import assert from "node:assert/strict";
import { it } from "node:test";
import { globMatch } from "../../src/core/glob.js";

it("matches titles the way fnmatch does", () => {
  assert.ok(globMatch("*Report*", "Monthly Report - Calc"));
  assert.ok(globMatch("Deskhand ?ixture", "Deskhand Fixture"));
  assert.ok(globMatch("[DE]eskhand*", "Deskhand Fixture"));
  assert.ok(!globMatch("[!D]eskhand*", "Deskhand Fixture"));
  assert.ok(!globMatch("Report", "Monthly Report"), "a glob matches the whole title");
  assert.ok(globMatch("a.b(c)+", "a.b(c)+"), "regex characters are literal");
  assert.ok(globMatch("日本*", "日本語のウィンドウ"));
});
