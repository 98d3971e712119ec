// The one test of whether a written value took, shared by act and fill_form.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { readsBackAs } from "../../src/core/readback.js";

describe("readsBackAs", () => {
  it("the same text, or the same number written another way", () => {
    assert.equal(readsBackAs("Ada", "Ada"), true);
    assert.equal(readsBackAs("3.0", "3"), true);
    assert.equal(readsBackAs("42", 42), true);
    assert.equal(readsBackAs(" 7 ", "7"), true);
  });
  it("an empty value is no number: it never reads back as 0 (fill_form counted it as set)", () => {
    assert.equal(readsBackAs("", "0"), false);
    assert.equal(readsBackAs("", 0), false);
    assert.equal(readsBackAs("0", ""), false);
    assert.equal(readsBackAs("  ", "0"), false);
  });
  it("other text differs; nothing re-read is unknown", () => {
    assert.equal(readsBackAs("Ad", "Ada"), false);
    assert.equal(readsBackAs("abc", "abd"), false);
    assert.equal(readsBackAs("NaN", "NaN"), true);
    assert.equal(readsBackAs("Infinity", "1e999"), false);
    assert.equal(readsBackAs(undefined, "x"), undefined);
  });
});
