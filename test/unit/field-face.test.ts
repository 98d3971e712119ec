// A field's colours read from its pixels: a tinted background, a strong frame or text colour that
// came or went; blue (focus rings, selections) and grey anti-aliasing say nothing.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { RgbaImage } from "../../src/platform/hands.js";
import { colourChange, coloursOf } from "../../src/tools/hands/field-face.js";

type Rgb = [number, number, number];

/** A field of `width`×`height` filled with `fill`, its outer `frame` pixels in `edge`. */
function field(fill: Rgb, edge: Rgb = fill, frame = 2, width = 160, height = 30): RgbaImage {
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const onEdge = x < frame || y < frame || x >= width - frame || y >= height - frame;
      const [r, g, b] = onEdge ? edge : fill;
      data.set([r, g, b, 255], (y * width + x) * 4);
    }
  return { width, height, data };
}

const WHITE: Rgb = [255, 255, 255];
const grey: Rgb = [160, 160, 160];

describe("a field's colours", () => {
  it("a background tinted red or green is said (KWrite's no match and match)", () => {
    const plain = coloursOf(field(WHITE, grey));
    const pink = coloursOf(field([250, 236, 237], grey));
    const mint = coloursOf(field([229, 246, 232], grey));
    assert.equal(colourChange(plain, pink), "its background turned red");
    assert.equal(colourChange(pink, mint), "its background turned green");
    assert.equal(colourChange(pink, plain), "its background is no longer red");
  });

  it("a frame turned red is said, and its going (GTK's error style)", () => {
    const plain = coloursOf(field(WHITE, grey));
    const error = coloursOf(field(WHITE, [204, 0, 0]));
    assert.equal(colourChange(plain, error), "its frame or text turned red");
    assert.equal(colourChange(error, plain), "the red of its frame or text went");
  });

  it("a blue focus ring, a grey frame or the same colours say nothing", () => {
    const plain = coloursOf(field(WHITE, grey));
    assert.equal(colourChange(plain, coloursOf(field(WHITE, [53, 132, 228]))), undefined);
    assert.equal(colourChange(plain, coloursOf(field(WHITE, [90, 90, 90]))), undefined);
    assert.equal(colourChange(plain, coloursOf(field(WHITE, grey))), undefined);
    // A near-white background ((255, 255, 250): a theme's) is no tint.
    assert.equal(colourChange(plain, coloursOf(field([255, 255, 250], grey))), undefined);
  });
});
