// The second reading of doubtful words (src/core/ocr-second-pass.ts), with an engine that answers
// what a test says: a doubtful word among sure ones is read again and replaced by a surer reading,
// in the first reading's pixels; a line of nothing but doubt is not read again; a second reading no
// surer, or a failed one, leaves the first.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { recognizeTwice } from "../../src/core/ocr-second-pass.js";
import type { GrayImage, RecognizedWord, TextRecognizer } from "../../src/platform/ocr/types.js";

const word = (text: string, x: number, confidence: number, line = 1): RecognizedWord => ({
  text,
  box: { x, y: 20, width: 60, height: 24 },
  confidence,
  block: 1,
  paragraph: 1,
  line,
});

/** An engine whose first answer is `first`; its second, `second(image)`, in that image's pixels. */
function engine(first: RecognizedWord[], second: (image: GrayImage) => RecognizedWord[] | Error) {
  const images: GrayImage[] = [];
  const recognizer: TextRecognizer = {
    describe: async () => ({ engine: "fake", version: "0", languages: ["eng"], available: true, detail: "" }),
    recognize: async (image) => {
      images.push(image);
      if (images.length === 1) return first;
      const answer = second(image);
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
  return { recognizer, images };
}

// A white capture 200×40: prepared at twice its size, as small captures are.
const capture = { width: 200, height: 40, data: Buffer.alloc(200 * 40 * 4, 255) };
const prepared = { image: { width: 400, height: 80, data: new Uint8Array(400 * 80).fill(255) }, factor: 2 };
const options = { languages: ["eng"], timeoutMs: 5000 };

describe("a second reading of doubtful words", () => {
  it("replaces a doubtful word among sure ones by a surer reading, in the first reading's pixels", async () => {
    const first = [word("|Quartcrly", 10, 33), word("figures", 100, 96), word("filed", 200, 95)];
    const { recognizer, images } = engine(first, (image) => {
      // The spot is stacked 24 px in from the left and top: its word at the spot's own x.
      assert.ok(image.width < prepared.image.width + 48, "only the spot is read, not the whole image");
      // Its x: 5 capture pixels into the spot (cut from the capture's left edge), doubled.
      return [{ ...word("|Quarterly", 0, 91), box: { x: 24 + 10, y: 24 + 16, width: 60, height: 40 } }];
    });
    const words = await recognizeTwice(recognizer, capture, prepared, [], options);
    assert.equal(images.length, 2);
    assert.deepEqual(
      words.map((w) => [w.text, w.confidence]),
      [
        ["Quarterly", 91],
        ["figures", 96],
        ["filed", 95],
      ],
    );
    assert.equal(words[0]!.line, 1, "it stays on its line");
    // 5 capture pixels from the left, 14 from the top: 10 and 28 in the first reading's doubled pixels.
    assert.deepEqual(words[0]!.box, { x: 10, y: 28, width: 60, height: 40 });
  });

  it("reads no line of nothing but doubt again, and keeps the first reading where the second is no surer or fails", async () => {
    const lone = [word("Ss", 10, 20)];
    const once = engine(lone, () => [word("Ss", 30, 90)]);
    assert.deepEqual(await recognizeTwice(once.recognizer, capture, prepared, [], options), lone);
    assert.equal(once.images.length, 1, "an icon's line is not read again");
    const first = [word("Quartcrly", 10, 33), word("figures", 100, 96)];
    const unsure = engine(first, () => [word("Qnarterly", 30, 30)]);
    assert.deepEqual(await recognizeTwice(unsure.recognizer, capture, prepared, [], options), first);
    const failing = engine(first, () => new Error("tesseract exited with status 1"));
    assert.deepEqual(await recognizeTwice(failing.recognizer, capture, prepared, [], options), first);
  });
});
