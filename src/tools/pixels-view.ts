// Where the tree is silent, observe's first look reads the pixels: each pixels-only surface of the page
// (and a window with no accessible tree at all) is read by OCR, bounded by a time and a character
// budget with the cut named, and its lines become targets with points that click, hover and drag take.
// Readings are kept per session until the region's pixels change (hashed), so a repeat observe of an
// unchanged window costs a capture, not the engine. The click reply and screenshot's marks read them.
import { asDeskhandError, DeskhandError } from "../core/errors.js";
import { distinctColours } from "../core/image.js";
import type { Mark } from "../core/marks.js";
import type { ObservedTarget } from "../core/observe.js";
import { toScreenLines } from "../core/ocr.js";
import { prepareForOcr } from "../core/ocr-image.js";
import { recognizeTwice } from "../core/ocr-second-pass.js";
import {
  foldedWords,
  lineTargets,
  PixelCache,
  type PixelReading,
  type PixelTarget,
  pixelHash,
  wordAt,
} from "../core/pixel-targets.js";
import { intersection, union } from "../core/rects.js";
import type { SnapshotElement, SnapshotPage } from "../core/snapshot.js";
import type { Point, RgbaImage } from "../platform/hands.js";
import { type RecognizeOptions, RecognizerUnavailable } from "../platform/ocr/types.js";
import type { Rect, WindowInfo } from "../platform/types.js";
import type { ToolContext } from "./context.js";
import { languagesFrom, passwordsIn } from "./pixels-read.js";

/** What the pixels part of one observe may spend: engine time, and characters of target lines. */
const PIXELS_BUDGET = { ms: 8000, chars: 2500 };
/** What naming the word under a click may spend when the surface was not read before. */
const WORD_UNDER_MS = 3000;
/** The least time worth giving the engine: below it, a surface is left unread and named. */
const LEAST_MS = 1000;
/** Observe readings whose marks a screenshot can draw, newest kept. */
const MARKED_KEPT = 8;
/** A surface's words in snapshot's screen view, at most. */
const FOLDED_CHARS = 300;

const CACHE = Symbol("pixel readings");
const MARKS = Symbol("observe marks");

export type ListedTarget = ObservedTarget | PixelTarget;

function cacheOf(context: ToolContext): PixelCache {
  let cache = context.sessionState.get(CACHE) as PixelCache | undefined;
  if (!cache) {
    cache = new PixelCache();
    context.sessionState.set(CACHE, cache);
  }
  return cache;
}

/** White between the surfaces stacked into one image, so the engine reads them apart. */
const GAP = 16;

interface Capture {
  region: Rect;
  image: RgbaImage;
  hash: string;
}

async function captureOf(context: ToolContext, region: Rect): Promise<Capture> {
  const image = await (await context.hands()).capture(region);
  return { region, image, hash: pixelHash(image) };
}

/**
 * Several captures read with one engine run (each run pays the engine's start, 0.7 s): stacked in one
 * image with white between, password fields blanked, and each word given back to the capture its
 * middle lies in.
 */
async function readTogether(
  context: ToolContext,
  captures: Capture[],
  timeoutMs: number,
  layout: RecognizeOptions["layout"],
): Promise<PixelReading[]> {
  const started = Date.now();
  const engine = await context.recognizer().describe();
  if (!engine.available) throw new RecognizerUnavailable(engine.detail);
  const width = Math.max(...captures.map((c) => c.image.width));
  const offsets: number[] = [];
  let height = 0;
  for (const c of captures) {
    offsets.push(height);
    height += c.image.height + GAP;
  }
  height -= GAP;
  const stacked = { width, height, data: Buffer.alloc(width * height * 4, 255) };
  captures.forEach(({ image }, i) => {
    for (let y = 0; y < image.height; y++)
      image.data.copy(
        stacked.data,
        (offsets[i]! + y) * width * 4,
        y * image.width * 4,
        (y + 1) * image.width * 4,
      );
  });
  const passwords = await passwordsIn(
    context,
    union(captures.map((c) => c.region)),
    Math.min(5000, timeoutMs / 3),
  );
  const blanks = captures.map((c) => passwords.areas.flatMap((a) => intersection(a, c.region) ?? []));
  const blank = captures.flatMap((c, i) =>
    blanks[i]!.map((a) => ({ ...a, x: a.x - c.region.x, y: a.y - c.region.y + offsets[i]! })),
  );
  const prepared = await prepareForOcr(stacked, blank);
  const words = await recognizeTwice(context.recognizer(), stacked, prepared, blank, {
    languages: languagesFrom(context.env, engine),
    timeoutMs: Math.max(LEAST_MS, timeoutMs - (Date.now() - started)),
    ...(context.signal ? { signal: context.signal } : {}),
    ...(layout ? { layout } : {}),
  });
  return captures.map((c, i) => {
    const top = offsets[i]!;
    const mine = words.filter((w) => {
      const middle = (w.box.y + w.box.height / 2) / prepared.factor;
      return middle >= top && middle < top + c.image.height;
    });
    const origin = { x: c.region.x, y: c.region.y - top };
    return { ...toScreenLines(mine, origin, prepared.factor), blanked: blanks[i]!.length };
  });
}

