// What was typed where, as every deskhand process of the user must know it: a secret typed through
// one CLI process or HTTP session is kept out of the lines another writes. The store is a file beside
// the journal (`<journal>.secrets`, 0600, never through a symlink), appended to by every process, and
// holds no secret in plain text: only salted fingerprints of the pieces a line must not show, each
// folded as a line is (NFKC, case, format characters and separators dropped), so a line is scanned
// for them in one rolling pass per piece length.
import { randomBytes, randomInt } from "node:crypto";
import {
  closeSync,
  constants,
  fstatSync,
  linkSync,
  mkdirSync,
  openSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { dirname } from "node:path";
import { writeWholeSync } from "../platform/files.js";
import { credentialRanges, mergeRanges } from "./secrets.js";

/** A value of a call: `password` for what went into a password or code field (its pieces too). */
export interface Secret {
  text: string;
  password?: boolean;
}

// Two primes under 2^26.5, so a product of two residues stays exact in a double.
const P1 = 94906249;
const P2 = 94906247;
// What a line must not show, by folded length: a password's runs of 4 (and its whole when it has 3),
// and a key's or card number's runs of 12; in the intent, a password's runs of 3 too.
const PIECE = 4;
const INTENT_PIECE = 3;
const KEY_PIECE = 12;
const LENGTHS = [INTENT_PIECE, PIECE, KEY_PIECE];
// Bounds: the file is compacted to its newest half past this size.
const MAX_BYTES = 512 * 1024;
const HEADER = "deskhand-secret-hashes 1";

// ---- folding -------------------------------------------------------------------------------------

/** A text folded for matching, each folded unit remembering the original range it came from. */
export interface Folded {
  text: string;
  from: number[];
  to: number[];
}

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });
// Format characters show nothing; separators (spaces, dashes, dots) split a value without changing
// it: "4111 1111 1111 1111" is "4111-1111-1111-1111" is "4111111111111111".
const FORMAT = /\p{Cf}/gu;
const SEPARATOR = /[\s\p{Z}\p{Cc}\p{Pd}._\u00b7\u2022]/u;
const ASCII_SEPARATORS = " \t\n\r-._";
const foldOne = (g: string) => g.normalize("NFKC").toLowerCase().normalize("NFKC").replace(FORMAT, "");

/** `text` folded grapheme by grapheme, separators left out: what secrets are matched on. */
export function fold(text: string): Folded {
  const folded: Folded = { text: "", from: [], to: [] };
  const push = (f: string, start: number, end: number) => {
    for (const unit of f) {
      if (SEPARATOR.test(unit)) continue;
      folded.text += unit;
      for (let i = 0; i < unit.length; i++) {
        folded.from.push(start);
        folded.to.push(end);
      }
    }
  };
  // Printable ASCII folds to its lower case, each character where it was: no segmenting needed (a
  // 100,000-character label took 300 ms of the event loop the slow way).
  if (/^[\t\n\r\x20-\x7e]*$/.test(text)) {
    const lower = text.toLowerCase();
    for (let i = 0; i < lower.length; i++)
      if (!ASCII_SEPARATORS.includes(lower[i]!)) {
        folded.from.push(i);
        folded.to.push(i + 1);
      }
    folded.text = folded.from.map((i) => lower[i]).join("");
    return folded;
  }
  for (const [start, end] of segments(text))
    for (const { segment, index } of graphemes.segment(text.slice(start, end)))
      push(foldOne(segment), start + index, start + index + segment.length);
  return folded;
}

/** A value folded as a line is, with nothing to map back. */
export const foldValue = (text: string) => fold(text).text;

// A grapheme segmenter's steps cost time in the whole string's length (V8), so a long text is
// segmented in parts of about this many characters.
const PART = 512;

/** Where to cut `text` for segmenting: between two printable ASCII characters, or before a letter. */
function segments(text: string): [number, number][] {
  const out: [number, number][] = [];
  const ascii = (at: number) => {
    const unit = text.charCodeAt(at);
    return unit >= 0x20 && unit <= 0x7e;
  };
  let start = 0;
  for (let at = PART; at < text.length; at++) {
    const safe =
      (ascii(at - 1) && ascii(at)) ||
      (at - start >= PART * 4 && /^[\p{L}\p{N}\p{P}\p{Zs}]$/u.test(text[at]!) && text[at - 1] !== "\u200d");
    if (!safe || at - start < PART) continue;
    out.push([start, at]);
    start = at;
  }
  out.push([start, text.length]);
  return out;
}

