// A screen capture made ready for text recognition: grey, dark text on a light ground everywhere (light
// on dark reads as nothing otherwise: a dark band's words were lost whole), password fields blanked,
// and small images doubled (Swing's 13 px "Synced" read "synced" at its own size). Each step lets
// the event loop turn (a 1280×800 window is four million pixels once doubled).
import type { RgbaImage } from "../platform/hands.js";
import type { GrayImage } from "../platform/ocr/types.js";
import { yieldIfDue } from "../platform/slice.js";
import type { Rect } from "../platform/types.js";

/** Images up to this many pixels are doubled before recognition; larger ones are read as they are. */
const DOUBLE_UP_TO = 1_500_000;
/** The tile whose neighbourhood decides a pixel's ground: 8 px, judged over 24×24. */
const TILE = 8;
/**
 * Grounds darker than this (in sixteenths of white) are inverted: dark themes sit well below it; a
 * selection's mid blue (Calc's column header) is above, since flipping it left black bars on the
 * row beneath that broke "Kiwi 4711" into "Kiwr4a7il".
 */
const DARK_GROUND = 6;

async function rows(height: number, each: (y: number) => void): Promise<void> {
  for (let y = 0; y < height; y++) {
    if (y % 16 === 0) {
      const turn = yieldIfDue();
      if (turn) await turn;
    }
    each(y);
  }
}

function luminance(image: RgbaImage): Promise<Uint8Array> {
  const out = new Uint8Array(image.width * image.height);
  const { data, width } = image;
  return rows(image.height, (y) => {
    for (let x = 0, i = y * width, p = i * 4; x < width; x++, i++, p += 4)
      out[i] = (data[p]! * 299 + data[p + 1]! * 587 + data[p + 2]! * 114) / 1000;
  }).then(() => out);
}

/**
 * Tiles whose ground is dark: the most common brightness over the tile and its eight neighbours is
 * below DARK_GROUND. The most common value, not the mean, is the ground: text is the lesser part.
 */
async function tileGrounds(
  gray: Uint8Array,
  width: number,
  height: number,
): Promise<{ dark: Uint8Array; ground: Uint8Array; columns: number }> {
  const columns = Math.ceil(width / TILE);
  const tileRows = Math.ceil(height / TILE);
  const dark = new Uint8Array(columns * tileRows);
  const ground = new Uint8Array(columns * tileRows);
  const histogram = new Uint32Array(16);
  await rows(tileRows, (ty) => {
    for (let tx = 0; tx < columns; tx++) {
      histogram.fill(0);
      const y1 = Math.min(height, (ty + 2) * TILE);
      const x0 = Math.max(0, (tx - 1) * TILE);
      const x1 = Math.min(width, (tx + 2) * TILE);
      for (let y = Math.max(0, (ty - 1) * TILE); y < y1; y++)
        for (let x = x0; x < x1; x++) histogram[gray[y * width + x]! >> 4]!++;
      let mode = 0;
      for (let b = 1; b < 16; b++) if (histogram[b]! > histogram[mode]!) mode = b;
      const isDark = mode < DARK_GROUND;
      dark[ty * columns + tx] = isDark ? 1 : 0;
      // The ground as it will be once dark tiles are inverted.
      const value = mode * 16 + 8;
      ground[ty * columns + tx] = isDark ? 255 - value : value;
    }
  });
  return { dark, ground, columns };
}

/** Doubles an image, bilinear. */
async function double(image: GrayImage): Promise<GrayImage> {
  const width = image.width * 2;
  const height = image.height * 2;
  const out = new Uint8Array(width * height);
  const src = image.data;
  const maxX = image.width - 1;
  const maxY = image.height - 1;
  await rows(height, (y) => {
    const sy = Math.min(maxY, Math.max(0, (y + 0.5) / 2 - 0.5));
    const y0 = Math.floor(sy);
    const y1 = Math.min(maxY, y0 + 1);
    const fy = sy - y0;
    for (let x = 0; x < width; x++) {
      const sx = Math.min(maxX, Math.max(0, (x + 0.5) / 2 - 0.5));
      const x0 = Math.floor(sx);
      const x1 = Math.min(maxX, x0 + 1);
      const fx = sx - x0;
      const top = src[y0 * image.width + x0]! * (1 - fx) + src[y0 * image.width + x1]! * fx;
      const bottom = src[y1 * image.width + x0]! * (1 - fx) + src[y1 * image.width + x1]! * fx;
      out[y * width + x] = top * (1 - fy) + bottom * fy;
    }
  });
  return { width, height, data: out };
}