/**
 * Captures' words: kept ones while their pixels hash the same, nothing for a flat one, the rest read by
 * one engine run within `timeoutMs`. Undefined for each capture the engine could not read, and why.
 */
async function readCaptures(
  context: ToolContext,
  captures: Capture[],
  timeoutMs: number,
  layout?: RecognizeOptions["layout"],
): Promise<{ readings: (PixelReading | undefined)[]; cached: boolean[]; failed?: string }> {
  const cache = cacheOf(context);
  const readings = captures.map((c) =>
    distinctColours(c.image, 2) < 2 ? { lines: [], leftOut: 0, blanked: 0 } : cache.get(c.region, c.hash),
  );
  const cached = readings.map((r) => r !== undefined);
  const pending = captures.filter((_, i) => !readings[i]);
  if (pending.length === 0) return { readings, cached };
  if (timeoutMs < LEAST_MS) return { readings, cached, failed: "the time budget was spent" };
  let failed: string | undefined;
  const read = await readTogether(context, pending, timeoutMs, layout).catch((error: Error) => {
    failed = error.message;
    return [];
  });
  for (const [i, reading] of read.entries()) cache.set(pending[i]!.region, pending[i]!.hash, reading);
  let next = 0;
  return {
    readings: readings.map((r) => r ?? read[next++]),
    cached,
    ...(failed ? { failed } : {}),
  };
}

/** The part of a rectangle on screen, or undefined where none is. */
function onScreen(rect: Rect, screen: Rect): Rect | undefined {
  return intersection(rect, screen);
}

/** Why a surface's pixels are not its own: another window over its centre. */
async function coveredBy(context: ToolContext, region: Rect, windowId: number | undefined) {
  if (windowId === undefined) return undefined;
  const top = await (await context.hands()).windowAt({
    x: Math.round(region.x + region.width / 2),
    y: Math.round(region.y + region.height / 2),
  });
  return top !== undefined && top !== windowId ? top : undefined;
}

interface Surface {
  region: Rect;
  windowId: number | undefined;
  /** The surface's ref, where the tree has one. */
  ref?: string;
}

/** The pixels part of one observe: surfaces read, lines listed, and what was cut or left, said. */
interface PixelsPart {
  lists: { surface: Surface; targets: PixelTarget[]; reading: PixelReading }[];
  notes: string[];
  data: { surfaces: number; read: number; cached: number; ms: number; cut_lines: number; unread: string[] };
}

/** The surfaces on screen and not covered, captured; the others named with why. */
async function captureSurfaces(
  context: ToolContext,
  surfaces: Surface[],
  unread: string[],
): Promise<{ surface: Surface; capture: Capture }[]> {
  const screen = await (await context.hands()).screen();
  const shown: { surface: Surface; capture: Capture }[] = [];
  for (const surface of surfaces) {
    const name = surface.ref ?? `window ${surface.windowId}`;
    const region = onScreen(surface.region, screen);
    const cover = region ? await coveredBy(context, region, surface.windowId) : undefined;
    if (!region) unread.push(`${name}: off screen`);
    else if (cover !== undefined) unread.push(`${name}: covered by window ${cover}`);
    else shown.push({ surface: { ...surface, region }, capture: await captureOf(context, region) });
  }
  return shown;
}

