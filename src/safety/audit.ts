// The audit journal: one JSON line per attempted action, appended, never rewritten. Typed text and any
// value written into a field never appear: only their length. An intent that quotes the typed text has
// the quote replaced, so the journal can be shared.
import { appendFileSync, mkdirSync, readFileSync } from "node:fs";
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
}

/** Replaces the secret in every string of the entry (in the intent even when it is one character). */
function scrub(entry: AuditEntry, secret: string | undefined): AuditEntry {
  if (!secret) return entry;
  const replace = (text: string) => text.split(secret).join("[typed text]");
  const deep = (value: unknown): unknown => {
    if (typeof value === "string") return replace(value);
    if (Array.isArray(value)) return value.map(deep);
    if (value && typeof value === "object")
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, deep(v)]));
    return value;
  };
  const intent = entry.intent === null ? null : replace(entry.intent);
  // Short secrets ("a", "ok") would shred ordinary words elsewhere; they are kept out by construction.
  return secret.length >= 3 ? { ...(deep(entry) as AuditEntry), intent } : { ...entry, intent };
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

export class AuditJournal {
  constructor(readonly path: string) {}

  /**
   * Appends synchronously: the line is on disk before the reply goes out, and lines from one process
   * never interleave. `secret` is typed text to keep out of every field.
   */
  /**
   * Proves the journal can be written before anything is done: an action that could not be journaled
   * is not taken. Throws AuditUnwritable naming the path and the reason.
   */
  ensureWritable(): void {
    try {
      mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
      appendFileSync(this.path, "", { mode: 0o600 });
    } catch (error) {
      throw new AuditUnwritable(this.path, error instanceof Error ? error.message : String(error));
    }
  }

  record(entry: AuditEntry, secret?: string): void {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    appendFileSync(this.path, `${JSON.stringify(scrub(entry, secret))}\n`, { mode: 0o600 });
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