/** Longer than this, a straight run of ink is a rule (a grid line, a border), not part of a letter. */
const RULE = 48;
/** Ink, for finding rules: this much darker than its tile's ground (grid lines are light grey). */
const INK_CONTRAST = 24;

/**
 * Rules painted over with paper: a spreadsheet's grid made Tesseract take the sheet for a picture,
 * and "Kiwi 4711" in a cell was not read at all. Runs are found before any is erased, so a rule
 * crossing another is erased whole.
 */
async function eraseRules(
  gray: Uint8Array,
  width: number,
  height: number,
  tiles: { ground: Uint8Array; columns: number },
  rule = RULE,
): Promise<void> {
  const isInk = (x: number, y: number) =>
    gray[y * width + x]! + INK_CONTRAST <
    tiles.ground[Math.floor(y / TILE) * tiles.columns + Math.floor(x / TILE)]!;
  const ruled = new Uint8Array(width * height);
  await rows(height, (y) => {
    let start = -1;
    for (let x = 0; x <= width; x++) {
      const ink = x < width && isInk(x, y);
      if (ink && start < 0) start = x;
      if (!ink && start >= 0) {
        if (x - start >= rule) ruled.fill(1, y * width + start, y * width + x);
        start = -1;
      }
    }
  });
  const runStart = new Int32Array(width).fill(-1);
  await rows(height + 1, (y) => {
    for (let x = 0; x < width; x++) {
      const ink = y < height && isInk(x, y);
      if (ink && runStart[x]! < 0) runStart[x] = y;
      if (!ink && runStart[x]! >= 0) {
        if (y - runStart[x]! >= rule) for (let r = runStart[x]!; r < y; r++) ruled[r * width + x] = 1;
        runStart[x] = -1;
      }
    }
  });
  for (let i = 0; i < ruled.length; i++)
    if (ruled[i])
      gray[i] = tiles.ground[Math.floor(i / width / TILE) * tiles.columns + Math.floor((i % width) / TILE)]!;
}

/** An outline smaller than this on either side is a letter's, never a frame. */
const FRAME_MIN = 12;

interface Component {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  count: number;
}

/** Connected ink (8 neighbours), each pixel labelled with its component's number, from 1. */
async function components(
  width: number,
  height: number,
  isInk: (i: number) => boolean,
): Promise<{ label: Int32Array; found: Component[] }> {
  const label = new Int32Array(width * height);
  const stack = new Int32Array(width * height);
  const found: Component[] = [];
  await rows(height, (y) => {
    for (let x = 0; x < width; x++) {
      const seed = y * width + x;
      if (label[seed] || !isInk(seed)) continue;
      const c = { x0: x, y0: y, x1: x, y1: y, count: 0 };
      found.push(c);
      label[seed] = found.length;
      let top = 0;
      stack[top++] = seed;
      while (top > 0) {
        const i = stack[--top]!;
        const px = i % width;
        const py = (i - px) / width;
        c.count++;
        if (px < c.x0) c.x0 = px;
        if (px > c.x1) c.x1 = px;
        if (py < c.y0) c.y0 = py;
        if (py > c.y1) c.y1 = py;
        for (let dy = -1; dy <= 1; dy++)
          for (let dx = -1; dx <= 1; dx++) {
            const nx = px + dx;
            const ny = py + dy;
            if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
            const n = ny * width + nx;
            if (!label[n] && isInk(n)) {
              label[n] = found.length;
              stack[top++] = n;
            }
          }
      }
    }
  });
  return { label, found };
}

/**
 * Thin outlines round other ink painted over with paper: a button's rounded border (xmessage's
 * "okay" in its ellipse) made Tesseract take the button for a picture and read nothing. An outline
 * is ink of little area for its box that holds another, smaller component wholly inside; a letter's
 * own loop ("O") holds none.
 */
