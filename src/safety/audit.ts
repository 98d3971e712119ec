// The audit journal: JSON lines, appended, never rewritten. An action allowed by the gate is two lines
// tied by one `id`: its attempt, on disk before any input is sent, then its outcome. Typed text and
// any value written into a field never appear: only their length. A line that quotes a secret typed
// by any process (a password or code, a key, a card number; in any normal form, case or spacing, or
// split across calls) has the quote replaced, so the journal can be shared; plain text stays.

import { randomBytes } from "node:crypto";
import {
  closeSync,
  constants,
  fdatasyncSync,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  writeSync,
} from "node:fs";
import { dirname } from "node:path";
import { boundValue } from "../core/limits.js";
import { CodedError } from "../platform/types.js";
import type { SafetyLevel } from "./levels.js";
import { foldValue, type Secret, SecretStore } from "./secret-store.js";
import { secretField, withMarkers } from "./secrets.js";

export interface AuditTarget {
  role?: string | undefined;
  name?: string | undefined;
  window?: { id: number; title?: string | undefined } | undefined;
  point?: { x: number; y: number } | undefined;
  ref?: string | undefined;
}

export interface AuditEntry {
  time: string;
  /** Ties an action's attempt line to its outcome line; absent on a refusal made before anything was done. */
  id?: string;
  /** "attempt": written before the action; "outcome": how it ended. Absent on a single-line refusal. */
  phase?: "attempt" | "outcome";
  tool: string;
  /** The profile tool its client called (main_press), where deskhand's own tool ran inside it. */
  via?: string;
  level: SafetyLevel;
  intent: string | null;
  reversible: boolean;
  target: AuditTarget | null;
  /** Absent on an attempt line: how it ends is its outcome line's. */
  decision?: "done" | "refused" | "error";
  /** Why it was refused or failed; who confirmed it when it needed a person. */
  reason?: string;
  confirmed_by?: "human" | "preapproval";
  /** What happened, in a few words, without any typed text. */
  outcome?: Record<string, unknown>;
  text_length?: number;
  /** The MCP session that acted, where a server holds several. */
  session?: string;
  /** The HTTP client (its token's name) whose session it was. */
  client?: string;
}

export type { Secret } from "./secret-store.js";

/** Text typed by keys, and where: the runs typed into one place one after another join up. */
export interface TypedInto {
  place: string;
  text: string;
  password: boolean;
}

const REPLACEMENT = "[typed text]";
// A password's values shorter than this (a key typed alone) are masked only where they stand as a
// word of the intent, and only in their own session: anywhere else they would shred every "the".
const SHORT = 3;

/** Where a journal's secret store is: beside it; a journal to /dev/null keeps none on disk. */
const secretStorePath = (journal: string): string | undefined =>
  journal === "/dev/null" ? undefined : `${journal}.secrets`;

const replaced = (text: string, ranges: [number, number][]): string => withMarkers(text, ranges, REPLACEMENT);

const shortOf = (secrets: Secret[]) =>
  secrets.filter((s) => s.password && foldValue(s.text).length < SHORT).map((s) => s.text);

// Fields that name what deskhand did, never what was typed: left as they are, so a journal stays
// readable ("password text" stays a role even when the password holds "pass").
const STRUCTURAL = new Set([
  "time",
  "tool",
  "level",
  "decision",
  "role",
  "session",
  "client",
  "confirmed_by",
  "reversible",
]);

/** `value` with what `store` knows replaced in every free-text string; short words in the intent. */
function scrubWith<T>(value: T, store: SecretStore, short: string[]): T {
  store.refresh();
  const deep = (v: unknown, key: string | undefined): unknown => {
    if (key !== undefined && STRUCTURAL.has(key)) return v;
    if (typeof v === "string") return replaced(v, store.ranges(v, key === "intent", short));
    if (Array.isArray(v)) return v.map((item) => deep(item, undefined));
    if (v && typeof v === "object")
      return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, deep(item, k)]));
    return v;
  };
  return deep(value, undefined) as T;
}

const storeOf = (secrets: Secret[]) => {
  const store = new SecretStore();
  store.remember(secrets, "");
  return store;
};

/**
 * `text` with every secret (a password's pieces, a key or card number in any value) and every
 * credential-looking run replaced, as a journal line's intent is.
 */
export const withoutSecrets = (text: string, secrets: Secret[]): string =>
  replaced(text, storeOf(secrets).ranges(text, true, shortOf(secrets)));

