// Snapshot limits: the defaults an agent gets without asking, and the ceilings nobody can exceed. Both
// come back in every snapshot reply, so a caller always knows what bounded the answer it got. The
// bounds on every reply (each string, each reply's size) are here too.
import { cutString, STRING_CEILING } from "../platform/strings.js";

export interface SnapshotLimits {
  maxDepth: number;
  maxNodes: number;
  maxText: number;
  tableRows: number;
  timeoutMs: number;
  visibleOnly: boolean;
  onlyInteractive: boolean;
  walkTables: boolean;
  /** Read each element's action names (observe needs them; a plain snapshot does not). */
  actions: boolean;
  /** Read each element's accessible id (most toolkits leave it empty; it costs a call each). */
  accessibleIds: boolean;
  /** Lay out what is off screen element by element, not folded (observe with visibleOnly false). */
  unfold?: boolean;
}

export const SNAPSHOT_DEFAULTS: SnapshotLimits = {
  maxDepth: 12,
  maxNodes: 250,
  maxText: 200,
  tableRows: 5,
  timeoutMs: 5000,
  visibleOnly: false,
  onlyInteractive: false,
  walkTables: false,
  actions: false,
  accessibleIds: false,
};

export const SNAPSHOT_CEILINGS = {
  maxDepth: 256,
  maxNodes: 5000,
  maxText: 10_000,
  tableRows: 1000,
  timeoutMs: 60_000,
} as const;

/** Nodes read from one window at most, whatever the page size: bounds memory on runaway trees. */
export const READ_CEILING = 20_000;

/**
 * A session's refs: those of the elements it was shown most recently are kept, the rest released
 * (a released ref says so). Four full pages of the largest snapshot.
 */
export const REFS_KEPT = 20_000;
/** Snapshots whose element numbers a session remembers, to tell a released ref from one never made. */
export const REF_SNAPSHOTS_KEPT = 1_000;

export const WINDOWS_DEFAULT_LIMIT = 100;
export const WINDOWS_CEILING = 500;

/** The reason names used in `truncated_by`. */
export type CutName =
  | "maxDepth"
  | "maxNodes"
  | "maxText"
  | "tableRows"
  | "hugeChildCount"
  | "timeout"
  | "readCeiling"
  | "unreadable";

export { cutString, STRING_CEILING } from "../platform/strings.js";

/**
 * The most one reply carries in each of its channels (its text; its structured content), in UTF-8
 * bytes of JSON: both together and their envelope stay under the 10 MiB line an MCP SDK client reads.
 * An NDJSON line, a CLI `--json`, a journal line and a recording's step are held to it too.
 */
export const REPLY_CEILING = 4 * 1024 * 1024;

/** The bounds strings are cut at, in turn, while a reply is still over its ceiling. */
const TIGHTER_STRINGS = [10_000, 1_000, 200, 40];

/**
 * The most of one label the gate reads (its matching is linear in it): a label longer than this is
 * judged on its first characters, and counts as committing, since the rest was not read.
 */
export const LABEL_CEILING = 1_000;

/** What was cut to keep a reply within its bounds; absent when nothing was. */
export interface ReplyCut {
  /** Strings cut, each at `stringBound` characters and marked with its whole length. */
  strings: number;
  stringBound: number;
  /** The whole length of the longest string cut. */
  longest: number;
  /** Lists cut to their first items, by where they sit in the reply ("elements"). */
  lists?: { path: string; kept: number; of: number }[];
  /** The text channel was cut too. */
  text?: true;
}

interface Walk {
  max: number;
  /** Lists keep this share of their items (when cutting strings was not enough). */
  listShare: number;
  strings: number;
  longest: number;
  bytes: number;
  lists: NonNullable<ReplyCut["lists"]>;
}

const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? "");

