import type { X11Connection } from "./connection.js";

export interface KeyStroke {
  keycode: number;
  /** The keysym sits in the shifted column: hold shift while pressing. */
  shifted: boolean;
}

export class Keymap {
  private constructor(
    private readonly first: number,
    private readonly rows: number[][],
    readonly width: number,
  ) {}

  static async load(x: X11Connection): Promise<Keymap> {
    const { min, max } = x.keycodeRange;
    const rows = await x.keyboardMapping(min, max - min + 1);
    return new Keymap(min, rows, rows[0]?.length ?? 0);
  }

  /** Where a keysym already is: unshifted column first. */
  find(keysym: number): KeyStroke | undefined {
    for (const column of [0, 1]) {
      const index = this.rows.findIndex((row) => row[column] === keysym);
      if (index >= 0) return { keycode: this.first + index, shifted: column === 1 };
    }
    return undefined;
  }

  /** Keycodes with no symbols: free to borrow. */
  spareKeycodes(): number[] {
    const spare: number[] = [];
    this.rows.forEach((row, i) => {
      if (row.every((keysym) => keysym === 0)) spare.push(this.first + i);
    });
    return spare;
  }

  /** Puts each keysym in every column of its keycode, so shift state does not matter. */
  assign(x: X11Connection, assignments: Array<{ keycode: number; keysym: number }>): Promise<void> {
    return this.#change(
      x,
      new Map(assignments.map((a) => [a.keycode, new Array<number>(this.width).fill(a.keysym)])),
    );
  }

  clear(x: X11Connection, keycodes: number[]): Promise<void> {
    return this.#change(x, new Map(keycodes.map((k) => [k, new Array<number>(this.width).fill(0)])));
  }

  /**
   * One request per run of consecutive keycodes. Each ChangeKeyboardMapping makes every client reload
   * its keymap, and GTK3 held back input sent after it while it did (eight single-keycode changes
   * delayed a drag's effect by 600–860 ms), so neighbours go together. Keys between them are never
   * rewritten to save a request: through the core protocol the server re-derives their XKB types and
   * groups, which changed the F-keys and keypad of a stock keymap.
   */
  async #change(x: X11Connection, rows: Map<number, number[]>): Promise<void> {
    const keycodes = [...rows.keys()].sort((a, b) => a - b);
    let start = 0;
    while (start < keycodes.length) {
      let end = start + 1;
      while (end < keycodes.length && keycodes[end] === keycodes[end - 1]! + 1) end++;
      const run = keycodes.slice(start, end);
      await x.changeKeyboardMapping(
        run[0]!,
        this.width,
        run.flatMap((keycode) => rows.get(keycode)!),
      );
      for (const keycode of run) this.rows[keycode - this.first] = rows.get(keycode)!;
      start = end;
    }
  }
}