async function eraseFrames(
  gray: Uint8Array,
  width: number,
  height: number,
  tiles: { ground: Uint8Array; columns: number },
): Promise<number> {
  const groundOf = (i: number) =>
    tiles.ground[Math.floor(i / width / TILE) * tiles.columns + Math.floor((i % width) / TILE)]!;
  const { label, found } = await components(width, height, (i) => gray[i]! + INK_CONTRAST < groundOf(i));
  const frames = new Set<number>();
  found.forEach((c, n) => {
    const w = c.x1 - c.x0 + 1;
    const h = c.y1 - c.y0 + 1;
    if (w < FRAME_MIN || h < FRAME_MIN || c.count > 3 * (w + h) || c.count > 0.35 * w * h) return;
    const holds = found.some(
      (o) => o !== c && o.x0 > c.x0 && o.x1 < c.x1 && o.y0 > c.y0 && o.y1 < c.y1 && o.y1 - o.y0 < 0.9 * h,
    );
    if (holds) frames.add(n + 1);
  });
  if (frames.size === 0) return 0;
  await rows(height, (y) => {
    for (let i = y * width; i < (y + 1) * width; i++) if (frames.has(label[i]!)) gray[i] = groundOf(i);
  });
  return frames.size;
}

export interface PreparedImage {
  image: GrayImage;
  /** Prepared pixels per captured pixel. */
  factor: number;
}

/** Each `k`×`k` block of pixels as one, their mean. */
async function shrink(image: GrayImage, k: number): Promise<GrayImage> {
  const width = Math.floor(image.width / k);
  const height = Math.floor(image.height / k);
  const out = new Uint8Array(width * height);
  await rows(height, (y) => {
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (let dy = 0; dy < k; dy++)
        for (let dx = 0; dx < k; dx++) sum += image.data[(y * k + dy) * image.width + x * k + dx]!;
      out[y * width + x] = sum / (k * k);
    }
  });
  return { width, height, data: out };
}

/**
 * `blank` is in the capture's pixels: each area is painted ground-white before anything reads it.
 * `scale`: what the app drew itself larger by (a scaled screen). Tesseract reads letters of a usual
 * size best and misreads ones four times that ("Suoscrise" for "Subscribe" at ×4), so such a capture
 * is read at its points' size.
 */
export async function prepareForOcr(
  capture: RgbaImage,
  blank: Rect[],
  scale = 1,
  /**
   * A second look at a line read with doubt (ocr-second-pass.ts): stipple erased, straight runs of
   * ink `rule` pixels long erased as rules (longer than the line's letters are tall), doubled always,
   * black and white.
   */
  second?: { rule: number },
): Promise<PreparedImage> {
  const { width, height } = capture;
  const gray = await luminance(capture);
  const tiles = await tileGrounds(gray, width, height);
  const { dark, ground, columns } = tiles;
  const tileRows = Math.ceil(height / TILE);
  // A light tile at the edge of a dark area holds some of that dark ground: left as it is, it made a
  // black bar touching the letters ("Night" was lost to one). There, pixels as dark as the dark
  // ground beside are painted as the tile's own light ground.
  const darkBeside = new Int16Array(dark.length).fill(-1);
  for (let t = 0; t < dark.length; t++) {
    if (dark[t]) continue;
    const tx = t % columns;
    const ty = Math.floor(t / columns);
    for (let dy = -1; dy <= 1; dy++)
      for (let dx = -1; dx <= 1; dx++) {
        const nx = tx + dx;
        const ny = ty + dy;
        if (nx < 0 || ny < 0 || nx >= columns || ny >= tileRows) continue;
        const n = ny * columns + nx;
        // Its ground as read, before inversion.
        if (dark[n]) darkBeside[t] = Math.max(darkBeside[t]!, 255 - ground[n]!);
      }
  }
  await rows(height, (y) => {
    const tileRow = Math.floor(y / TILE) * columns;
    for (let x = 0, i = y * width; x < width; x++, i++) {
      const t = tileRow + Math.floor(x / TILE);
      if (dark[t]) gray[i] = 255 - gray[i]!;
      else if (darkBeside[t]! >= 0 && Math.abs(gray[i]! - darkBeside[t]!) <= INK_CONTRAST / 2)
        gray[i] = ground[t]!;
    }
  });
  // The stipple first: its dots touch the frame round it, which is then an outline like any other.
  if (second) eraseStipple(gray, width, height);
  await eraseRules(gray, width, height, tiles, second ? Math.min(RULE, second.rule) : RULE);
  await eraseFrames(gray, width, height, tiles);
  for (const area of blank) {
    const x0 = Math.max(0, Math.floor(area.x));
    const x1 = Math.min(width, Math.ceil(area.x + area.width));
    for (let y = Math.max(0, Math.floor(area.y)); y < Math.min(height, Math.ceil(area.y + area.height)); y++)
      gray.fill(255, y * width + x0, y * width + Math.max(x0, x1));
  }
  const image = { width, height, data: gray };
  if (second) {
    const doubled = await double(image);
    binarize(doubled.data);
    return { image: doubled, factor: 2 };
  }
  const k = Math.floor(scale + 0.25);
  if (k >= 2) return { image: await shrink(image, k), factor: 1 / k };
  if (width * height > DOUBLE_UP_TO) return { image, factor: 1 };
  return { image: await double(image), factor: 2 };
}

