// Text read from pixels, as an agent gets it: lines and words in reading order with their boxes in
// global points (what `click {at: {space: "global"}}` takes), each with the engine's confidence; and
// where a given text appears. Everything here came from pixels, not from the application, and the
// replies say so: recognition can misread, and "not found" means not found in what was recognised.
import type { RecognizedWord } from "../platform/ocr/types.js";
import type { Rect } from "../platform/types.js";
import { union } from "./rects.js";
import { fold } from "./selector.js";

export interface ScreenWord {
  text: string;
  box: Rect;
  confidence: number;
}

export interface ScreenLine {
  text: string;
  box: Rect;
  /** The lowest of its words'. */
  confidence: number;
  words: ScreenWord[];
}

/** Below this, a word is marked as doubtful where it is shown. */
export const DOUBTFUL = 60;
/** Below this, a "word" is left out (and counted): what icons and borders read as ("Ss", "-Soe_"). */
export const LEAVE_OUT = 40;

/**
 * Noise: what the engine is not sure of at all; punctuation alone at low confidence (the edge of a box
 * or frame read as "[" or "|"); and "words" one or two pixels high, which are rules read as dashes.
 */
function isNoise(word: RecognizedWord, factor: number): boolean {
  if (word.confidence < LEAVE_OUT || word.box.height < 3 * factor) return true;
  return !/[\p{L}\p{N}]/u.test(word.text) && word.confidence < DOUBTFUL;
}

/**
 * Words of a prepared image, as lines on the screen: `factor` prepared pixels a captured pixel, the
 * capture's top-left at `origin` in global points (captures are taken at one pixel a point).
 */
export function toScreenLines(
  words: RecognizedWord[],
  origin: { x: number; y: number },
  factor: number,
): { lines: ScreenLine[]; leftOut: number } {
  const lines: ScreenLine[] = [];
  let key = "";
  let leftOut = 0;
  for (const word of words) {
    if (isNoise(word, factor)) {
      leftOut++;
      continue;
    }
    const box = {
      x: origin.x + Math.round(word.box.x / factor),
      y: origin.y + Math.round(word.box.y / factor),
      width: Math.max(1, Math.round(word.box.width / factor)),
      height: Math.max(1, Math.round(word.box.height / factor)),
    };
    const wordKey = `${word.block}.${word.paragraph}.${word.line}`;
    if (wordKey !== key || lines.length === 0) {
      lines.push({ text: "", box, confidence: 100, words: [] });
      key = wordKey;
    }
    lines.at(-1)!.words.push({ text: word.text, box, confidence: Math.round(word.confidence) });
  }
  for (const line of lines) {
    line.text = line.words.map((w) => w.text).join(" ");
    line.box = union(line.words.map((w) => w.box));
    line.confidence = Math.min(...line.words.map((w) => w.confidence));
  }
  return { lines: readingOrder(lines), leftOut };
}

/**
 * Top to bottom, and left to right within a row: sparse recognition finds text in no set order.
 * A line joins a row when its middle is within half the row's first line's height of that one's.
 */
function readingOrder(lines: ScreenLine[]): ScreenLine[] {
  const middle = (l: ScreenLine) => l.box.y + l.box.height / 2;
  const byMiddle = [...lines].sort((a, b) => middle(a) - middle(b));
  const ordered: ScreenLine[] = [];
  let row: ScreenLine[] = [];
  const flush = () => {
    row.sort((a, b) => a.box.x - b.box.x);
    // Pieces of one row close together are one line ("File Edit View" and "Insert Format Styles").
    for (const line of row) {
      const last = ordered.at(-1);
      const gap = last ? line.box.x - (last.box.x + last.box.width) : Number.POSITIVE_INFINITY;
      if (last && row.includes(last) && gap >= 0 && gap <= 1.5 * Math.max(last.box.height, line.box.height)) {
        last.words.push(...line.words);
        last.text = `${last.text} ${line.text}`;
        last.box = union([last.box, line.box]);
        last.confidence = Math.min(last.confidence, line.confidence);
      } else ordered.push(line);
    }
    row = [];
  };
  for (const line of byMiddle) {
    if (row.length > 0 && middle(line) - middle(row[0]!) > row[0]!.box.height / 2) flush();
    row.push(line);
  }
  flush();
  return ordered;
}

export function centre(box: Rect): { x: number; y: number } {
  return { x: Math.round(box.x + box.width / 2), y: Math.round(box.y + box.height / 2) };
}

const showBox = (b: Rect) => `@${b.x},${b.y} ${b.width}×${b.height}`;

/** One line as text: its words, doubtful ones marked, its box and its lowest confidence. */
export function renderLine(line: ScreenLine): string {
  const words = line.words.map((w) => (w.confidence < DOUBTFUL ? `${w.text}(?)` : w.text)).join(" ");
  return `- ${JSON.stringify(words)} ${showBox(line.box)} conf ${line.confidence}`;
}

/** The lines that fit in `maxChars` of rendered text, and how many did not. */
export function boundLines(lines: ScreenLine[], maxChars: number): { shown: ScreenLine[]; cut: number } {
  let used = 0;
  const shown: ScreenLine[] = [];
  for (const line of lines) {
    used += renderLine(line).length + 1;
    if (used > maxChars) break;
    shown.push(line);
  }
  return { shown, cut: lines.length - shown.length };
}

export type TextMatchMode = "exact" | "fold" | "contains";

export interface TextMatch {
  text: string;
  box: Rect;
  centre: { x: number; y: number };
  confidence: number;
  /** The whole line it was found in. */
  line: string;
}

const normalise = (text: string) => text.normalize("NFKC").replace(/\s+/g, " ").trim();

/**
 * Where `query` appears: "exact" and "fold" (case folded) match whole words in sequence within one
 * line; "contains" matches any part of a line, case folded, and narrows the box to the characters
 * matched where they lie inside one word.
 */
export function findInLines(lines: ScreenLine[], query: string, mode: TextMatchMode): TextMatch[] {
  const wanted = normalise(query);
  if (!wanted) return [];
  const key = (text: string) => (mode === "exact" ? normalise(text) : fold(normalise(text)));
  const needle = key(wanted);
  const matches: TextMatch[] = [];
  for (const line of lines) {
    // The line's text, with where each word starts and ends in it.
    const spans: { start: number; end: number; word: ScreenWord }[] = [];
    let text = "";
    for (const word of line.words) {
      if (text) text += " ";
      const start = text.length;
      text += key(word.text);
      spans.push({ start, end: text.length, word });
    }
    for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
      const end = at + needle.length;
      const touched = spans.filter((s) => s.start < end && s.end > at);
      if (touched.length === 0) continue;
      if (mode !== "contains" && (touched[0]!.start !== at || touched.at(-1)!.end !== end)) continue;
      let box = union(touched.map((s) => s.word.box));
      if (touched.length === 1 && mode === "contains") {
        // Inside one word: the share of its width the matched characters take.
        const { start, end: wordEnd, word } = touched[0]!;
        const perChar = word.box.width / Math.max(1, wordEnd - start);
        const left = Math.round(word.box.x + (at - start) * perChar);
        box = { ...word.box, x: left, width: Math.max(1, Math.round(needle.length * perChar)) };
      }
      matches.push({
        text: touched.map((s) => s.word.text).join(" "),
        box,
        centre: centre(box),
        confidence: Math.min(...touched.map((s) => s.word.confidence)),
        line: line.text,
      });
    }
  }
  return matches;
}
