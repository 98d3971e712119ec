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

/** Texts longer than this (in characters, either side) are not aligned character by character. */
const ALIGNED_TEXT = 2_000;

/**
 * Which characters of `wanted` are not in `got`, by the longest common subsequence of the two: the
 * characters that did not arrive (typed keys an app dropped), with their offsets in `wanted`, and how
 * many characters `got` holds that `wanted` has not. Undefined when either text is too long to align.
 */
export function lostCharacters(
  got: string,
  wanted: string,
): { lost: string; at: number[]; extra: number } | undefined {
  const a = [...got];
  const b = [...wanted];
  if (a.length > ALIGNED_TEXT || b.length > ALIGNED_TEXT) return undefined;
  const width = b.length + 1;
  // lengths[i * width + j]: the longest common subsequence of a[i..] and b[j..].
  const lengths = new Uint16Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lengths[i * width + j] =
        a[i] === b[j]
          ? lengths[(i + 1) * width + j + 1]! + 1
          : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!);
  const at: number[] = [];
  let i = 0;
  let j = 0;
  while (j < b.length) {
    if (i < a.length && a[i] === b[j]) {
      i++;
      j++;
    } else if (i < a.length && lengths[(i + 1) * width + j]! >= lengths[i * width + j + 1]!) i++;
    else at.push(j++);
  }
  const common = b.length - at.length;
  return { lost: at.map((k) => b[k]).join(""), at, extra: a.length - common };
}

/** Offsets as runs, one-based for a person: "11–15", "3, 7". */
export function offsetRuns(at: number[]): string {
  const runs: string[] = [];
  for (let k = 0; k < at.length; ) {
    let end = k;
    while (end + 1 < at.length && at[end + 1] === at[end]! + 1) end++;
    runs.push(end === k ? `${at[k]! + 1}` : `${at[k]! + 1}–${at[end]! + 1}`);
    k = end + 1;
  }
  return runs.join(", ");
}

// The characters an app may write in place of one typed (a calculator's "×" for "*", an editor's
// smart quotes): what it shows then is what was typed, in its own way.
const WRITTEN_AS: Record<string, string> = {
  "*": "×∗⋅·",
  "-": "−–—‐",
  "/": "÷∕",
  "'": "’‘ʼ",
  '"': "“”„«»",
  " ": "\u00a0\u202f",
};

/**
 * Where `got` is `wanted` with some characters written the app's way, what it wrote for what
 * ('"×" for "*", "−" for "-"'); undefined where they differ otherwise or not at all.
 */
export function rewrittenAs(got: string, wanted: string): string | undefined {
  const a = [...got];
  const b = [...wanted];
  if (a.length !== b.length || got === wanted) return undefined;
  const pairs = new Set<string>();
  for (let i = 0; i < a.length; i++) {
    if (a[i] === b[i]) continue;
    if (!WRITTEN_AS[b[i]!]?.includes(a[i]!)) return undefined;
    pairs.add(`${JSON.stringify(a[i])} for ${JSON.stringify(b[i])}`);
  }
  return [...pairs].join(", ");
}
