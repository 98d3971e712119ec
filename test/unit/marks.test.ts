// The pure parts of reading pixels for observe: set-of-marks drawn onto a screenshot (a box and a number
// at each target, checked pixel by pixel), the cache of readings by pixel hash, the word under a point,
// and a line's target with its points.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { drawMarks, FONT_SCALE, MARK_COLOUR, TAG_INK, tagSize, toImageBox } from "../../src/core/marks.js";
import type { ScreenLine } from "../../src/core/ocr.js";
import { prepareForOcr } from "../../src/core/ocr-image.js";
import {
  lineTarget,
  lineTargets,
  PixelCache,
  pixelHash,
  WORD_POINTS_UP_TO,
  wordAt,
} from "../../src/core/pixel-targets.js";
import type { RgbaImage } from "../../src/platform/hands.js";

const blank = (width: number, height: number): RgbaImage => ({
  width,
  height,
  data: Buffer.alloc(width * height * 4, 255),
});
const pixel = (image: RgbaImage, x: number, y: number) => {
  const o = (y * image.width + x) * 4;
  return [image.data[o], image.data[o + 1], image.data[o + 2]];
};
const MARK = [...MARK_COLOUR];
const INK = [...TAG_INK];
const WHITE = [255, 255, 255];

describe("set-of-marks", () => {
  it("outlines the box, tags its top-left with the number, and leaves the inside and outside alone", () => {
    const image = blank(100, 60);
    assert.equal(drawMarks(image, [{ index: 7, box: { x: 20, y: 10, width: 50, height: 30 } }]), 1);
    // The outline, on all four sides, and nothing just outside it.
    for (const [x, y] of [
      [45, 10],
      [45, 39],
      [69, 25],
      [20, 35],
    ] as const)
      assert.deepEqual(pixel(image, x, y), MARK, `outline at ${x},${y}`);
    for (const [x, y] of [
      [45, 9],
      [45, 40],
      [70, 25],
      [19, 35],
      [45, 25],
    ] as const)
      assert.deepEqual(pixel(image, x, y), WHITE, `untouched at ${x},${y}`);
    // The tag: "7" is a full top row of ink, then a stroke down its right column.
    const size = tagSize(7);
    assert.deepEqual(size, { width: 3 * FONT_SCALE + 2, height: 5 * FONT_SCALE + 2 });
    const left = 21;
    const top = 11;
    for (let column = 0; column < 3; column++)
      assert.deepEqual(pixel(image, left + column * FONT_SCALE, top), INK, `7's top row, column ${column}`);
    assert.deepEqual(pixel(image, left + 2 * FONT_SCALE, top + 4 * FONT_SCALE), INK, "7's stem");
    assert.deepEqual(pixel(image, left, top + 4 * FONT_SCALE), MARK, "7 has no bottom-left ink");
  });

  it("draws every digit of a number, and moves a tag at the edge inside the image", () => {
    const image = blank(60, 40);
    // 10: "1" has ink in its middle column, "0" a hollow middle.
    drawMarks(image, [{ index: 10, box: { x: 50, y: 30, width: 30, height: 20 } }]);
    const size = tagSize(10);
    const x = 60 - size.width;
    const y = 40 - size.height;
    assert.deepEqual(pixel(image, x + 1 + FONT_SCALE, y + 1), INK, "1's stroke");
    const zero = x + 1 + 4 * FONT_SCALE;
    assert.deepEqual(pixel(image, zero, y + 1 + 2 * FONT_SCALE), INK, "0's left side");
    assert.deepEqual(pixel(image, zero + FONT_SCALE, y + 1 + 2 * FONT_SCALE), MARK, "0's hollow middle");
  });

  it("skips marks off the image, and maps global boxes through the screenshot's scale", () => {
    const image = blank(50, 50);
    const drawn = drawMarks(image, [
      { index: 1, box: { x: 60, y: 0, width: 10, height: 10 } },
      { index: 2, box: { x: -20, y: -20, width: 10, height: 10 } },
    ]);
    assert.equal(drawn, 0);
    assert.ok(image.data.every((v) => v === 255));
    assert.deepEqual(
      toImageBox(
        { x: 300, y: 200, width: 100, height: 40 },
        { x: 100, y: 100, width: 800, height: 600 },
        0.5,
      ),
      {
        x: 100,
        y: 50,
        width: 50,
        height: 20,
      },
    );
  });
});

const word = (text: string, x: number, y = 100, confidence = 90) => ({
  text,
  box: { x, y, width: 8 * text.length, height: 12 },
  confidence,
});
const line = (...words: ReturnType<typeof word>[]): ScreenLine => {
  const x = words[0]!.box.x;
  const right = Math.max(...words.map((w) => w.box.x + w.box.width));
  return {
    text: words.map((w) => w.text).join(" "),
    box: { x, y: words[0]!.box.y, width: right - x, height: 12 },
    confidence: Math.min(...words.map((w) => w.confidence)),
    words,
  };
};

