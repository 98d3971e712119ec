// The pure parts of text from pixels: the engine's TSV, words into screen lines, matching a text, the
// character bound, and the visible parts of a password field under other windows.
import assert from "node:assert/strict";
import { it } from "node:test";
import { boundLines, findInLines, toScreenLines } from "../../src/core/ocr.js";
import { visibleParts } from "../../src/core/passwords.js";
import { parseTsv } from "../../src/platform/ocr/tesseract.js";

const TSV = [
  "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext",
  "1\t1\t0\t0\t0\t0\t0\t0\t1120\t840\t-1\t",
  "5\t1\t1\t1\t1\t1\t42\t42\t252\t46\t96.5\tQuarterly",
  "5\t1\t1\t1\t1\t2\t316\t42\t226\t36\t95.1\tRevenue",
  "5\t1\t1\t1\t1\t3\t564\t42\t176\t46\t97.0\tReport",
  "5\t1\t2\t1\t1\t1\t40\t130\t8\t30\t21.0\t[",
  "5\t1\t2\t1\t1\t2\t60\t130\t120\t24\t52.0\tTota1",
  "5\t1\t2\t1\t1\t3\t190\t130\t154\t26\t93.0\t48,213.75",
  "5\t1\t3\t1\t1\t1\t40\t200\t80\t24\t12.0\tSs",
].join("\n");

it("reads Tesseract's TSV: words only, with boxes, confidence and layout", () => {
  const words = parseTsv(TSV);
  assert.equal(words.length, 7);
  assert.deepEqual(words[0], {
    text: "Quarterly",
    box: { x: 42, y: 42, width: 252, height: 46 },
    confidence: 96.5,
    block: 1,
    paragraph: 1,
    line: 1,
  });
});

it("maps words to screen lines in global points, leaving out and counting noise", () => {
  const { lines, leftOut } = toScreenLines(parseTsv(TSV), { x: 100, y: 50 }, 2);
  assert.equal(leftOut, 2, "a lone bracket and a 12% fragment");
  assert.deepEqual(
    lines.map((l) => l.text),
    ["Quarterly Revenue Report", "Tota1 48,213.75"],
  );
  assert.deepEqual(lines[0]!.words[0]!.box, { x: 121, y: 71, width: 126, height: 23 });
  assert.deepEqual(lines[0]!.box, { x: 121, y: 71, width: 349, height: 23 });
  assert.equal(lines[1]!.confidence, 52, "a line is as sure as its least sure word");
});

it("finds whole words exactly or folded, and any part with contains", () => {
  const { lines } = toScreenLines(parseTsv(TSV), { x: 0, y: 0 }, 1);
  assert.equal(findInLines(lines, "revenue", "exact").length, 0);
  const folded = findInLines(lines, "REVENUE report", "fold");
  assert.equal(folded.length, 1);
  assert.equal(folded[0]!.text, "Revenue Report");
  assert.deepEqual(folded[0]!.box, { x: 316, y: 42, width: 424, height: 46 });
  assert.deepEqual(folded[0]!.centre, { x: 528, y: 65 });
  assert.equal(findInLines(lines, "venue", "fold").length, 0, "fold matches whole words only");
  const part = findInLines(lines, "venue", "contains");
  assert.equal(part.length, 1);
  // Inside one word, the box narrows to the characters matched: "venue" is 5 of "revenue"'s 7.
  assert.equal(part[0]!.box.width, Math.round((226 / 7) * 5));
  assert.ok(part[0]!.box.x > 316);
  assert.equal(findInLines(lines, "  ", "contains").length, 0);
});

it("bounds the lines shown by characters, and says how many were cut", () => {
  const { lines } = toScreenLines(parseTsv(TSV), { x: 0, y: 0 }, 1);
  assert.equal(boundLines(lines, 10_000).cut, 0);
  const { shown, cut } = boundLines(lines, 60);
  assert.equal(shown.length, 1);
  assert.equal(cut, 1);
});

it("a field covered by a window above it is blanked only where it shows", () => {
  const field = { x: 0, y: 0, width: 100, height: 20 };
  assert.deepEqual(visibleParts(field, []), [field]);
  assert.deepEqual(visibleParts(field, [{ x: -10, y: -10, width: 200, height: 200 }]), []);
  const parts = visibleParts(field, [{ x: 40, y: 0, width: 20, height: 20 }]);
  assert.deepEqual(parts, [
    { x: 0, y: 0, width: 40, height: 20 },
    { x: 60, y: 0, width: 40, height: 20 },
  ]);
  const area = (rects: { width: number; height: number }[]) =>
    rects.reduce((n, r) => n + r.width * r.height, 0);
  assert.equal(area(visibleParts(field, [{ x: 90, y: 10, width: 50, height: 50 }])), 2000 - 100);
});
