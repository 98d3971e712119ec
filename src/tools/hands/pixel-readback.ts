// Typed text read back from pixels, where the element it went into has no text to read (a drawing
// area, a document canvas): its region is read by OCR once the keys are in, and again as it was
// before them, and the text counts as shown where the region now shows it more often than it did.
// OCR can miss a word, so pixels that do not show it leave the typing "not verified", never an error.
import type { Hands, RgbaImage } from "../../platform/hands.js";
import type { RawNode, Rect } from "../../platform/types.js";
import type { ToolContext } from "../context.js";
import { languagesFrom, recognizeCapture } from "../pixels-read.js";
import type { ResolvedPlace } from "./placed.js";

/** An element's region and its pixels, captured before the keys went in. */
export interface PixelsBefore {
  region: Rect;
  image: RgbaImage;
}

/** How long each of the two readings may take. */
const READ_WITHIN_MS = 4000;
/** Fewer letters than this could be anywhere in a region: such a text is not looked for. */
const FEWEST_LETTERS = 3;

/** Letters and digits only, lower case: what OCR and typed text are compared by. */
const letters = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");

/** How many times `part` stands in `whole`, not overlapping. */
const occurrences = (whole: string, part: string) => whole.split(part).length - 1;

/**
 * An element's region and what it shows there now, where `only` (if given) keeps the element as
 * re-read; undefined where it has no area or cannot be captured. For what only pixels can show
 * (here, and pieces.ts judging a canvas's keys).
 */
export async function elementPixels(
  context: ToolContext,
  hands: Pick<Hands, "capture">,
  handle: string,
  options: { windowId?: number | undefined; only?: (node: RawNode) => boolean } = {},
): Promise<PixelsBefore | undefined> {
  const backend = await context.backend();
  const windowId = options.windowId === undefined ? {} : { windowId: options.windowId };
  const node = await backend.describe(handle, { maxText: 0, ...windowId }).catch(() => undefined);
  const region = node?.bounds;
  if (!node || (options.only && !options.only(node))) return undefined;
  if (!region || region.width <= 0 || region.height <= 0) return undefined;
  const image = await hands.capture(region).catch(() => undefined);
  return image ? { region, image } : undefined;
}

/**
 * The place's region and pixels, where its element has no text of its own to read back afterwards
 * (a password field is never read). Undefined where its text is readable or its region unknown.
 */
export async function pixelsBefore(
  context: ToolContext,
  place: ResolvedPlace | undefined,
  text: string,
): Promise<PixelsBefore | undefined> {
  if (!place?.handle || letters(text).length < FEWEST_LETTERS) return undefined;
  return elementPixels(context, await context.hands(), place.handle, {
    windowId: place.windowId,
    only: (node) => node.text === undefined && node.value === undefined && !/password/.test(node.role),
  });
}

/**
 * Whether the region shows the typed text more often now than before the keys, read by OCR:
 * `shown` where it does, else why it could not be told (the reply keeps "not verified").
 */
export async function readBackFromPixels(
  context: ToolContext,
  before: PixelsBefore,
  text: string,
): Promise<{ shown: true } | { shown: false; why: string }> {
  const engine = await context.recognizer().describe();
  if (!engine.available) return { shown: false, why: "no OCR engine reads its pixels here" };
  const hands = await context.hands();
  const after = await hands.capture(before.region).catch(() => undefined);
  if (!after) return { shown: false, why: "its pixels could not be captured" };
  if (after.data.equals(before.image.data)) return { shown: false, why: "its pixels did not change" };
  const options = { languages: languagesFrom(context.env, engine), timeoutMs: READ_WITHIN_MS, scale: 1 };
  const read = async (image: RgbaImage) => {
    const { lines } = await recognizeCapture(context, before.region, image, options);
    return letters(lines.map((line) => line.text).join(" "));
  };
  const wanted = letters(text);
  const now = await read(after).catch(() => undefined);
  if (now === undefined) return { shown: false, why: "its pixels could not be read" };
  if (!now.includes(wanted)) return { shown: false, why: "OCR does not find the typed text in its pixels" };
  const then = await read(before.image).catch(() => undefined);
  if (then === undefined || occurrences(now, wanted) <= occurrences(then, wanted))
    return { shown: false, why: "its pixels showed the typed text before the keys too" };
  return { shown: true };
}
