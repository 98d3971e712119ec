// What reading text from pixels needs from the session, shared by the tools that read it
// (screen-text.ts) and the views that point into pixels (pixels-view.ts).
import { type ScreenLine, toScreenLines } from "../core/ocr.js";
import { prepareForOcr } from "../core/ocr-image.js";
import { recognizeTwice } from "../core/ocr-second-pass.js";
import { type PasswordAreas, passwordAreas } from "../core/passwords.js";
import type { RgbaImage } from "../platform/hands.js";
import type { RecognizerInfo } from "../platform/ocr/types.js";
import type { Rect } from "../platform/types.js";
import type { ToolContext } from "./context.js";

/** The password fields over `region`; where the tree cannot be read at all, nothing is known of them: said. */
export function passwordsIn(context: ToolContext, region: Rect, timeoutMs: number): Promise<PasswordAreas> {
  return context
    .backend()
    .then((backend) => passwordAreas(backend, region, timeoutMs))
    .catch(
      (error: Error): PasswordAreas => ({
        fields: 0,
        areas: [],
        unknown: [
          { window: 0, title: "", reason: `the accessibility tree cannot be read (${error.message})` },
        ],
      }),
    );
}

/** DESKHAND_OCR_LANGUAGES ("eng+deu" or "eng,deu"), else every language installed. */
export function languagesFrom(env: NodeJS.ProcessEnv, engine: RecognizerInfo): string[] {
  const set = env.DESKHAND_OCR_LANGUAGES?.split(/[+,\s]+/).filter(Boolean);
  return set && set.length > 0 ? set : engine.languages;
}

/** The lines in a capture of `region` (global points), password fields blanked first. */
export async function recognizeCapture(
  context: ToolContext,
  region: Rect,
  capture: RgbaImage,
  options: { languages: string[]; timeoutMs: number; scale: number },
): Promise<{ lines: ScreenLine[]; leftOut: number; passwords: PasswordAreas }> {
  const started = Date.now();
  const passwords = await passwordsIn(context, region, Math.min(5000, options.timeoutMs / 3));
  const blank = passwords.areas.map((a) => ({ ...a, x: a.x - region.x, y: a.y - region.y }));
  const prepared = await prepareForOcr(capture, blank, options.scale);
  const words = await recognizeTwice(context.recognizer(), capture, prepared, blank, {
    languages: options.languages,
    timeoutMs: Math.max(1000, options.timeoutMs - (Date.now() - started)),
    scale: options.scale,
    ...(context.signal ? { signal: context.signal } : {}),
  });
  return { ...toScreenLines(words, region, prepared.factor), passwords };
}
