// Splits a byte stream into lines without ever holding more than `maxLineBytes` of one line: an
// over-long line is dropped as it streams in and reported once its newline arrives.
export type LineEvent = { kind: "line"; bytes: Buffer } | { kind: "oversized"; length: number };

export class LineSplitter {
  #parts: Buffer[] = [];
  #size = 0;
  #discarding = false;
  #discarded = 0;

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
      return;
    }
    if (this.#size + piece.length > this.maxLineBytes) {
      this.#discarding = true;
      this.#discarded = this.#size + piece.length;
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
      return { kind: "oversized", length };
    }
    const bytes = Buffer.concat(this.#parts, this.#size);
    this.#parts = [];
    this.#size = 0;
    return { kind: "line", bytes };
  }
}
