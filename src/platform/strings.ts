// The one bound on a string deskhand carries. An app can name an element with 5 MB of text; carried
// whole, it costs every read, the gate and the journal that touch it, and an answer too long for the
// client to take. So strings are cut where they are read from an app, and again where every reply
// leaves a tool (core/limits.ts holds the reply's bound beside this one).

/**
 * The longest string deskhand carries: the most `read_text` gives at once. Longer ones keep their
 * first characters and a mark naming their whole length.
 */
export const STRING_CEILING = 100_000;

/** How a cut string ends: its whole length, so a reader knows how much it did not get. */
export function cutMark(length: number): string {
  return `…[cut: ${length.toLocaleString("en-US")} chars]`;
}

const MARKED = /…\[cut: ([\d,]+) chars\]$/;

/**
 * `text` whole if it is at most `max` characters; otherwise its first ones and the mark, `max` in
 * all. A string cut before (read from the app, cut again in a reply) keeps its first whole length.
 */
export function cutString(text: string, max = STRING_CEILING): string {
  if (text.length <= max) return text;
  const marked = MARKED.exec(text.slice(-40));
  const mark = cutMark(marked ? Number(marked[1]!.replaceAll(",", "")) : text.length);
  const keep = Math.max(0, max - mark.length);
  // Never half a surrogate pair.
  const end = /[\uD800-\uDBFF]/.test(text[keep - 1] ?? "") ? keep - 1 : keep;
  return text.slice(0, end) + mark;
}
