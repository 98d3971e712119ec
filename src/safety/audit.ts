// The audit journal: JSON lines, appended, never rewritten. An action allowed by the gate is two lines
// tied by one `id`: its attempt, on disk before any input is sent, then its outcome. Typed text and
// any value written into a field never appear: only their length. A line that quotes a value typed in
// the session (in any normal form or case, or split across calls) has the quote replaced, so the
// journal can be shared.
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
import type { SafetyLevel } from "./levels.js";
import { credentialRanges, mergeRanges } from "./secrets.js";

export interface AuditTarget {
  role?: string | undefined;
  name?: string | undefined;
  window?: { id: number; title?: string | undefined } | undefined;
  point?: { x: number; y: number } | undefined;
  ref?: string | undefined;
  /** How many of the window's menus were shown for a moment to read what the keys press. */
  menus_shown?: number | undefined;
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

/** A value of the call to keep out of the journal; a password's every run of 4+ characters too. */
export interface Secret {
  text: string;
  password?: boolean;
}

/** Text typed by keys, and where: the runs typed into one place one after another join up. */
export interface TypedInto {
  place: string;
  text: string;
  password: boolean;
}

/**
 * A text folded for matching, grapheme by grapheme: compatibility forms (full-width "ｓｅｃｒｅｔ"),
 * composed and decomposed accents (NFC "é", NFD "e\u0301") and case all fold alike, and each folded
 * unit remembers the original range it came from, so a match is replaced in the text as written.
 */
interface Folded {
  text: string;
  from: number[];
  to: number[];
}

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });
// Format characters (a zero-width space or joiner, a soft hyphen, a direction mark) show nothing:
// one inside a quoted value must not hide it, so both sides are matched without them.
const FORMAT = /\p{Cf}/gu;
const foldOne = (g: string) => g.normalize("NFKC").toLowerCase().normalize("NFKC").replace(FORMAT, "");

function fold(text: string): Folded {
  // Printable ASCII folds to its lower case, each character where it was: no segmenting needed
  // (a 100,000-character label took 300 ms of the event loop the slow way).
  if (/^[\x20-\x7e]*$/.test(text)) {
    const at = Array.from({ length: text.length }, (_, i) => i);
    return { text: text.toLowerCase(), from: at, to: at.map((i) => i + 1) };
  }
  const folded: Folded = { text: "", from: [], to: [] };
  for (const [start, end] of pieces(text))
    for (const { segment, index } of graphemes.segment(text.slice(start, end))) {
      const f = foldOne(segment);
      folded.text += f;
      for (let i = 0; i < f.length; i++) {
        folded.from.push(start + index);
        folded.to.push(start + index + segment.length);
      }
    }
  return folded;
}

// Each step of a grapheme segmenter's iterator costs time in the length of the whole string (V8's
// Intl.Segmenter: 30 s for 100,000 characters), so a text is segmented in pieces of about this many.
const PIECE = 512;

/**
 * Where to cut `text` for segmenting: between two printable ASCII characters, where a grapheme
 * always ends; in a long run without such a pair, before a letter, digit, mark-free sign or space.
 */
function pieces(text: string): [number, number][] {
  const out: [number, number][] = [];
  const ascii = (at: number) => {
    const unit = text.charCodeAt(at);
    return unit >= 0x20 && unit <= 0x7e;
  };
  let start = 0;
  for (let at = PIECE; at < text.length; at++) {
    const safe =
      (ascii(at - 1) && ascii(at)) ||
      (at - start >= PIECE * 4 && /^[\p{L}\p{N}\p{P}\p{Zs}]$/u.test(text[at]!) && text[at - 1] !== "\u200d");
    if (!safe || at - start < PIECE) continue;
    out.push([start, at]);
    start = at;
  }
  out.push([start, text.length]);
  return out;
}

