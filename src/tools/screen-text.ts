// Text where the accessibility tree is silent: a canvas, a grid drawn into one drawing area, a remote
// desktop. read_screen_text reads a window, an element or a region from its pixels; find_text says
// where a text appears, with a centre that click, hover and drag take as `at`. Every reply says the
// text came from pixels; a password field's area is blanked before the engine sees anything.
import { z } from "zod";
import {
  boundLines,
  findInLines,
  LEAVE_OUT,
  renderLine,
  type ScreenLine,
  type TextMatch,
  type TextMatchMode,
} from "../core/ocr.js";
import type { PasswordAreas } from "../core/passwords.js";
import { type RecognizerInfo, RecognizerUnavailable } from "../platform/ocr/types.js";
import type { Rect } from "../platform/types.js";
import type { ToolContext } from "./context.js";
import type { FocusReport } from "./hands/attempt.js";
import { type CaptureInput, captureSchema, resolveCapture } from "./hands/capture.js";
import { languagesFrom, recognizeCapture } from "./pixels-read.js";
import { defineTool, READ_ONLY } from "./tool.js";

const LANGUAGE = z
  .string()
  .regex(/^[a-z]{3}(_[a-z]+)?$/, "a Tesseract language code, such as eng, deu or chi_sim");

const common = {
  of: captureSchema.default({ kind: "screen" }),
  languages: z.array(LANGUAGE).min(1).max(8).optional().describe("Tesseract codes; default: all installed"),
  raise: z.boolean().default(true).describe("Raise the window first"),
  timeoutMs: z.number().int().min(1000).max(120_000).default(30_000),
};

interface Recognition {
  lines: ScreenLine[];
  /** Fragments read with too little confidence to show (icons, borders). */
  leftOut: number;
  subject: string;
  region: Rect;
  focus?: FocusReport;
  passwords: PasswordAreas;
  engine: RecognizerInfo;
  languages: string[];
  ms: number;
}

async function recognizeScreen(
  context: ToolContext,
  input: { of: CaptureInput; languages?: string[] | undefined; raise: boolean; timeoutMs: number },
): Promise<Recognition> {
  const started = Date.now();
  const engine = await context.recognizer().describe();
  // Said before anything is raised or captured; errors.ts words it, as for the engine's own refusal.
  if (!engine.available) throw new RecognizerUnavailable(engine.detail);
  const languages = input.languages ?? languagesFrom(context.env, engine);
  const hands = await context.hands();
  const { region, subject, focus, scale } = await resolveCapture(context, input.of, input.raise);
  const read = await recognizeCapture(context, region, await hands.capture(region), {
    languages,
    scale: scale ?? 1,
    timeoutMs: input.timeoutMs - (Date.now() - started),
  });
  return {
    ...read,
    subject,
    region,
    ...(focus ? { focus } : {}),
    engine,
    languages,
    ms: Date.now() - started,
  };
}

function source(r: Recognition): string {
  return `from pixels (OCR: ${r.engine.engine} ${r.engine.version ?? "?"}, ${r.languages.join("+")}), not from the application`;
}

function passwordNotes(r: Recognition): string[] {
  const notes: string[] = [];
  const { fields } = r.passwords;
  if (fields > 0) notes.push(`# ${fields} password field${fields > 1 ? "s" : ""} blanked before reading`);
  for (const u of r.passwords.unknown)
    notes.push(
      `# password fields cannot be known ${u.window ? `in window ${u.window} ${JSON.stringify(u.title)}` : "here"}: ${u.reason}; what shows there is read as it shows`,
    );
  return notes;
}

/** What every reply's data says of where its text came from. */
function provenance(r: Recognition) {
  return {
    source: "pixels",
    engine: { name: r.engine.engine, version: r.engine.version, languages: r.languages },
    of: r.subject,
    region: r.region,
  };
}

function passwordData(r: Recognition) {
  return { blanked: r.passwords.fields, unknown: r.passwords.unknown };
}

