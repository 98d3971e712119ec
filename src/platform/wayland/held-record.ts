// What a deskhand holds down on a compositor that does not let go when it dies. KWin keeps a key or
// button of its fake input pressed after the client that pressed it is gone (measured on 5.27: a
// deskhand killed holding shift left the next one typing capitals). So each one writes what it
// holds to a file in the session's runtime folder, and the next to open its hands there releases
// what a dead one's file lists, then removes the file.
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { processAlive } from "../processes.js";

export interface HeldCodes {
  /** evdev codes of keys, and of buttons. */
  keys: number[];
  buttons: number[];
}

export class HeldRecord {
  readonly #path: string;

  constructor(
    private readonly folder: string,
    private readonly prefix: string,
  ) {
    this.#path = join(folder, `${prefix}${process.pid}.json`);
  }

  /** Writes what is held now; nothing held removes the file. */
  write(held: HeldCodes): void {
    try {
      if (held.keys.length === 0 && held.buttons.length === 0) rmSync(this.#path, { force: true });
      else writeFileSync(this.#path, JSON.stringify(held), { mode: 0o600 });
    } catch {
      // A runtime folder that cannot be written: the timers still release while this one lives.
    }
  }

  clear(): void {
    rmSync(this.#path, { force: true });
  }

  /** What the dead owners of other files held, their files removed. */
  leftByTheDead(): HeldCodes {
    const left: HeldCodes = { keys: [], buttons: [] };
    let names: string[] = [];
    try {
      names = readdirSync(this.folder);
    } catch {
      return left;
    }
    for (const name of names) {
      const pid = Number(name.slice(this.prefix.length, -".json".length));
      if (!name.startsWith(this.prefix) || !name.endsWith(".json") || !Number.isInteger(pid)) continue;
      if (pid === process.pid || processAlive(pid)) continue;
      const path = join(this.folder, name);
      try {
        const held = JSON.parse(readFileSync(path, "utf8")) as Partial<HeldCodes>;
        for (const code of held.keys ?? []) if (Number.isInteger(code)) left.keys.push(code);
        for (const code of held.buttons ?? []) if (Number.isInteger(code)) left.buttons.push(code);
      } catch {
        // A file cut short by the death: nothing readable to release.
      }
      rmSync(path, { force: true });
    }
    return left;
  }
}
