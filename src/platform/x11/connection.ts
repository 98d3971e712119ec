// Promise wrappers over the pure-JS `x11` package, each request bounded: an X server that stops
// answering must not leave a call pending forever.

import { createRequire } from "node:module";
import { CodedError } from "../types.js";

const require = createRequire(import.meta.url);
const x11 = require("x11") as X11Module;

/**
 * The atoms every X server predefines (1–68). The `x11` package starts each client's atom cache as
 * one object shared by every client of the process, and writes each interned atom into it: a second
 * server (the display's X server replaced, or XWayland beside Xvfb) was then asked with the first
 * one's numbers ("Bad atom", or properties missing). Each connection gets its own copy of these.
 */
const LAST_PREDEFINED_ATOM = 68;
const PREDEFINED_ATOMS: Record<string, number> = Object.fromEntries(
  Object.entries(require("x11/lib/stdatoms.js") as Record<string, number>).filter(
    ([, value]) => value <= LAST_PREDEFINED_ATOM,
  ),
);

/** A client of its own atom cache (see PREDEFINED_ATOMS). */
function ownAtomCache(client: RawClient): void {
  client.atoms = { ...PREDEFINED_ATOMS };
  client.atom_names = Object.fromEntries(
    Object.entries(PREDEFINED_ATOMS).map(([name, value]) => [value, name]),
  );
}

interface X11Module {
  createClient(
    options: { display?: string },
    callback: (error: Error | null, display: RawDisplay) => void,
  ): RawClient;
}

interface RawDisplay {
  client: RawClient;
  screen: {
    root: number;
    pixel_width: number;
    pixel_height: number;
    mm_width: number;
    root_depth: number;
  }[];
  min_keycode: number;
  max_keycode: number;
}

/** The XTEST extension as the `x11` package hands it out. */
export interface RawXTest {
  KeyPress: number;
  KeyRelease: number;
  ButtonPress: number;
  ButtonRelease: number;
  MotionNotify: number;
  FakeInput(type: number, detail: number, time: number, window: number, x: number, y: number): void;
}

type Callback<T> = (error: Error | null, value: T) => void;

interface RawClient {
  atoms: Record<string, number>;
  atom_names: Record<number, string>;
  stream?: { on(event: "close", listener: () => void): void };
  on(event: "error" | "end" | "close", listener: (error?: Error) => void): void;
  InternAtom(onlyIfExists: boolean, name: string, callback: Callback<number>): void;
  GetProperty(
    del: number,
    window: number,
    property: number,
    type: number,
    longOffset: number,
    longLength: number,
    callback: Callback<{ type: number; format: number; data: Buffer; bytesAfter: number }>,
  ): void;
  ChangeProperty(
    mode: number,
    window: number,
    property: number,
    type: number,
    format: number,
    data: Buffer,
  ): void;
  GetGeometry(
    window: number,
    callback: Callback<{ xPos: number; yPos: number; width: number; height: number }>,
  ): void;
  TranslateCoordinates(
    source: number,
    destination: number,
    x: number,
    y: number,
    callback: Callback<{ destX: number; destY: number }>,
  ): void;
  QueryExtension(name: string, callback: Callback<{ present: number }>): void;
  QueryTree(window: number, callback: Callback<{ children: number[] }>): void;
  GetWindowAttributes(
    window: number,
    callback: Callback<{ mapState: number; overrideRedirect: number }>,
  ): void;
  GetInputFocus(callback: Callback<{ focus: number }>): void;
  QueryPointer(
    window: number,
    callback: Callback<{ rootX: number; rootY: number; child: number; keyMask: number }>,
  ): void;
  QueryKeymap(callback: Callback<Buffer>): void;
  GetKeyboardMapping(first: number, count: number, callback: Callback<number[][]>): void;
  ChangeKeyboardMapping(first: number, keysymsPerKeycode: number, keysyms: number[]): void;
  GetImage(
    format: number,
    drawable: number,
    x: number,
    y: number,
    width: number,
    height: number,
    planeMask: number,
    callback: Callback<{ depth: number; data: Buffer }>,
  ): void;
  SendEvent(destination: number, propagate: number, eventMask: number, event: Buffer): void;
  MapWindow(window: number): void;
  AllocID(): number;
  CreateWindow(
    id: number,
    parent: number,
    x: number,
    y: number,
    width: number,
    height: number,
    borderWidth: number,
    depth: number,
    windowClass: number,
    visual: number,
    values: Record<string, number>,
  ): void;
  GrabServer(): void;
  UngrabServer(): void;
  SetSelectionOwner(owner: number, selection: number, time: number): void;
  GetSelectionOwner(selection: number, callback: Callback<number>): void;
  RaiseWindow(window: number): void;
  require(name: "xtest", callback: Callback<RawXTest>): void;
  require(name: "randr", callback: Callback<RawRandr>): void;
  GetAtomName(atom: number, callback: Callback<string>): void;
  terminate(): void;
  /** The `x11` package's own request plumbing, for the RandR 1.5 requests it lacks (monitors.ts). */
  seq_num: number;
  pack_stream: { put(request: Buffer): void; submit(flush: boolean): void };
  replies: Record<number, [(reply: Buffer) => unknown, Callback<unknown>]>;
}

