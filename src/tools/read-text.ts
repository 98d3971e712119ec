import { z } from "zod";
import { DeskhandError } from "../core/errors.js";
import { STRING_CEILING } from "../core/limits.js";
import { secretRanges } from "../core/value.js";
import { verifyRef } from "../core/verify.js";
import { everyNode } from "../platform/nodes.js";
import { roleSet } from "../platform/roles.js";
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

// A document without text of its own (Writer's: its paragraphs hold it) is read through this many
// of the elements inside it, each whole up to PART_READ characters.
const PARTS_READ = 400;
const PART_READ = 20_000;
const PARTS = { maxDepth: 3, tableRows: 0, walkTables: false, nodeCeiling: PARTS_READ * 2, timeoutMs: 3000 };
const DOCUMENT_ROLES = roleSet("document text", "document frame", "document web", "document email");
// Not a field inside it: a field's secrets are kept out by refText alone.
const PART_ROLES = roleSet("paragraph", "heading", "caption", "block quote", "static");

/**
 * The text of a document that has none of its own, from the paragraphs and headings inside it, a line
 * each, in their order: null where none has text.
 */
async function partsText(
  backend: AccessibilityReader,
  handle: string,
): Promise<{ text: string; parts: number; cut: boolean } | null> {
  const read = await backend.readSubtree(handle, PARTS).catch(() => undefined);
  if (!read) return null;
  const parts = everyNode(read.root)
    .filter((n) => n !== read.root && PART_ROLES.has(n.role) && n.interfaces?.includes("Text") !== false)
    .slice(0, PARTS_READ);
  const texts = await Promise.all(
    parts.map((n) => backend.readText(n.handle, 0, PART_READ).catch(() => null)),
  );
  const lines = texts.filter((t): t is { text: string; length: number } => t !== null);
  if (lines.length === 0) return null;
  const cut = read.timedOut || read.ceilingHit || parts.length === PARTS_READ;
  return { text: lines.map((t) => t.text).join("\n"), parts: lines.length, cut };
}

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
    const parts =
      read === null && DOCUMENT_ROLES.has(node.role)
        ? await partsText(await context.backend(), node.handle)
        : null;
    if (parts) return partsReply(input, parts);
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

/** A document's text read from its paragraphs, sliced as its own text would be. */
function partsReply(
  input: { ref: string; start: number; length: number },
  parts: { text: string; parts: number; cut: boolean },
) {
  const text = parts.text.slice(input.start, input.start + input.length);
  const end = input.start + text.length;
  const cut = input.start > 0 || end < parts.text.length;
  const data = {
    ref: input.ref,
    text,
    start: input.start,
    end,
    length: parts.text.length,
    cut,
    from_parts: parts.parts,
    ...(parts.cut ? { parts_cut: true } : {}),
  };
  const whence = `it has no text of its own: read from the ${parts.parts} paragraphs and headings inside it, a line each${parts.cut ? ` (the first ${parts.parts}: the rest were not read)` : ""}`;
  const header = `${parts.text.length} characters in all; characters ${input.start}–${end}${cut ? " (cut: ask for another start or length for the rest)" : ""}; ${whence}`;
  return { data, text: `${header}\n${text}` };
}
