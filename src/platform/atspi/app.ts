// One accessible application: its bus name, and where possible a direct peer-to-peer connection to its
// own socket. libatspi does the same; it is faster than routing every call through the bus daemon
// (73 µs against 98 µs a call with 2,000 in flight), and one app's flood never queues behind another's.

import { DBusCallError, DBusConnection, type DBusMethodCall, DBusTimeoutError } from "../dbus.js";
import { yieldIfDue } from "../slice.js";
import { JAVA_TOOLKIT } from "../types.js";
import { IFACE } from "./names.js";

/** Bounds concurrent calls so a 2,000-node read does not queue thousands of messages at once. */
class CallLimiter {
  #active = 0;
  #waiting: (() => void)[] = [];
  constructor(readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#active >= this.limit) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    // Every read and action passes here: the one place a large read gives the event loop its turns.
    // Waiters woken in the same turn check again, so together they too stay within a slice.
    for (let turn = yieldIfDue(); turn; turn = yieldIfDue()) await turn;
    this.#active++;
    try {
      return await task();
    } finally {
      this.#active--;
      this.#waiting.shift()?.();
    }
  }
}

export interface Toolkit {
  name: string | undefined;
  version: string | undefined;
}

/**
 * Action connections kept open per app: one may still be inside an app handler (a modal dialog),
 * where closing it would freeze the app; after this many later actions, that is taken to be over.
 */
const ACTION_CONNECTIONS = 64;
/** Actions asked of one element one at a time at most: an element has a handful (Firefox's one). */
const MAX_ACTIONS = 16;
/**
 * After a call the app left unanswered, its next calls wait at most this long, until one is answered
 * or this much time passed since the last unanswered: a stopped app costs a tool call one bound, not
 * one per read (a hit-test, then the popups, then the title waited 3 s each).
 */
const SILENT_BOUND_MS = 1000;
const SILENT_MEMORY_MS = 10_000;

// The action names toolkits give in English, whatever the app's language (GetName's): a name that
// is none of these may be a translation (GetActions'), and each name is then asked by its index.
const OWN_ACTION_NAMES = new Set([
  "click",
  "press",
  "release",
  "activate",
  "toggle",
  "jump",
  "expand or contract",
  "expand or collapse",
  "expand",
  "collapse",
  "menu",
  "showmenu",
  "setfocus",
  "increase",
  "decrease",
  "check",
  "uncheck",
  "cycle",
  "select",
  "open",
  "close",
  "switch",
  "invoke",
  "dodefault",
  "push",
  "edit",
  "customize",
  // Qt's own, and Swing's.
  "scroll left",
  "scroll right",
  "scroll up",
  "scroll down",
  "next page",
  "previous page",
  "toggleexpand",
  "toggle popup",
  "togglepopup",
  "increment",
  "decrement",
]);
const isOwnActionName = (name: string) => OWN_ACTION_NAMES.has(name.toLowerCase());

/** GTK 3 names its toolkit "gtk" (GTK 4 says "GTK"). */
export function isGtk3(toolkit: Toolkit): boolean {
  return toolkit.name?.toLowerCase() === "gtk" && (toolkit.version ?? "").startsWith("3.");
}

/** Whether an application's name is LibreOffice's (its process is "soffice"). */
export const namesLibreOffice = (name: string): boolean => /soffice|libreoffice/i.test(name);

export class AtspiApp {
  toolkit: Toolkit = { name: undefined, version: undefined };
  name = "";
  pid: number | null = null;
  readonly limiter = new CallLimiter(256);
  /**
   * Whether the app reports `showing` on elements below its windows, as seen in its last cache read;
   * undefined until known (then every element is taken to be on screen when in doubt).
   */
  reportsShowing: boolean | undefined = undefined;
  /**
   * Elements that had an area when their bounds were last read, where on-screen state is inferred
   * from ancestors (see enrich.ts): their extents are asked for without waiting for the ancestors'.
   */
  readonly hadArea = new Set<string>();
  /** How many items the app's last `Cache.GetItems` answered with: every element of every window it has. */
  cacheItems: number | undefined = undefined;
  /** Elements read the last time each root (a window, a dialog, an element) was read with given bounds. */
  readonly #nodesRead = new Map<string, number>();

