// deskhand's own Wayland keyboard: one zwp_virtual_keyboard_v1 for the whole session, with the pc+us
// keymap passed to the compositor as a file descriptor (wire.ts's sendFile). wlroots does not derive
// modifier state from a virtual keyboard's keys, so every change of what is held is also sent as a
// modifiers request, as wtype does. Keys held by keyDown are released by this keyboard itself after
// autoReleaseMs, and all of them when it closes.
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HandsUnavailable } from "../hands.js";
import { type Chord, chordText, type Modifier } from "../keys.js";
import { keymapText, keyStroke, MODIFIER_KEYS, pieceStroke, type Stroke, typingPieces } from "./keymap.js";
import { HeldKeys } from "./seat.js";
import type { WaylandConnection } from "./wire.js";

/** zwp_virtual_keyboard_v1 requests. */
const KEYBOARD = { keymap: 0, key: 1, modifiers: 2, destroy: 3 };
const XKB_V1 = 1;
const PRESSED = 1;
const RELEASED = 0;
/** Keys go in runs this long between round trips, so a long text does not flood a slow client. */
const RUN = 64;

interface HeldChord {
  codes: number[];
  mask: number;
}

export class WaylandKeyboard {
  #spares: string[] = [];
  readonly #held: HeldKeys<HeldChord>;
  readonly #folder: string;