async function readSurfaces(context: ToolContext, surfaces: Surface[], first: number): Promise<PixelsPart> {
  const started = Date.now();
  const part: PixelsPart = {
    lists: [],
    notes: [],
    data: { surfaces: surfaces.length, read: 0, cached: 0, ms: 0, cut_lines: 0, unread: [] },
  };
  const shown = await captureSurfaces(context, surfaces, part.data.unread);
  const { readings, cached, failed } = await readCaptures(
    context,
    shown.map((s) => s.capture),
    PIXELS_BUDGET.ms - (Date.now() - started),
  );
  let chars = PIXELS_BUDGET.chars;
  let next = first;
  let blanked = 0;
  shown.forEach(({ surface }, i) => {
    const reading = readings[i];
    // No engine, or one that failed: the tree's part of the reply stands, and the gap is named.
    if (!reading) {
      part.data.unread.push(`${surface.ref ?? `window ${surface.windowId}`}: ${failed ?? "not read"}`);
      return;
    }
    part.data.read++;
    if (cached[i]) part.data.cached++;
    blanked += reading.blanked;
    const { targets, cut } = lineTargets(reading, next, chars, surface.ref);
    chars -= targets.reduce((n, t) => n + t.label.length + 6, 0);
    next += targets.length;
    part.data.cut_lines += cut;
    part.lists.push({ surface, targets, reading });
  });
  part.data.ms = Date.now() - started;
  const { read, ms, cut_lines, unread } = part.data;
  // A surface read with no line recognised shows no text: said, not left to look like a gap.
  const blank = part.lists
    .filter((l) => l.targets.length === 0)
    .map((l) => l.surface.ref ?? `window ${l.surface.windowId}`);
  if (surfaces.length > 0)
    part.notes.push(
      `# from pixels (OCR, may misread): ${read} of ${surfaces.length} surface${surfaces.length > 1 ? "s" : ""} read in ${ms} ms${part.data.cached ? `, ${part.data.cached} unchanged (kept)` : ""}${blanked ? `, ${blanked} password field${blanked > 1 ? "s" : ""} blanked` : ""}${blank.length ? `; no text recognised on ${blank.join(", ")}` : ""}`,
    );
  if (cut_lines > 0)
    part.notes.push(
      `# ${cut_lines} pixel lines cut by the ${PIXELS_BUDGET.chars}-char budget: read_screen_text reads them all`,
    );
  if (unread.length > 0) part.notes.push(`# not read from pixels: ${foldReasons(unread)}`);
  return part;
}

/** "a: why", "b: why" → "a, b: why": surfaces left unread for one reason are said once. */
function foldReasons(unread: string[]): string {
  const byReason = new Map<string, string[]>();
  for (const u of unread) {
    const at = u.indexOf(": ");
    const [name, reason] = [u.slice(0, at), u.slice(at + 2)];
    byReason.set(reason, [...(byReason.get(reason) ?? []), name]);
  }
  return [...byReason].map(([reason, names]) => `${names.join(", ")}: ${reason}`).join("; ");
}

function surfacesOf(page: SnapshotPage, targets: ObservedTarget[]): Surface[] {
  const byRef = new Map(page.elements.map((e) => [e.ref, e]));
  return targets.flatMap((t) => {
    const element = byRef.get(t.ref);
    if (!element?.pixelsOnly || !element.bounds) return [];
    return [{ region: element.bounds, windowId: element.window ?? page.windows[0]?.id, ref: t.ref }];
  });
}

/**
 * Observe's targets with each pixels-only surface's lines after it, numbered on from there, and the
 * notes that say what the pixels part cost and cut.
 */
