// Set-of-marks: a box round each observe target on a screenshot, with its index in a small tag at its
// top-left corner, so a model that looks can name a target by its number. Digits are a 3×5 bitmap font
// scaled up; everything is clipped to the image, and the number of marks is bounded by the caller.
import type { RgbaImage } from "../platform/hands.js";
import type { Rect } from "../platform/types.js";

export interface Mark {
  index: number;
  /** In the image's own pixels. */
  box: Rect;
}

/** Rows of three bits, top to bottom, for 0–9. */
const DIGITS: readonly number[][] = [
  [7, 5, 5, 5, 7],
  [2, 6, 2, 2, 7],
  [7, 1, 7, 4, 7],
  [7, 1, 7, 1, 7],
  [5, 5, 7, 1, 1],
  [7, 4, 7, 1, 7],
  [7, 4, 7, 5, 7],
  [7, 1, 1, 1, 1],
  [7, 5, 7, 5, 7],
  [7, 5, 7, 1, 7],
];

export const MARK_COLOUR = [230, 0, 110] as const;
export const TAG_INK = [255, 255, 255] as const;
/** Font pixels per bitmap cell. */
export const FONT_SCALE = 2;
const LINE = 2;
const PAD = 1;

type Colour = readonly [number, number, number];

function fill(image: RgbaImage, rect: Rect, colour: Colour): void {
  const x0 = Math.max(0, Math.round(rect.x));
  const y0 = Math.max(0, Math.round(rect.y));
  const x1 = Math.min(image.width, Math.round(rect.x + rect.width));
  const y1 = Math.min(image.height, Math.round(rect.y + rect.height));
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) {
      const o = (y * image.width + x) * 4;
      image.data[o] = colour[0];
      image.data[o + 1] = colour[1];
      image.data[o + 2] = colour[2];
      image.data[o + 3] = 255;
    }
}

/** A box's outline, `LINE` pixels wide, inside the box. */
function outline(image: RgbaImage, b: Rect, colour: Colour): void {
  const w = Math.min(LINE, b.width);
  const h = Math.min(LINE, b.height);
  fill(image, { x: b.x, y: b.y, width: b.width, height: h }, colour);
  fill(image, { x: b.x, y: b.y + b.height - h, width: b.width, height: h }, colour);
  fill(image, { x: b.x, y: b.y, width: w, height: b.height }, colour);
  fill(image, { x: b.x + b.width - w, y: b.y, width: w, height: b.height }, colour);
}

/** The tag's size for a number: its digits with a pixel of padding round them. */
export function tagSize(index: number): { width: number; height: number } {
  const digits = String(index).length;
  return {
    width: digits * 4 * FONT_SCALE - FONT_SCALE + 2 * PAD,
    height: 5 * FONT_SCALE + 2 * PAD,
  };
}

/** The number in the tag's colours, its top-left at (x, y). */
function tag(image: RgbaImage, index: number, x: number, y: number): void {
  fill(image, { x, y, ...tagSize(index) }, MARK_COLOUR);
  [...String(index)].forEach((digit, i) => {
    const rows = DIGITS[Number(digit)]!;
    const left = x + PAD + i * 4 * FONT_SCALE;
    rows.forEach((bits, row) => {
      for (let column = 0; column < 3; column++)
        if (bits & (4 >> column))
          fill(
            image,
            {
              x: left + column * FONT_SCALE,
              y: y + PAD + row * FONT_SCALE,
              width: FONT_SCALE,
              height: FONT_SCALE,
            },
            TAG_INK,
          );
    });
  });
}

/**
 * Draws each mark onto the image (in place): its box outlined, its number in a tag at the box's top-left
 * corner, moved inside the image where the corner is outside. Marks wholly off the image are skipped;
 * the count drawn is returned.
 */
export function drawMarks(image: RgbaImage, marks: Mark[]): number {
  let drawn = 0;
  for (const { index, box } of marks) {
    if (box.x >= image.width || box.y >= image.height || box.x + box.width <= 0 || box.y + box.height <= 0)
      continue;
    outline(image, box, MARK_COLOUR);
    const size = tagSize(index);
    const x = Math.min(Math.max(0, Math.round(box.x)), Math.max(0, image.width - size.width));
    const y = Math.min(Math.max(0, Math.round(box.y)), Math.max(0, image.height - size.height));
    tag(image, index, x, y);
    drawn++;
  }
  return drawn;
}

/** A global rectangle in a screenshot's pixels: `region` captured, shrunk by `scale`. */
export function toImageBox(box: Rect, region: Rect, scale: number): Rect {
  return {
    x: Math.round((box.x - region.x) * scale),
    y: Math.round((box.y - region.y) * scale),
    width: Math.max(1, Math.round(box.width * scale)),
    height: Math.max(1, Math.round(box.height * scale)),
  };
}
