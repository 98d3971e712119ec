// Text read from pixels, as an agent gets it: lines and words in reading order with their boxes in
// global points (what `click {at: {space: "global"}}` takes), each with the engine's confidence; and
// where a given text appears. Everything here came from pixels, not from the application, and the
// replies say so: recognition can misread, and "not found" means not found in what was recognised.
import type { RecognizedWord } from "../platform/ocr/types.js";
import type { Rect } from "../platform/types.js";
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

function union(boxes: Rect[]): Rect {
  const x = Math.min(...boxes.map((b) => b.x));
  const y = Math.min(...boxes.map((b) => b.y));
  const right = Math.max(...boxes.map((b) => b.x + b.width));
  const bottom = Math.max(...boxes.map((b) => b.y + b.height));
  return { x, y, width: right - x, height: bottom - y };
}

/** Punctuation alone at low confidence is the edge of a box or a frame read as "[" or "|". */
function isNoise(word: RecognizedWord): boolean {
  return word.confidence < LEAVE_OUT || (!/[\p{L}\p{N}]/u.test(word.text) && word.confidence < DOUBTFUL);
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
    if (isNoise(word)) {
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
  return { lines, leftOut };
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