  rememberNodesRead(key: string, nodes: number): void {
    if (this.#nodesRead.size >= 1000) this.#nodesRead.clear();
    this.#nodesRead.set(key, nodes);
  }

  nodesRead(key: string): number | undefined {
    return this.#nodesRead.get(key);
  }

  /**
   * From when the app's changes are heard (its events: a state, a property, the visible data or the
   * children of an element changed), Date.now() time; undefined: they are not, so no cache is kept.
   * Set by the backend once it registered for them and matched them on its connection.
   */
  changesHeardFrom: number | undefined = undefined;
  /** When deskhand last made the app act through accessibility (`act`): its events may be on their way. */
  lastActedAt = 0;
  /**
   * The app's last `Cache.GetItems` answer (reader.ts parses it), kept for the next read while no
   * event has named an element it holds; see `keptCache` in reader.ts.
   */
  #kept: ReadonlyMap<string, unknown> | undefined = undefined;
  /** For each GetItems in flight, the elements events named meanwhile: its answer may predate them. */
  readonly #changedDuringReads = new Set<Set<string>>();

  /** When an event last named an element of this app as changed (Date.now()). */
  lastChangeAt = 0;

  /** An event named this element as changed: a kept cache that holds it no longer says what is. */
  noteChange(path: string): void {
    this.lastChangeAt = Date.now();
    for (const changed of this.#changedDuringReads) changed.add(path);
    if (this.#kept?.has(path)) this.#kept = undefined;
  }

  /** The kept cache, if any. */
  get kept(): ReadonlyMap<string, unknown> | undefined {
    return this.#kept;
  }

  /** Drops the kept cache: the app acted (its events come later), or did not answer (it died). */
  forgetKept(): void {
    this.#kept = undefined;
  }

  /**
   * Reads the app's cache with `read`, and keeps its answer when `keep` allows and no event during
   * the read named an element of it.
   */
  async readAndKeep<T extends ReadonlyMap<string, unknown>>(
    read: () => Promise<T | undefined>,
    keep: boolean,
  ): Promise<T | undefined> {
    const changed = new Set<string>();
    const startedAt = Date.now();
    this.#changedDuringReads.add(changed);
    try {
      const items = await read();
      const heard = this.changesHeardFrom !== undefined && startedAt >= this.changesHeardFrom;
      this.#kept =
        keep && heard && items !== undefined && ![...changed].some((path) => items.has(path))
          ? items
          : undefined;
      return items;
    } finally {
      this.#changedDuringReads.delete(changed);
    }
  }

  /** The frames this app had when it last answered, for listing it while it does not. */
  lastFrames: unknown[] | undefined = undefined;
  /**
   * Until then, listing does not ask this app again: it just failed to answer. Every other call is
   * asked, with a shorter bound while the app is `silent`.
   */
  quietUntil = 0;

  constructor(
    readonly busName: string,
    readonly rootPath: string,
    private readonly a11y: DBusConnection,
    private direct: DBusConnection | undefined,
  ) {}

  rememberArea(handle: string): void {
    // Handles of destroyed elements are never removed one by one: the set is bounded instead.
    if (this.hadArea.size >= 20_000) this.hadArea.clear();
    this.hadArea.add(handle);
  }

  /** The app's own connections (its direct socket, if any), for the footprint checks. */
  connections(): DBusConnection[] {
    return this.direct ? [this.direct] : [];
  }

  get route(): "direct" | "bus" {
    return this.direct && !this.direct.closed ? "direct" : "bus";
  }

  /**
   * Qt 5.15 crashes on Properties.GetAll (the app disconnects from the bus without replying, as
   * measured with qtbase5-examples' "styles"): for Qt every property is asked for on its own.
   */
  get getAllIsSafe(): boolean {
    return this.toolkit.name !== "Qt";
  }

  /**
   * Qt 5 gives a menu item's shortcut only through Action.GetKeyBinding, never in GetActions; ATK
   * toolkits (GTK, the Java wrapper) answer both from one place, so asking again is waste.
   */
  get bindingsApart(): boolean {
    return this.toolkit.name === "Qt";
  }

  /**
   * Whether the app's action strings must be asked one at a time (GetName, GetKeyBinding), never all
   * at once with GetActions. Gecko's ATK layer (Firefox, Thunderbird) hands out every action string
   * from one buffer it rewrites on each call (`AccessibleWrap::ReturnString`), and the bridge's
   * GetActions takes an action's name, description and key binding before it sends any of them: the
   * three are the key binding (the ";;" Firefox was known to answer), and a binding longer than the
   * buffer held moves it, leaving the first two pointing at freed memory. libdbus finds them not
   * UTF-8 and aborts the app. Measured on Firefox ESR 153 (issue 55): GetActions on its open Edit
   * menu's "Redo" (`R;<Alt>E:R;<Control><Shift>Z`) or "Cut" ended Firefox ("arguments to
   * dbus_message_iter_append_basic() were incorrect … _dbus_check_is_valid_utf8", then its crash
   * reporter), and every `key` sent while that menu was open did, as the gate read the menu's key
   * bindings; GetName and GetKeyBinding asked per index never did, as each answer is sent before the
   * next call. No reply can tell the harm apart before it is done, so this follows the toolkit
   * (the engine, not an app's name). Chromium answers GetActions with empty strings, and GTK, Qt and
   * the Java wrapper with their own: their one call stays.
   */
  get actionsOneByOne(): boolean {
    return this.toolkit.name === "Gecko";
  }

  /** The app as a reply names it: `the application "gedit" (pid 42)`. */
  get described(): string {
    return `the application ${JSON.stringify(this.name || this.busName)}${this.pid ? ` (pid ${this.pid})` : ""}`;
  }

  /**
   * A web engine (Firefox's, Chromium's and Electron's) shows pages, each in its own language: its
   * process's language says nothing of a page's labels.
   */
  get showsPages(): boolean {
    return this.toolkit.name === "Gecko" || this.toolkit.name === "Chromium";
  }

  /** LibreOffice, whose gtk3 plugin reports its toolkit as GTK. */
  get isLibreOffice(): boolean {
    return namesLibreOffice(this.name);
  }

  /**
   * Whether Cache.GetItems may be asked. LibreOffice 7.4 leaves freed objects in its accessibility
   * bridge's cache once dialogs have come and gone, and GetItems walks them: it aborted (SIGABRT in
   * g_object_ref under the bridge's GetItems) three times in trials after Format Cells and Save As.
   * Its windows are read a call an element instead.
   */
  get cacheIsSafe(): boolean {
    return !this.isLibreOffice;
  }

  /** The Java ATK wrapper, which names its toolkit after the Java Access Bridge. */
  get isJava(): boolean {
    return this.toolkit.name === JAVA_TOOLKIT;
  }

  get isGtk3(): boolean {
    return isGtk3(this.toolkit);
  }

  get isGtk4(): boolean {
    return this.toolkit.name === "GTK" && (this.toolkit.version ?? "").startsWith("4.");
  }

  /**
   * Qt hands over a button's text as the app wrote it, rich-text markup included, with each "&"
   * taken as a mnemonic marker (KCalc's "x<sup>2</sup>", "radic;x" for "&radic;x").
   */
  get namesInMarkup(): boolean {
    return this.toolkit.name === "Qt";
  }

  /** GTK 4 names an unnamed element by its widget type: "GtkToggleButton". */
  get namesByType(): boolean {
    return this.isGtk4;
  }

  /** GTK 4.8 names a button by its label and its child's text joined: "Save Save". */
  get doublesNames(): boolean {
    return this.toolkit.name === "GTK" && (this.toolkit.version ?? "").startsWith("4.8");
  }

  call(path: string, iface: string, member: string, timeoutMs: number, signature?: string, body?: unknown[]) {
    const message: DBusMethodCall = { path, iface, member };
    if (signature) {
      message.signature = signature;
      message.body = body ?? [];
    }
    return this.limiter
      .run(() => {
        const bound = this.silent ? Math.min(timeoutMs, SILENT_BOUND_MS) : timeoutMs;
        if (this.direct && !this.direct.closed) return this.direct.call(message, bound);
        return this.a11y.call({ ...message, destination: this.busName }, bound);
      })
      .then(
        (reply) => {
          this.#silentAt = 0;
          return reply;
        },
        (error) => {
          if (error instanceof DBusTimeoutError) this.#silentAt = Date.now();
          throw error;
        },
      );
  }

  /**
   * When a call to this app last went unanswered in its bound; 0 once one was answered since. Its
   * calls are shortened, not skipped: only listing skips a silent app (`quietUntil`, for 5 s after
   * its own frames went unanswered), since any call may be the one it answers again.
   */
  #silentAt = 0;

  /** Whether the app left a call unanswered lately and has answered none since. */
  get silent(): boolean {
    return Date.now() - this.#silentAt < SILENT_MEMORY_MS;
  }

  /**
   * A call that makes the app act (DoAction, SetTextContents, SelectChild...), on a direct connection
   * of its own that nothing else is ever sent on. GTK 3's bridge answers DoAction first and then runs
   * the action inside the handler of the message: a menu item whose handler runs gtk_dialog_run keeps
   * that connection inside dispatch until the dialog closes, and libdbus, asked to dispatch the same
   * connection again from the nested loop, waits for itself: any later message on that connection
   * (a read, a ping), or closing it, froze the whole app. Sent on the shared direct socket, the next
   * read froze it; sent on the bus, any client's next call through the bus would. So each action gets
   * a fresh connection, left open (a handler may still be running) until the app goes or deskhand
   * closes, the oldest beyond ACTION_CONNECTIONS closed first. Apps without a direct socket (Qt) are
   * asked on the bus.
   */
  async act(
    path: string,
    iface: string,
    member: string,
    timeoutMs: number,
    signature?: string,
    body?: unknown[],
  ) {
    const message: DBusMethodCall = { path, iface, member };
    if (signature) {
      message.signature = signature;
      message.body = body ?? [];
    }
    // What the action changes reaches the kept cache only through the app's events, later.
    this.lastActedAt = Date.now();
    this.forgetKept();
    if (!this.#directAddress)
      return this.limiter.run(() => this.a11y.call({ ...message, destination: this.busName }, timeoutMs));
    const started = Date.now();
    const connection = await DBusConnection.open(this.#directAddress, { direct: true, timeoutMs });
    this.#acted.push(connection);
    while (this.#acted.length > ACTION_CONNECTIONS) this.#acted.shift()?.close();
    return connection.call(message, Math.max(1, timeoutMs - (Date.now() - started)));
  }

  /** The app's direct socket address, for the connections `act` opens. */
  #directAddress: string | undefined;
  /** One connection per action, oldest first. */
  readonly #acted: DBusConnection[] = [];

  async property(path: string, iface: string, property: string, timeoutMs: number): Promise<unknown> {
    const [value] = await this.call(path, IFACE.properties, "Get", timeoutMs, "ss", [iface, property]);
    return Array.isArray(value) && value.length === 2 && Array.isArray(value[1]) ? value[1][0] : value;
  }

  /**
   * An element's action names, and their key bindings ("<Control>s"): what a chord will press, for
   * the gate. GetActions gives each name as the app's language says it (at-spi2-atk hands out
   * ATK's localized name: a French GTK check box's toggle is "Inverser"), Chromium's empty; GetName
   * per index has the toolkit's own, asked where a name is not one of those.
   * `askBindings`: where GetActions gives no binding, ask GetKeyBinding per action: Qt 5 answers
   * only there with a menu item's shortcut ("Ctrl+S") or mnemonic ("Alt+A"). Gecko is never asked
   * GetActions (`actionsOneByOne`: the call can end Firefox). Every read of an element's actions
   * comes here.
   */
  async actionNames(
    path: string,
    timeoutMs: number,
    askBindings = false,
  ): Promise<{ names: string[]; bindings: string[] }> {
    const blank = (text: string) => /^;*$/.test(text);
    if (this.actionsOneByOne) return this.#actionsOneByOne(path, timeoutMs, blank);
    const [actions] = await this.call(path, IFACE.action, "GetActions", timeoutMs);
    const triples = actions as [string, string, string][];
    let bindings = triples.map(([, , binding]) => binding).filter((b) => b && !blank(b));
    if (askBindings && bindings.length === 0 && triples.length > 0) {
      const asked = await Promise.all(
        // A toolkit that lacks the call says no more than GetActions did.
        triples.map((_, index) =>
          this.call(path, IFACE.action, "GetKeyBinding", timeoutMs, "i", [index]).catch(() => [""]),
        ),
      );
      bindings = asked.map(([binding]) => String(binding ?? "")).filter((b) => b && !blank(b));
    }
    const names = triples.map(([name]) => name);
    if (names.length === 0 || names.every(isOwnActionName)) return { names, bindings };
    const named = await Promise.all(
      names.map((_, index) => this.call(path, IFACE.action, "GetName", timeoutMs, "i", [index])),
    );
    return { names: named.map(([name]) => String(name)), bindings };
  }

  /** An element's action names and key bindings, each string asked on its own (see `actionsOneByOne`). */
  async #actionsOneByOne(
    path: string,
    timeoutMs: number,
    blank: (text: string) => boolean,
  ): Promise<{ names: string[]; bindings: string[] }> {
    const count = Number(await this.property(path, IFACE.action, "NActions", timeoutMs));
    const indexes = Array.from(
      { length: Number.isFinite(count) ? Math.min(count, MAX_ACTIONS) : 0 },
      (_, i) => i,
    );
    const ask = (member: string, index: number) =>
      this.call(path, IFACE.action, member, timeoutMs, "i", [index]).then(([text]) => String(text ?? ""));
    const [names, bindings] = await Promise.all([
      Promise.all(indexes.map((index) => ask("GetName", index))),
      // A binding that cannot be read says no more than an empty one.
      Promise.all(indexes.map((index) => ask("GetKeyBinding", index).catch(() => ""))),
    ]);
    return { names, bindings: bindings.filter((b) => b && !blank(b)) };
  }

  /** Opens the direct connection and reads the toolkit; a failure leaves the app on the bus route. */
  static async open(
    a11y: DBusConnection,
    busName: string,
    rootPath: string,
    timeoutMs: number,
  ): Promise<AtspiApp> {
    const app = new AtspiApp(busName, rootPath, a11y, undefined);
    try {
      const [address] = await app.call(rootPath, IFACE.application, "GetApplicationBusAddress", timeoutMs);
      // Abstract-namespace sockets would need a native module; path sockets are what 2.46 creates.
      if (typeof address === "string" && address.startsWith("unix:path=")) {
        app.direct = await DBusConnection.open(address, { direct: true, timeoutMs });
        app.#directAddress = address;
      }
    } catch {
      // Qt and some toolkits have no peer-to-peer socket: the bus route works for them.
    }
    const [name, toolkitName, version] = await Promise.allSettled([
      app.property(rootPath, IFACE.accessible, "Name", timeoutMs),
      app.property(rootPath, IFACE.application, "ToolkitName", timeoutMs),
      app.property(rootPath, IFACE.application, "Version", timeoutMs),
    ]);
    if (name.status === "fulfilled") app.name = String(name.value);
    app.toolkit = {
      name: toolkitName.status === "fulfilled" ? String(toolkitName.value) : undefined,
      version: version.status === "fulfilled" ? String(version.value) : undefined,
    };
    return app;
  }

  close(): void {
    this.direct?.close();
    for (const connection of this.#acted.splice(0)) connection.close();
  }
}

/** Errors that mean "this toolkit does not implement that", as opposed to "it failed to answer". */
export function isNotImplemented(error: unknown): boolean {
  if (!(error instanceof DBusCallError)) return false;
  return /UnknownMethod|UnknownProperty|UnknownInterface|InvalidArgs|NotSupported|UnknownObject/.test(
    error.dbusName,
  );
}
