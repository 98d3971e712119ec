// The audit journal: one JSON line per attempted action, appended, never rewritten. Typed text and any
// value written into a field never appear: only their length. An intent that quotes the typed text has
// the quote replaced, so the journal can be shared.
import { closeSync, constants, fstatSync, mkdirSync, openSync, readFileSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import type { SafetyLevel } from "./levels.js";

export interface AuditTarget {
  role?: string | undefined;
  name?: string | undefined;
  window?: { id: number; title?: string | undefined } | undefined;
  point?: { x: number; y: number } | undefined;
  ref?: string | undefined;
}

export interface AuditEntry {
  time: string;
  tool: string;
  level: SafetyLevel;
  intent: string | null;
  reversible: boolean;
  target: AuditTarget | null;
  decision: "done" | "refused" | "error";
  /** Why it was refused or failed; who confirmed it when it needed a person. */
  reason?: string;
  confirmed_by?: "human" | "preapproval";
  /** What happened, in a few words, without any typed text. */
  outcome?: Record<string, unknown>;
  text_length?: number;
  /** The MCP session that acted, where a server holds several. */
  session?: string;
}

/** A value of the call to keep out of the journal; a password's every run of 4+ characters too. */
export interface Secret {
  text: string;
  password?: boolean;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
// Past this length a password's substrings are too many to list; its whole forms still go.
const PASSWORD_RUNS_UP_TO = 128;

/**
 * Every form a secret can take in a line: as given, trimmed of surrounding whitespace and newlines,
 * any case; for a password, also each run of 4 or more of its characters.
 */
function needles(secrets: Secret[]): { all: string[]; short: string[] } {
  const all = new Set<string>();
  const short = new Set<string>();
  for (const { text, password } of secrets) {
    for (const form of [text, text.trim(), text.replace(/[\r\n]+$/, ""), text.replace(/^[\r\n]+/, "")]) {
      // Short values ("a", "ok") would shred ordinary words: they leave the intent only, as written.
      if ([...form].length >= 3) all.add(form);
      else if (form.length > 0) short.add(form);
    }
    if (password && text.length <= PASSWORD_RUNS_UP_TO) {
      for (let start = 0; start + 4 <= text.length; start++)
        for (let end = start + 4; end <= text.length; end++) all.add(text.slice(start, end));
    }
  }
  const longestFirst = (set: Set<string>) => [...set].sort((a, b) => b.length - a.length);
  return { all: longestFirst(all), short: longestFirst(short) };
}

/** Replaces every secret, in any case, in every string of the entry. */
export function scrub(entry: AuditEntry, secrets: Secret[]): AuditEntry {
  const { all, short } = needles(secrets);
  if (all.length === 0 && short.length === 0) return entry;
  const pattern = all.length > 0 ? new RegExp(all.map(escapeRegExp).join("|"), "giu") : undefined;
  const replace = (text: string) => (pattern ? text.replace(pattern, "[typed text]") : text);
  const deep = (value: unknown): unknown => {
    if (typeof value === "string") return replace(value);
    if (Array.isArray(value)) return value.map(deep);
    if (value && typeof value === "object")
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, deep(v)]));
    return value;
  };
  const cleaned = deep(entry) as AuditEntry;
  const intent =
    cleaned.intent === null ? null : short.reduce((t, s) => t.split(s).join("[typed text]"), cleaned.intent);
  return { ...cleaned, intent };
}

export class AuditUnwritable extends Error {
  override readonly name = "AuditUnwritable";
  constructor(
    readonly path: string,
    detail: string,
  ) {
    super(`the audit journal ${path} cannot be written (${detail}); nothing was done`);
  }
}

/**
 * Appends synchronously: the line is on disk before the reply goes out, and lines from one process
 * never interleave.
 */
export class AuditJournal {
  constructor(readonly path: string) {}

  /**
   * Proves the journal can be written before anything is done: an action that could not be journaled
   * is not taken. Throws AuditUnwritable naming the path and the reason.
   */
  ensureWritable(): void {
    this.#append("");
  }

  /**
   * Opened afresh for each line, never through a symlink (O_NOFOLLOW: a link planted at the path
   * would send the lines elsewhere), and refused when others can read it: the journal names what
   * was done where, and must stay the user's own.
   */
  #append(text: string): void {
    let fd: number;
    try {
      mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
      fd = openSync(
        this.path,
        constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW,
        0o600,
      );
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new AuditUnwritable(
        this.path,
        code === "ELOOP"
          ? "it is a symbolic link; point DESKHAND_AUDIT at a regular file"
          : (error as Error).message,
      );
    }
    try {
      const stat = fstatSync(fd);
      // /dev/null is a person's explicit choice to keep no journal (benchmarks do); any other
      // non-file (a FIFO another program reads, a device) is refused.
      if (this.path === "/dev/null" && stat.isCharacterDevice()) return;
      if (!stat.isFile()) throw new AuditUnwritable(this.path, "it is not a regular file");
      if ((stat.mode & 0o077) !== 0)
        throw new AuditUnwritable(
          this.path,
          `others can read or write it (mode ${(stat.mode & 0o777).toString(8)}); run chmod 600 on it`,
        );
      if (text) writeSync(fd, text);
    } finally {
      closeSync(fd);
    }
  }

  /** `secrets`: every value of the call (typed text, field values), kept out of every field. */
  record(entry: AuditEntry, secrets: Secret[] = []): void {
    this.#append(`${JSON.stringify(scrub(entry, secrets))}\n`);
  }

  /** The last `count` entries; lines that do not parse are returned as `{ unreadable: line }`. */
  tail(count: number): Record<string, unknown>[] {
    let text: string;
    try {
      text = readFileSync(this.path, "utf8");
    } catch {
      return [];
    }
    const lines = text.split("\n").filter((line) => line.length > 0);
    return lines.slice(-count).map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        return { unreadable: line.slice(0, 200) };
      }
    });
  }
}