/** RandR as the `x11` package hands it out: the version asked, and its opcode for our own requests. */
interface RawRandr {
  majorOpcode: number;
  QueryVersion(major: number, minor: number, callback: Callback<number[]>): void;
}

/** One screen of the display, as the desktop lays it out in the root window. */
export interface Monitor extends Rect {
  name: string;
  primary: boolean;
}

class X11Error extends CodedError {
  override readonly name: string = "X11Error";
  readonly code = "backend_unavailable";
  readonly next: string = "Run `deskhand doctor` to see what is missing.";
  /** Set when the server did not answer in time (it may only be slow): how long was waited. */
  constructor(
    message: string,
    readonly waitedMs?: number,
  ) {
    super(message);
  }
}

/** The X server closed the connection: the display's server stopped or was replaced. */
class DisplayGone extends X11Error {
  override readonly name = "DisplayGone";
  override readonly next =
    "Call again: the next call connects to the display anew (its windows and refs are new too).";
}

const ANY_PROPERTY_TYPE = 0;
const PROP_MODE_REPLACE = 0;
const ATOM_STRING = 31;

import { decodeMonitors, getMonitorsRequest, type RawMonitor, setMonitorRequest } from "./monitors.js";

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export class X11Connection {
  #atoms = new Map<string, number>();
  #closed = false;
  /** Requests waiting for an answer: failed at once when the connection ends. */
  #waiting = new Set<(error: DisplayGone) => void>();

  private constructor(
    readonly display: string,
    private readonly client: RawClient,
    readonly root: number,
    readonly timeoutMs: number,
    private readonly info: RawDisplay,
  ) {
    client.on("error", () => {});
    client.on("end", () => this.#ended());
    client.stream?.on("close", () => this.#ended());
  }

  /** The server closed the connection: it stopped, or another took its display. */
  #ended(): void {
    if (this.#closed && this.#waiting.size === 0) return;
    this.#closed = true;
    const gone = new DisplayGone(
      `the X server of display ${this.display} closed the connection (it stopped or was replaced); the next call connects anew`,
    );
    for (const fail of this.#waiting) fail(gone);
    this.#waiting.clear();
  }

  static open(display: string, timeoutMs = 2000): Promise<X11Connection> {
    return new Promise((resolve, reject) => {
      let client: RawClient | undefined;
      let late = false;
      // A socket left open keeps the process alive: one that did not answer in time is closed, and
      // one that answers later is closed as it does.
      const drop = (raw: RawClient | undefined) =>
        (raw as { stream?: { destroy(): void } })?.stream?.destroy();
      const timer = setTimeout(() => {
        late = true;
        drop(client);
        reject(new X11Error(`X display ${display} did not answer within ${timeoutMs} ms`, timeoutMs));
      }, timeoutMs);
      try {
        client = x11.createClient({ display }, (error, connected) => {
          clearTimeout(timer);
          if (late) {
            if (!error) drop(connected.client);
            return;
          }
          if (error) {
            reject(new X11Error(`cannot open X display ${display}: ${error.message}`));
            return;
          }
          ownAtomCache(connected.client);
          const root = connected.screen[0]?.root;
          if (root === undefined) {
            reject(new X11Error(`X display ${display} has no screen`));
            return;
          }
          resolve(new X11Connection(display, connected.client, root, timeoutMs, connected));
        });
      } catch (error) {
        clearTimeout(timer);
        reject(new X11Error(`cannot open X display ${display}: ${(error as Error).message}`));
      }
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  #request<T>(what: string, send: (callback: Callback<T>) => void): Promise<T> {
    if (this.#closed)
      return Promise.reject(
        new DisplayGone(`the connection to X display ${this.display} is closed; the next call connects anew`),
      );
    return new Promise((resolve, reject) => {
      const settle = (error: Error | null, value?: T) => {
        clearTimeout(timer);
        this.#waiting.delete(fail);
        if (error) reject(error);
        else resolve(value as T);
      };
      const fail = (error: DisplayGone) => settle(error);
      const timer = setTimeout(
        () =>
          settle(
            new X11Error(
              `${what} got no answer from ${this.display} within ${this.timeoutMs} ms`,
              this.timeoutMs,
            ),
          ),
        this.timeoutMs,
      );
      this.#waiting.add(fail);
      send((error, value) => settle(error ? new X11Error(`${what}: ${error.message}`) : null, value));
    });
  }

  async atom(name: string): Promise<number> {
    const known = this.#atoms.get(name);
    if (known !== undefined) return known;
    const atom = await this.#request<number>(`InternAtom ${name}`, (cb) =>
      this.client.InternAtom(false, name, cb),
    );
    this.#atoms.set(name, atom);
    return atom;
  }

  /** The raw bytes of a property, or undefined when the window does not have it. */
  async property(
    window: number,
    name: string,
  ): Promise<{ type: number; format: number; data: Buffer } | undefined> {
    const atom = await this.atom(name);
    const reply = await this.#request<{ type: number; format: number; data: Buffer; bytesAfter: number }>(
      `GetProperty ${name}`,
      (cb) => this.client.GetProperty(0, window, atom, ANY_PROPERTY_TYPE, 0, 1 << 20, cb),
    );
    if (reply.type === 0) return undefined;
    return reply;
  }

  async cardinals(window: number, name: string): Promise<number[] | undefined> {
    const reply = await this.property(window, name);
    if (reply?.format !== 32) return undefined;
    const values: number[] = [];
    for (let offset = 0; offset + 4 <= reply.data.length; offset += 4)
      values.push(reply.data.readUInt32LE(offset));
    return values;
  }

  async text(window: number, name: string): Promise<string | undefined> {
    const reply = await this.property(window, name);
    if (reply?.format !== 8) return undefined;
    const utf8 = await this.atom("UTF8_STRING");
    return reply.data.toString(reply.type === utf8 ? "utf8" : "latin1");
  }

  /** Replaces a 32-bit CARDINAL property; an empty list deletes nothing but leaves it empty. */
  async setCardinals(window: number, name: string, values: number[]): Promise<void> {
    const atom = await this.atom(name);
    const data = Buffer.alloc(values.length * 4);
    for (const [i, value] of values.entries()) data.writeUInt32LE(value >>> 0, i * 4);
    const CARDINAL = 6;
    this.client.ChangeProperty(PROP_MODE_REPLACE, window, atom, CARDINAL, 32, data);
    await this.sync();
  }

  async setStringProperty(window: number, name: string, value: string): Promise<void> {
    const atom = await this.atom(name);
    this.client.ChangeProperty(PROP_MODE_REPLACE, window, atom, ATOM_STRING, 8, Buffer.from(value, "latin1"));
    // ChangeProperty has no reply; a round trip after it proves the server processed it.
    await this.atom("UTF8_STRING");
  }

  /** The window's rectangle in root (screen) coordinates. */
  async rootRect(window: number): Promise<Rect> {
    const geometry = await this.#request<{ width: number; height: number }>(`GetGeometry ${window}`, (cb) =>
      this.client.GetGeometry(window, cb),
    );
    const origin = await this.#request<{ destX: number; destY: number }>(
      `TranslateCoordinates ${window}`,
      (cb) => this.client.TranslateCoordinates(window, this.root, 0, 0, cb),
    );
    return { x: origin.destX, y: origin.destY, width: geometry.width, height: geometry.height };
  }

  /** The window's children, bottom to top. */
  async children(window: number): Promise<number[]> {
    const tree = await this.#request<{ children: number[] }>(`QueryTree ${window}`, (cb) =>
      this.client.QueryTree(window, cb),
    );
    return tree.children;
  }

  /** Whether the window is shown (viewable) and placed by itself, past the window manager (a popup). */
  async mapping(window: number): Promise<{ viewable: boolean; overrideRedirect: boolean }> {
    const attributes = await this.#request<{ mapState: number; overrideRedirect: number }>(
      `GetWindowAttributes ${window}`,
      (cb) => this.client.GetWindowAttributes(window, cb),
    );
    const VIEWABLE = 2;
    return { viewable: attributes.mapState === VIEWABLE, overrideRedirect: !!attributes.overrideRedirect };
  }

  async hasExtension(name: string): Promise<boolean> {
    const reply = await this.#request<{ present: number }>(`QueryExtension ${name}`, (cb) =>
      this.client.QueryExtension(name, cb),
    );
    return Boolean(reply.present);
  }

  async pointer(): Promise<{ x: number; y: number }> {
    const { x, y } = await this.pointerState();
    return { x, y };
  }

  /** The first screen's size in pixels. */
  get screenSize(): { width: number; height: number } {
    const screen = this.info.screen[0]!;
    return { width: screen.pixel_width, height: screen.pixel_height };
  }

  /** The dots per inch the server reports for its first screen (its pixels over its millimetres). */
  get dpi(): number | undefined {
    const screen = this.info.screen[0]!;
    return screen.mm_width > 0 ? Math.round((screen.pixel_width * 25.4) / screen.mm_width) : undefined;
  }

  get keycodeRange(): { min: number; max: number } {
    return { min: this.info.min_keycode, max: this.info.max_keycode };
  }

  /** Pointer position and the button/modifier mask the server holds now (Button1 is 0x100). */
  async pointerState(): Promise<{ x: number; y: number; mask: number }> {
    const reply = await this.#request<{ rootX: number; rootY: number; keyMask: number }>(
      "QueryPointer",
      (cb) => this.client.QueryPointer(this.root, cb),
    );
    return { x: reply.rootX, y: reply.rootY, mask: reply.keyMask };
  }

  /** The keycodes the server holds down now. */
  async pressedKeycodes(): Promise<number[]> {
    const bits = await this.#request<Buffer>("QueryKeymap", (cb) => this.client.QueryKeymap(cb));
    const down: number[] = [];
    for (let code = 0; code < 256; code++) if ((bits[code >> 3]! >> (code & 7)) & 1) down.push(code);
    return down;
  }

  /** Keysyms per keycode, from `first` on. */
  keyboardMapping(first: number, count: number): Promise<number[][]> {
    return this.#request<number[][]>("GetKeyboardMapping", (cb) =>
      this.client.GetKeyboardMapping(first, count, cb),
    );
  }

  async changeKeyboardMapping(first: number, keysymsPerKeycode: number, keysyms: number[]): Promise<void> {
    this.client.ChangeKeyboardMapping(first, keysymsPerKeycode, keysyms);
    await this.sync();
  }

  /** RandR's monitors: where each screen lies in the root window; [] where RandR 1.5 is absent. */
  async monitors(): Promise<Monitor[]> {
    const major = await this.#randr15();
    if (major === undefined) return [];
    const raw = await this.#request<RawMonitor[]>("RRGetMonitors", (cb) =>
      this.#send(getMonitorsRequest(major, this.root), decodeMonitors, cb),
    );
    return Promise.all(
      raw.map(async ({ name, primary, x, y, width, height }) => ({
        name: await this.#request<string>("GetAtomName", (cb) => this.client.GetAtomName(name, cb)),
        ...{ primary, x, y, width, height },
      })),
    );
  }

  /**
   * Lays the root window out as these monitors (a desktop's several screens), replacing what the
   * server made from its one output: the first shows that output, the others are parts of the root.
   */
  async setMonitors(monitors: (Rect & { name: string })[], dpi: number): Promise<void> {
    const major = await this.#randr15();
    if (major === undefined)
      throw new X11Error(`X display ${this.display} has no RandR 1.5: no monitors can be set`);
    const output =
      (
        await this.#request<RawMonitor[]>("RRGetMonitors", (cb) =>
          this.#send(getMonitorsRequest(major, this.root), decodeMonitors, cb),
        )
      ).find((m) => m.automatic)?.outputs ?? [];
    for (const [i, monitor] of monitors.entries()) {
      const name = await this.atom(monitor.name);
      const outputs = i === 0 ? output : [];
      this.#send(setMonitorRequest(major, this.root, { ...monitor, name, primary: i === 0, outputs }, dpi));
    }
    await this.sync();
  }

  #randrMajor: Promise<number | undefined> | undefined;

  /** RandR's opcode once version 1.5 is agreed on, or undefined where the server has less. */
  #randr15(): Promise<number | undefined> {
    this.#randrMajor ??= this.#request<RawRandr>("RANDR", (cb) => this.client.require("randr", cb))
      .then(async (randr) => {
        const [major = 0, minor = 0] = await this.#request<number[]>("RRQueryVersion", (cb) =>
          randr.QueryVersion(1, 5, cb),
        );
        return major > 1 || (major === 1 && minor >= 5) ? randr.majorOpcode : undefined;
      })
      .catch(() => undefined);
    return this.#randrMajor;
  }

  /** Sends a request the `x11` package does not know, with the decoder of its reply if it has one. */
  #send<T>(request: Buffer, decode?: (reply: Buffer) => T, callback?: Callback<T>): void {
    this.client.seq_num++;
    this.client.pack_stream.put(request);
    if (decode && callback)
      this.client.replies[this.client.seq_num] = [decode, callback as Callback<unknown>];
    this.client.pack_stream.submit(true);
  }

  xtest(): Promise<RawXTest> {
    return this.#request<RawXTest>("XTEST", (cb) => this.client.require("xtest", cb));
  }

  /** A round trip: every request sent before it has been processed when it resolves. */
  async sync(): Promise<void> {
    await this.#request<{ focus: number }>("GetInputFocus", (cb) => this.client.GetInputFocus(cb));
  }

  /** ZPixmap pixels of a root-window region: 32 bits per pixel, BGRX, rows without padding. */
  async rootImage(rect: Rect): Promise<{ depth: number; data: Buffer }> {
    const Z_PIXMAP = 2;
    return this.#request<{ depth: number; data: Buffer }>("GetImage", (cb) =>
      this.client.GetImage(Z_PIXMAP, this.root, rect.x, rect.y, rect.width, rect.height, 0xffffffff, cb),
    );
  }

  /** A 32-bit ClientMessage to the root window, the way EWMH asks a window manager for things. */
  async clientMessage(window: number, type: string, data: number[]): Promise<void> {
    const messageType = await this.atom(type);
    const event = Buffer.alloc(32);
    event[0] = 33;
    event[1] = 32;
    event.writeUInt32LE(window >>> 0, 4);
    event.writeUInt32LE(messageType >>> 0, 8);
    for (const [i, value] of data.slice(0, 5).entries()) event.writeUInt32LE(value >>> 0, 12 + i * 4);
    const SUBSTRUCTURE_NOTIFY_AND_REDIRECT = 0x00080000 | 0x00100000;
    this.client.SendEvent(this.root, 0, SUBSTRUCTURE_NOTIFY_AND_REDIRECT, event);
    await this.sync();
  }

  #lockWindow: number | undefined;
  #markerWindow: number | undefined;

  /**
   * An unmapped 1×1 window of this connection's own, never shown: the window manager is asked about
   * it (`_NET_REQUEST_FRAME_EXTENTS`) to learn when it has handled every request sent before.
   */
  markerWindow(): number {
    if (this.#markerWindow === undefined) {
      const id = this.client.AllocID();
      const INPUT_OUTPUT = 1;
      this.client.CreateWindow(id, this.root, -10, -10, 1, 1, 0, 0, INPUT_OUTPUT, 0, {});
      this.#markerWindow = id;
    }
    return this.#markerWindow;
  }

  /**
   * Takes the selection `name` as a lock shared by every client of this display, the way ICCCM
   * manager selections are claimed: the check and the claim run under a server grab, so two
   * processes cannot both see it free. The X server drops it if this connection dies. True: taken.
   */
  async tryLock(name: string): Promise<boolean> {
    const selection = await this.atom(name);
    if (this.#lockWindow === undefined) {
      const id = this.client.AllocID();
      const INPUT_ONLY = 2;
      this.client.CreateWindow(id, this.root, -1, -1, 1, 1, 0, 0, INPUT_ONLY, 0, {});
      this.#lockWindow = id;
    }
    const mine = this.#lockWindow;
    this.client.GrabServer();
    try {
      const owner = await this.#request<number>("GetSelectionOwner", (cb) =>
        this.client.GetSelectionOwner(selection, cb),
      );
      if (owner !== 0 && owner !== mine) return false;
      this.client.SetSelectionOwner(mine, selection, 0);
      return true;
    } finally {
      this.client.UngrabServer();
      await this.sync();
    }
  }

  /** Gives the selection back, if this connection still holds it. */
  async unlock(name: string): Promise<void> {
    if (this.#lockWindow === undefined) return;
    const selection = await this.atom(name);
    this.client.GrabServer();
    try {
      const owner = await this.#request<number>("GetSelectionOwner", (cb) =>
        this.client.GetSelectionOwner(selection, cb),
      );
      if (owner === this.#lockWindow) this.client.SetSelectionOwner(0, selection, 0);
    } finally {
      this.client.UngrabServer();
      await this.sync();
    }
  }

  async mapWindow(window: number): Promise<void> {
    this.client.MapWindow(window);
    await this.sync();
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    try {
      this.client.terminate();
    } catch {
      // The stream is already gone.
    }
  }
}
