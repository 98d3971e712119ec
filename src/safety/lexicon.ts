// A sorted word list searched where it lies: the file's bytes and the offsets of its lines stay off
// the JavaScript heap (a Buffer and a typed array), so 350,000 words cost the server's 96 MB heap
// nothing; as a Set of strings they took a third of it and the garbage collector with it.
import { readFileSync } from "node:fs";

/** How many words sharing a prefix are looked at for one long enough. */
const PREFIX_SCAN = 200;

export class Lexicon {
  readonly #bytes: Buffer;
  readonly #starts: Uint32Array;
  readonly #extra = new Set<string>();

  /** `bytes`: words one a line, sorted by their UTF-8 bytes. */
  constructor(bytes: Buffer) {
    this.#bytes = bytes;
    let lines = 0;
    for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0x0a) lines++;
    this.#starts = new Uint32Array(lines + 1);
    let line = 0;
    this.#starts[line++] = 0;
    for (let i = 0; i < bytes.length; i++)
      if (bytes[i] === 0x0a && line <= lines) this.#starts[line++] = i + 1;
  }

  static read(paths: URL[]): Lexicon[] {
    return paths.map((path) => new Lexicon(readFileSync(path)));
  }

  get size(): number {
    return this.#starts.length - 1 + this.#extra.size;
  }

  /** Words learnt at run time (a translation's words), kept beside the file's. */
  add(word: string): void {
    if (!this.has(word)) this.#extra.add(word);
  }

  /** A word known not to be in the file, added without a search. */
  learn(word: string): void {
    this.#extra.add(word);
  }

  /**
   * Whether a word of the file starts with `prefix` (the words learnt at run time are not searched);
   * `longerBy`: with at least that many letters after it; `also`: one that passes this test too.
   */
  hasPrefix(prefix: string, longerBy = 0, also?: (word: string) => boolean): boolean {
    const letters = [...prefix].length + longerBy;
    for (const word of this.#withPrefix(prefix))
      if ((longerBy === 0 || [...word].length >= letters) && (!also || also(word))) return true;
    return false;
  }

  /** The file's words that start with `prefix`, the first PREFIX_SCAN of them, in byte order. */
  *#withPrefix(prefix: string): Generator<string> {
    const wanted = Buffer.from(prefix);
    let low = 0;
    let high = this.#starts.length - 1;
    // The first line not below the prefix, then the lines that start with it.
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (Buffer.compare(this.#line(middle), wanted) < 0) low = middle + 1;
      else high = middle;
    }
    for (let at = low; at < this.#starts.length - 1 && at < low + PREFIX_SCAN; at++) {
      const line = this.#line(at);
      if (line.length < wanted.length || !line.subarray(0, wanted.length).equals(wanted)) return;
      yield line.toString();
    }
  }

  #line(index: number): Buffer {
    return this.#bytes.subarray(this.#starts[index]!, this.#starts[index + 1]! - 1);
  }

  has(word: string): boolean {
    if (this.#extra.has(word)) return true;
    const wanted = Buffer.from(word);
    let low = 0;
    let high = this.#starts.length - 2;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const start = this.#starts[middle]!;
      const end = this.#starts[middle + 1]! - 1;
      const order = Buffer.compare(this.#bytes.subarray(start, end), wanted);
      if (order === 0) return true;
      if (order < 0) low = middle + 1;
      else high = middle - 1;
    }
    return false;
  }
}

/** Several lexicons read as one. */
export class Lexicons {
  constructor(readonly parts: Lexicon[]) {}

  has(word: string): boolean {
    return this.parts.some((part) => part.has(word));
  }

  add(word: string): void {
    if (!this.has(word)) this.parts[0]?.add(word);
  }

  /** Words known to be missing from every part (a cache of what `add` found), added unchecked. */
  learn(words: string[]): void {
    for (const word of words) this.parts[0]?.learn(word);
  }

  get size(): number {
    return this.parts.reduce((n, part) => n + part.size, 0);
  }
}