  private constructor(
    private readonly wl: WaylandConnection,
    private readonly keyboard: number,
    private readonly time: () => number,
    private readonly autoReleaseMs: number,
    private readonly timeoutMs: number,
  ) {
    this.#folder = mkdtempSync(join(tmpdir(), "deskhand-keymap-"));
    this.#held = new HeldKeys(
      autoReleaseMs,
      ({ codes }) => {
        for (const code of [...codes].reverse()) this.#key(code, RELEASED);
        this.#modifiers(0);
      },
      () => this.wl.closed,
    );
  }

  /** The keyboard on the connection's seat, its keymap uploaded; throws HandsUnavailable saying why not. */
  static async open(
    wl: WaylandConnection,
    options: { time: () => number; autoReleaseMs: number; timeoutMs: number },
  ): Promise<WaylandKeyboard> {
    if (wl.noDescriptors)
      throw new HandsUnavailable(
        `the keyboard needs its keymap passed as a file descriptor: ${wl.noDescriptors}`,
      );
    if (!wl.globals.has("zwp_virtual_keyboard_manager_v1"))
      throw new HandsUnavailable(
        "the compositor offers no virtual keyboard (zwp_virtual_keyboard_manager_v1)",
      );
    const seat = wl.bind("wl_seat", 1);
    const manager = wl.bind("zwp_virtual_keyboard_manager_v1", 1);
    const id = wl.newId();
    wl.send(manager, 0, [{ o: seat }, { o: id }]);
    const keyboard = new WaylandKeyboard(wl, id, options.time, options.autoReleaseMs, options.timeoutMs);
    try {
      await keyboard.#upload([]);
      // The app may still hold the modifiers of a keyboard that went away (a deskhand killed with
      // shift down): this one says at once that nothing is held.
      keyboard.#modifiers(0);
      await wl.roundtrip(options.timeoutMs);
    } catch (error) {
      keyboard.#removeFolder();
      throw new HandsUnavailable(
        `the compositor did not take deskhand's keymap: ${(error as Error).message}`,
      );
    }
    return keyboard;
  }

  /** Uploads the keymap with `spares` on the spare keys, unless it is the one in place. */
  async #upload(spares: string[]): Promise<void> {
    if (spares.join("\0") === this.#spares.join("\0") && this.#uploaded) return;
    const text = Buffer.from(`${keymapText(spares)}\0`, "utf8");
    const file = join(this.#folder, "keymap");
    writeFileSync(file, text, { mode: 0o600 });
    try {
      this.wl.sendFile(this.keyboard, KEYBOARD.keymap, [{ u: XKB_V1 }, { u: text.length }], file);
    } finally {
      unlinkSync(file);
    }
    this.#spares = spares;
    this.#uploaded = true;
    await this.wl.roundtrip(this.timeoutMs);
  }

  #uploaded = false;

  #key(code: number, state: number): void {
    this.wl.send(this.keyboard, KEYBOARD.key, [{ u: this.time() }, { u: code }, { u: state }]);
  }

  /** What keyDown holds now, as a modifiers mask. */
  #heldMask(): number {
    let mask = 0;
    for (const held of this.#held.values()) mask |= held.mask;
    return mask;
  }

  #modifiers(mask: number): void {
    this.wl.send(this.keyboard, KEYBOARD.modifiers, [
      { u: mask | this.#heldMask() },
      { u: 0 },
      { u: 0 },
      { u: 0 },
    ]);
  }

  #modifierDown(modifiers: Modifier[]): number {
    let mask = 0;
    for (const modifier of modifiers) {
      this.#key(MODIFIER_KEYS[modifier].code, PRESSED);
      mask |= MODIFIER_KEYS[modifier].mask;
      this.#modifiers(mask);
    }
    return mask;
  }

  #modifierUp(modifiers: Modifier[]): void {
    let mask = modifiers.reduce((m, modifier) => m | MODIFIER_KEYS[modifier].mask, 0);
    for (const modifier of [...modifiers].reverse()) {
      this.#key(MODIFIER_KEYS[modifier].code, RELEASED);
      mask &= ~MODIFIER_KEYS[modifier].mask;
      this.#modifiers(mask);
    }
  }

  /** A chord's modifiers (shift added for a character on a key's second level) and its key's stroke. */
  async #chordStrokes(chord: Chord): Promise<{ modifiers: Modifier[]; stroke: Stroke | undefined }> {
    if (!chord.key) return { modifiers: chord.modifiers, stroke: undefined };
    let stroke = keyStroke(chord.key);
    if (!stroke && chord.key.kind === "char") {
      await this.#upload([chord.key.char]);
      stroke = pieceStroke(chord.key.char, [chord.key.char]);
    }
    const modifiers =
      stroke?.shift && !chord.modifiers.includes("shift")
        ? [...chord.modifiers, "shift" as const]
        : chord.modifiers;
    return { modifiers, stroke };
  }

  async chord(chord: Chord, count: number): Promise<void> {
    const { modifiers, stroke } = await this.#chordStrokes(chord);
    for (let i = 0; i < count; i++) {
      this.#modifierDown(modifiers);
      if (stroke) {
        this.#key(stroke.code, PRESSED);
        this.#key(stroke.code, RELEASED);
      }
      this.#modifierUp(modifiers);
      if ((i + 1) % RUN === 0) await this.wl.roundtrip(this.timeoutMs);
    }
    await this.#upload([]);
    await this.wl.roundtrip(this.timeoutMs);
  }

  /** Types `text`; characters outside the us layout go on spare keys (`remapped` counts them). */
  async type(text: string): Promise<{ remapped: number }> {
    const pieces = typingPieces(text); // Refuses a control character before anything is sent.
    let remapped = 0;
    let sent = 0;
    for (const piece of pieces) {
      if (piece.spares.length) await this.#upload(piece.spares);
      remapped += piece.spares.length;
      for (const char of piece.chars) {
        const stroke = pieceStroke(char, piece.spares);
        if (stroke.shift) this.#modifierDown(["shift"]);
        this.#key(stroke.code, PRESSED);
        this.#key(stroke.code, RELEASED);
        if (stroke.shift) this.#modifierUp(["shift"]);
        if (++sent % RUN === 0) await this.wl.roundtrip(this.timeoutMs);
      }
    }
    await this.#upload([]);
    await this.wl.roundtrip(this.timeoutMs);
    return { remapped };
  }

  /** Holds `modifiers` while `work` runs (a click with ctrl), and lets them go after, whatever happens. */
  async holding<T>(modifiers: Modifier[], work: () => Promise<T>): Promise<T> {
    if (modifiers.length === 0) return work();
    this.#modifierDown(modifiers);
    try {
      await this.wl.roundtrip(this.timeoutMs);
      return await work();
    } finally {
      if (!this.wl.closed) {
        this.#modifierUp(modifiers);
        await this.wl.roundtrip(this.timeoutMs).catch(() => undefined);
      }
    }
  }

  async keyDown(chord: Chord): Promise<void> {
    const name = chordText(chord);
    if (this.#held.has(name)) return;
    if (chord.key?.kind === "char" && !keyStroke(chord.key))
      throw new HandsUnavailable(
        `holding ${JSON.stringify(chord.key.char)} (outside the us keymap) is not built for Wayland: type it instead`,
      );
    const { modifiers, stroke } = await this.#chordStrokes(chord);
    const mask = this.#modifierDown(modifiers);
    if (stroke) this.#key(stroke.code, PRESSED);
    const codes = [...modifiers.map((m) => MODIFIER_KEYS[m].code), ...(stroke ? [stroke.code] : [])];
    this.#held.hold(name, { codes, mask });
    await this.wl.roundtrip(this.timeoutMs);
  }

  async keyUp(chord: Chord): Promise<void> {
    await this.#held.release(chordText(chord));
    await this.wl.roundtrip(this.timeoutMs);
  }

  /** The chords keyDown holds, by this keyboard's own account. */
  heldKeys(): string[] {
    return this.#held.names();
  }

  /** Releases every held key, then the keyboard goes. */
  async close(): Promise<void> {
    await this.#held.releaseAll();
    if (!this.wl.closed) {
      this.#modifiers(0);
      this.wl.send(this.keyboard, KEYBOARD.destroy, []);
    }
    this.#removeFolder();
  }

  #removeFolder(): void {
    rmSync(this.#folder, { recursive: true, force: true });
  }
}