export const readScreenTextTool = defineTool({
  name: "read_screen_text",
  group: "pixels",
  title: "Read text from pixels",
  description:
    "Text from pixels (OCR) where the tree has none (canvas, terminal): lines and words with boxes in global points, doubtful ones marked (?).",
  level: "L1",
  annotations: READ_ONLY,
  input: z.object({
    ...common,
    maxChars: z.number().int().min(200).max(100_000).default(4000).describe("Characters shown at most"),
  }),
  async handler(context, input) {
    const r = await recognizeScreen(context, input);
    const { shown, cut } = boundLines(r.lines, input.maxChars);
    const words = r.lines.reduce((n, l) => n + l.words.length, 0);
    const area = `${r.region.x},${r.region.y} ${r.region.width}×${r.region.height}`;
    const where = r.subject.startsWith("region ") ? `region ${area}` : `${r.subject} · region ${area}`;
    const doubtful = r.leftOut > 0 ? ` (${r.leftOut} fragments under confidence ${LEAVE_OUT} left out)` : "";
    const header = `# text ${source(r)} · ${where} · ${r.lines.length} lines, ${words} words${doubtful}`;
    const text = [
      header,
      ...passwordNotes(r),
      ...(r.lines.length === 0
        ? [
            "nothing was recognised: the area may hold no text, text too small or faint, or a language not asked for",
          ]
        : []),
      ...shown.map(renderLine),
      ...(cut > 0
        ? [
            `# cut by maxChars ${input.maxChars}: ${cut} more lines not shown; read a smaller region, or raise maxChars`,
          ]
        : []),
      ...(r.lines.length > 0 ? ["# find_text gives a text's box and the centre to click"] : []),
    ].join("\n");
    return {
      data: {
        ...provenance(r),
        lines: shown,
        counts: { lines: r.lines.length, words, shown: shown.length, left_out: r.leftOut },
        truncated_by: cut > 0 ? ["maxChars"] : [],
        passwords: passwordData(r),
        ms: r.ms,
        ...(r.focus ? { focus: r.focus } : {}),
      },
      text,
    };
  },
});

export const findTextTool = defineTool({
  name: "find_text",
  group: "pixels",
  title: "Find text on screen",
  description:
    'Where a text appears on screen, by OCR: each match\'s box and centre, for `at: {space: "global", x, y}`. No match means not recognised, not absent.',
  level: "L1",
  annotations: READ_ONLY,
  input: z.object({
    text: z.string().trim().min(1).max(500),
    match: z.enum(["exact", "fold", "contains"]).default("fold"),
    ...common,
    limit: z.number().int().min(1).max(200).default(20),
  }),
  async handler(context, input) {
    const r = await recognizeScreen(context, input);
    const all = findInLines(r.lines, input.text, input.match as TextMatchMode);
    const matches = all.slice(0, input.limit);
    const words = r.lines.reduce((n, l) => n + l.words.length, 0);
    const header = `# find_text ${JSON.stringify(input.text)} (${input.match}) in ${r.subject}, ${source(r)} · ${all.length} match${all.length === 1 ? "" : "es"}`;
    const lines = matches.map(
      (m: TextMatch) =>
        `- ${JSON.stringify(m.text)} @${m.box.x},${m.box.y} ${m.box.width}×${m.box.height} centre ${m.centre.x},${m.centre.y} conf ${m.confidence} · line ${JSON.stringify(m.line)}`,
    );
    const first = matches[0];
    const text = [
      header,
      ...passwordNotes(r),
      ...(all.length === 0
        ? [
            `Not found in what was recognised (${r.lines.length} lines, ${words} words): the text may be drawn too small or faint, covered, in a language not asked for (asked: ${r.languages.join(", ")}), or not there. read_screen_text shows what was recognised.`,
          ]
        : lines),
      ...(all.length > matches.length ? [`# ${all.length - matches.length} more matches: raise limit`] : []),
      ...(first
        ? [
            `# to click it: click {at: {space: "global", x: ${first.centre.x}, y: ${first.centre.y}}, intent: "…"}`,
          ]
        : []),
    ].join("\n");
    return {
      data: {
        ...provenance(r),
        matches,
        total: all.length,
        recognised: { lines: r.lines.length, words },
        passwords: passwordData(r),
        ms: r.ms,
        ...(r.focus ? { focus: r.focus } : {}),
      },
      text,
    };
  },
});