export async function withPixelTargets(
  context: ToolContext,
  page: SnapshotPage,
  targets: ObservedTarget[],
): Promise<{ targets: ListedTarget[]; notes: string[]; data: PixelsPart["data"] | undefined }> {
  const surfaces = surfacesOf(page, targets);
  const faces = facesOf(page, targets);
  if (surfaces.length === 0 && faces.length === 0) return { targets, notes: [], data: undefined };
  const part = surfaces.length > 0 ? await readSurfaces(context, surfaces, 0) : undefined;
  const { values: shown, unread } = await faceValues(context, faces);
  const listed: ListedTarget[] = [];
  for (const target of targets) {
    const value = shown.get(target.ref);
    listed.push({
      ...target,
      index: listed.length,
      ...(value ? { label: withShown(target.label, value) } : {}),
    });
    const lines = part?.lists.find((l) => l.surface.ref === target.ref)?.targets ?? [];
    for (const line of lines) listed.push({ ...line, index: listed.length });
  }
  const notes = [...(part?.notes ?? [])];
  if (shown.size > 0)
    notes.push(
      `# ${shown.size} closed combo box${shown.size > 1 ? "es" : ""} with no value in the tree: what ${shown.size > 1 ? "they show" : "it shows"} read from pixels (OCR, may misread)`,
    );
  if (unread.length > 0) notes.push(`# closed combo boxes not read from pixels: ${foldReasons(unread)}`);
  return { targets: listed, notes, data: part?.data };
}

/** Closed combo boxes read from pixels in one observe, at most, and the time they may take. */
const FACES = { most: 6, ms: PIXELS_BUDGET.ms };

/**
 * Closed combo boxes on screen whose choice the tree does not say (LibreOffice's dialogs draw it on
 * a face with no text, its list built only when opened): a person reads it off the face.
 */
function facesOf(page: SnapshotPage, targets: ObservedTarget[]): Surface[] {
  const byRef = new Map(page.elements.map((e) => [e.ref, e]));
  return targets
    .flatMap((t) => {
      const e = byRef.get(t.ref);
      const b = e?.bounds;
      if (e?.role !== "combo box" || e.value !== undefined || !b || b.width <= 2 * b.height) return [];
      if (!e.states?.includes("showing") || e.states.includes("expanded")) return [];
      // The arrow at its right end is no part of the choice.
      const region = { ...b, width: b.width - b.height };
      return [{ region, windowId: e.window ?? page.windows[0]?.id, ref: t.ref }];
    })
    .slice(0, FACES.most);
}

/** Each face's words, by its ref (what the combo box shows), and the faces left unread, with why. */
async function faceValues(
  context: ToolContext,
  faces: Surface[],
): Promise<{ values: Map<string, string>; unread: string[] }> {
  const values = new Map<string, string>();
  const unread: string[] = [];
  if (faces.length === 0) return { values, unread };
  const shown = await captureSurfaces(context, faces, unread);
  const { readings, failed } = await readCaptures(
    context,
    shown.map((s) => s.capture),
    FACES.ms,
    "lines",
  );
  shown.forEach(({ surface }, i) => {
    const reading = readings[i];
    if (!reading) unread.push(`${surface.ref}: ${failed ?? "not read"}`);
    const text = (reading?.lines ?? [])
      .map((l) => l.text)
      .join(" ")
      .trim();
    if (text && surface.ref) values.set(surface.ref, text);
  });
  return { values, unread };
}

/** A target's line with what it shows after its role and name: `combo box ~"Column" = "A" (pixels)`. */
function withShown(label: string, value: string): string {
  const head = /^combo box(?: "(?:[^"\\]|\\.)*")?(?: ~"(?:[^"\\]|\\.)*")?/u.exec(label)?.[0] ?? label;
  return `${head} = ${JSON.stringify(value)} (pixels)${label.slice(head.length)}`;
}

/** The window a not_accessible error is about: from its details, else its message. */
function windowOfError(error: DeskhandError): number | undefined {
  const known = (error.details.tree_incomplete as { window?: number }[] | undefined)?.[0]?.window;
  const said = /^window (\d+)/.exec(error.message)?.[1];
  return known ?? (said ? Number(said) : undefined);
}

/**
 * Observe of a window with no accessible tree: its lines from pixels are its targets. Undefined when
 * the error is not that, or the window cannot be found, so the caller throws it as it was.
 */
