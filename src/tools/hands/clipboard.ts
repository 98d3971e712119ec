// The clipboard's text: read, or written as an app's copy would (then read back). Both go through
// the gate and the journal: a clipboard may hold what a person copied (a password), so each read is
// on record, by its length, and a read shows no secret (a key or card number by its look, or what
// any process typed into a password field) unless asked; a written text is kept out of the journal
// as typed text is.
import { z } from "zod";
import { withMarkers } from "../../core/credentials.js";
import { defineInputTool } from "../input-tool.js";
import { pressesNothing } from "./attempt.js";
import { INPUT } from "./pointer.js";
import { intentSchema } from "./schemas.js";

/** The most of a clipboard's text a reply shows; the rest is named by its length. */
const SHOWN_CHARS = 10_000;
const MAX_WRITE = 100_000;
/** What a secret read from the clipboard shows as, unless reveal. */
const HIDDEN = "<hidden: secret>";

const characters = (text: string) => [...text].length;

export const clipboardTool = defineInputTool({
  name: "clipboard",
  group: "hands",
  title: "Clipboard",
  description: "The clipboard's text, secrets hidden unless reveal; `text` sets it (read back).",
  level: "L1",
  highest: "L2",
  annotations: INPUT,
  readsWindows: false,
  typedValues: "text",
  input: z.object({
    text: z.string().max(MAX_WRITE).optional(),
    reveal: z.boolean().optional(),
    intent: intentSchema,
  }),
  async plan(context, input) {
    const { text } = input;
    if (text === undefined)
      return {
        step: "read",
        intent: input.intent,
        reversible: true,
        presses: pressesNothing("reads the clipboard"),
        ensureFocus: false,
        // The journal keeps how long the text was and what was hidden, never the text.
        journalOutcome: ({ characters, hidden }) => ({ characters, ...(hidden ? { hidden } : {}) }),
        async execute(h) {
          const read = await h.readClipboard();
          if (read === undefined) return { characters: 0, empty: true };
          const ranges = input.reveal ? [] : context.audit().secretRanges(read);
          const hidden = ranges.length ? { hidden: ranges.length } : {};
          return { characters: characters(read), text: withMarkers(read, ranges, HIDDEN), ...hidden };
        },
        describe: (r) => (r.empty ? "read the clipboard: it holds no text" : shown(String(r.text), r.hidden)),
      };
    return {
      step: "write",
      nominal: "L2",
      intent: input.intent,
      // It commits nothing in any app: the earlier text, once read, can be written back.
      reversible: true,
      presses: pressesNothing("sets the clipboard's text"),
      ensureFocus: false,
      secret: text,
      typed: false,
      journalOutcome: ({ holds }) => ({ holds }),
      async execute(h) {
        await h.writeClipboard(text);
        const back = await h.readClipboard();
        return { characters: characters(text), holds: back === text };
      },
      describe: (r) => `put ${r.characters} characters on the clipboard`,
      verdict: (r) =>
        r.holds
          ? undefined
          : {
              status: "error",
              lead: "error",
              note: "read back, the clipboard does not hold that text (an app may have taken it over)",
              reason: "the clipboard read back differs",
            },
    };
  },
});

/** The text read, whole up to SHOWN_CHARS, else its head with the rest named; what was hidden said. */
function shown(text: string, hidden: unknown): string {
  const all = [...text];
  const secrets = hidden ? `; ${hidden} secret(s) hidden, reveal: true shows them` : "";
  if (all.length <= SHOWN_CHARS) return `read the clipboard (${all.length} characters${secrets}):\n${text}`;
  return `read the clipboard: the first ${SHOWN_CHARS} of its ${all.length} characters${secrets}:\n${all.slice(0, SHOWN_CHARS).join("")}`;
}
