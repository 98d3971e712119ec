// Where the tree is silent, observe's first look reads the pixels: each pixels-only surface of the page
// (and a window with no accessible tree at all) is read by OCR, bounded by a time and a character
// budget with the cut named, and its lines become targets with points that click, hover and drag take.
// Readings are kept per session until the region's pixels change (hashed), so a repeat observe of an
// unchanged window costs a capture, not the engine. The click reply and screenshot's marks read them.
import { DeskhandError } from "../core/errors.js";
import type { Mark } from "../core/marks.js";
import type { ObservedTarget } from "../core/observe.js";
import {
  foldedWords,
  lineTargets,
  PixelCache,
  type PixelReading,
  type PixelTarget,
  pixelHash,
  wordAt,
} from "../core/pixel-targets.js";
import type { SnapshotElement, SnapshotPage } from "../core/snapshot.js";
import type { Point } from "../platform/hands.js";
import { RecognizerUnavailable } from "../platform/ocr/types.js";
import type { Rect, WindowInfo } from "../platform/types.js";
import type { ToolContext } from "./context.js";
import { languagesFrom, recognizeCapture } from "./screen-text.js";

/** What the pixels part of one observe may spend: engine time, and characters of target lines. */
export const PIXELS_BUDGET = { ms: 8000, chars: 2500 };
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

export interface SurfaceRead {
  reading: PixelReading;
  cached: boolean;
  ms: number;
}

/** A region's words: kept ones while its pixels hash the same, else read by the engine within `timeoutMs`. */
export async function readSurface(
  context: ToolContext,
  region: Rect,
  timeoutMs: number,
): Promise<SurfaceRead> {
  const started = Date.now();
  const hands = await context.hands();
  const capture = await hands.capture(region);
  const hash = pixelHash(capture);
  const cache = cacheOf(context);
  const kept = cache.get(region, hash);
  if (kept) return { reading: kept, cached: true, ms: Date.now() - started };
  const engine = await context.recognizer().describe();
  if (!engine.available) throw new RecognizerUnavailable(engine.detail);
  const read = await recognizeCapture(context, region, capture, {
    languages: languagesFrom(context.env, engine),
    timeoutMs: timeoutMs - (Date.now() - started),
  });
  const reading = { lines: read.lines, leftOut: read.leftOut, blanked: read.passwords.fields };
  cache.set(region, hash, reading);
  return { reading, cached: false, ms: Date.now() - started };
}

/** The part of a rectangle on screen, or undefined where none is. */
function onScreen(rect: Rect, screen: { width: number; height: number }): Rect | undefined {
  const x = Math.max(0, rect.x);
  const y = Math.max(0, rect.y);
  const right = Math.min(screen.width, rect.x + rect.width);
  const bottom = Math.min(screen.height, rect.y + rect.height);
  return right > x && bottom > y ? { x, y, width: right - x, height: bottom - y } : undefined;
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

async function readSurfaces(context: ToolContext, surfaces: Surface[], first: number): Promise<PixelsPart> {
  const started = Date.now();
  const screen = (await context.hands()).screenSize();
  const part: PixelsPart = {
    lists: [],
    notes: [],
    data: { surfaces: surfaces.length, read: 0, cached: 0, ms: 0, cut_lines: 0, unread: [] },
  };
  let chars = PIXELS_BUDGET.chars;
  let next = first;
  let blanked = 0;
  for (const surface of surfaces) {
    const name = surface.ref ?? `window ${surface.windowId}`;
    const region = onScreen(surface.region, screen);
    const left = PIXELS_BUDGET.ms - (Date.now() - started);
    const cover = region ? await coveredBy(context, region, surface.windowId) : undefined;
    const why = !region
      ? "off screen"
      : cover !== undefined
        ? `covered by window ${cover}`
        : left < LEAST_MS
          ? `time budget ${PIXELS_BUDGET.ms} ms spent`
          : undefined;
    if (why) {
      part.data.unread.push(`${name}: ${why}`);
      continue;
    }
    // No engine, or one that failed: the tree's part of the reply stands, and the gap is named.
    const read = await readSurface(context, region!, left).catch((error: Error) => {
      part.data.unread.push(`${name}: ${error.message}`);
      return undefined;
    });
    if (!read) continue;
    part.data.read++;
    if (read.cached) part.data.cached++;
    blanked += read.reading.blanked;
    const { targets, cut } = lineTargets(read.reading, next, chars, surface.ref);
    chars -= targets.reduce((n, t) => n + t.label.length + 6, 0);
    next += targets.length;
    part.data.cut_lines += cut;
    part.lists.push({ surface: { ...surface, region: region! }, targets, reading: read.reading });
  }
  part.data.ms = Date.now() - started;
  const { read, cached, ms, cut_lines, unread } = part.data;
  if (surfaces.length > 0)
    part.notes.push(
      `# from pixels (OCR, may misread): ${read} of ${surfaces.length} surface${surfaces.length > 1 ? "s" : ""} read in ${ms} ms${cached ? `, ${cached} unchanged (kept)` : ""}${blanked ? `, ${blanked} password field${blanked > 1 ? "s" : ""} blanked` : ""}`,
    );
  if (cut_lines > 0)
    part.notes.push(
      `# ${cut_lines} pixel lines cut by the ${PIXELS_BUDGET.chars}-char budget: read_screen_text reads them all`,
    );
  for (const u of unread) part.notes.push(`# not read from pixels: ${u}`);
  return part;
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
  if (surfaces.length === 0) return { targets, notes: [], data: undefined };
  const part = await readSurfaces(context, surfaces, 0);
  const listed: ListedTarget[] = [];
  for (const target of targets) {
    listed.push({ ...target, index: listed.length });
    const lines = part.lists.find((l) => l.surface.ref === target.ref)?.targets ?? [];
    for (const line of lines) listed.push({ ...line, index: listed.length });
  }
  return { targets: listed, notes: part.notes, data: part.data };
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
  error: unknown,
): Promise<{ data: Record<string, unknown>; text: string } | undefined> {
  if (!(error instanceof DeskhandError) || error.code !== "not_accessible") return undefined;
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
  const screen = (await context.hands()).screenSize();
  const shown = onScreen(region, screen);
  if (!shown) return undefined;
  const read = await readSurface(context, shown, WORD_UNDER_MS).catch(() => undefined);
  const word = read && wordAt(read.reading.lines, point);
  return word ? { text: word.text, cached: read.cached } : undefined;
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
