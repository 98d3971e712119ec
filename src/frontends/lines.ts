// Splits a byte stream into lines without ever holding more than `maxLineBytes` of one line: an
// over-long line is dropped as it streams in and reported once its newline arrives.
// The first and last bytes of a dropped line are kept (a few hundred), so that a reply can name the
// request it refuses: JSON-RPC clients put the id first or last.
export type LineEvent =
  | { kind: "line"; bytes: Buffer }
  | { kind: "oversized"; length: number; head: string; tail: string };

const KEPT_BYTES = 256;

export class LineSplitter {
  #parts: Buffer[] = [];
  #size = 0;
  #discarding = false;
  #discarded = 0;
  #head = Buffer.alloc(0);
  #tail = Buffer.alloc(0);

  constructor(readonly maxLineBytes: number) {}

  push(chunk: Buffer): LineEvent[] {
    const events: LineEvent[] = [];
    let start = 0;
    while (start <= chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline < 0 ? chunk.length : newline;
      this.#take(chunk.subarray(start, end));
      if (newline < 0) break;
      events.push(this.#finish());
      start = newline + 1;
    }
    return events;
  }

  /** At end of input: the last line, if it had no newline. */
  end(): LineEvent[] {
    return this.#size > 0 || this.#discarding ? [this.#finish()] : [];
  }

  #take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.#discarding) {
      this.#discarded += piece.length;
      this.#keepTail(piece);
      return;
    }
    if (this.#size + piece.length > this.maxLineBytes) {
      this.#discarding = true;
      this.#discarded = this.#size + piece.length;
      const held = Buffer.concat([...this.#parts, piece.subarray(0, KEPT_BYTES)]);
      this.#head = Buffer.from(held.subarray(0, KEPT_BYTES));
      this.#tail = Buffer.alloc(0);
      this.#keepTail(piece);
      this.#parts = [];
      this.#size = 0;
      return;
    }
    this.#parts.push(Buffer.from(piece));
    this.#size += piece.length;
  }

  #finish(): LineEvent {
    if (this.#discarding) {
      const length = this.#discarded;
      this.#discarding = false;
      this.#discarded = 0;
      return {
        kind: "oversized",
        length,
        head: this.#head.toString("utf8"),
        tail: this.#tail.toString("utf8"),
      };
    }
    const bytes = Buffer.concat(this.#parts, this.#size);
    this.#parts = [];
    this.#size = 0;
    return { kind: "line", bytes };
  }

  #keepTail(piece: Buffer): void {
    this.#tail = Buffer.from(Buffer.concat([this.#tail, piece.subarray(-KEPT_BYTES)]).subarray(-KEPT_BYTES));
  }
}