export async function observeWithoutTree(
  context: ToolContext,
  thrown: unknown,
): Promise<{ data: Record<string, unknown>; text: string } | undefined> {
  // A window read by id throws the backend's own error; by title, deskhand's.
  const error = asDeskhandError(thrown);
  if (error.code !== "not_accessible") return undefined;
  const id = windowOfError(error);
  const window: WindowInfo | undefined = (await (await context.backend()).listWindows()).find(
    (w) => w.id === id,
  );
  if (!window?.rect) return undefined;
  const part = await readSurfaces(context, [{ region: window.rect, windowId: window.id }], 0);
  const targets = part.lists.flatMap((l) => l.targets);
  const snapshotId = context.refs.newSnapshot();
  rememberMarks(
    context,
    snapshotId,
    targets.map((t) => ({ index: t.index, box: t.box })),
  );
  const lines = [
    `# observe ${snapshotId} · ${targets.length} targets, all from pixels: window ${window.id} ${JSON.stringify(window.title)} has no accessible tree`,
    ...part.notes,
    ...targets.map((t) => `${t.index}. ${t.label}`),
    `# ${error.next}`,
  ];
  const data = {
    snapshotId,
    app: window.app,
    windows: [{ id: window.id, title: window.title, pid: window.pid, app: window.app }],
    visible: targets.map((t) => t.label),
    context: [],
    targets,
    truncated_by: part.data.cut_lines > 0 ? ["pixels"] : [],
    pixels: part.data,
    pixels_only: true,
    not_accessible: error.message,
  };
  return { data, text: lines.join("\n") };
}

/** The words of each pixels-only surface of a snapshot page, one folded line each, within the budget. */
export async function foldedPixelLines(context: ToolContext, page: SnapshotPage): Promise<string[]> {
  const surfaces = page.elements.filter(
    (e): e is SnapshotElement & { bounds: Rect } => !!e.pixelsOnly && !!e.bounds,
  );
  if (surfaces.length === 0) return [];
  const part = await readSurfaces(
    context,
    surfaces.map((e) => ({ region: e.bounds, windowId: e.window ?? page.windows[0]?.id, ref: e.ref })),
    0,
  );
  return [
    ...part.notes,
    ...part.lists.map(
      ({ surface, reading }) => `- ${surface.ref} from pixels: ${foldedWords(reading, FOLDED_CHARS)}`,
    ),
  ];
}

/**
 * The word read from pixels under a point of `region` (a pixels-only surface, or a window with no
 * tree): from the kept reading while the pixels are unchanged, else read now within a bound.
 */
export async function wordUnder(
  context: ToolContext,
  region: Rect,
  point: Point,
): Promise<{ text: string; cached: boolean } | undefined> {
  const screen = await (await context.hands()).screen();
  const shown = onScreen(region, screen);
  if (!shown) return undefined;
  const capture = await captureOf(context, shown);
  const { readings, cached } = await readCaptures(context, [capture], WORD_UNDER_MS);
  const word = readings[0] && wordAt(readings[0].lines, point);
  return word ? { text: word.text, cached: cached[0]! } : undefined;
}

/** Keeps an observe's targets' boxes (global), so a screenshot can mark them with the same numbers. */
export function rememberMarks(context: ToolContext, snapshotId: string, marks: Mark[]): void {
  let kept = context.sessionState.get(MARKS) as Map<string, { marks: Mark[]; at: number }> | undefined;
  if (!kept) {
    kept = new Map();
    context.sessionState.set(MARKS, kept);
  }
  kept.set(snapshotId, { marks, at: Date.now() });
  while (kept.size > MARKED_KEPT) kept.delete(kept.keys().next().value!);
}

/** The boxes of observe's targets, global, by index: from page elements' bounds and pixel lines' boxes. */
export function marksOf(page: SnapshotPage, targets: ListedTarget[]): Mark[] {
  const bounds = new Map(page.elements.map((e) => [e.ref, e.bounds]));
  return targets.flatMap((t) => {
    const box = "from" in t ? t.box : bounds.get(t.ref);
    return box && box.width > 0 && box.height > 0 ? [{ index: t.index, box }] : [];
  });
}

/** The marks of an observe by its snapshot id, with how long ago it was read. */
export function recallMarks(context: ToolContext, snapshotId: string): { marks: Mark[]; ageMs: number } {
  const kept = context.sessionState.get(MARKS) as Map<string, { marks: Mark[]; at: number }> | undefined;
  const entry = kept?.get(snapshotId);
  if (!entry)
    throw new DeskhandError(
      "invalid_params",
      `marks: ${JSON.stringify(snapshotId.slice(0, 40))} is not one of this session's last ${MARKED_KEPT} observe replies`,
      "Call observe, then screenshot with marks set to its snapshotId.",
      { fields: ["marks"] },
    );
  return { marks: entry.marks, ageMs: Date.now() - entry.at };
}
