// Text from pixels read twice where the first reading doubts: every word the engine rated below
// DOUBTFUL among sure words of its line is cut out of the capture with its neighbourhood, prepared
// again for a second look (stipple erased, borders erased, doubled, black and white: ocr-image.ts) and
// read once more, all such spots in one engine run. A doubtful word is replaced by what the second
// reading found in its place when that is surer. An
// xmessage's stippled bar beside "Quarterly" was read as part of the word, at 33, and the word was
// left out of "Quarterly figures are filed in Zanzibar"; its second reading is 90.
import type { RgbaImage } from "../platform/hands.js";
import type { GrayImage, RecognizedWord, RecognizeOptions, TextRecognizer } from "../platform/ocr/types.js";
import type { Rect } from "../platform/types.js";
import { DOUBTFUL, LEAVE_OUT } from "./ocr.js";
import { type PreparedImage, prepareForOcr } from "./ocr-image.js";
import { union } from "./rects.js";

/** At most this many spots get a second reading in one call: each costs little, but not nothing. */
const SECOND_SPOTS = 8;
/** Capture pixels of margin round a line cut out for its second reading. */
const MARGIN = 4;
/** Prepared pixels of white between the lines stacked for the second reading. */
const GAP = 24;

/** A word's letters or digits: what a doubtful reading must have to be read again. */
const HAS_TEXT = /[\p{L}\p{N}]/u;
/** A border read as part of a word ("|Quarterly"): left off its ends. */
const BORDER_ENDS = /^[|[\]]+|[|[\]]+$/g;

/**
 * The words of a capture, as the engine reads its prepared image, with a second reading where a word
 * of letters or digits is doubtful. Boxes are in the prepared image's pixels, as the
 * first reading's; `blank` (password fields) is in the capture's pixels and blanked in both.
 */