describe("pixel readings", () => {
  it("are kept while the region's pixels hash the same, and forgotten once they change", () => {
    const cache = new PixelCache();
    const region = { x: 0, y: 0, width: 4, height: 4 };
    const image = blank(4, 4);
    const reading = { lines: [line(word("Save", 0, 0))], leftOut: 0, blanked: 0 };
    cache.set(region, pixelHash(image), reading);
    assert.equal(cache.get(region, pixelHash(blank(4, 4))), reading, "same pixels: kept");
    image.data[5] = 0;
    assert.equal(cache.get(region, pixelHash(image)), undefined, "one pixel changed: read again");
    assert.equal(cache.get({ ...region, x: 1 }, pixelHash(blank(4, 4))), undefined, "another region");
    assert.notEqual(pixelHash(blank(2, 8)), pixelHash(blank(4, 4)), "same bytes, other shape");
    for (let i = 0; i < 40; i++) cache.set({ ...region, x: i + 10 }, "h", reading);
    assert.ok(cache.size <= 16, `bounded: ${cache.size}`);
  });

  it("name the word under a point, or the nearest within a few points, else none", () => {
    const lines = [line(word("File", 10), word("Edit", 50)), line(word("okay", 10, 140))];
    assert.equal(wordAt(lines, { x: 55, y: 105 })?.text, "Edit");
    assert.equal(wordAt(lines, { x: 44, y: 105 })?.text, "File", "2 px right of File's box");
    assert.equal(wordAt(lines, { x: 20, y: 145 })?.text, "okay");
    assert.equal(wordAt(lines, { x: 200, y: 105 }), undefined);
  });

  it("a line is one target with its centre and each word's x; a long line gives its centre only", () => {
    const short = lineTarget(line(word("Save", 100), word("As", 140, 100, 50)), 3, "s1:e5");
    assert.equal(short.label, 'text "Save As(?)" (from pixels) at 128,106 · x 116,148 click');
    assert.deepEqual(short.words, [
      { text: "Save", at: { x: 116, y: 106 } },
      { text: "As", at: { x: 148, y: 106 } },
    ]);
    assert.equal(short.surface, "s1:e5");
    const one = lineTarget(line(word("okay", 10)), 0);
    assert.equal(one.label, 'text "okay" (from pixels) at 26,106 click');
    const many = Array.from({ length: WORD_POINTS_UP_TO + 1 }, (_, i) => word(`w${i}`, 10 + 30 * i));
    const long = lineTarget(line(...many), 0);
    assert.equal(long.words, undefined);
    assert.doesNotMatch(long.label, / · x /);
  });

  it("lines past the character budget are cut and counted", () => {
    const lines = Array.from({ length: 30 }, (_, i) => line(word(`Row${i}`, 10, 20 * i)));
    const { targets, cut } = lineTargets({ lines, leftOut: 0, blanked: 0 }, 5, 200);
    assert.ok(targets.length > 0 && targets.length < 30, `${targets.length} shown`);
    assert.equal(cut, 30 - targets.length);
    assert.deepEqual(
      targets.map((t) => t.index),
      targets.map((_, i) => 5 + i),
    );
    assert.ok(targets.reduce((n, t) => n + t.label.length + 6, 0) <= 200);
  });
});

describe("before the engine", () => {
  it("a thin outline round text is erased; a letter's own loop and the text inside are kept", async () => {
    const image = blank(90, 44);
    const ink = (x: number, y: number) =>
      image.data.fill(0, (y * image.width + x) * 4, (y * image.width + x) * 4 + 3);
    // A button's 1 px frame, 40×20 (shorter than a rule), with a 6×8 blob of "text" inside.
    for (let x = 10; x < 50; x++) {
      ink(x, 10);
      ink(x, 29);
    }
    for (let y = 10; y < 30; y++) {
      ink(10, y);
      ink(49, y);
    }
    for (let y = 16; y < 24; y++) for (let x = 27; x < 33; x++) ink(x, y);
    // An "O" 12×14 holding nothing.
    for (let x = 65; x < 77; x++) {
      ink(x, 12);
      ink(x, 25);
    }
    for (let y = 12; y < 26; y++) {
      ink(65, y);
      ink(76, y);
    }
    const { image: prepared, factor } = await prepareForOcr(image, []);
    assert.equal(factor, 2);
    const grey = (x: number, y: number) => prepared.data[y * factor * prepared.width + x * factor]!;
    assert.ok(grey(30, 10) > 200, `the frame's top is paper: ${grey(30, 10)}`);
    assert.ok(grey(10, 20) > 200, `the frame's side is paper: ${grey(10, 20)}`);
    assert.ok(grey(30, 20) < 128, `the text inside is ink: ${grey(30, 20)}`);
    assert.ok(grey(70, 12) < 128, `the O is ink: ${grey(70, 12)}`);
  });
});
