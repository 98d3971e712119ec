// Synthetic input through XTEST. Every batch of fake events ends with a round trip, so when a call
// resolves the server has delivered its events; what the app then does with them is re-read by callers.
import { setTimeout as sleep } from "node:timers/promises";
import {
  AUTO_RELEASE_MS,
  ClickSpacing,
  type HeldInput,
  type KeyboardInput,
  type MouseButton,
  type Point,
  type PointerInput,
  type WheelDirection,
} from "../hands.js";
import { InputTurns } from "../input-turns.js";
import { type Chord, chordText, loneSurrogateError, type Modifier } from "../keys.js";
import { charKeysym, keyKeysym, MODIFIER_KEYSYMS } from "../keysyms.js";
import type { RawXTest, X11Connection } from "./connection.js";
import { Keymap, type KeyStroke } from "./keymap.js";
import {
  formatOwners,
  OWNERS_PROPERTY,
  type OwnerRecord,
  ownerGone,
  parseOwners,
  type Recovered,
  selfRecord,
} from "./owners.js";

const BUTTONS: Record<MouseButton, number> = { left: 1, middle: 2, right: 3 };
const WHEEL_BUTTONS: Record<WheelDirection, number> = { up: 4, down: 5, left: 6, right: 7 };
/** QueryPointer's mask bits for buttons 1–3. */
const BUTTON_MASKS: Record<MouseButton, number> = { left: 0x100, middle: 0x200, right: 0x400 };

// Toolkits re-read the keymap when told it changed; keys sent before they have done so come out as
// the old symbol. 30 ms was enough for GTK, Java and Firefox on these machines.
const REMAP_SETTLE_MS = 30;
// Java dropped the first keystroke that came right after a click.
const AFTER_CLICK_MS = 200;
// Between the keys of a chord: sent at once, KDE's menu bar took KWrite's alt+e 1 time in 8 (a
// person's keys, or xdotool's 12 ms apart, every time).
const CHORD_STROKE_MS = 12;
// Keys are flushed in chunks, so a long text does not flood a slow client's queue in one burst.
const TYPE_CHUNK = 64;
/** A borrowed keycode is given to another character no sooner than this after its last use. */
const RECYCLE_AFTER_MS = 250;
const DRAG_STEPS = 12;
const DRAG_STEP_MS = 8;
/** Between the pointer's arrival where a press will happen and the press. */
const ARRIVAL_MS = 50;
/**
 * The selection every deskhand on a display takes while it sends input: two processes choosing the
 * same spare keycode at once typed each other's letters (2 runs in 7), and another's pointer move
 * during a click's 50 ms arrival pause made the press land on the other's field.
 */
const INPUT_LOCK = "_DESKHAND_INPUT";
/**
 * Every deskhand's borrowed keycodes, on the root window as pairs (keycode, last use in ms, low 32
 * bits), read and written under the lock: a process that finds no spare keycode takes the one any
 * deskhand used longest ago, instead of failing while another keeps them all until it closes.
 */
const SHARED_KEYCODES = "_DESKHAND_BORROWED_KEYCODES";
const LOCK_WAIT_MS = 15_000;
const LOCK_POLL_MS = 5;

