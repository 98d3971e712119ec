// One test of whether a value took, for every tool that writes one (act set_value and set_range,
// fill_form's either route): the value re-read from the app is the value asked for. For typing, the
// whole text a field should hold afterwards, and what differs when it does not.

/**
 * The same text, or the same number written another way ("3" for 3, "3.0" for "3"). An empty value
 * is no number: "" never reads back as "0". Undefined: nothing could be re-read.
 */
export function readsBackAs(got: string | undefined, wanted: string | number): boolean | undefined {
  if (got === undefined) return undefined;
  if (got === String(wanted)) return true;
  const asNumber = (value: string | number) => {
    if (typeof value === "number") return value;
    const trimmed = value.trim();
    return trimmed === "" ? Number.NaN : Number(trimmed);
  };
  const a = asNumber(got);
  const b = asNumber(wanted);
  return Number.isFinite(a) && Number.isFinite(b) && a === b;
}

/**
 * A field's whole text once `typed` went in at offset `at` of `before`, as keys: every newline is an
 * Enter, which a single-line field takes as a key and a multi-line one as a line break. Offsets count
 * characters (code points), as AT-SPI's do.
 */
export function textAfterTyping(before: string, at: number, typed: string, singleLine: boolean): string {
  const chars = [...before];
  const inserted = singleLine ? typed.replace(/[\r\n]/g, "") : typed.replace(/\r/g, "\n");
  return chars.slice(0, at).join("") + inserted + chars.slice(at).join("");
}

/** Characters of each side shown when two texts differ. */
const SHOWN_OF_DIFFERENCE = 40;

/**
 * What differs between a field's text and the text it should hold, in words: where they part, what
 * it holds there and what it should (each cut to 40 characters), and both lengths. Undefined when
 * they are the same.
 */
export function textDifference(got: string, wanted: string): string | undefined {
  if (got === wanted) return undefined;
  const a = [...got];
  const b = [...wanted];
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a.at(-1 - tail) === b.at(-1 - tail)) tail++;
  const part = (chars: string[]) => {
    const middle = chars.slice(head, chars.length - tail);
    const cut = middle.length > SHOWN_OF_DIFFERENCE;
    return `${JSON.stringify(middle.slice(0, SHOWN_OF_DIFFERENCE).join(""))}${cut ? "…" : ""}`;
  };
  return (
    `from character ${head} it holds ${part(a)} where ${part(b)} should be ` +
    `(${a.length} characters, ${b.length} expected)`
  );
}