// ---- fingerprints --------------------------------------------------------------------------------

type Bases = [number, number];
/** A fingerprint's two residues, kept apart while pieces are joined. */
type Residues = [number, number];

const pack = ([h1, h2]: Residues) => h1 * P2 + h2;
const unpack = (fp: number): Residues => [Math.floor(fp / P2), fp % P2];
const powMod = (b: number, e: number, p: number) => {
  let r = 1;
  for (let i = 0; i < e; i++) r = (r * b) % p;
  return r;
};

function residues(text: string, [b1, b2]: Bases): Residues {
  let h1 = 0;
  let h2 = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = (h1 * b1 + c) % P1;
    h2 = (h2 * b2 + c) % P2;
  }
  return [h1, h2];
}

/** The residues of `a` then `b`, from theirs and b's length. */
const joined = (a: Residues, b: Residues, bLength: number, [b1, b2]: Bases): Residues => [
  (a[0] * powMod(b1, bLength, P1) + b[0]) % P1,
  (a[1] * powMod(b2, bLength, P2) + b[1]) % P2,
];

/** Each start of `text` whose run of `length` has a fingerprint in `wanted`. */
function scan(text: string, length: number, wanted: Set<number>, [b1, b2]: Bases): number[] {
  const found: number[] = [];
  if (wanted.size === 0 || text.length < length) return found;
  const top1 = powMod(b1, length - 1, P1);
  const top2 = powMod(b2, length - 1, P2);
  let h1 = 0;
  let h2 = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (i >= length) {
      const out = text.charCodeAt(i - length);
      h1 = (h1 - ((out * top1) % P1) + P1) % P1;
      h2 = (h2 - ((out * top2) % P2) + P2) % P2;
    }
    h1 = (h1 * b1 + c) % P1;
    h2 = (h2 * b2 + c) % P2;
    if (i >= length - 1 && wanted.has(h1 * P2 + h2)) found.push(i - length + 1);
  }
  return found;
}

// ---- word boundaries -----------------------------------------------------------------------------

const WORD = /[\p{L}\p{N}\p{M}]/u;
// Scripts written without spaces: each character is a word of its own for this purpose.
const UNSPACED = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}]/u;

/** The character (code point) that ends just before `at`, or "" at the start. */
function before(text: string, at: number): string {
  if (at <= 0) return "";
  const low = text.charCodeAt(at - 1);
  return low >= 0xdc00 && low <= 0xdfff && at >= 2 ? text.slice(at - 2, at) : text[at - 1]!;
}
const after = (text: string, at: number) => String.fromCodePoint(text.codePointAt(at) ?? 0x20);

/** Whether `at` falls inside a word: a letter or digit on both sides, in a script with spaces. */
function inWord(text: string, at: number): boolean {
  if (at <= 0 || at >= text.length) return false;
  const [a, b] = [before(text, at), after(text, at)];
  return WORD.test(a) && WORD.test(b) && !UNSPACED.test(a) && !UNSPACED.test(b);
}

/** `[start, end)` widened to the whole words it starts and ends inside. */
function widened(text: string, [start, end]: [number, number]): [number, number] {
  let s = start;
  let e = end;
  while (inWord(text, s)) s -= before(text, s).length;
  while (inWord(text, e)) e += after(text, e).length;
  return [s, e];
}

/**
 * The original ranges a set of folded matches masks: a match never splits a word. One that starts
 * or ends inside a word is left where it is letters only ("the" in "neither", "word" in
 * "Password"); one with a digit or a sign takes the whole word with it ("x55wox" of "pa55word!").
 */
