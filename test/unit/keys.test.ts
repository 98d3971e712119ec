import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { chordText, KeyNameError, parseChord } from "../../src/platform/keys.js";
import { apartRepeats } from "../../src/tools/hands/pieces.js";

it("parses chords case-insensitively, with aliases, in a fixed modifier order", () => {
  assert.equal(chordText(parseChord("Shift+CTRL+p")), "ctrl+shift+p");
  assert.equal(chordText(parseChord("alt+f4")), "alt+F4");
  assert.equal(chordText(parseChord("Return")), "Enter");
  assert.equal(chordText(parseChord("alt+spacebar")), "alt+Space", "pyjab's spacebar");
  assert.equal(chordText(parseChord("esc")), "Escape");
  assert.equal(chordText(parseChord("win+l")), "super+l");
  assert.equal(chordText(parseChord("ctrl+plus")), "ctrl++");
  assert.equal(chordText(parseChord("ctrl+minus")), "ctrl+-");
  assert.equal(chordText(parseChord("ctrl+Comma")), "ctrl+,");
  assert.equal(chordText(parseChord("s", ["ctrl"])), "ctrl+s");
  assert.equal(chordText(parseChord("A")), "a", "a capital is the letter key; shift is a modifier");
  assert.equal(chordText(parseChord("shift")), "shift", "a modifier alone");
  assert.equal(chordText(parseChord("é")), "é");
});

it("names the first unknown part, and refuses what is not a key", () => {
  for (const [chord, unknown] of [
    ["ctrl+shfit+p", "shfit"],
    ["F13", "F13"],
    ["ctrl+", ""],
    ["hyper+a", "hyper"],
    ["ab", "ab"],
    ["a+ctrl+b", "a"],
  ] as const) {
    assert.throws(
      () => parseChord(chord),
      (error: unknown) => error instanceof KeyNameError && error.unknown === unknown,
      chord,
    );
  }
  assert.throws(() => parseChord("a", ["cmd"]), /unknown key name "cmd"/);
});

describe("keys where no text takes them", () => {
  it("go in parts with no key twice, so a key pressed again waits as a finger would", () => {
    assert.deepEqual(apartRepeats("144/12="), ["14", "4/12="]);
    assert.deepEqual(apartRepeats("1000"), ["10", "0", "0"]);
    assert.deepEqual(apartRepeats("Aa"), ["A", "a"], "one key, whatever its case");
    assert.deepEqual(apartRepeats("12+3"), ["12+3"]);
    assert.deepEqual(apartRepeats(""), []);
  });
});
