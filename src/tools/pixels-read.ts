// What reading text from pixels needs from the session, shared by the tools that read it
// (screen-text.ts) and the views that point into pixels (pixels-view.ts).
import { type PasswordAreas, passwordAreas } from "../core/passwords.js";
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