const REPLACEMENT = "[typed text]";
// A password's runs of this many characters or more are its pieces: each is kept out too.
const PASSWORD_RUN = 4;
// Values shorter than this (in folded units) would shred ordinary words: they leave the intent only,
// and only where they stand as a word of their own.
const SHORT = 3;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/**
 * For each position of `text`, the length of the longest run starting there that is a piece of
 * `needle`: one pass over the text through a suffix automaton of the reversed needle (linear in both;
 * asking `needle.includes` of every run was line length × password length, and more).
 */
function piecesOf(text: string, needle: string): Int32Array {
  const next: Map<number, number>[] = [new Map()];
  const link = [-1];
  const longest = [0];
  let last = 0;
  for (let i = needle.length - 1; i >= 0; i--) {
    const unit = needle.charCodeAt(i);
    const current = next.push(new Map()) - 1;
    link.push(0);
    longest.push(longest[last]! + 1);
    let p = last;
    while (p !== -1 && !next[p]!.has(unit)) {
      next[p]!.set(unit, current);
      p = link[p]!;
    }
    if (p !== -1) {
      const q = next[p]!.get(unit)!;
      if (longest[p]! + 1 === longest[q]) link[current] = q;
      else {
        const clone = next.push(new Map(next[q])) - 1;
        link.push(link[q]!);
        longest.push(longest[p]! + 1);
        while (p !== -1 && next[p]!.get(unit) === q) {
          next[p]!.set(unit, clone);
          p = link[p]!;
        }
        link[q] = clone;
        link[current] = clone;
      }
    }
    last = current;
  }
  // Read the text backwards: the longest match ending at each point of the reversed text is the
  // longest piece starting there in the text.
  const runs = new Int32Array(text.length + 1);
  let state = 0;
  let length = 0;
  for (let i = text.length - 1; i >= 0; i--) {
    const unit = text.charCodeAt(i);
    while (state !== 0 && !next[state]!.has(unit)) {
      state = link[state]!;
      length = longest[state]!;
    }
    const to = next[state]!.get(unit);
    if (to === undefined) length = 0;
    else {
      state = to;
      length++;
    }
    runs[i] = length;
  }
  return runs;
}

/** How many code units before each position of `text` are not part of a letter. */
function notLetterCounts(text: string): Int32Array {
  const counts = new Int32Array(text.length + 1);
  let at = 0;
  for (const char of text) {
    const letter = /\p{L}/u.test(char);
    for (let i = 0; i < char.length; i++, at++) counts[at + 1] = counts[at]! + (letter ? 0 : 1);
  }
  return counts;
}

/** The original ranges of `text` that hold a secret or look like a credential, merged. */
function secretRanges(text: string, secrets: Secret[], shortToo: boolean): [number, number][] {
  const marks: [number, number][] = credentialRanges(text);
  if (secrets.length === 0) return mergeRanges(marks);
  const folded = fold(text);
  const mark = (start: number, length: number) =>
    marks.push([folded.from[start]!, folded.to[start + length - 1]!]);
  for (const { text: secret, password } of secrets) {
    const needle = foldOne(secret).replace(/^\s+|\s+$/g, "");
    if (!needle || !/[\p{L}\p{N}\p{S}\p{P}]/u.test(needle)) continue;
    if (needle.length < SHORT) {
      // One character typed where no password goes ("a", "7") hides nothing by masking, and would
      // blank that word in every intent ("Type a letter"); a password's, one key at a time, is masked.
      if (!shortToo || ([...needle].length === 1 && !password)) continue;
      for (let at = folded.text.indexOf(needle); at >= 0; at = folded.text.indexOf(needle, at + 1)) {
        const before = folded.text[at - 1] ?? " ";
        const after = folded.text[at + needle.length] ?? " ";
        if (!/[\p{L}\p{N}]/u.test(before) && !/[\p{L}\p{N}]/u.test(after)) mark(at, needle.length);
      }
      continue;
    }
    for (let at = folded.text.indexOf(needle); at >= 0; at = folded.text.indexOf(needle, at + 1))
      mark(at, needle.length);
    if (!password) continue;
    // Every run of the line that is a piece of the password, however it was split. A piece of
    // letters only counts where it stands as a word of its own: "word" of "pa55word!" is masked in
    // "then word!", never inside "Password", which would shred the journal's own words.
    // In the intent, the agent's own words, a piece of 3 is one too ("lti" of "ulti7x"): what it
    // typed a piece at a time must not be spelled out there across lines.
    const shortest = shortToo ? SHORT : PASSWORD_RUN;
    const runs = piecesOf(folded.text, needle);
    const notLetters = notLetterCounts(folded.text);
    for (let start = 0; start + shortest <= folded.text.length; start++) {
      const length = runs[start]!;
      if (length < shortest) continue;
      const alone =
        !LETTER_OR_DIGIT.test(folded.text[start - 1] ?? " ") &&
        !LETTER_OR_DIGIT.test(folded.text[start + length] ?? " ");
      const lettersOnly = notLetters[start + length] === notLetters[start];
      if (alone || !lettersOnly) mark(start, length);
    }
  }
  return mergeRanges(marks);
}

