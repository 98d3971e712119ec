// The hands on KDE Plasma (KWin): the pointer and the keys are KWin's own fake input
// (org_kde_kwin_fake_input, offered only to a program a desktop file grants it, kwin-grant.ts, and
// obeyed only after `authenticate`), windows and their control are KWin's scripts (kwin.ts), and
// pixels come from KWin's ScreenShot2 into a file whose descriptor goes with the call (dbus-fd.ts).
// KWin keeps the modifier state itself and types with its own keymap: keys are evdev codes of the
// us layout. Text outside it is pasted (wl-copy, then ctrl+v; tools/hands/outside-keymap.ts decides
// where), and a key or chord outside it is refused before anything is sent. KWin keeps a dead
// client's keys pressed, so what is held is on file for the next deskhand (held-record.ts).
// Measured on Plasma 5.27: shared/notes/kde-gnome.md §1.

import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { clipboardHolds, clipboardText, hasClipboardTools, setClipboardText } from "../clipboard.js";
import {
  AUTO_RELEASE_MS,
  type Hands,
  HandsUnavailable,
  type MouseButton,
  type Point,
  type RgbaImage,
  type WindowControl,
} from "../hands.js";
import { InputTurns } from "../input-turns.js";
import { type Chord, chordText, loneSurrogateError, type Modifier } from "../keys.js";
import type { Rect } from "../types.js";
import { CompositorUnreachable, goneFrom, OPEN_MS } from "./compositor.js";
import { DBusFdConnection, variantMap } from "./dbus-fd.js";
import { HeldRecord } from "./held-record.js";
import { keyStroke, MODIFIER_KEYS, usStroke } from "./keymap.js";
import { frontWindow, KWinScripting, type KWinWindow, kwinClientWindows, windowNumber } from "./kwin.js";
import { GRANT_FILE } from "./kwin-grant.js";
import { BUTTONS, LOCK_WAIT_MS, NOTCH, PRESSED, RELEASED } from "./pointer-motion.js";
import { HeldKeys, type PointerDevice, PointerSeat, wheelAxis } from "./seat.js";
import { waylandSocketPath } from "./socket-path.js";
import { lockName, takeInputLock } from "./typist-lock.js";
import { CompositorControlled, type CompositorWindow, compositorWindowControl } from "./window-control.js";
import { WaylandConnection } from "./wire.js";

/** org_kde_kwin_fake_input requests (the notes' §1.3). */
const FAKE = { authenticate: 0, button: 2, axis: 3, motionAbsolute: 9, key: 10 };
/** How long the clipboard's earlier text, just put back, is taken as still there. */
const RESTORED_FRESH_MS = 1500;
/** Keys go in runs this long between round trips. */
const RUN = 64;
/** QImage's ARGB32 formats: 32-bit words 0xAARRGGBB, so B, G, R, A in memory. */
const ARGB32 = new Set([4, 5, 6]);

export async function openKWinHands(
  env: NodeJS.ProcessEnv,
  options: { timeoutMs?: number; autoReleaseMs?: number } = {},
): Promise<Hands> {
  const timeoutMs = options.timeoutMs ?? 2000;
  const kwin = await KWinScripting.open(env, Math.max(timeoutMs, OPEN_MS)).catch((error: Error) => {
    throw error instanceof CompositorUnreachable
      ? error
      : new HandsUnavailable(`cannot reach KWin: ${error.message}`);
  });
  let wl: WaylandConnection;
  try {
    wl = await WaylandConnection.open(env, Math.max(timeoutMs, OPEN_MS));
  } catch (error) {
    // A display that does not answer may be a KWin that died as it was asked: the bus tells.
    const gone =
      goneFrom(error, "kwin", "its Wayland display refuses connections") ??
      ((await kwin.present())
        ? undefined
        : new CompositorUnreachable(
            "kwin",
            "compositor_gone",
            `org.kde.KWin left the session bus, and its Wayland display does not answer (${(error as Error).message})`,
          ));
    kwin.close();
    throw gone ?? new HandsUnavailable(`cannot reach the Wayland display: ${(error as Error).message}`);
  }
  if (!wl.globals.has("org_kde_kwin_fake_input")) {
    wl.close();
    kwin.close();
    throw new HandsUnavailable(
      `KWin offers deskhand no fake input: no desktop file grants it to ${process.execPath} (run \`deskhand setup kde\`, which writes ~/.local/share/applications/${GRANT_FILE})`,
    );
  }
  const fake = wl.bind("org_kde_kwin_fake_input", 4);
  wl.send(fake, FAKE.authenticate, [
    { s: "deskhand" },
    { s: "an agent's input, through deskhand's safety gate" },
  ]);
  const display = env.WAYLAND_DISPLAY ?? "wayland-0";
  const socketPath = waylandSocketPath(env);
  const lock = lockName(socketPath);
  const record = new HeldRecord(env.XDG_RUNTIME_DIR ?? tmpdir(), `deskhand-held-${lock.slice(16, 32)}-`);
  // What a deskhand that died holding keys or buttons left pressed is let go first.
  const left = record.leftByTheDead();
  for (const code of left.keys) wl.send(fake, FAKE.key, [{ u: code }, { u: RELEASED }]);
  for (const code of left.buttons) wl.send(fake, FAKE.button, [{ u: code }, { u: RELEASED }]);
  await wl.roundtrip(timeoutMs);
  const recovered =
    left.keys.length + left.buttons.length
      ? `released ${left.keys.length} key(s) and ${left.buttons.length} button(s) a deskhand that is gone left held`
      : undefined;
  if (recovered) process.stderr.write(`deskhand: on ${display}: ${recovered}\n`);
  return new KWinHands(kwin, wl, fake, {
    env,
    recovered,
    record,
    autoReleaseMs: options.autoReleaseMs ?? AUTO_RELEASE_MS,
    timeoutMs,
    turns: new InputTurns(() => takeInputLock(lock, LOCK_WAIT_MS, display)),
    busAddress: env.DBUS_SESSION_BUS_ADDRESS ?? "",
  });
}

