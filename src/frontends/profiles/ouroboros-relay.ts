// What the Ouroboros seed promises about cuts, in its own spelling: every cut named by the limit the
// caller set (`max_nodes`, `max_text_chars`, `timeout_ms`…), and an answer too large for the host's
// JSON-string relay cut for display only: its `result_size`, text capped at 4,000 UTF-16 units with
// each object's `clipped_fields` (original and shown units), then a prefix of each list that fits,
// with `shown`/`omitted` counts. Display cuts are never unread fields, and counts stay whole.

/** Text in receipts and candidates (and in an oversized answer) shows this many UTF-16 units. */
export const TEXT_UNITS = 4000;

/**
 * The relay's size, in UTF-16 units of the JSON answer. The seed does not give its host's figure;
 * 100,000 (about 25k tokens) is what one reply should cost at most.
 */
export const RELAY_UNITS = 100_000;

/** deskhand's cut names as the seed's limits spell them. */
const CUT_NAMES: Record<string, string> = {
  maxNodes: "max_nodes",
  maxDepth: "max_depth",
  maxText: "max_text_chars",
  timeout: "timeout_ms",
  tableRows: "max_children_per_node",
  hugeChildCount: "max_children_per_node",
  readCeiling: "max_nodes",
  unreadable: "unreadable",
};

export function seedCuts(cuts: readonly string[]): string[] {
  return [...new Set(cuts.map((c) => CUT_NAMES[c] ?? c))];
}

/** A text field shown whole up to TEXT_UNITS, else its first units and `text_truncated`. */
export function clipText(value: string | undefined): { value?: string; text_truncated?: true } {
  if (value === undefined) return {};
  return value.length > TEXT_UNITS ? { value: value.slice(0, TEXT_UNITS), text_truncated: true } : { value };
}

type Reply = Record<string, unknown> & { truncated_by?: string[]; notes?: string[] };
type Item = Record<string, unknown> & {
  clipped_fields?: { field: string; original: number; shown: number }[];
};

const size = (value: unknown) => JSON.stringify(value).length;

/**
 * The reply as the relay can carry it. Under RELAY_UNITS it is unchanged. Over it: every string
 * field of the listed objects past TEXT_UNITS is cut there and named in that object's
 * `clipped_fields`; then each list keeps the longest prefix that fits, `shown` and `omitted` saying
 * how many; `result_size` is the size before, and truncated_by and notes say so.
 */
export function fitRelay(reply: Reply, lists: string[]): Reply {
  const original = size(reply);
  if (original <= RELAY_UNITS) return reply;
  const out: Reply = { ...reply };
  for (const key of lists) {
    const items = out[key];
    if (!Array.isArray(items)) continue;
    out[key] = items.map((item: Item) => {
      const clipped: NonNullable<Item["clipped_fields"]> = [];
      const copy: Item = { ...item };
      for (const [field, value] of Object.entries(item))
        if (typeof value === "string" && value.length > TEXT_UNITS) {
          copy[field] = value.slice(0, TEXT_UNITS);
          clipped.push({ field, original: value.length, shown: TEXT_UNITS });
        }
      return clipped.length ? { ...copy, clipped_fields: clipped } : copy;
    });
  }
  const counts: Record<string, { shown: number; omitted: number }> = {};
  for (const key of lists) {
    const items = out[key];
    if (!Array.isArray(items)) continue;
    let kept = items.length;
    // The longest prefix that fits beside everything else: halve, then walk back up.
    while (kept > 0 && size({ ...out, [key]: items.slice(0, kept) }) > RELAY_UNITS)
      kept = Math.floor(kept / 2);
    while (kept < items.length && size({ ...out, [key]: items.slice(0, kept + 1) }) <= RELAY_UNITS) kept++;
    out[key] = items.slice(0, kept);
    counts[key] = { shown: kept, omitted: items.length - kept };
  }
  const listed = Object.entries(counts);
  return {
    ...out,
    result_size: original,
    // One list: shown and omitted are its counts; several: each list's, by its key.
    ...(listed.length === 1
      ? listed[0]![1]
      : {
          shown: Object.fromEntries(listed.map(([key, c]) => [key, c.shown])),
          omitted: Object.fromEntries(listed.map(([key, c]) => [key, c.omitted])),
        }),
    truncated_by: [...new Set([...(out.truncated_by ?? []), "result_size"])],
    notes: [
      ...(out.notes ?? []),
      `the answer was ${original} UTF-16 units, more than the ${RELAY_UNITS} the host relays: text past ${TEXT_UNITS} units is cut (clipped_fields) and ${listed
        .map(([key, c]) => `${c.shown} of ${c.shown + c.omitted} ${key}`)
        .join(
          ", ",
        )} are shown; these are display cuts, not unread fields — narrow the selector or read an inner window for more`,
    ],
  };
}