function replaceSecrets(text: string, secrets: Secret[], shortToo: boolean): string {
  // Most strings are short words of deskhand's own: nothing to fold when nothing could match.
  if (secrets.length === 0 && text.length < 10) return text;
  const ranges = secretRanges(text, secrets, shortToo);
  if (ranges.length === 0) return text;
  let out = "";
  let at = 0;
  for (const [start, end] of ranges) {
    out += text.slice(at, start) + REPLACEMENT;
    at = end;
  }
  return out + text.slice(at);
}

/**
 * `text` with every secret and every credential-looking run replaced, as a journal line's free text
 * is (a recording's intents are kept the same way).
 */
export const withoutSecrets = (text: string, secrets: Secret[]): string =>
  replaceSecrets(text, secrets, true);

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

/**
 * Replaces every secret, folded as above, and every run that looks like a credential (an API key, a
 * token), in every free-text field of the entry (the intent, the reason, names, titles, outcomes);
 * a short value only in the intent, where it stands as a word.
 */
export function scrub(entry: AuditEntry, secrets: Secret[]): AuditEntry {
  const deep = (value: unknown, key: string | undefined): unknown => {
    if (key !== undefined && STRUCTURAL.has(key)) return value;
    if (typeof value === "string") return replaceSecrets(value, secrets, key === "intent");
    if (Array.isArray(value)) return value.map((v) => deep(v, undefined));
    if (value && typeof value === "object")
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, deep(v, k)]));
    return value;
  };
  return deep(entry, undefined) as AuditEntry;
}

/** What one session has typed: every value, and the runs typed one after another into one place. */
interface Remembered {
  secrets: Secret[];
  stream?: { place: string; text: string; password: boolean };
}
// Bounds on what a journal remembers: values per session, and sessions.
const REMEMBERED_VALUES = 500;
const REMEMBERED_SESSIONS = 200;
const STREAM_CHARS = 512;

/**
 * The passwords this process has seen typed or set, in any session, held in memory only (never
 * written) and bounded: every session's lines are kept clear of them, since another client of the
 * same server may quote one. A run still being typed into a password field is held under its
 * session and place, and grows as it is typed.
 */
const processPasswords = new Map<string, Secret>();
const PROCESS_PASSWORDS = 256;

function rememberPassword(key: string, secret: Secret): void {
  // A piece of one or two characters would mask every such word of every session: the run it
  // joins (a stream) is remembered instead.
  if (foldOne(secret.text).trim().length < SHORT) return;
  processPasswords.delete(key);
  processPasswords.set(key, secret);
  if (processPasswords.size > PROCESS_PASSWORDS)
    processPasswords.delete(processPasswords.keys().next().value as string);
}

export class AuditUnwritable extends Error {
  override readonly name = "AuditUnwritable";
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
  readonly #remembered = new Map<string, Remembered>();