export class X11Input implements PointerInput, KeyboardInput, HeldInput {
  readonly autoReleaseMs: number;
  #lastClickAt = 0;
  readonly #clicks = new ClickSpacing();
  #heldButtons = new Map<MouseButton, NodeJS.Timeout>();
  #heldKeys = new Map<string, { strokes: KeyStroke[]; keysyms: number[]; timer: NodeJS.Timeout }>();
  #borrowed = new Map<number, number>(); // keysym → borrowed keycode
  #lastUsed = new Map<number, number>(); // keycode → when a key was last sent with it
  #remapped = 0;
  /** The keycodes of the chunk being typed: down for a moment, so on record while it goes. */
  #typingKeys: number[] = [];
  readonly #self = selfRecord();
  /** What a deskhand that is gone had left held or borrowed, given back when this one opened. */
  recovered: Recovered | undefined;
  // Input calls run one at a time: interleaved chords or remaps would garble each other.
  #queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly x: X11Connection,
    private readonly xtest: RawXTest,
    private keymap: Keymap,
    autoReleaseMs: number,
  ) {
    this.autoReleaseMs = autoReleaseMs;
  }

  /**
   * Opens input on the display; first, under the lock, whatever a deskhand that is gone left held is
   * released and what it borrowed is given back (`recovered` says what), so that its shift key or
   * its Greek keycodes do not change what this one types.
   */
  static async open(x: X11Connection, autoReleaseMs = AUTO_RELEASE_MS): Promise<X11Input> {
    const [xtest, keymap] = await Promise.all([x.xtest(), Keymap.load(x)]);
    const input = new X11Input(x, xtest, keymap, autoReleaseMs);
    await input.#withInput(() => input.#recover());
    return input;
  }

  async #owners(): Promise<OwnerRecord[]> {
    return parseOwners((await this.x.cardinals(this.x.root, OWNERS_PROPERTY).catch(() => undefined)) ?? []);
  }

  async #recover(): Promise<void> {
    const records = await this.#owners();
    const gone = records.filter(ownerGone);
    if (gone.length === 0) return;
    const live = records.filter((r) => !gone.includes(r));
    const liveBorrowed = new Set(live.flatMap((r) => r.borrowed));
    let buttons = 0;
    const keys = new Set<number>();
    const keycodes = new Set<number>();
    for (const record of gone) {
      buttons |= record.buttons;
      for (const key of record.keys) keys.add(key);
      for (const keycode of record.borrowed) if (!liveBorrowed.has(keycode)) keycodes.add(keycode);
    }
    for (const key of keys) this.#fake(this.xtest.KeyRelease, key);
    for (const [i, button] of [1, 2, 3].entries())
      if (buttons & (1 << i)) this.#fake(this.xtest.ButtonRelease, button);
    await this.x.sync();
    if (keycodes.size > 0) {
      await this.keymap.clear(this.x, [...keycodes]);
      this.keymap = await Keymap.load(this.x);
      const shared = await this.#sharedKeycodes();
      for (const keycode of keycodes) shared.delete(keycode);
      await this.x.setCardinals(this.x.root, SHARED_KEYCODES, [...shared].flat());
    }
    await this.x.setCardinals(this.x.root, OWNERS_PROPERTY, formatOwners(live));
    this.recovered = { owners: gone.map((r) => r.pid), buttons, keys: [...keys], keycodes: [...keycodes] };
  }

  /** This process's record on the display: what it holds and borrowed now (under the lock). */
  async #publishState(): Promise<void> {
    const others = (await this.#owners()).filter(
      (r) => !(r.host === this.#self.host && r.pid === this.#self.pid),
    );
    const mask = { left: 1, middle: 2, right: 4 } as const;
    const buttons = [...this.#heldButtons.keys()].reduce((m, b) => m | mask[b], 0);
    const keys = [
      ...new Set([
        ...[...this.#heldKeys.values()].flatMap((h) => h.strokes.map((s) => s.keycode)),
        ...this.#typingKeys,
      ]),
    ];
    const borrowed = [...new Set(this.#borrowed.values())];
    const mine =
      buttons || keys.length || borrowed.length ? [{ ...this.#self, buttons, keys, borrowed }] : [];
    await this.x.setCardinals(this.x.root, OWNERS_PROPERTY, formatOwners([...others, ...mine]));
  }

  #serial<T>(work: () => Promise<T>): Promise<T> {
    // Inside the call chain that holds the keyboard, steps run in its own order: queued behind
    // another call that waits for the keyboard, they would wait for themselves.
    if (this.#turns.inside) return work();
    const run = this.#queue.then(work, work);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** This process's calls take turns, then the display's keyboard lock is taken. */
  readonly #turns = new InputTurns(async () => {
    const deadline = Date.now() + LOCK_WAIT_MS;
    while (!(await this.x.tryLock(INPUT_LOCK))) {
      if (Date.now() > deadline)
        throw new Error(
          `another program has held the keyboard lock on ${this.x.display} for ${LOCK_WAIT_MS / 1000} s; nothing more was typed`,
        );
      await sleep(LOCK_POLL_MS);
    }
    return () => this.x.unlock(INPUT_LOCK).catch(() => undefined);
  });

  /** Holds the keyboard lock across several calls (a focus click, then the typing). */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    return this.#withInput(work);
  }

  /**
   * Runs `work` holding the display's keyboard lock; waits for another deskhand to finish first.
   * Re-entrant within one call chain only (input-turns.ts).
   */
  #withInput<T>(work: () => Promise<T>): Promise<T> {
    return this.#turns.run(work);
  }

  #fake(type: number, detail: number, at?: Point): void {
    this.xtest.FakeInput(type, detail, 0, at ? this.x.root : 0, at?.x ?? 0, at?.y ?? 0);
  }

  #moveNow(to: Point): void {
    this.#fake(this.xtest.MotionNotify, 0, to);
  }

  /**
   * Moves the pointer to where a press will happen and lets it arrive first: a press that comes
   * with the pointer's jump from elsewhere can reach a toolkit before the pointer's entry (a GTK3
   * scale ignored such a drag; a Swing button, such a click, now and then). Where the pointer is
   * comes from the server: a person or another client may have moved it since deskhand last did.
   */
  async #arrive(at: Point): Promise<void> {
    const now = await this.x.pointerState();
    if (now.x === at.x && now.y === at.y) return;
    this.#moveNow(at);
    await this.x.sync();
    await sleep(ARRIVAL_MS);
  }

  #modifierStrokes(modifiers: Modifier[]): KeyStroke[] {
    return modifiers.map((modifier) => {
      const stroke = this.keymap.find(MODIFIER_KEYSYMS[modifier]);
      if (!stroke) throw new Error(`the keymap has no key for ${modifier}`);
      return { keycode: stroke.keycode, shifted: false };
    });
  }

  /** One key of a chord, sent on its own and given time to be taken, as a person's keys come. */
  async #stroke(stroke: KeyStroke, down: boolean): Promise<void> {
    this.#fake(down ? this.xtest.KeyPress : this.xtest.KeyRelease, stroke.keycode);
    await this.x.sync();
    await sleep(CHORD_STROKE_MS);
  }

  #press(strokes: KeyStroke[], down: boolean): void {
    const ordered = down ? strokes : [...strokes].reverse();
    for (const stroke of ordered)
      this.#fake(down ? this.xtest.KeyPress : this.xtest.KeyRelease, stroke.keycode);
  }

  move(to: Point): Promise<void> {
    return this.#serial(() =>
      this.#withInput(async () => {
        this.#moveNow(to);
        await this.x.sync();
      }),
    );
  }

  click(at: Point, options: { button: MouseButton; count: 1 | 2; modifiers: Modifier[] }): Promise<void> {
    return this.#serial(() =>
      this.#withInput(async () => {
        const modifiers = this.#modifierStrokes(options.modifiers);
        await this.#arrive(at);
        const apart = this.#clicks.waitBefore(at, options.button);
        if (apart > 0) await sleep(apart);
        this.#press(modifiers, true);
        for (let i = 0; i < options.count; i++) {
          this.#fake(this.xtest.ButtonPress, BUTTONS[options.button]);
          this.#fake(this.xtest.ButtonRelease, BUTTONS[options.button]);
        }
        this.#press(modifiers, false);
        await this.x.sync();
        this.#lastClickAt = Date.now();
        this.#clicks.clicked(at, options.button, this.#lastClickAt);
      }),
    );
  }

  drag(from: Point, to: Point, options: { button: MouseButton; modifiers: Modifier[] }): Promise<void> {
    return this.#serial(() =>
      this.#withInput(async () => {
        const modifiers = this.#modifierStrokes(options.modifiers);
        await this.#arrive(from);
        this.#press(modifiers, true);
        this.#fake(this.xtest.ButtonPress, BUTTONS[options.button]);
        await this.x.sync();
        // Intermediate motion: toolkits start a drag only after the pointer travels with the button held.
        for (let step = 1; step <= DRAG_STEPS; step++) {
          await sleep(DRAG_STEP_MS);
          this.#moveNow({
            x: Math.round(from.x + ((to.x - from.x) * step) / DRAG_STEPS),
            y: Math.round(from.y + ((to.y - from.y) * step) / DRAG_STEPS),
          });
          await this.x.sync();
        }
        this.#fake(this.xtest.ButtonRelease, BUTTONS[options.button]);
        this.#press(modifiers, false);
        await this.x.sync();
      }),
    );
  }

  wheel(at: Point | undefined, direction: WheelDirection, notches: number): Promise<void> {
    return this.#serial(() =>
      this.#withInput(async () => {
        if (at) this.#moveNow(at);
        for (let i = 0; i < notches; i++) {
          this.#fake(this.xtest.ButtonPress, WHEEL_BUTTONS[direction]);
          this.#fake(this.xtest.ButtonRelease, WHEEL_BUTTONS[direction]);
        }
        await this.x.sync();
      }),
    );
  }

  async #waitAfterClick(): Promise<void> {
    const since = Date.now() - this.#lastClickAt;
    if (since < AFTER_CLICK_MS) await sleep(AFTER_CLICK_MS - since);
  }

  /**
   * A keycode for a keysym the keymap lacks: a spare one, remapped. Borrowed keycodes keep their
   * symbols until deskhand closes, or until another character needs the keycode: every keymap change
   * makes each client reload its keymap, and GTK3 held back input sent after it while it did (a
   * give-back one second after typing delayed the next drag's effect by up to 400 ms). Text typed
   * again needs no new remap. `pinned` keysyms are not given up to make room (they are in use by
   * the current chunk or a held key).
   */
  async #borrow(keysyms: number[], pinned: Set<number>): Promise<void> {
    const missing = [...new Set(keysyms)].filter((keysym) => !this.keymap.find(keysym));
    if (missing.length === 0) return;
    let spare = this.keymap.spareKeycodes();
    if (spare.length < missing.length) {
      // Reuse the keycodes used longest ago, and only once a slow client has had time to translate
      // the keys already sent with them: Java translates a key when it dispatches it, with the
      // mapping of that moment, and dropped characters whose keycode had been remapped 30 ms on.
      const free = [...this.#borrowed]
        .filter(([keysym]) => !pinned.has(keysym))
        .sort(([, a], [, b]) => (this.#lastUsed.get(a) ?? 0) - (this.#lastUsed.get(b) ?? 0))
        .slice(0, missing.length - spare.length);
      const lastUse = Math.max(0, ...free.map(([, keycode]) => this.#lastUsed.get(keycode) ?? 0));
      const wait = lastUse + RECYCLE_AFTER_MS - Date.now();
      if (wait > 0) await sleep(wait);
      // Remapped straight to the new character: clearing first would be one more keymap change.
      for (const [keysym] of free) this.#borrowed.delete(keysym);
      spare = [...spare, ...free.map(([, keycode]) => keycode)];
    }
    if (spare.length < missing.length) {
      // Another deskhand's borrowed keycodes, the least recently used first, once its keys with them
      // have had time to be translated.
      const ours = new Set(this.#borrowed.values());
      // A keycode that now holds a character this piece types is in use, whoever borrowed it (one
      // left behind by a deskhand that died): taking it would take the character away.
      const inUse = new Set(
        [...pinned].map((keysym) => this.keymap.find(keysym)?.keycode).filter((k) => k !== undefined),
      );
      const now = Date.now() >>> 0;
      const others = [...(await this.#sharedKeycodes())]
        .filter(([keycode]) => !ours.has(keycode) && !spare.includes(keycode) && !inUse.has(keycode))
        .map(([keycode, used]) => ({ keycode, age: (now - used) >>> 0 }))
        .sort((a, b) => b.age - a.age)
        .slice(0, missing.length - spare.length);
      const wait = Math.max(0, ...others.map((o) => RECYCLE_AFTER_MS - o.age));
      if (wait > 0) await sleep(wait);
      spare = [...spare, ...others.map((o) => o.keycode)];
    }
    if (spare.length < missing.length)
      throw new Error(
        `${missing.length} characters need remapping at once; only ${spare.length} spare keycodes`,
      );
    const assignments = missing.map((keysym, i) => ({ keycode: spare[i]!, keysym }));
    await this.keymap.assign(this.x, assignments);
    for (const { keycode, keysym } of assignments) this.#borrowed.set(keysym, keycode);
    await this.#publishKeycodes();
    await this.#publishState();
    this.#remapped += assignments.length;
    await sleep(REMAP_SETTLE_MS);
  }

  /**
   * The keymap as the server has it now, before keys are chosen: the layout may have changed since
   * (setxkbmap), and another deskhand may have borrowed or given back spare keycodes. A keycode this
   * one borrowed that no longer holds its character is forgotten, never cleared or typed with.
   */
  async #refreshKeymap(): Promise<void> {
    this.keymap = await Keymap.load(this.x);
    for (const [keysym, keycode] of this.#borrowed)
      if (this.keymap.find(keysym)?.keycode !== keycode) this.#borrowed.delete(keysym);
  }

  async #sharedKeycodes(): Promise<Map<number, number>> {
    const values = (await this.x.cardinals(this.x.root, SHARED_KEYCODES).catch(() => undefined)) ?? [];
    const shared = new Map<number, number>();
    for (let i = 0; i + 1 < values.length; i += 2) shared.set(values[i]!, values[i + 1]!);
    return shared;
  }

  /** Writes this process's borrowed keycodes and their last use into the shared list (under the lock). */
  async #publishKeycodes(): Promise<void> {
    const shared = await this.#sharedKeycodes();
    const ours = new Set(this.#borrowed.values());
    // A keycode another process took from this one is no longer ours; one given back leaves the list.
    for (const keycode of shared.keys())
      if (this.keymap.spareKeycodes().includes(keycode)) shared.delete(keycode);
    for (const keycode of ours) shared.set(keycode, (this.#lastUsed.get(keycode) ?? Date.now()) >>> 0);
    await this.x.setCardinals(this.x.root, SHARED_KEYCODES, [...shared].flat());
  }

  /** On closing: everything not held goes back, once recent keys have had time to be translated. */
  async #restoreBorrowed(): Promise<void> {
    await this.#refreshKeymap();
    const held = new Set([...this.#heldKeys.values()].flatMap((h) => h.keysyms));
    const unheld = [...this.#borrowed].filter(([keysym]) => !held.has(keysym));
    const lastUse = Math.max(0, ...unheld.map(([, keycode]) => this.#lastUsed.get(keycode) ?? 0));
    if (lastUse + RECYCLE_AFTER_MS > Date.now()) await sleep(lastUse + RECYCLE_AFTER_MS - Date.now());
    await this.keymap.clear(
      this.x,
      unheld.map(([, keycode]) => keycode),
    );
    for (const [keysym] of unheld) this.#borrowed.delete(keysym);
    this.keymap = await Keymap.load(this.x);
    await this.#publishKeycodes().catch(() => undefined);
    await this.#publishState().catch(() => undefined);
  }

  /** The strokes for a chord: modifiers, shift when the symbol sits in the shifted column, the key. */
  async #keyStrokes(chord: Chord, pinned: Set<number>): Promise<{ strokes: KeyStroke[]; keysyms: number[] }> {
    await this.#refreshKeymap();
    const strokes = this.#modifierStrokes(chord.modifiers);
    if (!chord.key) return { strokes, keysyms: [] };
    const keysym = keyKeysym(chord.key);
    await this.#borrow([keysym], pinned);
    const stroke = this.keymap.find(keysym)!;
    const shift =
      stroke.shifted && !chord.modifiers.includes("shift") ? this.#modifierStrokes(["shift"]) : [];
    return {
      strokes: [...strokes, ...shift, { keycode: stroke.keycode, shifted: false }],
      keysyms: [keysym],
    };
  }

  chord(chord: Chord, count: number): Promise<void> {
    return this.#serial(async () => {
      await this.#waitAfterClick();
      await this.#withInput(async () => {
        const { strokes } = await this.#keyStrokes(chord, new Set());
        for (let i = 0; i < count; i++) {
          for (const stroke of strokes) await this.#stroke(stroke, true);
          for (const stroke of [...strokes].reverse()) await this.#stroke(stroke, false);
        }
        for (const stroke of strokes) this.#lastUsed.set(stroke.keycode, Date.now());
        await this.x.sync();
      });
    });
  }

  type(text: string): Promise<{ remapped: number }> {
    const lone = loneSurrogateError(text);
    if (lone) return Promise.reject(new Error(`the text ${lone}`));
    return this.#serial(async () => {
      await this.#waitAfterClick();
      const shift = this.#modifierStrokes(["shift"]);
      const before = this.#remapped;
      const chars = [...text];
      for (let start = 0; start < chars.length; start += TYPE_CHUNK) {
        await this.#withInput(() => this.#typeChunk(chars.slice(start, start + TYPE_CHUNK), shift));
      }
      return { remapped: this.#remapped - before };
    });
  }

  /** One chunk, under the keyboard lock: the keymap re-read, what is missing borrowed, the keys sent. */
  async #typeChunk(chars: string[], shift: KeyStroke[]): Promise<void> {
    await this.#refreshKeymap();
    const ours = new Set(this.#borrowed.values());
    const spare = new Set(this.keymap.spareKeycodes());
    const othersHeld = [...(await this.#sharedKeycodes()).keys()].filter(
      (k) => !ours.has(k) && !spare.has(k),
    ).length;
    const chunk = chars.map(charKeysym);
    // Several distinct missing characters are borrowed in one settle, not one per character;
    // a chunk with more of them than spare keycodes goes in smaller pieces.
    for (let piece = 0; piece < chunk.length; ) {
      let end = chunk.length;
      while (
        end > piece + 1 &&
        new Set(chunk.slice(piece, end).filter((k) => !this.keymap.find(k))).size >
          this.#capacity(new Set(chunk.slice(piece, end)), othersHeld)
      )
        end = piece + Math.ceil((end - piece) / 2);
      const keysyms = chunk.slice(piece, end);
      if (piece > 0) await this.x.sync();
      await this.#borrow(keysyms, new Set(keysyms));
      const strokes = keysyms.map((keysym) => this.keymap.find(keysym));
      const lost = keysyms.find((_, i) => !strokes[i]);
      if (lost !== undefined)
        throw new Error(
          `the keymap changed under the typing (keysym 0x${lost.toString(16)} is no longer mapped); nothing more was typed`,
        );
      // On record while its keys go: a deskhand killed between a press and its release leaves the
      // key down, and the next one releases it.
      this.#typingKeys = [...new Set([...shift, ...(strokes as KeyStroke[])].map((s) => s.keycode))];
      await this.#publishState();
      for (const keysym of keysyms) {
        const stroke = this.keymap.find(keysym)!;
        const strokes = stroke.shifted ? [...shift, stroke] : [stroke];
        this.#press(strokes, true);
        this.#press(strokes, false);
        this.#lastUsed.set(stroke.keycode, Date.now());
      }
      piece = end;
    }
    await this.x.sync();
    this.#typingKeys = [];
    await this.#publishState();
    // Others read when this process last used its borrowed keycodes before taking one.
    if (this.#borrowed.size > 0) await this.#publishKeycodes();
  }

  /**
   * How many keycodes a piece typing `piece` could borrow: spare ones, this process's borrowed ones
   * that neither a held key nor the piece itself uses, and other deskhands' borrowed ones.
   */
  #capacity(piece: Set<number>, othersHeld: number): number {
    const held = new Set([...this.#heldKeys.values()].flatMap((h) => h.keysyms));
    const reusable = [...this.#borrowed.keys()].filter((k) => !held.has(k) && !piece.has(k));
    return this.keymap.spareKeycodes().length + reusable.length + othersHeld;
  }

  buttonDown(at: Point, button: MouseButton): Promise<void> {
    return this.#serial(() =>
      this.#withInput(async () => {
        this.#moveNow(at);
        this.#fake(this.xtest.ButtonPress, BUTTONS[button]);
        await this.x.sync();
        clearTimeout(this.#heldButtons.get(button));
        this.#heldButtons.set(
          button,
          setTimeout(
            () => void this.#releaseButton(button).catch(() => undefined),
            this.autoReleaseMs,
          ).unref(),
        );
        await this.#publishState();
      }),
    );
  }

  #releaseButton(button: MouseButton, at?: Point): Promise<void> {
    return this.#serial(() =>
      this.#withInput(async () => {
        clearTimeout(this.#heldButtons.get(button));
        this.#heldButtons.delete(button);
        if (at) this.#moveNow(at);
        this.#fake(this.xtest.ButtonRelease, BUTTONS[button]);
        await this.x.sync();
        await this.#publishState();
      }),
    );
  }

  buttonUp(at: Point, button: MouseButton): Promise<void> {
    return this.#releaseButton(button, at);
  }

  keyDown(chord: Chord): Promise<void> {
    return this.#serial(async () => {
      const name = chordText(chord);
      await this.#withInput(async () => {
        const { strokes, keysyms } = await this.#keyStrokes(chord, new Set());
        this.#press(strokes, true);
        await this.x.sync();
        const previous = this.#heldKeys.get(name);
        if (previous) clearTimeout(previous.timer);
        const timer = setTimeout(
          () => void this.#releaseKey(name).catch(() => undefined),
          this.autoReleaseMs,
        ).unref();
        this.#heldKeys.set(name, { strokes, keysyms, timer });
        await this.#publishState();
      });
    });
  }

  #releaseKey(name: string): Promise<void> {
    return this.#serial(() =>
      this.#withInput(async () => {
        const held = this.#heldKeys.get(name);
        if (!held) return;
        clearTimeout(held.timer);
        this.#heldKeys.delete(name);
        this.#press(held.strokes, false);
        await this.x.sync();
        await this.#publishState();
      }),
    );
  }

  /** Releasing a key that is not held is not an error: the release is sent, in case it is held elsewhere. */
  async keyUp(chord: Chord): Promise<void> {
    const name = chordText(chord);
    if (this.#heldKeys.has(name)) return this.#releaseKey(name);
    return this.#serial(async () => {
      const { strokes } = await this.#keyStrokes(chord, new Set());
      this.#press(strokes, false);
      await this.x.sync();
    });
  }

  held(): { buttons: MouseButton[]; keys: string[] } {
    return { buttons: [...this.#heldButtons.keys()], keys: [...this.#heldKeys.keys()] };
  }

  async serverHeld(): Promise<{ buttons: MouseButton[]; keycodes: number[] }> {
    const [pointer, keycodes] = await Promise.all([this.x.pointerState(), this.x.pressedKeycodes()]);
    const buttons = (Object.keys(BUTTON_MASKS) as MouseButton[]).filter(
      (b) => pointer.mask & BUTTON_MASKS[b],
    );
    return { buttons, keycodes };
  }

  /** Releases everything still held: nothing stays pressed after deskhand goes away. */
  async releaseAll(): Promise<void> {
    for (const button of [...this.#heldButtons.keys()]) await this.#releaseButton(button);
    for (const name of [...this.#heldKeys.keys()]) await this.#releaseKey(name);
    await this.#serial(() => this.#withInput(() => this.#restoreBorrowed()));
  }
}
