// The one test of whether a written value took, shared by act and fill_form.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  lostCharacters,
  offsetRuns,
  readsBackAs,
  rewrittenAs,
  textAfterTyping,
  textDifference,
} from "../../src/core/readback.js";
import { addedIndent, lostOf } from "../../src/tools/hands/field.js";

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

describe("the whole field after typing", () => {
  it("the typed text goes in at the offset, counted in characters; a single line takes no newline", () => {
    assert.equal(textAfterTyping("w0.w1.", 6, "w2.", true), "w0.w1.w2.");
    assert.equal(textAfterTyping("ab", 1, "X", true), "aXb");
    assert.equal(textAfterTyping("日本✓", 2, "é", true), "日本é✓");
    assert.equal(textAfterTyping("a", 1, "b\nc\r", true), "abc");
    assert.equal(textAfterTyping("a", 1, "b\r\nc", false), "ab\n\nc");
  });
  it("a difference says where the texts part, what each holds there, and both lengths", () => {
    assert.equal(textDifference("same", "same"), undefined);
    assert.equal(
      textDifference("typed", "old typed"),
      'from character 0 it holds "" where "old " should be (5 characters, 9 expected)',
    );
    assert.equal(
      textDifference("ab✓Xd", "ab✓cd"),
      'from character 3 it holds "X" where "c" should be (5 characters, 5 expected)',
    );
    assert.match(textDifference("x".repeat(100), "")!, /holds "x{40}"… where "" should be \(100 characters/);
  });
});

describe("typed characters that did not arrive", () => {
  it("names the characters a field lacks and where they were typed, in the field's old text too", () => {
    assert.deepEqual(lostCharacters("abcdefghij", "abcdefghijklmno"), {
      lost: "klmno",
      at: [10, 11, 12, 13, 14],
      extra: 0,
    });
    assert.deepEqual(lostCharacters("Quartrly figures", "Quarterly figures"), {
      lost: "e",
      at: [5],
      extra: 0,
    });
    assert.equal(offsetRuns([0, 4, 5, 6, 9]), "1, 5–7, 10");
    // Typed "xyz" at offset 3 of "abcdef": the field holds "abcxzdef", so "y" (typed second) is lost.
    assert.deepEqual(lostOf("abcxzdef", "xyz", { text: "abcxyzdef", at: 3 }), {
      characters: 1,
      text: "y",
      typed_at: "2",
    });
    assert.equal(lostOf("abcxyzdef", "xyz", { text: "abcxyzdef", at: 3 }), undefined);
    // Only the old text lost: no typed character is missing.
    assert.equal(lostOf("xyzdef", "xyz", { text: "abcxyzdef", at: 3 }), undefined);
    assert.equal(lostCharacters("a".repeat(3000), "b"), undefined, "too long to align");
  });
});

describe("addedIndent", () => {
  it("counts the spaces an editor's auto-indent added at the starts of typed lines (Geany's)", () => {
    const typed = "def f(x):\n    return x\nprint(f(1))";
    assert.equal(addedIndent("def f(x):\n    return x\n    print(f(1))", typed), 4);
    assert.equal(addedIndent("# head\ndef f(x):\n\t    return x\n\tprint(f(1))\n", typed), 2);
  });
  it("is undefined where nothing was added, a line differs, or one line was typed", () => {
    assert.equal(addedIndent("a\nb", "a\nb"), undefined);
    assert.equal(addedIndent("a\n  c", "a\nb"), undefined);
    assert.equal(addedIndent("  a", "a"), undefined);
  });
});

describe("rewrittenAs", () => {
  it("names what an app wrote its own way, and nothing for other differences", () => {
    assert.equal(rewrittenAs("12×8−3", "12*8-3"), '"×" for "*", "−" for "-"');
    const quote = (written: string, typed: string) =>
      `${JSON.stringify(written)} for ${JSON.stringify(typed)}`;
    assert.equal(
      rewrittenAs("it’s “ok”", `it's "ok"`),
      [quote("’", "'"), quote("“", '"'), quote("”", '"')].join(", "),
    );
    assert.equal(rewrittenAs("12*8-3", "12*8-3"), undefined, "the same text");
    assert.equal(rewrittenAs("12x8-3", "12*8-3"), undefined, "x is no way to write *");
    assert.equal(rewrittenAs("12×8", "12*8-3"), undefined, "characters lost");
  });
});