export async function recognizeTwice(
  recognizer: TextRecognizer,
  capture: RgbaImage,
  prepared: PreparedImage,
  blank: Rect[],
  options: RecognizeOptions & { scale?: number },
): Promise<RecognizedWord[]> {
  const started = Date.now();
  const words = await recognizer.recognize(prepared.image, options);
  const spots = doubtfulSpots(words, prepared.factor);
  if (spots.length === 0) return words;
  // Each line cut out of the capture, in capture pixels, and prepared for its second look.
  const cuts = await Promise.all(
    spots.map(async (spot) => {
      const box = spot.box;
      const x0 = Math.max(0, Math.floor(box.x / prepared.factor) - MARGIN);
      const y0 = Math.max(0, Math.floor(box.y / prepared.factor) - MARGIN);
      const x1 = Math.min(capture.width, Math.ceil((box.x + box.width) / prepared.factor) + MARGIN);
      const y1 = Math.min(capture.height, Math.ceil((box.y + box.height) / prepared.factor) + MARGIN);
      const region = { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
      const inside = blank.flatMap((b) => {
        const x = Math.max(b.x, x0);
        const y = Math.max(b.y, y0);
        const right = Math.min(b.x + b.width, x1);
        const bottom = Math.min(b.y + b.height, y1);
        return right > x && bottom > y
          ? [{ x: x - x0, y: y - y0, width: right - x, height: bottom - y }]
          : [];
      });
      // A straight run of ink longer than the line's sure words are tall is no letter's: a border.
      const sure = spot.line.filter((w) => w.confidence >= DOUBTFUL).map((w) => w.box.height);
      const tallest = (sure.length > 0 ? Math.max(...sure) : box.height) / prepared.factor;
      const rule = Math.max(8, Math.ceil(1.3 * tallest));
      const prepared2 = await prepareForOcr(cut(capture, region), inside, options.scale, { rule });
      return { spot, region, ...prepared2 };
    }),
  );
  const { image, tops } = stack(cuts.map((c) => c.image));
  const left = options.timeoutMs - (Date.now() - started);
  // Out of time or failed: the first reading stands, as it would have without a second.
  const again = await recognizer
    .recognize(image, { ...options, timeoutMs: Math.max(1000, left) })
    .catch(() => undefined);
  if (!again) return words;
  const replaced = new Map<RecognizedWord, RecognizedWord[]>();
  for (const [i, c] of cuts.entries()) {
    const top = tops[i]!;
    // Its words, in the first reading's prepared pixels, as part of the line they were read again for.
    const mine = again
      .filter((w) => {
        const middle = w.box.y + w.box.height / 2;
        return middle >= top && middle < top + c.image.height;
      })
      .map((w) => ({
        ...w,
        text: w.text.replace(BORDER_ENDS, ""),
        box: {
          x: Math.round((c.region.x + (w.box.x - GAP) / c.factor) * prepared.factor),
          y: Math.round((c.region.y + (w.box.y - top) / c.factor) * prepared.factor),
          width: Math.round((w.box.width / c.factor) * prepared.factor),
          height: Math.round((w.box.height / c.factor) * prepared.factor),
        },
        block: c.spot.words[0]!.block,
        paragraph: c.spot.words[0]!.paragraph,
        line: c.spot.words[0]!.line,
      }))
      .filter((w) => HAS_TEXT.test(w.text));
    for (const doubtful of c.spot.words) {
      // What the second reading found where the doubtful word stood (its middle inside the word's span).
      const instead = mine.filter((w) => {
        const middle = w.box.x + w.box.width / 2;
        return middle >= doubtful.box.x && middle <= doubtful.box.x + doubtful.box.width;
      });
      const surest = Math.min(...instead.map((w) => w.confidence));
      if (instead.length > 0 && surest >= LEAVE_OUT && surest > doubtful.confidence)
        replaced.set(doubtful, instead);
    }
  }
  return words.flatMap((w) => replaced.get(w) ?? [w]);
}

interface Spot {
  /** The line's words: its sure ones say how tall its letters are. */
  line: RecognizedWord[];
  /** Its doubtful words, read again. */
  words: RecognizedWord[];
  /** Where it is read again, in the prepared image's pixels. */
  box: Rect;
}

/**
 * Doubtful words of letters or digits beside a sure one on their line, with their line's height of
 * context on either side: at most SECOND_SPOTS, the least sure first, and spots of one line that
 * touch are one. Only the word and its neighbourhood are read again: whole lines of a spreadsheet
 * read twice cost more than the first reading.
 */
function doubtfulSpots(words: RecognizedWord[], factor: number): Spot[] {
  const byLine = new Map<string, RecognizedWord[]>();
  for (const w of words) {
    const key = `${w.block}.${w.paragraph}.${w.line}`;
    byLine.set(key, [...(byLine.get(key) ?? []), w]);
  }
  const doubtful = (w: RecognizedWord) =>
    w.confidence < DOUBTFUL && HAS_TEXT.test(w.text) && w.box.height >= 6 * factor;
  const sure = (w: RecognizedWord) => w.confidence >= DOUBTFUL && HAS_TEXT.test(w.text);
  const spots: Spot[] = [];
  for (const line of byLine.values()) {
    // A doubtful word among sure ones, as in a sentence: a line of nothing but doubt is an icon's or
    // a border's, read as letters.
    const sureHeights = line.filter(sure).map((w) => w.box.height);
    if (sureHeights.length === 0) continue;
    const context = Math.max(...sureHeights);
    for (const w of line.filter(doubtful)) {
      const box = {
        x: w.box.x - context,
        y: w.box.y,
        width: w.box.width + 2 * context,
        height: w.box.height,
      };
      const touching = spots.find(
        (s) => s.line === line && s.box.x <= box.x + box.width && box.x <= s.box.x + s.box.width,
      );
      if (touching) {
        touching.words.push(w);
        touching.box = union([touching.box, box]);
      } else spots.push({ line, words: [w], box });
    }
  }
  const least = (s: Spot) => Math.min(...s.words.map((w) => w.confidence));
  return spots.sort((a, b) => least(a) - least(b)).slice(0, SECOND_SPOTS);
}

/** A region of an RGBA image. */
function cut(image: RgbaImage, r: Rect): RgbaImage {
  const data = Buffer.alloc(r.width * r.height * 4);
  for (let y = 0; y < r.height; y++)
    image.data.copy(
      data,
      y * r.width * 4,
      ((r.y + y) * image.width + r.x) * 4,
      ((r.y + y) * image.width + r.x + r.width) * 4,
    );
  return { width: r.width, height: r.height, data };
}

/** Images one above another, white between and round them; where each starts. */
function stack(images: GrayImage[]): { image: GrayImage; tops: number[] } {
  const width = Math.max(...images.map((i) => i.width)) + 2 * GAP;
  const tops: number[] = [];
  let height = GAP;
  for (const i of images) {
    tops.push(height);
    height += i.height + GAP;
  }
  const data = new Uint8Array(width * height).fill(255);
  images.forEach((image, n) => {
    for (let y = 0; y < image.height; y++)
      data.set(image.data.subarray(y * image.width, (y + 1) * image.width), (tops[n]! + y) * width + GAP);
  });
  return { image: { width, height, data }, tops };
}