/** Replaces every secret and every run that looks like a credential in every free-text field. */
export const scrub = (entry: AuditEntry, secrets: Secret[]): AuditEntry =>
  scrubWith(entry, storeOf(secrets), shortOf(secrets));

/**
 * The call's values as the store must keep them: its own value a password's when the field's name
 * says it takes a code (a one-time code, a PIN, a card's security code). The line's own value comes
 * first, where it has one (its length is journaled); a form's other values are other fields'.
 */
function asTyped(entry: Pick<AuditEntry, "target" | "text_length">, secrets: Secret[], typed?: TypedInto) {
  if (entry.text_length === undefined || !secretField(entry.target?.name)) return { secrets, typed };
  const [own, ...others] = secrets;
  return {
    secrets: own ? [{ ...own, password: true }, ...others] : others,
    typed: typed && { ...typed, password: true },
  };
}

// One store per file in a process: an HTTP server's sessions each have a journal object, and share
// what the store holds in memory rather than each reading it all.
const stores = new Map<string, SecretStore>();
const storeFor = (path: string | undefined): SecretStore => {
  if (path === undefined) return new SecretStore();
  const store = stores.get(path) ?? new SecretStore(path);
  stores.set(path, store);
  return store;
};

// Bounds on the short keys a journal remembers: per session, and sessions.
const SHORT_KEYS = 64;
const SHORT_SESSIONS = 200;

export class AuditUnwritable extends CodedError {
  override readonly name = "AuditUnwritable";
  // Refused, not failed: deskhand takes no action it cannot journal, and took none.
  readonly code = "refused";
  get next(): string {
    const full = this.errno === "ENOSPC" || this.errno === "EDQUOT";
    return `${full ? "Free space on the journal's disk, or p" : "P"}oint DESKHAND_AUDIT (or "audit_path" in the config) at a writable file, then call again; deskhand takes no action it cannot journal.`;
  }
  override get details() {
    return { journal: this.path, ...(this.errno ? { cause: this.errno } : {}) };
  }
  constructor(
    readonly path: string,
    readonly detail: string,
    /** The system's code (ENOSPC, EACCES, EROFS…), where the system gave one. */
    readonly errno?: string,
  ) {
    super(`the audit journal ${path} cannot be written (${detail}); nothing was done`);
  }
}

/** An action's attempt line, written: its outcome line is written with the same id. */
export interface JournalAttempt {
  readonly id: string;
  /** Writes the outcome line; throws AuditUnwritable when the journal cannot take it. */
  outcome(entry: Omit<AuditEntry, "id" | "phase">): void;
}

/**
 * Appends synchronously: the line is on disk before the reply goes out, and lines from one process
 * never interleave.
 */
export class AuditJournal {
  readonly #store: SecretStore;
  readonly #short = new Map<string, string[]>();

  constructor(readonly path: string) {
    this.#store = storeFor(secretStorePath(path));
  }

  /**
   * Remembers the call's secrets in the store every process shares (a password typed through one
   * CLI call or HTTP session is kept out of every other's lines), and a password's keys typed
   * alone in the session's memory; returns those keys.
   */
  #remember(entry: AuditEntry | Omit<AuditEntry, "decision">, given: Secret[], typing?: TypedInto): string[] {
    const session = entry.session ?? "";
    const { secrets, typed } = asTyped(entry, given, typing);
    // A window raised as a step of a call (window.focus) does not end what is being typed.
    this.#guarded(() => this.#store.remember(secrets, session, typed, entry.tool === "window.focus"));
    const keys = [...(this.#short.get(session) ?? []), ...shortOf(secrets)].slice(-SHORT_KEYS);
    this.#short.delete(session);
    this.#short.set(session, keys);
    if (this.#short.size > SHORT_SESSIONS) this.#short.delete(this.#short.keys().next().value as string);
    return keys;
  }

  /** A store that cannot be read or written stops the action, as a journal that cannot be written does. */
  #guarded<T>(run: () => T): T {
    try {
      return run();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const why = code === "ELOOP" ? "it is a symbolic link; remove it" : (error as Error).message;
      throw new AuditUnwritable(this.path, `its secret store ${this.#store.path}: ${why}`, code);
    }
  }

  #line(entry: unknown, short: string[]): string {
    return `${JSON.stringify(this.#guarded(() => scrubWith(entry, this.#store, short)))}\n`;
  }