/** A copy of `value` with its strings and lists cut as `walk` says; the same object where nothing was. */
function cutWalk(value: unknown, path: string, walk: Walk): unknown {
  if (typeof value === "string") {
    let out = value;
    if (value.length > walk.max) {
      walk.strings++;
      walk.longest = Math.max(walk.longest, value.length);
      out = cutString(value, walk.max);
    }
    walk.bytes += jsonBytes(out);
    return out;
  }
  if (value === null || typeof value !== "object") {
    walk.bytes += jsonBytes(value ?? null);
    return value;
  }
  const json = (value as { toJSON?: () => unknown }).toJSON;
  if (typeof json === "function") return cutWalk(json.call(value), path, walk);
  const at = (key: string | number) => (path ? `${path}.${key}` : String(key));
  if (Array.isArray(value)) {
    let items: unknown[] = value;
    const kept = Math.max(1, Math.floor(value.length * walk.listShare));
    if (kept < value.length) {
      walk.lists.push({ path: path || "(the reply)", kept, of: value.length });
      items = value.slice(0, kept);
    }
    let changed = items !== value;
    const out = items.map((item, i) => {
      const cut = cutWalk(item, at(i), walk);
      if (cut !== item) changed = true;
      return cut;
    });
    walk.bytes += 1 + Math.max(1, out.length);
    return changed ? out : value;
  }
  let changed = false;
  const out: Record<string, unknown> = {};
  let fields = 0;
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined || typeof item === "function") continue;
    const cut = cutWalk(item, at(key), walk);
    if (cut !== item) changed = true;
    out[key] = cut;
    walk.bytes += jsonBytes(key) + 1;
    fields++;
  }
  walk.bytes += 1 + Math.max(1, fields);
  return changed ? out : value;
}

function walked(value: unknown, max: number, listShare = 1): { value: unknown; walk: Walk } {
  const walk: Walk = { max, listShare, strings: 0, longest: 0, bytes: 0, lists: [] };
  return { value: cutWalk(value, "", walk), walk };
}

/**
 * `value` within the bounds: every string at most STRING_CEILING characters, and the whole at most
 * `ceiling` bytes of JSON (strings cut shorter, then lists to their first items, until it fits).
 * What was cut comes back beside it; nothing is cut from a value already within them.
 */
export function boundValue<T>(value: T, ceiling = REPLY_CEILING): { value: T; cut?: ReplyCut } {
  let result = walked(value, STRING_CEILING);
  for (const max of TIGHTER_STRINGS) {
    if (result.walk.bytes <= ceiling) break;
    result = walked(value, max);
  }
  for (let round = 0, share = 1; result.walk.bytes > ceiling && round < 8; round++) {
    share *= (ceiling / result.walk.bytes) * 0.9;
    result = walked(value, result.walk.max, share);
  }
  const { walk } = result;
  if (walk.strings === 0 && walk.lists.length === 0) return { value };
  return {
    value: result.value as T,
    cut: {
      strings: walk.strings,
      stringBound: walk.max,
      longest: walk.longest,
      ...(walk.lists.length > 0 ? { lists: walk.lists } : {}),
    },
  };
}

/** A reply's text within the bounds: each line at most STRING_CEILING characters, the whole within `ceiling`. */
export function boundText(text: string, ceiling = REPLY_CEILING): { text: string; cut: boolean } {
  let out = text;
  if (out.length > STRING_CEILING)
    out = out
      .split("\n")
      .map((line) => cutString(line))
      .join("\n");
  const bytes = jsonBytes(out);
  if (bytes > ceiling) out = cutString(out, Math.floor((out.length * ceiling * 0.9) / bytes));
  return { text: out, cut: out !== text };
}

/** One line saying what was cut, for the end of a reply's text. */
export function replyCutLine(cut: ReplyCut): string {
  const parts: string[] = [];
  if (cut.strings > 0)
    parts.push(
      `${cut.strings} string(s) cut at ${cut.stringBound.toLocaleString("en-US")} characters (the longest had ${cut.longest.toLocaleString("en-US")}), each marked "…[cut: N chars]"`,
    );
  for (const list of cut.lists ?? []) parts.push(`${list.path} cut to its first ${list.kept} of ${list.of}`);
  if (cut.text) parts.push("this text cut to its bound");
  return `cut to fit the reply's bounds: ${parts.join("; ")}`;
}
