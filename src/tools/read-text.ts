import { z } from "zod";
import { DeskhandError } from "../core/errors.js";
import { STRING_CEILING } from "../core/limits.js";
import { secretRanges } from "../core/value.js";
import { verifyRef } from "../core/verify.js";
import { type AccessibilityReader, PASSWORD_ROLE } from "../platform/types.js";
import type { ToolContext } from "./context.js";
import { refSchema } from "./schemas.js";
import { defineTool, READ_ONLY } from "./tool.js";

/**
 * A slice of a ref's text through its Text interface (what the element shows, which may not be its
 * name: a label named "Status" showing "pressed 1"); null where it has none. Never a password field's.
 */
export async function refText(context: ToolContext, ref: string, start = 0, length = 4000) {
  const backend: AccessibilityReader = await context.backend();
  const { entry, node } = await verifyRef(backend, context.refs, ref);
  if (node.role === PASSWORD_ROLE) {
    throw new DeskhandError(
      "read_only",
      `${ref} is a password field: its text never leaves deskhand`,
      "Do not read secrets.",
    );
  }
  const read = await backend.readText(entry.handle, start, length);
  if (read === null || read.length > FIELD_READ) return { node, read };
  // A card number, a key or a code in a field never comes back: read whole, so that no slice cuts
  // one in two where its look is lost, and shown with each of its characters as "•".
  const whole = await backend.readText(entry.handle, 0, read.length).catch(() => null);
  if (whole === null) return { node, read };
  const ranges = secretRanges(node, whole.text);
  if (ranges.length === 0) return { node, read };
  let text = whole.text;
  for (const [from, to] of ranges) text = text.slice(0, from) + "•".repeat(to - from) + text.slice(to);
  return { node, read: { text: text.slice(start, start + length), length: whole.length } };
}

/** A field's text up to this long is read whole, to keep the secrets in it out (secretRanges). */
const FIELD_READ = 10_000;

export const readTextTool = defineTool({
  name: "read_text",
  group: "read",
  title: "Read an element's text",
  description:
    "A slice of a ref's text (label, field, document), with the whole length. Never a password field's text.",
  level: "L1",
  annotations: READ_ONLY,
  input: z.object({
    ref: refSchema,
    start: z.number().int().min(0).default(0),
    // The most a reply's string may carry: a slice is never cut on its way out.
    length: z.number().int().min(1).max(STRING_CEILING).default(4000),
  }),
  async handler(context, input) {
    const { node, read } = await refText(context, input.ref, input.start, input.length);
    if (read === null) {
      throw new DeskhandError(
        "no_text",
        `${node.role} ${JSON.stringify(node.name ?? "")} has no text interface (not the same as empty text)`,
        node.unread.includes("value")
          ? 'What it shows is in no tree (it is drawn): read_screen_text {of: {kind: "element", ref}} reads it from pixels.'
          : node.name
            ? "Its name is in the snapshot; read_table reads tables."
            : 'Its value, where it has one, is in element_info; read_screen_text {of: {kind: "element", ref}} reads what it shows.',
      );
    }
    const end = input.start + read.text.length;
    const cut = input.start > 0 || end < read.length;
    const data = { ref: input.ref, text: read.text, start: input.start, end, length: read.length, cut };
    const header = `${read.length} characters in all; characters ${input.start}–${end}${cut ? " (cut: ask for another start or length for the rest)" : ""}`;
    return { data, text: `${header}\n${read.text}` };
  },
});