  /** `text` with every secret any process has typed masked, as a name or a reason is. */
  mask(text: string): string {
    return this.#guarded(() => {
      this.#store.refresh();
      return replaced(text, this.#store.ranges(text, false));
    });
  }

  /** Where `text` holds a secret any process has typed, or a key or card number by its look. */
  secretRanges(text: string): [number, number][] {
    return this.#guarded(() => {
      this.#store.refresh();
      return this.#store.ranges(text, false);
    });
  }

  /** `value` with every secret masked in every free-text string, as a journal line is (a recording step). */
  scrubbed<T>(value: T): T {
    return this.#guarded(() => scrubWith(value, this.#store, []));
  }

  /** Remembers values to keep out of every line and recording from now on (a recording's secrets). */
  keep(secrets: Secret[]): void {
    this.#guarded(() => this.#store.remember(secrets, "\u0000recording"));
  }

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
   * was done where, and must stay the user's own. A line is written whole or not at all (a full disk
   * takes half a line: that half is cut off again), and `durable` waits until it is on disk.
   */
  #append(text: string, durable = false): void {
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
        code,
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
      if (text) this.#writeWhole(fd, Buffer.from(text), stat.size);
      if (text && durable) fdatasyncSync(fd);
    } catch (error) {
      if (error instanceof AuditUnwritable) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      throw new AuditUnwritable(this.path, (error as Error).message, code);
    } finally {
      closeSync(fd);
    }
  }

  /** Writes all of `bytes`, or cuts off what part of them it wrote (unless another writer followed). */
  #writeWhole(fd: number, bytes: Buffer, sizeBefore: number): void {
    let written = 0;
    try {
      while (written < bytes.length) written += writeSync(fd, bytes, written);
    } catch (error) {
      if (written > 0 && fstatSync(fd).size === sizeBefore + written) ftruncateSync(fd, sizeBefore);
      throw error;
    }
  }

  /**
   * `secrets`: the call's values; those typed into a password or code field, and any key or card
   * number among them, are kept out of this line and every later line of every process. `typed`:
   * text typed by keys into one place, which joins what was typed there just before.
   */
  record(entry: AuditEntry, secrets: Secret[] = [], typed?: TypedInto): void {
    const short = this.#remember(entry, secrets, typed);
    // Cut to the bounds of a reply before the secrets are looked for: both stay linear and small.
    this.#append(this.#line(boundValue(entry).value, short));
  }

  /**
   * Writes an action's attempt line and waits until it is on disk: called before any input is
   * sent, so an action the journal cannot take is never taken (AuditUnwritable), and one cut short
   * (the process killed, the machine down) still has its line.
   */
  attempt(entry: Omit<AuditEntry, "id" | "phase" | "decision">, secrets: Secret[] = [], typed?: TypedInto) {
    const short = this.#remember(entry, secrets, typed);
    const id = randomBytes(6).toString("hex");
    this.#append(this.#line(boundValue({ ...entry, id, phase: "attempt" }).value, short), true);
    const written: JournalAttempt = {
      id,
      outcome: (end) =>
        this.#append(
          this.#line(
            boundValue({ ...end, id, phase: "outcome" }).value,
            this.#short.get(end.session ?? "") ?? [],
          ),
        ),
    };
    return written;
  }

  /**
   * The last `count` lines, each with its line number (`line`). A line that does not parse (cut by
   * a full disk or a crash, or garbled) is `{ line, unreadable }`; an attempt with no outcome line
   * anywhere after it is marked `unfinished`.
   */
  tail(count: number): Record<string, unknown>[] {
    let text: string;
    try {
      text = readFileSync(this.path, "utf8");
    } catch {
      return [];
    }
    const lines = text.split("\n");
    const entries: Record<string, unknown>[] = [];
    lines.forEach((raw, i) => {
      if (raw.length === 0) return;
      try {
        const parsed: unknown = JSON.parse(raw);
        if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("not an entry");
        entries.push({ ...(parsed as Record<string, unknown>), line: i + 1 });
      } catch {
        entries.push({ line: i + 1, unreadable: raw.slice(0, 200) });
      }
    });
    const ended = new Set(entries.filter((e) => e.phase === "outcome").map((e) => e.id));
    return entries
      .slice(-count)
      .map((e) => (e.phase === "attempt" && !ended.has(e.id) ? { ...e, unfinished: true } : e));
  }
}