  constructor(readonly path: string) {}

  /**
   * Every secret a line of this session must not show: the call's own, and all typed before in the
   * session (an intent that repeats an earlier value), including what was typed into one place
   * over several calls ("hun", "ter2") as one.
   */
  #secretsFor(session: string, secrets: Secret[], typed?: TypedInto): Secret[] {
    let memory = this.#remembered.get(session);
    if (!memory) {
      memory = { secrets: [] };
      if (this.#remembered.size >= REMEMBERED_SESSIONS) {
        const oldest = this.#remembered.keys().next().value;
        if (oldest !== undefined) this.#remembered.delete(oldest);
      }
      this.#remembered.set(session, memory);
    }
    memory.secrets.push(...secrets);
    for (const secret of secrets) if (secret.password) rememberPassword(`value ${secret.text}`, secret);
    if (memory.secrets.length > REMEMBERED_VALUES)
      memory.secrets.splice(0, memory.secrets.length - REMEMBERED_VALUES);
    // A run typed into one place ends when something else is done: it stays a secret of the session.
    const stream = memory.stream;
    const continues = typed !== undefined && stream?.place === typed.place;
    const streamKey = (place: string) => `stream ${session}\u0000${place}`;
    if (stream && !continues) {
      memory.secrets.push({ text: stream.text, password: stream.password });
      memory.stream = undefined;
      if (stream.password) {
        processPasswords.delete(streamKey(stream.place));
        rememberPassword(`value ${stream.text}`, { text: stream.text, password: true });
      }
    }
    if (typed)
      memory.stream = continues
        ? {
            place: typed.place,
            text: (stream!.text + typed.text).slice(-STREAM_CHARS),
            password: stream!.password || typed.password,
          }
        : { place: typed.place, text: typed.text.slice(-STREAM_CHARS), password: typed.password };
    if (memory.stream?.password)
      rememberPassword(streamKey(memory.stream.place), { text: memory.stream.text, password: true });
    if (memory.secrets.length > REMEMBERED_VALUES)
      memory.secrets.splice(0, memory.secrets.length - REMEMBERED_VALUES);
    return this.#known(session);
  }

  /** What the session's lines must not show, as its last attempt left it (a typed run still open). */
  #known(session: string): Secret[] {
    const memory = this.#remembered.get(session);
    const stream = memory?.stream;
    return [
      ...(memory?.secrets ?? []),
      ...(stream ? [{ text: stream.text, password: stream.password }] : []),
      ...processPasswords.values(),
    ];
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
   * `secrets`: every value of the call (typed text, field values), kept out of every field of this
   * line and of every later line of the session. `typed`: text typed by keys into one place, which
   * joins what was typed there just before.
   */
  record(entry: AuditEntry, secrets: Secret[] = [], typed?: TypedInto): void {
    const all = this.#secretsFor(entry.session ?? "", secrets, typed);
    // Cut to the bounds of a reply before the secrets are looked for: both stay linear and small.
    this.#append(`${JSON.stringify(scrub(boundValue(entry).value, all))}\n`);
  }

  /**
   * Writes an action's attempt line and waits until it is on disk: called before any input is
   * sent, so an action the journal cannot take is never taken (AuditUnwritable), and one cut short
   * (the process killed, the machine down) still has its line.
   */
  attempt(entry: Omit<AuditEntry, "id" | "phase" | "decision">, secrets: Secret[] = [], typed?: TypedInto) {
    const all = this.#secretsFor(entry.session ?? "", secrets, typed);
    const id = randomBytes(6).toString("hex");
    this.#append(`${JSON.stringify(scrub({ ...entry, id, phase: "attempt" }, all))}\n`, true);
    const written: JournalAttempt = {
      id,
      outcome: (end) =>
        this.#append(
          `${JSON.stringify(scrub({ ...end, id, phase: "outcome" }, this.#known(end.session ?? "")))}\n`,
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
