// Words read from the pixels of a surface the tree is silent about, as observe targets: one target a
// recognised line, with a point to click for the line and, for a short line, for each of its words.
// Readings are kept by region and by a hash of the captured pixels, so an unchanged surface is never
// read twice; the word under a point is looked up in them.
import { createHash } from "node:crypto";
import type { Point, RgbaImage } from "../platform/hands.js";
import type { Rect } from "../platform/types.js";
import { centre, DOUBTFUL, type ScreenLine, type ScreenWord } from "./ocr.js";

export interface PixelReading {
  lines: ScreenLine[];
  /** Fragments under the engine's confidence floor, left out. */
  leftOut: number;
  /** Password fields blanked before reading. */
  blanked: number;
}

/** A recognised line as an observe target: no ref, a point (global) and its words' points. */
export interface PixelTarget {
  index: number;
  label: string;
  actions: string[];
  from: "pixels";
  text: string;
  at: Point;
  /** Each word's point, for a line of several words short enough to list them. */
  words?: { text: string; at: Point }[];
  box: Rect;
  /** The pixels-only surface it was read from, where the tree has one. */
  surface?: string;
}

/** A line of more words than this gives its centre only: find_text gives a word's point. */
export const WORD_POINTS_UP_TO = 8;
/** Readings kept per session: the surfaces of a few windows. */
const KEPT = 16;

/** A hash of the captured pixels: equal when the region shows the same thing. */
export function pixelHash(image: RgbaImage): string {
  return createHash("sha1").update(`${image.width}x${image.height}:`).update(image.data).digest("hex");
}

const regionKey = (r: Rect) => `${r.x},${r.y},${r.width},${r.height}`;

/** Readings by region, each valid while the region's pixels hash the same; the oldest forgotten. */
export class PixelCache {
  readonly #entries = new Map<string, { hash: string; reading: PixelReading }>();

  get(region: Rect, hash: string): PixelReading | undefined {
    const key = regionKey(region);
    const entry = this.#entries.get(key);
    if (!entry || entry.hash !== hash) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.reading;
  }

  set(region: Rect, hash: string, reading: PixelReading): void {
    const key = regionKey(region);
    this.#entries.delete(key);
    this.#entries.set(key, { hash, reading });
    while (this.#entries.size > KEPT) this.#entries.delete(this.#entries.keys().next().value!);
  }

  get size(): number {
    return this.#entries.size;
  }
}

/** The recognised word whose box holds the point, else the nearest within `slack` points of it. */
export function wordAt(lines: ScreenLine[], point: Point, slack = 4): ScreenWord | undefined {
  let best: { word: ScreenWord; distance: number } | undefined;
  for (const word of lines.flatMap((l) => l.words)) {
    const b = word.box;
    const dx = Math.max(b.x - point.x, 0, point.x - (b.x + b.width - 1));
    const dy = Math.max(b.y - point.y, 0, point.y - (b.y + b.height - 1));
    const distance = Math.hypot(dx, dy);
    if (distance <= slack && (!best || distance < best.distance)) best = { word, distance };
  }
  return best?.word;
}

const shown = (w: ScreenWord) => (w.confidence < DOUBTFUL ? `${w.text}(?)` : w.text);

/** One line's target: `text "Save As" (from pixels) at 455,330 · x 430,480 click`. */
export function lineTarget(line: ScreenLine, index: number, surface?: string): PixelTarget {
  const at = centre(line.box);
  const words =
    line.words.length > 1 && line.words.length <= WORD_POINTS_UP_TO
      ? line.words.map((w) => ({ text: w.text, at: { x: centre(w.box).x, y: at.y } }))
      : undefined;
  const text = line.words.map(shown).join(" ");
  const wordXs = words ? ` · x ${words.map((w) => w.at.x).join(",")}` : "";
  const actions = ["click"];
  return {
    index,
    label: `text ${JSON.stringify(text)} (from pixels) at ${at.x},${at.y}${wordXs} ${actions.join(",")}`,
    actions,
    from: "pixels",
    text: line.text,
    at,
    ...(words ? { words } : {}),
    box: line.box,
    ...(surface ? { surface } : {}),
  };
}

/**
 * The lines of a reading as targets numbered from `first`, as many as `maxChars` of labels hold; the
 * rest are counted, so the cut can be named.
 */
export function lineTargets(
  reading: PixelReading,
  first: number,
  maxChars: number,
  surface?: string,
): { targets: PixelTarget[]; cut: number } {
  const targets: PixelTarget[] = [];
  let used = 0;
  for (const line of reading.lines) {
    const target = lineTarget(line, first + targets.length, surface);
    used += target.label.length + 6;
    if (used > maxChars) break;
    targets.push(target);
  }
  return { targets, cut: reading.lines.length - targets.length };
}

/** The words of a reading folded into one short line (snapshot's screen view), with the cut named. */
export function foldedWords(reading: PixelReading, maxChars: number): string {
  const all = reading.lines.map((l) => l.text).join(" · ");
  if (all.length <= maxChars) return JSON.stringify(all);
  return `${JSON.stringify(`${all.slice(0, maxChars)}…`)} (${all.length} chars, cut at ${maxChars})`;
}