interface Settings {
  env: NodeJS.ProcessEnv;
  recovered: string | undefined;
  record: HeldRecord;
  autoReleaseMs: number;
  timeoutMs: number;
  turns: InputTurns;
  busAddress: string;
}

class KWinHands extends CompositorControlled implements Hands {
  readonly recovered: string | undefined;
  readonly keyboardMissing = undefined;
  readonly keyable = (char: string) => usStroke(char) !== undefined;
  /** Present where wl-copy is installed: text outside the keymap then goes by the clipboard. */
  readonly paste?: (text: string, arrived: () => Promise<boolean>) => Promise<boolean>;
  readonly autoReleaseMs: number;
  readonly #heldKeys: HeldKeys<number[]>;
  protected readonly seat: PointerSeat;
  /** What the last paste put back on the clipboard, and when. */
  #restored: { text: string | undefined; at: number } | undefined;
  /** The connection that passes ScreenShot2 its file, opened at the first picture. */
  #pixels: Promise<DBusFdConnection> | undefined;
  readonly #folder = mkdtempSync(join(tmpdir(), "deskhand-kwin-pixels-"));
  protected readonly control: WindowControl;

  constructor(
    private readonly kwin: KWinScripting,
    private readonly wl: WaylandConnection,
    private readonly fake: number,
    private readonly settings: Settings,
  ) {
    super();
    this.autoReleaseMs = settings.autoReleaseMs;
    this.recovered = settings.recovered;
    this.seat = new PointerSeat(this.#device(), {
      exclusive: (work) => this.exclusive(work),
      autoReleaseMs: settings.autoReleaseMs,
      heldChanged: () => this.#recordHeld(),
    });
    this.#heldKeys = new HeldKeys(
      settings.autoReleaseMs,
      (codes) => {
        for (const code of [...codes].reverse()) this.#key(code, RELEASED);
      },
      () => this.wl.closed,
      () => this.#recordHeld(),
    );
    if (hasClipboardTools(settings.env)) this.paste = (text, arrived) => this.#paste(text, arrived);
    this.control = compositorWindowControl<KWinWindow & CompositorWindow>({
      windows: async () => (await kwin.windows()).map((w) => ({ ...w, number: windowNumber(w.uuid) })),
      clientWindows: kwinClientWindows,
      front: frontWindow,
      act: (w, action) => kwin.act(w.uuid, action),
    });
  }

  /**
   * The text on the clipboard, ctrl+v, and the clipboard's earlier text put back once the field
   * shows it (a text that was not there is cleared). A clipboard of only other kinds (an image) is
   * not kept: putting it back is not built. Runs pasted one after another (a text with several)
   * take the earlier text the last run put back, unread: reading an empty clipboard waits 400 ms.
   */
  async #paste(text: string, arrived: () => Promise<boolean>): Promise<boolean> {
    const env = this.settings.env;
    return this.exclusive(async () => {
      const last = this.#restored;
      const earlier = last && Date.now() - last.at < RESTORED_FRESH_MS ? last.text : await clipboardText(env);
      await setClipboardText(env, text);
      try {
        // wl-copy's first process may end before the one it forked holds the clipboard.
        if (!(await clipboardHolds(env, text)))
          throw new HandsUnavailable(
            "the clipboard did not take the text within 1 s: nothing was pasted or typed",
          );
        await this.chord({ modifiers: ["ctrl"], key: { kind: "char", char: "v" } }, 1);
        return await arrived();
      } finally {
        await setClipboardText(env, earlier).catch(() => undefined);
        this.#restored = { text: earlier, at: Date.now() };
      }
    });
  }

  readClipboard(): Promise<string | undefined> {
    return clipboardText(this.settings.env);
  }

  writeClipboard(text: string): Promise<void> {
    return setClipboardText(this.settings.env, text);
  }

  /** What is held now, on file for the next deskhand should this one die holding it. */
  #recordHeld(): void {
    this.settings.record.write({
      keys: [...new Set(this.#heldKeys.values().flat())],
      buttons: this.seat.heldButtons().map((b) => BUTTONS[b]),
    });
  }

  readonly name = "wayland (KWin): fake input, KWin scripts, ScreenShot2";

  get closed(): boolean {
    return this.wl.closed || this.kwin.closed;
  }

  exclusive<T>(work: () => Promise<T>): Promise<T> {
    return this.settings.turns.run(work);
  }

  #roundtrip(): Promise<void> {
    // KWin gone mid-typing: said so, not taken for a key its keymap lacks.
    return this.wl.roundtrip(this.settings.timeoutMs).catch((error: unknown) => {
      throw goneFrom(error, "kwin", "its Wayland display closed") ?? error;
    });
  }

  #moveTo(to: Point): void {
    this.wl.send(this.fake, FAKE.motionAbsolute, [{ fixed: Math.round(to.x) }, { fixed: Math.round(to.y) }]);
  }

  #button(button: MouseButton, state: number): void {
    this.wl.send(this.fake, FAKE.button, [{ u: BUTTONS[button] }, { u: state }]);
  }

  #key(code: number, state: number): void {
    this.wl.send(this.fake, FAKE.key, [{ u: code }, { u: state }]);
  }

  /** The evdev codes of a chord, modifiers first; refused before anything is sent where one has none. */
  #codes(chord: Chord): number[] {
    const stroke = chord.key ? keyStroke(chord.key) : undefined;
    if (chord.key && !stroke)
      throw new HandsUnavailable(
        `${JSON.stringify(chordText(chord))} is outside the us keymap KWin types with: nothing was sent; set a field's text with act set_value`,
      );
    const modifiers = new Set<Modifier>(chord.modifiers);
    if (stroke?.shift) modifiers.add("shift");
    return [...[...modifiers].map((m) => MODIFIER_KEYS[m].code), ...(stroke ? [stroke.code] : [])];
  }

  async #holding<T>(modifiers: Modifier[], work: () => Promise<T>): Promise<T> {
    const codes = modifiers.map((m) => MODIFIER_KEYS[m].code);
    for (const code of codes) this.#key(code, PRESSED);
    try {
      return await work();
    } finally {
      if (!this.wl.closed) for (const code of [...codes].reverse()) this.#key(code, RELEASED);
    }
  }

  /** KWin's fake pointer, for the seat that clicks, drags and scrolls with it. */
  #device(): PointerDevice {
    return {
      closed: () => this.wl.closed,
      moveTo: (to) => this.#moveTo(to),
      button: (button, pressed) => this.#button(button, pressed ? PRESSED : RELEASED),
      notch: (direction) => {
        const { axis, sign } = wheelAxis(direction);
        this.wl.send(this.fake, FAKE.axis, [{ u: axis }, { fixed: sign * NOTCH }]);
      },
      flush: () => this.#roundtrip(),
      holder: (modifiers) => (work) => this.#holding(modifiers, work),
    };
  }

  async chord(chord: Chord, count: number): Promise<void> {
    const codes = this.#codes(chord);
    await this.exclusive(async () => {
      for (let i = 0; i < count; i++) {
        for (const code of codes) this.#key(code, PRESSED);
        for (const code of [...codes].reverse()) this.#key(code, RELEASED);
        if ((i + 1) % RUN === 0) await this.#roundtrip();
      }
      await this.#roundtrip();
    });
  }

  async type(text: string): Promise<{ remapped: number }> {
    const lone = loneSurrogateError(text);
    if (lone) throw new Error(`the text ${lone}`);
    const outside = [...text].find((c) => !usStroke(c));
    if (outside !== undefined)
      throw new HandsUnavailable(
        `${JSON.stringify(outside)} is outside the us keymap KWin types with: nothing was typed; set the text with act set_value`,
      );
    return this.exclusive(async () => {
      let sent = 0;
      for (const char of text) {
        const stroke = usStroke(char)!;
        if (stroke.shift) this.#key(MODIFIER_KEYS.shift.code, PRESSED);
        this.#key(stroke.code, PRESSED);
        this.#key(stroke.code, RELEASED);
        if (stroke.shift) this.#key(MODIFIER_KEYS.shift.code, RELEASED);
        if (++sent % RUN === 0) await this.#roundtrip();
      }
      await this.#roundtrip();
      return { remapped: 0 };
    });
  }

  async keyDown(chord: Chord): Promise<void> {
    const name = chordText(chord);
    if (this.#heldKeys.has(name)) return;
    const codes = this.#codes(chord);
    this.#heldKeys.hold(name, codes);
    await this.exclusive(async () => {
      for (const code of codes) this.#key(code, PRESSED);
      await this.#roundtrip();
    });
  }

  async keyUp(chord: Chord): Promise<void> {
    await this.#heldKeys.release(chordText(chord));
    await this.#roundtrip();
  }

  held(): { buttons: MouseButton[]; keys: string[] } {
    return { buttons: this.seat.heldButtons(), keys: this.#heldKeys.names() };
  }

  /** Wayland has no query for what a seat holds: this is deskhand's own account. */
  async serverHeld(): Promise<{ buttons: MouseButton[]; keycodes: number[] }> {
    return { buttons: this.seat.heldButtons(), keycodes: [] };
  }

  screen(): Promise<Rect> {
    return this.kwin.run<Rect>(
      "const g = workspace.virtualScreenGeometry; return { x: g.x, y: g.y, width: g.width, height: g.height };",
    );
  }

  /** The region by ScreenShot2, one pixel per point (KWin scales a scaled screen's pixels down). */
  async capture(region: Rect): Promise<RgbaImage> {
    const file = join(this.#folder, "capture");
    writeFileSync(file, "", { mode: 0o600 });
    const bus = await this.#pixelBus();
    const [results] = await bus.call(
      {
        destination: "org.kde.KWin",
        path: "/org/kde/KWin/ScreenShot2",
        iface: "org.kde.KWin.ScreenShot2",
        member: "CaptureArea",
        signature: "iiuua{sv}h",
        body: [
          Math.round(region.x),
          Math.round(region.y),
          Math.round(region.width),
          Math.round(region.height),
          [],
          0,
        ],
        file,
      },
      this.settings.timeoutMs * 5,
    );
    const info = variantMap(results);
    const width = Number(info.width);
    const height = Number(info.height);
    const stride = Number(info.stride);
    if (!ARGB32.has(Number(info.format)))
      throw new HandsUnavailable(
        `KWin gave pixels in a format deskhand does not read (QImage format ${info.format})`,
      );
    // KWin answers first and writes after: the file is whole at stride × height bytes.
    const deadline = Date.now() + this.settings.timeoutMs * 5;
    while (statSync(file).size < stride * height) {
      if (Date.now() > deadline)
        throw new HandsUnavailable("KWin did not finish writing the screenshot in time");
      await sleep(10);
    }
    return fromArgb32(readFileSync(file), width, height, stride);
  }

  #pixelBus(): Promise<DBusFdConnection> {
    this.#pixels ??= DBusFdConnection.open(this.settings.busAddress, this.settings.timeoutMs);
    return this.#pixels.then(
      (bus) => {
        if (!bus.closed) return bus;
        this.#pixels = undefined;
        return this.#pixelBus();
      },
      (error: Error) => {
        this.#pixels = undefined;
        throw new HandsUnavailable(`screenshots from KWin need a file passed over D-Bus: ${error.message}`);
      },
    );
  }

  async close(): Promise<void> {
    // Nothing stays held: every held key and button is released before the device goes.
    await this.#heldKeys.releaseAll();
    await this.seat.close();
    this.settings.record.clear();
    (await this.#pixels?.catch(() => undefined))?.close();
    this.wl.close();
    this.kwin.close();
    rmSync(this.#folder, { recursive: true, force: true });
  }
}

/** QImage ARGB32 (premultiplied or not; an opaque screen is the same either way) as RGBA rows. */
export function fromArgb32(bytes: Buffer, width: number, height: number, stride: number): RgbaImage {
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const from = y * stride + x * 4;
      const to = (y * width + x) * 4;
      data[to] = bytes[from + 2]!;
      data[to + 1] = bytes[from + 1]!;
      data[to + 2] = bytes[from]!;
      data[to + 3] = 255;
    }
  }
  return { width, height, data };
}