/** Ink, for stipple and for black and white: darker than the middle grey. */
const DARK = 128;

/**
 * A stipple (a checkerboard of single dots: xmessage's and Motif's hatched bars) painted over with
 * paper: beside "Quarterly" it was read as part of the word, at a confidence of 33. A dot of it is
 * ink whose four sides are paper and whose corners are ink; a letter's pixel has ink on a side.
 */
function eraseStipple(gray: Uint8Array, width: number, height: number): void {
  const ink = (x: number, y: number) =>
    x >= 0 && y >= 0 && x < width && y < height && gray[y * width + x]! < DARK;
  const dots: number[] = [];
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      if (!ink(x, y) || ink(x - 1, y) || ink(x + 1, y) || ink(x, y - 1) || ink(x, y + 1)) continue;
      const corners =
        Number(ink(x - 1, y - 1)) +
        Number(ink(x + 1, y - 1)) +
        Number(ink(x - 1, y + 1)) +
        Number(ink(x + 1, y + 1));
      if (corners >= 3) dots.push(y * width + x);
    }
  // A dot at the stipple's edge has fewer inked corners: it goes when a corner of it is a dot.
  const isDot = new Uint8Array(width * height);
  for (const i of dots) isDot[i] = 1;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (isDot[i] || !ink(x, y) || ink(x - 1, y) || ink(x + 1, y) || ink(x, y - 1) || ink(x, y + 1))
        continue;
      for (const [dx, dy] of [
        [-1, -1],
        [1, -1],
        [-1, 1],
        [1, 1],
      ] as const) {
        const nx = x + dx;
        const ny = y + dy;
        if (nx >= 0 && ny >= 0 && nx < width && ny < height && isDot[ny * width + nx] === 1) {
          dots.push(i);
          break;
        }
      }
    }
  for (const i of dots) gray[i] = 255;
}

/** Black and white at the threshold that best parts ink from paper (Otsu's). */
function binarize(gray: Uint8Array): void {
  const histogram = new Float64Array(256);
  for (const v of gray) histogram[v]!++;
  let sum = 0;
  for (let v = 0; v < 256; v++) sum += v * histogram[v]!;
  let below = 0;
  let belowSum = 0;
  let best = -1;
  let threshold = DARK;
  for (let v = 0; v < 256; v++) {
    below += histogram[v]!;
    if (below === 0) continue;
    const above = gray.length - below;
    if (above === 0) break;
    belowSum += v * histogram[v]!;
    const between = below * above * (belowSum / below - (sum - belowSum) / above) ** 2;
    if (between > best) {
      best = between;
      threshold = v;
    }
  }
  for (let i = 0; i < gray.length; i++) gray[i] = gray[i]! <= threshold ? 0 : 255;
}
