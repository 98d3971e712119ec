// What a one-line field says only in its colours. Apps mark a search that finds nothing by turning
// its field red (KWrite its background, GTK's "error" style in Mousepad its frame and text), and no
// toolkit puts that in the tree. The field's pixels are read before the keys and after, and a warm
// colour that came or went is said with the key that caused it. Blue is left out: it is the colour
// of focus rings and selections, which keys move for reasons of their own.
import { setTimeout as sleep } from "node:timers/promises";
import type { RgbaImage } from "../../platform/hands.js";
import { PASSWORD_ROLE, type RawNode, type Rect } from "../../platform/types.js";
import type { ToolContext } from "../context.js";
import { elementPixels, type PixelsBefore } from "./pixel-readback.js";

type Hue = "red" | "orange" | "yellow" | "green";
const HUES: Hue[] = ["red", "orange", "yellow", "green"];

/** A field's colours: its most common one (its background) and the share of each strong warm hue. */
interface Colours {
  background: [number, number, number];
  strong: Record<Hue, number>;
}

/** A field's region, its pixels and their colours, read before the keys. */
export interface FieldFace extends PixelsBefore {
  handle: string;
  windowId: number | undefined;
  colours: Colours;
}

/** A one-line field is taller than this only where it is no one-line field. */
const ONE_LINE_HIGHEST = 80;
/** A strong colour: saturated and bright enough to be seen as one, not anti-aliased grey. */
const STRONG_SATURATION = 0.35;
const STRONG_VALUE = 0.3;
/** A tint of the background ("light red"): less saturated than a strong colour, more than white. */
const TINT_SATURATION = 0.04;
/** A hue came where it covers this share of the field now, and at least twice its share before. */
const CAME_SHARE = 0.02;
/** How long a repaint after the keys (a search run as the field changes) is waited for once. */
const REPAINT_MS = 150;

/** The warm hue family of a colour, with its saturation and value (HSV). */
function hueOf(r: number, g: number, b: number): { hue: Hue | undefined; s: number; v: number } {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const v = max / 255;
  const s = max === 0 ? 0 : (max - min) / max;
  if (max === min) return { hue: undefined, s, v };
  const d = max - min;
  const h =
    max === r ? (((g - b) / d) % 6) * 60 : max === g ? ((b - r) / d + 2) * 60 : ((r - g) / d + 4) * 60;
  const degrees = (h + 360) % 360;
  const hue =
    degrees >= 330 || degrees < 15
      ? "red"
      : degrees < 40
        ? "orange"
        : degrees < 70
          ? "yellow"
          : degrees >= 80 && degrees < 165
            ? "green"
            : undefined;
  return { hue, s, v };
}

/** The colours of an image: its most common colour (to 4 bits a channel) and its strong hues' shares. */
export function coloursOf(image: RgbaImage): Colours {
  const counts = new Map<number, { n: number; r: number; g: number; b: number }>();
  const strong: Record<Hue, number> = { red: 0, orange: 0, yellow: 0, green: 0 };
  const pixels = image.width * image.height;
  for (let i = 0; i < pixels * 4; i += 4) {
    const r = image.data[i]!;
    const g = image.data[i + 1]!;
    const b = image.data[i + 2]!;
    const key = ((r >> 4) << 8) | ((g >> 4) << 4) | (b >> 4);
    const bin = counts.get(key) ?? { n: 0, r: 0, g: 0, b: 0 };
    counts.set(key, { n: bin.n + 1, r: bin.r + r, g: bin.g + g, b: bin.b + b });
    const { hue, s, v } = hueOf(r, g, b);
    if (hue && s >= STRONG_SATURATION && v >= STRONG_VALUE) strong[hue]++;
  }
  let top = { n: 0, r: 0, g: 0, b: 0 };
  for (const bin of counts.values()) if (bin.n > top.n) top = bin;
  const n = Math.max(1, top.n);
  for (const hue of HUES) strong[hue] /= Math.max(1, pixels);
  return { background: [top.r / n, top.g / n, top.b / n], strong };
}

/** The hue a background is tinted with ("red"), where it has one. */
function tintOf([r, g, b]: [number, number, number]): Hue | undefined {
  const { hue, s } = hueOf(r, g, b);
  return s >= TINT_SATURATION ? hue : undefined;
}

/**
 * What changed in a field's colours, as words ("its background turned red"; "the red of its frame or
 * text went"), or undefined where no warm colour came or went.
 */
export function colourChange(before: Colours, after: Colours): string | undefined {
  const said: string[] = [];
  const [was, now] = [tintOf(before.background), tintOf(after.background)];
  if (was !== now && now) said.push(`its background turned ${now}`);
  else if (was !== now && was) said.push(`its background is no longer ${was}`);
  for (const hue of HUES) {
    if (hue === now || hue === was) continue;
    const [then, share] = [before.strong[hue], after.strong[hue]];
    if (share >= CAME_SHARE && share >= 2 * then) said.push(`its frame or text turned ${hue}`);
    else if (then >= CAME_SHARE && then >= 2 * share) said.push(`the ${hue} of its frame or text went`);
  }
  return said.length > 0 ? said.join(", ") : undefined;
}

/** A one-line field that is no password field: what a search bar or a form's entry is. */
const oneLineField = (node: RawNode): boolean =>
  node.role !== PASSWORD_ROLE &&
  node.states?.includes("editable") === true &&
  !node.states.includes("multi line") &&
  (node.bounds?.height ?? Infinity) <= ONE_LINE_HIGHEST;

/** The field's pixels and colours before the keys, for a focused one-line field; else undefined. */
export async function fieldFaceBefore(
  context: ToolContext,
  handle: string | undefined,
  windowId: number | undefined,
): Promise<FieldFace | undefined> {
  if (!handle) return undefined;
  const hands = await context.hands();
  const pixels = await elementPixels(context, hands, handle, { windowId, only: oneLineField });
  return pixels ? { ...pixels, handle, windowId, colours: coloursOf(pixels.image) } : undefined;
}

const sameRegion = (a: Rect, b: Rect) =>
  a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;

/**
 * How the field's colours changed since `before` ("its background turned red"), read once the keys
 * are in and again after a repaint's while if nothing came yet; undefined where none did, or where
 * the field is no longer where it was (a key that closed its bar shows what lay behind it).
 */
export async function fieldFaceChange(context: ToolContext, before: FieldFace): Promise<string | undefined> {
  const hands = await context.hands();
  const options = { windowId: before.windowId, only: oneLineField };
  for (const wait of [0, REPAINT_MS]) {
    if (wait) await sleep(wait);
    const after = await elementPixels(context, hands, before.handle, options);
    if (!after || !sameRegion(after.region, before.region)) return undefined;
    const change = colourChange(before.colours, coloursOf(after.image));
    if (change) return change;
  }
  return undefined;
}