function masked(text: string, folded: Folded, runs: [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  for (const [s, e] of mergeRanges(runs)) {
    const range: [number, number] = [folded.from[s]!, folded.to[e - 1]!];
    if (!inWord(text, range[0]) && !inWord(text, range[1])) out.push(range);
    else if (!/^\p{L}+$/u.test(folded.text.slice(s, e))) out.push(widened(text, range));
  }
  return out;
}

// ---- the store -----------------------------------------------------------------------------------

/** A run still being typed into one place by one session: its last few units' fingerprints. */
interface Stream {
  place: number;
  length: number;
  /** Residues of its last 1, 2 and 3 folded units. */
  tails: Residues[];
}

/**
 * The fingerprints of what must not be shown, shared through the file at `path` (or kept in memory
 * when there is none: a journal to /dev/null, a one-off scrub).
 */
export class SecretStore {
  #bases: Bases = [randomInt(256, P1 - 1), randomInt(256, P2 - 1)];
  /** Fingerprints by folded length: masked in every field, or in the intent only. */
  readonly #everywhere = new Map<number, Set<number>>();
  readonly #intent = new Set<number>();
  readonly #streams = new Map<number, Stream>();
  #read = { ino: -1, offset: 0 };

  constructor(readonly path?: string) {}

  /**
   * Remembers the call's secrets (a password's pieces; a key's or card number's found in any
   * value), and joins `typed` to what its session typed into the same place just before. A
   * `substep` (a window raised as a step of a call) leaves the session's run as it is.
   */
  remember(
    secrets: Secret[],
    session: string,
    typed?: { place: string; text: string; password: boolean },
    substep = false,
  ) {
    this.refresh();
    const lines: string[] = [];
    const add = (kind: "a" | "i", length: number, fp: number) => {
      const set = kind === "i" ? this.#intent : this.#setOf(length);
      if (set.has(fp)) return;
      set.add(fp);
      lines.push(`${kind} ${length} ${fp}`);
    };
    for (const secret of secrets) this.#pieces(secret, add);
    if (!substep || typed) this.#stream(session, typed, add, lines);
    this.#append(lines);
  }

  /**
   * The ranges of `text` (as written) holding a remembered secret or a credential by its look, as
   * the store was last read (`refresh`).
   */
  ranges(text: string, intent: boolean, shortWords: string[] = []): [number, number][] {
    const found = credentialRanges(text);
    const hasAny = this.#everywhere.size > 0 || (intent && (this.#intent.size > 0 || shortWords.length > 0));
    if (!hasAny) return found;
    const folded = fold(text);
    const runs: [number, number][] = [];
    const take = (length: number, set: Set<number>) => {
      for (const at of scan(folded.text, length, set, this.#bases)) runs.push([at, at + length]);
    };
    for (const [length, set] of this.#everywhere) take(length, set);
    if (intent) take(INTENT_PIECE, this.#intent);
    const words = intent ? shortWordRanges(text, folded, shortWords) : [];
    return mergeRanges([...found, ...masked(text, folded, runs), ...words]);
  }

  #setOf(length: number): Set<number> {
    const set = this.#everywhere.get(length) ?? new Set<number>();
    this.#everywhere.set(length, set);
    return set;
  }

  /** A password's runs of 3 and 4 (its whole at 3); a key's or card's runs of 12, in any value. */
  #pieces(secret: Secret, add: (kind: "a" | "i", length: number, fp: number) => void): void {
    const grams = (value: string, length: number, each: (fp: number) => void) => {
      for (let i = 0; i + length <= value.length; i++)
        each(pack(residues(value.slice(i, i + length), this.#bases)));
    };
    if (secret.password) {
      const value = foldValue(secret.text);
      if (value.length === INTENT_PIECE) add("a", INTENT_PIECE, pack(residues(value, this.#bases)));
      grams(value, INTENT_PIECE, (fp) => add("i", INTENT_PIECE, fp));
      grams(value, PIECE, (fp) => add("a", PIECE, fp));
    }
    for (const [start, end] of credentialRanges(secret.text))
      grams(foldValue(secret.text.slice(start, end)), KEY_PIECE, (fp) => add("a", KEY_PIECE, fp));
  }

  /**
   * What a session types into one place call after call joins up ("hu", "nt", "er2!"), across
   * processes: the runs that cross from the last call's tail into this one are remembered too. A
   * stream ends when its session does anything else.
   */
  #stream(
    session: string,
    typed: { place: string; text: string; password: boolean } | undefined,
    add: (kind: "a" | "i", length: number, fp: number) => void,
    lines: string[],
  ): void {
    const key = pack(residues(`session ${session}`, this.#bases));
    const open = this.#streams.get(key);
    if (!typed?.password) {
      if (open) lines.push(`e ${key}`);
      this.#streams.delete(key);
      return;
    }
    const place = pack(residues(typed.place, this.#bases));
    const value = foldValue(typed.text);
    const joins = open?.place === place ? open : { place, length: 0, tails: [] };
    // Runs of 3 and 4 that start in the last call's tail and end in this one.
    for (const [kind, length] of [
      ["i", INTENT_PIECE],
      ["a", PIECE],
    ] as const)
      for (let fromTail = 1; fromTail < length; fromTail++) {
        const tail = joins.tails[fromTail - 1];
        const head = value.slice(0, length - fromTail);
        if (!tail || head.length < length - fromTail) continue;
        add(kind, length, pack(joined(tail, residues(head, this.#bases), head.length, this.#bases)));
      }
    const total = joins.length + value.length;
    if (total === INTENT_PIECE && joins.length > 0 && joins.tails[joins.length - 1])
      add(
        "a",
        INTENT_PIECE,
        pack(joined(joins.tails[joins.length - 1]!, residues(value, this.#bases), value.length, this.#bases)),
      );
    const tails: Residues[] = [];
    for (let n = 1; n <= 3 && n <= total; n++) {
      const own = value.slice(Math.max(0, value.length - n));
      const rest = n - own.length;
      tails.push(
        rest === 0
          ? residues(own, this.#bases)
          : joined(joins.tails[rest - 1]!, residues(own, this.#bases), own.length, this.#bases),
      );
    }
    const stream = { place, length: total, tails };
    this.#streams.set(key, stream);
    lines.push(`s ${key} ${place} ${stream.length} ${tails.map(pack).join(" ")}`);
  }

  #apply(line: string): void {
    const [kind, ...rest] = line.split(" ");
    const n = rest.map(Number);
    if (n.some((v) => !Number.isSafeInteger(v) || v < 0)) return;
    // Only the lengths this module writes: a line of another length would cost a scan of its own.
    if (kind === "a" && n.length === 2 && LENGTHS.includes(n[0]!)) this.#setOf(n[0]!).add(n[1]!);
    else if (kind === "i" && n.length === 2 && n[0] === INTENT_PIECE) this.#intent.add(n[1]!);
    else if (kind === "e" && n.length === 1) this.#streams.delete(n[0]!);
    else if (kind === "s" && n.length >= 3)
      this.#streams.set(n[0]!, { place: n[1]!, length: n[2]!, tails: n.slice(3, 6).map(unpack) });
  }

  // ---- the file ----------------------------------------------------------------------------------

  /** Opened afresh each time, never through a symlink, and refused when others may read it. */
  #open(): number {
    const path = this.path!;
    try {
      return this.#checked(openSync(path, constants.O_RDWR | constants.O_APPEND | constants.O_NOFOLLOW));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    // Made whole with its salt before anyone sees it: written beside, then linked into place.
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const temporary = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.new`;
    writeFileSync(temporary, `${HEADER} ${randomInt(256, P1 - 1)} ${randomInt(256, P2 - 1)}\n`, {
      mode: 0o600,
      flag: "wx",
    });
    try {
      linkSync(temporary, path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    } finally {
      rmSync(temporary, { force: true });
    }
    return this.#checked(openSync(path, constants.O_RDWR | constants.O_APPEND | constants.O_NOFOLLOW));
  }

  #checked(fd: number): number {
    const stat = fstatSync(fd);
    const wrong = !stat.isFile()
      ? "it is not a regular file"
      : (stat.mode & 0o077) !== 0
        ? `others can read or write it (mode ${(stat.mode & 0o777).toString(8)}); run chmod 600 on it`
        : undefined;
    if (!wrong) return fd;
    closeSync(fd);
    throw new Error(wrong);
  }

  /** Reads what other processes appended since the last read (all of it after a compaction). */
  refresh(): void {
    if (!this.path) return;
    const fd = this.#open();
    try {
      const stat = fstatSync(fd);
      if (stat.ino !== this.#read.ino || stat.size < this.#read.offset) {
        this.#everywhere.clear();
        this.#intent.clear();
        this.#streams.clear();
        this.#read = { ino: stat.ino, offset: 0 };
      }
      if (stat.size === this.#read.offset) return;
      const bytes = Buffer.alloc(stat.size - this.#read.offset);
      const got = readSync(fd, bytes, 0, bytes.length, this.#read.offset);
      const text = bytes.subarray(0, got).toString("utf8");
      // A line still being written is read next time, whole.
      const whole = text.lastIndexOf("\n") + 1;
      const lines = text.slice(0, whole).split("\n");
      if (this.#read.offset === 0) this.#header(lines.shift() ?? "");
      for (const line of lines) if (line) this.#apply(line);
      this.#read.offset += Buffer.byteLength(text.slice(0, whole));
    } finally {
      closeSync(fd);
    }
  }

  #header(line: string): void {
    const parts = line.split(" ");
    const bases = parts.slice(2).map(Number);
    if (`${parts[0]} ${parts[1]}` !== HEADER || bases.length !== 2 || !bases.every((b) => b > 1 && b < P2))
      throw new Error("it is not a deskhand secret store; remove it");
    this.#bases = bases as Bases;
  }

  /**
   * One write per call, so lines from several processes never interleave; a line written into a
   * file that a compaction has just replaced is written again into the new one. Each write starts a
   * line of its own: one cut short by a full disk spoils no line written after it.
   */
  #append(lines: string[]): void {
    if (!this.path || lines.length === 0) return;
    const bytes = Buffer.from(`\n${lines.join("\n")}\n`);
    for (let tries = 0; tries < 3; tries++) {
      const fd = this.#open();
      let ino: number;
      try {
        ino = fstatSync(fd).ino;
        for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written);
      } finally {
        closeSync(fd);
      }
      if (statSync(this.path).ino === ino) break;
    }
    if (statSync(this.path).size > MAX_BYTES) this.#compact();
  }

  /**
   * Keeps the newest half, each line once, under a lock file one process holds at a time (one left
   * by a process that died is taken after 30 s). Lines appended meanwhile to the old file are
   * carried over after the rename.
   */
  #compact(): void {
    const path = this.path!;
    const lock = `${path}.lock`;
    try {
      if (Date.now() - statSync(lock).mtimeMs > 30_000) rmSync(lock, { force: true });
    } catch {}
    let lockFd: number;
    try {
      lockFd = openSync(lock, "wx", 0o600);
    } catch {
      return;
    }
    try {
      const fd = this.#open();
      try {
        const size = fstatSync(fd).size;
        if (size <= MAX_BYTES) return;
        const bytes = Buffer.alloc(size);
        readSync(fd, bytes, 0, size, 0);
        const lines = bytes.toString("utf8").split("\n");
        const header = lines.shift()!;
        const kept = [...new Set(lines.filter(Boolean).reverse())];
        let budget = MAX_BYTES / 2;
        const newest: string[] = [];
        for (const line of kept) {
          budget -= line.length + 1;
          if (budget < 0) break;
          newest.push(line);
        }
        writeWholeSync(path, `${[header, ...newest.reverse()].join("\n")}\n`);
        const late = Buffer.alloc(Math.max(0, fstatSync(fd).size - size));
        if (late.length > 0) {
          readSync(fd, late, 0, late.length, size);
          const again = this.#open();
          try {
            writeSync(again, late);
          } finally {
            closeSync(again);
          }
        }
      } finally {
        closeSync(fd);
      }
    } finally {
      closeSync(lockFd);
      rmSync(lock, { force: true });
    }
  }
}

/** A one- or two-unit password (a key typed alone) in the intent, where it stands as a word. */
function shortWordRanges(text: string, folded: Folded, words: string[]): [number, number][] {
  const out: [number, number][] = [];
  for (const word of new Set(words.map(foldValue).filter(Boolean)))
    for (let at = folded.text.indexOf(word); at >= 0; at = folded.text.indexOf(word, at + 1)) {
      const range: [number, number] = [folded.from[at]!, folded.to[at + word.length - 1]!];
      const bare = (c: string) => c === "" || !WORD.test(c);
      if (bare(before(text, range[0])) && bare(range[1] < text.length ? after(text, range[1]) : ""))
        out.push(range);
    }
  return out;
}
