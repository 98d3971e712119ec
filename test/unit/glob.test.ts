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

it("matches hostile globs in bounded time, and refuses bad ones naming where", () => {
  const title = "a".repeat(200);
  for (const glob of [`${"*".repeat(160)}Z`, `${"*a".repeat(100)}Z`, `${"?*".repeat(120)}Z`]) {
    const started = performance.now();
    assert.equal(globMatch(glob, title), false);
    // Backtracking on these takes seconds to forever; the bound is one a loaded machine still keeps.
    assert.ok(
      performance.now() - started < 2000,
      `${glob.slice(0, 12)}… took ${performance.now() - started} ms`,
    );
  }
  assert.ok(globMatch(`${"*a".repeat(100)}*`, title));
  assert.ok(globMatch("[]]x", "]x"), "] first in a class belongs to it");
  assert.ok(globMatch("[a-c]*", "beta"));
  assert.throws(
    () => globMatch("[z-a]", "z"),
    (e: { code: string; message: string }) =>
      e.code === "invalid_params" && /range z-a runs backwards at position 1/.test(e.message),
  );
  assert.throws(
    () => globMatch("x".repeat(100_000), "x"),
    (e: { code: string; message: string }) =>
      e.code === "invalid_params" && /longer than 1024/.test(e.message) && e.message.length < 200,
  );
});
