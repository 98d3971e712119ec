// The Linux backend: AT-SPI2 over D-Bus for trees; the windows on screen from X11 (EWMH), or under
// Wayland from sway's IPC (a WindowSource either way).

import { connectionPid, DBusConnection, DBusTimeoutError } from "../dbus.js";
import { desktopOf } from "../desktops.js";
import {
  checkedItems,
  type GtkExports,
  gtkApplicationOfPid,
  readActionStates,
  readExportedMenu,
} from "../gtk-menus.js";
import { programOf, programShortcuts } from "../gtk-shortcuts.js";
import { everyNode } from "../nodes.js";
import { ownCatalogs, processLanguage } from "../processes.js";
import { MENU_ITEM_ROLES, roleSet, WINDOW_ROLES } from "../roles.js";
import { startAll } from "../slice.js";
import type {
  AccessibilityBackend,
  ActionReport,
  Ancestor,
  AppBindings,
  EnrichOptions,
  ListedShortcut,
  RawNode,
  Rect,
  SemanticAction,
  StructureOptions,
  StructureRead,
  WindowInfo,
} from "../types.js";
import {
  AppNotResponding,
  BackendUnavailable,
  ElementGone,
  WindowNotAccessible,
  WindowNotFound,
} from "../types.js";
import type { ClientWindow, WindowSource } from "../window-source.js";
import { performAction } from "./actions.js";
import { AtspiApp } from "./app.js";
import { getAccessibilityBusAddress, openSessionBus, registeredApplications } from "./bus.js";
import { collectionMatches, collectionWorthwhile } from "./collection.js";
import { mayBeComboFace, readAsCombo } from "./combo-face.js";
import { type ExtentsFit, extentsFit, gtk4Scale, shadowMargins, xwaylandShift } from "./csd.js";
import { readCaret, readTable, readText } from "./element.js";
import { type BoundsOffset, enrichNode } from "./enrich.js";
import {
  IFACE,
  NULL_PATH,
  REGISTRY_IFACE,
  REGISTRY_NAME,
  REGISTRY_PATH,
  REGISTRY_ROOT_PATH,
} from "./names.js";
import { type PopoverShift, popoverShift } from "./popover-places.js";
import { POPUP_ITEM_ROLES, popupShift } from "./popup-places.js";
import { handleOf, parentOf, parseHandle, readStructure } from "./reader.js";
import { roleName } from "./roles.js";
import { statesFromBitset } from "./states.js";

export interface AtspiBackendOptions {
  env?: NodeJS.ProcessEnv;
  /** Bound on each D-Bus and X11 call. */
  callTimeoutMs?: number;
}

interface Frame {
  app: AtspiApp;
  path: string;
  index: number;
  name: string;
  role: string;
  states: string[];
}

interface WindowMatch {
  window: ClientWindow;
  frame: Frame | undefined;
  /** No frame, and an app of the window's process did not answer in time: busy, not absent. */
  unanswered: boolean;
}

/** Top-levels an app opens over its window with no client window of their own (see #withOpenPopups). */
const POPUP_TOP_LEVELS = roleSet("window", "menu", "popup menu");
/** Bound on asking one app for its windows while listing: a hung app is then listed as last seen. */
const FRAME_LIST_TIMEOUT_MS = 1000;
/** Menu items whose exported state was asked (#withMenuStates): once a node, not again by its enrichment. */
const menuStatesAsked = new WeakSet<RawNode>();
const QUIET_AFTER_TIMEOUT_MS = 5000;
/** Whether an app answers at all, when one of its elements answered nothing. */
const LIVENESS_TIMEOUT_MS = 1000;

/** The AT-SPI events that say an element's cached fields changed, by their D-Bus signal's member. */
const CHANGE_EVENTS = {
  ChildrenChanged: "object:children-changed",
  StateChanged: "object:state-changed",
  PropertyChange: "object:property-change",
  VisibleDataChanged: "object:visible-data-changed",
};
const EVENT_OBJECT_IFACE = "org.a11y.atspi.Event.Object";
/** How long apps are given to learn of an event registration from the registry's signal. */
const EVENTS_LIVE_AFTER_MS = 1000;

/** How long a menu whose items show is given for the compositor to list its popup. */
const POPUP_MAPS_WITHIN_MS = 800;

export class AtspiBackend implements AccessibilityBackend {
  readonly #apps = new Map<string, AtspiApp>();
  readonly #matches = new Map<number, WindowMatch>();

  private constructor(
    private readonly a11y: DBusConnection,
    private readonly windows: WindowSource,
    readonly callTimeoutMs: number,
    /** The session bus, where GTK apps export their menus (appBindings); opened when first asked. */
    private readonly sessionAddress?: string,
  ) {}
  #session: Promise<DBusConnection> | undefined;

  /** "atspi+x11", or "atspi+sway" under Wayland. */
  get name(): string {
    return `atspi+${this.windows.kind}`;
  }

  static async connect(options: AtspiBackendOptions = {}): Promise<AtspiBackend> {
    const env = options.env ?? process.env;
    const timeoutMs = options.callTimeoutMs ?? 3000;
    const found = desktopOf(env);
    if ("none" in found) throw new BackendUnavailable(found.none);
    const session = await openSessionBus(env.DBUS_SESSION_BUS_ADDRESS, timeoutMs);
    let a11yAddress: string;
    try {
      a11yAddress = await getAccessibilityBusAddress(session, timeoutMs);
    } finally {
      session.close();
    }
    const a11y = await DBusConnection.open(a11yAddress, { timeoutMs });
    let windows: WindowSource;
    try {
      windows = await found.desktop.windows(env, timeoutMs);
    } catch (error) {
      a11y.close();
      throw error;
    }
    const backend = new AtspiBackend(a11y, windows, timeoutMs, env.DBUS_SESSION_BUS_ADDRESS);
    await backend.#hearChanges(timeoutMs);
    return backend;
  }

  /**
   * Hears the events that say an element's cached fields changed (its states, a property, its
   * visible data, its children), so that a Java app's cache can be kept between reads (reader.ts,
   * `keptCache`). Swing says a label's or a button's new text only as visible data changed. An event
   * of an element the kept cache does not hold (a tree's or a list's cell renderer, stamped for each
   * row it paints or is read) leaves it. If any registration fails, nothing is kept.
   */
  async #hearChanges(timeoutMs: number): Promise<void> {
    const call = (destination: string, path: string, iface: string, member: string, body: unknown[]) =>
      this.a11y.call(
        { destination, path, iface, member, signature: body.length === 1 ? "s" : "sass", body },
        timeoutMs,
      );
    // Toolkits fill their bulk cache (and send events) only once some client has registered for
    // events: children-changed is registered whatever else fails. A registration lasts as long as
    // this connection.
    const registered = await Promise.all(
      Object.values(CHANGE_EVENTS).map((event) =>
        call(REGISTRY_NAME, REGISTRY_PATH, REGISTRY_IFACE, "RegisterEvent", [event, [], ""]).then(
          () => true,
          () => false,
        ),
      ),
    );
    const members = Object.keys(CHANGE_EVENTS);
    const unlisten = this.a11y.onSignal((signal) => {
      if (signal.iface !== EVENT_OBJECT_IFACE || !members.includes(signal.member)) return;
      this.#apps.get(signal.sender)?.noteChange(signal.path);
    });
    try {
      if (registered.includes(false)) throw new Error("an event registration failed");
      for (const member of members)
        await call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "AddMatch", [
          `type='signal',interface='${EVENT_OBJECT_IFACE}',member='${member}'`,
        ]);
      // Apps learn of a registration from the registry's signal: a moment later.
      this.#changesHeardFrom = Date.now() + EVENTS_LIVE_AFTER_MS;
    } catch {
      unlisten();
    }
  }

  /** From when the apps' change events are heard (#hearChanges); undefined: they are not. */
  #changesHeardFrom: number | undefined;

  /** The applications on the bus now; connections to apps that left are closed. */
  #busGone(): BackendUnavailable {
    if (!this.a11y.closed)
      return new BackendUnavailable(
        `the connection to ${this.windows.server} closed: it stopped or was replaced; the next call connects anew`,
      );
    return new BackendUnavailable(
      "the connection to the accessibility bus closed: the bus stopped or restarted; the next call connects anew",
    );
  }

  async applications(): Promise<AtspiApp[]> {
    if (this.closed) throw this.#busGone();
    const registered = await registeredApplications(this.a11y, this.callTimeoutMs);
    const live = new Set(registered.map((r) => r.bus));
    for (const [bus, app] of this.#apps) {
      if (!live.has(bus)) {
        app.close();
        this.#apps.delete(bus);
      }
    }
    const apps = await Promise.all(
      registered.map(async ({ bus, path }) => {
        const known = this.#apps.get(bus);
        if (known) return known;
        try {
          const app = await AtspiApp.open(this.a11y, bus, path, this.callTimeoutMs);
          app.changesHeardFrom = this.#changesHeardFrom;
          app.pid = await connectionPid(this.a11y, bus, this.callTimeoutMs).catch(() => null);
          this.#apps.set(bus, app);
          return app;
        } catch (error) {
          // Registered but not answering (busy, or hung): its windows are "not answering", not "no app".
          if (error instanceof DBusTimeoutError) {
            const pid = await connectionPid(this.a11y, bus, this.callTimeoutMs).catch(() => null);
            if (pid !== null) this.#unanswered.add(pid);
          }
          return undefined;
        }
      }),
    );
    return apps.filter((app): app is AtspiApp => app !== undefined);
  }

  /**
   * An app's top-level frames. A hung app must not stall listing everyone else's windows: it gets a
   * short bound, and then the frames it had last time stand in.
   */
  async #framesOf(app: AtspiApp): Promise<Frame[]> {
    const last = (app.lastFrames as Frame[] | undefined) ?? [];
    // An app that just failed to answer is not asked again for a while: one hang, one delay.
    if (Date.now() < app.quietUntil) return last;
    try {
      const frames = await this.#frames(app, FRAME_LIST_TIMEOUT_MS);
      app.lastFrames = frames;
      return frames;
    } catch {
      app.quietUntil = Date.now() + QUIET_AFTER_TIMEOUT_MS;
      if (app.pid !== null) this.#unanswered.add(app.pid);
      return last;
    }
  }

  async #frames(app: AtspiApp, timeout: number): Promise<Frame[]> {
    const [children] = await app.call(app.rootPath, IFACE.accessible, "GetChildren", timeout);
    const frames = await Promise.all(
      (children as [string, string][]).map(async ([, path], index): Promise<Frame | undefined> => {
        try {
          const [[role], [states], name] = await Promise.all([
            app.call(path, IFACE.accessible, "GetRole", timeout),
            app.call(path, IFACE.accessible, "GetState", timeout),
            app.property(path, IFACE.accessible, "Name", timeout),
          ]);
          return {
            app,
            path,
            index,
            name: String(name),
            role: roleName(Number(role)),
            states: statesFromBitset(states as number[]),
          };
        } catch (error) {
          // A frame that did not answer in time is not a frame that is gone: the listing fails, and
          // the frames this app had last time stand in (see #framesOf).
          if (error instanceof DBusTimeoutError) throw error;
          return undefined;
        }
      }),
    );
    // Every top-level accessible counts, not only frames and dialogs: GTK 4.8 gives its file chooser
    // dialog the role "filler". Pairing (below) asks such a one to carry the window's title.
    return frames.filter((f): f is Frame => f !== undefined);
  }

  /**
   * Pairs windows with frames once for every caller that asks meanwhile: 400 concurrent requests make
   * one listing, not 400 that flood each app until it cannot answer anyone in time.
   */
  #match(): Promise<Map<number, WindowMatch>> {
    this.#matching ??= this.#matchNow().finally(() => {
      this.#matching = undefined;
    });
    return this.#matching;
  }

  #matching: Promise<Map<number, WindowMatch>> | undefined;

  /** Pairs each X11 client window with the accessible frame that draws it: same pid, then same title. */
  /** Pids of apps that did not answer during the listing under way. */
  readonly #unanswered = new Set<number>();

  async #matchNow(): Promise<Map<number, WindowMatch>> {
    this.#unanswered.clear();
    const [windows, apps] = await Promise.all([this.windows.clientWindows(), this.applications()]);
    const frames = (await Promise.all(apps.map((app) => this.#framesOf(app)))).flat();
    const taken = new Set<Frame>();
    this.#matches.clear();
    for (const window of windows) {
      const score = (frame: Frame): number => {
        if (taken.has(frame)) return -1;
        if (!WINDOW_ROLES.has(frame.role) && frame.name !== window.title) return -1;
        const samePid = window.pid !== null && frame.app.pid === window.pid;
        if (window.pid !== null && frame.app.pid !== null && !samePid) return -1;
        let total = samePid ? 2 : 0;
        if (frame.name === window.title) total += 4;
        if (frame.states.includes("showing")) total += 1;
        return total;
      };
      let best: Frame | undefined;
      let bestScore = 1;
      for (const frame of frames) {
        const s = score(frame);
        if (s > bestScore) {
          best = frame;
          bestScore = s;
        }
      }
      if (best) taken.add(best);
      const unanswered = !best && window.pid !== null && this.#unanswered.has(window.pid);
      this.#matches.set(window.id, { window, frame: best, unanswered });
    }
    await Promise.all(
      [...this.#matches.values()].map((match) =>
        this.windows.windowRelativeExtents ? this.#withShadow(match) : this.#withFit(match),
      ),
    );
    return this.#matches;
  }

  /** Fits by window and rectangle: they change only when the window does (#withFit). */
  readonly #fits = new Map<string, ExtentsFit>();
  /** A scale read once for a window and rectangle, kept once a second read agrees. */
  readonly #unconfirmed = new Map<string, ExtentsFit>();

  /**
   * Under X11, how the app's extents map onto its window (csd.ts): an app that scales itself while
   * its extents stay unscaled (Qt's scale factor) has them multiplied; one whose frame disagrees with
   * its window has no place shown at all, rather than a guessed one.
   */
  async #withFit(match: WindowMatch): Promise<void> {
    const { window, frame } = match;
    delete window.extentsScale;
    delete window.extentsScaledBy;
    delete window.extentsDisagree;
    if (!frame || !window.rect) return;
    if (frame.app.isGtk4) return this.#withGtk4Scale(match);
    const r = window.rect;
    const key = `${window.id}:${r.x},${r.y},${r.width}x${r.height}`;
    let fit = this.#fits.get(key);
    if (!fit) {
      // Not kept when the app did not answer, nor when it disagreed (it may lag a move): asked again.
      // A scale is kept once two reads agree on it: a frame read while the app still lays out its
      // window at its new size gives a passing ratio (Firefox at GDK_SCALE=2 read once as ×2.222,
      // and every click by ref then missed).
      fit = await extentsFit(frame.app, frame.path, r, this.callTimeoutMs).catch(() => undefined);
      if (!fit) return;
      if (this.#fits.size > 500) this.#fits.clear();
      if (this.#unconfirmed.size > 500) this.#unconfirmed.clear();
      const before = this.#unconfirmed.get(key);
      const confirmed = fit.fits !== "scaled" || (before?.fits === "scaled" && before.scale === fit.scale);
      this.#unconfirmed.delete(key);
      if (fit.fits !== "none" && confirmed) this.#fits.set(key, fit);
      if (fit.fits === "scaled" && !confirmed) this.#unconfirmed.set(key, fit);
    }
    if (fit.fits === "scaled") Object.assign(window, { extentsScale: fit.scale, extentsScaledBy: "app" });
    if (fit.fits === "none") {
      const box = (b: Rect) => `${b.width}x${b.height}@${b.x},${b.y}`;
      window.extentsDisagree = `its frame reads ${box(fit.frame)} against the window's ${box(r)}, and no one scale maps one onto the other`;
    }
  }

  /** GTK 4's scales on X11 by window and rectangle: they change only when the window does. */
  readonly #gtk4Scales = new Map<string, number>();

  /** GTK 4 at GDK_SCALE on X11: its window-relative extents are its points, each `scale` pixels. */
  async #withGtk4Scale({ window, frame }: WindowMatch): Promise<void> {
    const r = window.rect!;
    const key = `${window.id}:${r.width}x${r.height}:${window.csdMargins?.join(",") ?? ""}`;
    let scale = this.#gtk4Scales.get(key);
    if (scale === undefined) {
      scale = await gtk4Scale(frame!.app, frame!.path, r, window.csdMargins, this.callTimeoutMs).catch(
        () => undefined,
      );
      if (scale === undefined) return;
      if (this.#gtk4Scales.size > 500) this.#gtk4Scales.clear();
      this.#gtk4Scales.set(key, scale);
    }
    if (scale > 1) Object.assign(window, { extentsScale: scale, extentsScaledBy: "app" });
  }

  /** Shadow margins by window and visible size: they change only when the window does. */
  readonly #shadows = new Map<string, [number, number, number, number] | null>();

  /**
   * Under Wayland, a window whose frame holds a client-side shadow (floating GTK 3 with a header
   * bar): its rectangle grows by the shadow and the margins are kept, as X11's _GTK_FRAME_EXTENTS
   * are, so the window's origin plus the margins is where its extents start (csd.ts).
   */
  async #withShadow(match: WindowMatch): Promise<void> {
    const { window, frame } = match;
    if (!frame || !window.rect) return;
    if (window.xwayland) {
      // Not cached: an X11 app's idea of its place can change with any move (csd.ts).
      window.extentsShift = await xwaylandShift(frame.app, frame.path, window.rect, this.callTimeoutMs).catch(
        () => null,
      );
      return;
    }
    // A compositor whose points are the screen's pixels (GNOME at a scale) draws each app N times
    // larger than its own points: the margins are measured in the app's points, then multiplied.
    const n = window.extentsScale ?? 1;
    const visible = { ...window.rect, width: window.rect.width / n, height: window.rect.height / n };
    const key = `${window.id}:${window.rect.width}x${window.rect.height}`;
    let margins = this.#shadows.get(key);
    if (margins === undefined) {
      // An app that did not answer is asked again next time: only an answer is kept.
      margins = await shadowMargins(frame.app, frame.path, visible, this.callTimeoutMs, {
        titleBar: this.windows.ownTitleBars === true,
      }).catch(() => undefined);
      if (margins === undefined) return;
      if (this.#shadows.size > 500) this.#shadows.clear();
      this.#shadows.set(key, margins);
    }
    if (!margins) return;
    const [left, right, top, bottom] = margins.map((m) => m * n) as [number, number, number, number];
    if (left < 0) {
      // Inward: the app draws its own title bar outside its tree, which starts inside it.
      window.extentsShift = { x: window.rect.x - left, y: window.rect.y - top };
      return;
    }
    window.rect = {
      x: window.rect.x - left,
      y: window.rect.y - top,
      width: window.rect.width + left + right,
      height: window.rect.height + top + bottom,
    };
    window.csdMargins = [left, right, top, bottom];
  }

  async listWindows(): Promise<WindowInfo[]> {
    const [matches, active] = await Promise.all([
      this.#match(),
      this.windows.activeWindow().catch(() => undefined),
    ]);
    return [...matches.values()]
      .sort((a, b) => b.window.stackIndex - a.window.stackIndex)
      .map(({ window, frame }) => ({
        id: window.id,
        title: window.title,
        pid: window.pid ?? frame?.app.pid ?? null,
        app: frame?.app.name ?? null,
        rect: window.rect,
        focused: window.id === active,
        accessible: frame !== undefined,
        ...(matches.get(window.id)?.unanswered ? { unanswered: true } : {}),
        ...(frame?.app.toolkit.name ? { toolkit: frame.app.toolkit.name } : {}),
        ...(window.windowClass ? { windowClass: window.windowClass } : {}),
        ...(window.extentsScale
          ? { extentsScale: window.extentsScale, extentsScaledBy: window.extentsScaledBy ?? "app" }
          : {}),
        ...(window.extentsDisagree ? { extentsDisagree: window.extentsDisagree } : {}),
      }));
  }

  async openMenus(): Promise<Rect[] | undefined> {
    return this.windows.openMenus?.();
  }

  async windowUnderPointer(): Promise<number | undefined> {
    return this.windows.windowUnderPointer(await this.windows.clientWindows());
  }

  async readWindow(windowId: number, options: StructureOptions): Promise<StructureRead> {
    // listWindows() just matched; match again only for a window it has not seen.
    const match = this.#matches.get(windowId)?.frame
      ? this.#matches.get(windowId)
      : (await this.#match()).get(windowId);
    if (!match) throw new WindowNotFound(windowId);
    if (!match.frame && match.unanswered) {
      throw new AppNotResponding(
        `the application of window ${windowId} (pid ${match.window.pid})`,
        FRAME_LIST_TIMEOUT_MS,
      );
    }
    if (!match.frame) {
      throw new WindowNotAccessible(
        windowId,
        "no application on the accessibility bus owns it. Its toolkit may need accessibility switched on " +
          "(see `deskhand doctor`), or the app has not registered yet.",
      );
    }
    const { app, path, index } = match.frame;
    let read: StructureRead;
    try {
      read = await readStructure(app, path, options, this.#eagerEnricher(app, options, windowId));
    } catch (error) {
      // An app that died during the read: say the window is gone, not that something broke.
      if (this.closed) throw this.#busGone();
      const live = (await this.applications().catch(() => [])).some((a) => a.busName === app.busName);
      if (!live)
        throw new WindowNotFound(windowId, "its application left the accessibility bus during the read");
      throw error;
    }
    read.root.indexInParent = index;
    this.#frameBoundsFallback(read.root, windowId);
    await this.#withOpenPopups(read, match.frame, windowId, options);
    // Before anything is matched by role or state: a search reads a menu's toggle as what it shows.
    await this.#withMenuStates(everyNode(read.root), windowId);
    const pid = app.pid ?? match.window.pid;
    const language = pid && !app.showsPages ? processLanguage(pid) : undefined;
    if (language) read.language = language;
    const catalogs = language && language !== "en" && pid ? ownCatalogs(pid) : [];
    if (catalogs.length > 0) read.catalogs = catalogs;
    if (app.toolkit.name) read.toolkit = app.toolkit.name;
    return read;
  }

  /**
   * What the app shows over the window in top-levels of their own, which no client window is matched
   * to: GTK 3's context menus (a "window" holding a "menu"), Qt's popup menus. A person sees them over
   * the window, and keys and clicks go to them while they are open, so they are read as the window's
   * last children. Under X11 only: a Wayland popup's extents are its own surface's, placed nowhere.
   * An app with several windows has its popups read into the active one.
   */
  async #withOpenPopups(
    read: StructureRead,
    frame: Frame,
    windowId: number,
    options: StructureOptions,
  ): Promise<void> {
    const { app } = frame;
    const popups = await this.#openPopups(frame, windowId);
    const reads = await Promise.all(
      popups.map((popup) =>
        readStructure(app, popup.path, options, this.#eagerEnricher(app, options, windowId)).then(
          (popupRead) => {
            popupRead.root.indexInParent = popup.index;
            return popupRead;
          },
          () => undefined,
        ),
      ),
    );
    for (const popupRead of reads) {
      if (!popupRead) continue;
      read.root.children.push(popupRead.root);
      read.timedOut ||= popupRead.timedOut;
      read.ceilingHit ||= popupRead.ceilingHit;
    }
  }

  /** The app's open popups that read as the window's (see #withOpenPopups). */
  async #openPopups(frame: Frame, windowId: number): Promise<Frame[]> {
    if (this.windows.windowRelativeExtents) return [];
    const { app } = frame;
    const matched = new Set(
      [...this.#matches.values()].filter((m) => m.frame?.app === app).map((m) => m.frame!.path),
    );
    const frames = await this.#frames(app, this.callTimeoutMs).catch(() => [] as Frame[]);
    const popups = frames.filter(
      (f) => !matched.has(f.path) && POPUP_TOP_LEVELS.has(f.role) && f.states.includes("showing"),
    );
    if (popups.length === 0) return [];
    if (matched.size > 1 && (await this.windows.activeWindow().catch(() => undefined)) !== windowId)
      return [];
    return popups;
  }

  /** See TreeReader.appBindings: the window's X properties, then each exported menu model. */
  async appBindings(windowId: number): Promise<AppBindings | undefined> {
    const exports = this.windows.gtkExports
      ? await this.windows.gtkExports(windowId)
      : await this.#gtkApplicationOf(windowId);
    if (!exports) return undefined;
    const gtkApplication = exports.application !== undefined;
    const [shortcuts, read] = await Promise.all([
      gtkApplication ? this.#listedShortcuts(windowId) : [],
      exports.menus.length === 0
        ? []
        : this.#sessionBus().then((session) =>
            Promise.all(
              exports.menus.map((path) =>
                readExportedMenu(session, exports.busName, path, this.callTimeoutMs),
              ),
            ),
          ),
    ]);
    const items = read.flatMap((r) => r.items);
    return { gtkApplication, items, shortcuts, partial: read.some((r) => r.partial) };
  }

  /** When the window's app last sent a change event (AtspiApp.lastChangeAt); undefined: none heard. */
  lastChangeOf(windowId: number): number | undefined {
    if (this.#changesHeardFrom === undefined) return undefined;
    return this.#matches.get(windowId)?.frame?.app.lastChangeAt;
  }

  /**
   * The shortcuts window of a window's program (gtk-shortcuts.ts); none where it has none or it could
   * not be read (its chords then stay unknown, as a GtkApplication's are): no fault of the menus.
   */
  async #listedShortcuts(windowId: number): Promise<ListedShortcut[]> {
    const pid = await this.#pidOf(windowId);
    const program = pid ? await programOf(pid) : undefined;
    return program ? programShortcuts(program, this.callTimeoutMs).catch(() => []) : [];
  }

  async #pidOf(windowId: number): Promise<number | undefined> {
    const known = this.#matches.get(windowId)?.window;
    return (known ?? (await this.windows.clientWindows()).find((w) => w.id === windowId))?.pid ?? undefined;
  }

  /** The session bus, opened again where it closed or never opened (a bus restarted). */
  async #sessionBus(): Promise<DBusConnection> {
    const session = await this.#session?.catch(() => undefined);
    if (session && !session.closed) return session;
    this.#session = openSessionBus(this.sessionAddress, this.callTimeoutMs);
    return this.#session;
  }

  /** A window's process's GtkApplication where no X property names it (Wayland), asked once a process. */
  readonly #gtkApplications = new Map<number, Promise<GtkExports | undefined>>();
  async #gtkApplicationOf(windowId: number): Promise<GtkExports | undefined> {
    const pid = await this.#pidOf(windowId);
    if (!pid) return undefined;
    let found = this.#gtkApplications.get(pid);
    if (!found) {
      found = this.#sessionBus().then((session) => gtkApplicationOfPid(session, pid, this.callTimeoutMs));
      // A failed ask is asked again next time.
      found.catch(() => this.#gtkApplications.delete(pid));
      this.#gtkApplications.set(pid, found);
    }
    return found;
  }

  async readSubtree(handle: string, options: StructureOptions): Promise<StructureRead> {
    const { bus, path } = parseHandle(handle);
    const app = this.#apps.get(bus);
    if (!app) throw new ElementGone(handle, "its application is no longer on the accessibility bus");
    // The first call tells a hung app from a gone element: one bound, not one per call that follows.
    const [index] = await app
      .call(path, IFACE.accessible, "GetIndexInParent", this.callTimeoutMs)
      .catch((error) => {
        if (error instanceof DBusTimeoutError) throw this.#notResponding(app, error.timeoutMs);
        return [0];
      });
    try {
      const read = await readStructure(app, path, options, this.#eagerEnricher(app, options, undefined));
      read.root.indexInParent = Number(index);
      // Read alone, a combo box's face has no siblings to tell it by: they are asked (as describe does).
      if (mayBeComboFace(read.root) && (await this.#isComboFace(handle).catch(() => false)))
        readAsCombo(read.root);
      return read;
    } catch (error) {
      if (this.closed) throw this.#busGone();
      if (error instanceof DBusTimeoutError) throw this.#notResponding(app, error.timeoutMs);
      const stillRegistered = (await this.applications().catch(() => [])).some((a) => a.busName === bus);
      const detail = stillRegistered
        ? `it no longer answers (${(error as Error).message})`
        : "its application has left the accessibility bus";
      throw new ElementGone(handle, detail);
    }
  }

  async enrich(nodes: RawNode[], options: EnrichOptions): Promise<void> {
    const deadline = Date.now() + options.timeoutMs;
    await startAll(nodes, async (node) => {
      const app = this.#apps.get(parseHandle(node.handle).bus);
      if (!app) {
        node.unread.push("bounds", "actions");
        return;
      }
      await enrichNode(
        {
          app,
          maxText: options.maxText,
          actions: options.actions,
          accessibleIds: options.accessibleIds,
          range: options.range,
          deadline,
          boundsOffset: this.#boundsOffset(app, options.windowId),
          popupOffset: this.#popupOffsets(app),
        },
        node,
      );
    });
    if (options.windowId !== undefined) {
      for (const node of nodes) this.#frameBoundsFallback(node, options.windowId);
      await this.#withMenuStates(nodes, options.windowId);
    }
  }

  /**
   * A GtkApplication's menu items built from its exported menu model (GTK 3's) show no toggled state
   * in their tree: a toggle's or a radio item's state is its action's, read on the session bus without
   * acting (org.gtk.Actions), and given to the item of that label, read then as the check or radio
   * menu item it shows, "checkable" and "checked". Where it cannot be read the item stays as its tree
   * shows it.
   */
  async #withMenuStates(nodes: RawNode[], windowId: number): Promise<void> {
    const unstated = nodes.filter(
      (n) =>
        MENU_ITEM_ROLES.has(n.role) &&
        n.name &&
        !menuStatesAsked.has(n) &&
        !n.states?.includes("checkable") &&
        !n.states?.includes("checked"),
    );
    if (unstated.length === 0 || !this.windows.gtkExports) return;
    // Asked once a node: a window's read asks for its items, and its enrichment need not again.
    for (const node of unstated) menuStatesAsked.add(node);
    try {
      const exports = await this.windows.gtkExports(windowId);
      if (!exports || exports.menus.length === 0) return;
      const session = await this.#sessionBus();
      const groups = [
        ["app", exports.application],
        ["win", exports.window],
      ] as const;
      const [bindings, ...read] = await Promise.all([
        this.appBindings(windowId),
        ...groups.map(async ([prefix, path]) =>
          path === undefined
            ? []
            : [...(await readActionStates(session, exports.busName, path, this.callTimeoutMs))].map(
                ([name, state]) => [`${prefix}.${name}`, state] as const,
              ),
        ),
      ]);
      const checked = checkedItems(bindings?.items ?? [], new Map(read.flat()));
      for (const node of unstated) {
        const answer = checked.get(node.name!);
        if (answer === undefined) continue;
        // What a person sees, and what GTK's own check and radio items report.
        node.role = answer.radio ? "radio menu item" : "check menu item";
        node.states = [
          ...(node.states ?? []),
          "checkable",
          ...(answer.checked ? (["checked"] as const) : []),
        ];
      }
    } catch {
      // Not read: the items stay as their tree shows them.
    }
  }

  /**
   * Java frames report extents of -1: the frame is the X window, whose geometry the window manager
   * knows, so the frame takes the window's rectangle instead of none.
   */
  #frameBoundsFallback(node: RawNode, windowId: number): void {
    const match = this.#matches.get(windowId);
    if (!match?.frame || node.bounds !== null || !match.window.rect) return;
    if (node.handle !== handleOf(match.frame.app.busName, match.frame.path)) return;
    node.bounds = match.window.rect;
  }

  #eagerEnricher(app: AtspiApp, options: StructureOptions, windowId: number | undefined) {
    const eager = options.eagerEnrich;
    if (!eager) return undefined;
    let started = 0;
    const context = {
      app,
      maxText: eager.maxText,
      actions: eager.actions,
      accessibleIds: eager.accessibleIds,
      deadline: Date.now() + options.timeoutMs,
      boundsOffset: this.#boundsOffset(app, windowId),
      popupOffset: this.#popupOffsets(app),
    };
    return async (node: RawNode) => {
      if (started++ < eager.limit) await enrichNode(context, node);
    };
  }

  /**
   * GTK 4.8 reports extents relative to its window, and under Wayland every toolkit does: add the
   * window origin. On X11, GTK 4's are relative to what is drawn inside its shadow, so the CSD
   * margin is added too; under Wayland they are relative to the surface, shadow included, whose
   * origin the window's rectangle already is (#withShadow). An app that scaled itself on X11 has its
   * extents multiplied instead, and one whose frame disagrees with its window gets none (#withFit).
   */
  #boundsOffset(app: AtspiApp, windowId: number | undefined): BoundsOffset | null | undefined {
    const surface = this.windows.windowRelativeExtents;
    for (const { window, frame } of this.#matches.values()) {
      if (frame?.app === app && window.rect && (windowId === undefined || window.id === windowId)) {
        // Under a compositor whose points are pixels (GNOME at a scale): the app's points times the
        // scale, from its window's origin (or inside its own title bar).
        if (window.extentsScale && surface)
          return {
            ...(window.extentsShift ?? { x: window.rect.x, y: window.rect.y }),
            scale: window.extentsScale,
          };
        // GTK 4 at GDK_SCALE on X11: its points times the scale, from inside its shadow.
        if (window.extentsScale && app.isGtk4)
          return {
            x: window.rect.x + (window.csdMargins?.[0] ?? 0),
            y: window.rect.y + (window.csdMargins?.[2] ?? 0),
            scale: window.extentsScale,
          };
        if (window.extentsScale) return { x: 0, y: 0, scale: window.extentsScale, window: window.rect };
        if (window.extentsDisagree) return null;
        if (!app.isGtk4 && !surface) return undefined;
        // An XWayland client: its measured shift, or null, no place to trust (csd.ts).
        if (surface && window.xwayland) return window.extentsShift ?? null;
        // Inside a title bar the app draws itself (csd.ts).
        if (surface && window.extentsShift) return window.extentsShift;
        return {
          x: window.rect.x + (surface ? 0 : (window.csdMargins?.[0] ?? 0)),
          y: window.rect.y + (surface ? 0 : (window.csdMargins?.[2] ?? 0)),
        };
      }
    }
    return undefined;
  }

  /**
   * Under a compositor that lists its open popups, where a menu's items are: each menu asked once a
   * read (popup-places.ts). Undefined for an element that is no menu's item, or with no such list.
   */
  #popupOffsets(app: AtspiApp): ((node: RawNode) => Promise<BoundsOffset | null | undefined>) | undefined {
    const source = this.windows;
    if (!source.openMenus) return undefined;
    if (!source.windowRelativeExtents) return app.isGtk4 ? this.#popoverOffsets(app) : undefined;
    const shifts = new Map<string, Promise<BoundsOffset | null>>();
    const scale = this.#boundsOffset(app, undefined)?.scale ?? 1;
    return async (node) => {
      if (!POPUP_ITEM_ROLES.has(node.role)) return undefined;
      const parent = await this.#parentMenu(app, node);
      if (!parent) return undefined;
      let shift = shifts.get(parent);
      if (!shift) {
        shift = this.#popupShift(app, parent, () => source.openMenus!(), scale);
        shifts.set(parent, shift);
      }
      return shift;
    };
  }

  /** On X11, an element of GTK 4 inside an open popover is placed on the popover's window (popover-places.ts). */
  #popoverOffsets(app: AtspiApp): (node: RawNode) => Promise<BoundsOffset | null | undefined> {
    const source = this.windows;
    let open: Promise<Rect[]> | undefined;
    const shifts = new Map<string, Promise<PopoverShift | null>>();
    const scale = this.#boundsOffset(app, undefined)?.scale ?? 1;
    return async (node) => {
      open ??= source.openMenus!().catch(() => []);
      const menus = await open;
      if (menus.length === 0) return undefined;
      return popoverShift(app, node, menus, this.callTimeoutMs, shifts, scale);
    };
  }

  /**
   * The shift of a menu's items into its popup. A menu's items can say they show before the
   * compositor maps their popup (measured on KWin): it is waited for a little, then no place is given.
   */
  async #popupShift(
    app: AtspiApp,
    menu: string,
    openMenus: () => Promise<Rect[]>,
    scale: number,
  ): Promise<BoundsOffset | null> {
    const deadline = Date.now() + POPUP_MAPS_WITHIN_MS;
    for (;;) {
      const open = await openMenus().catch(() => []);
      const shift = open.length
        ? await popupShift(app, menu, open, this.callTimeoutMs, scale).catch(() => null)
        : null;
      if (shift) return scale === 1 ? shift : { ...shift, scale };
      if (Date.now() > deadline) return null;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** The path of the menu the node is an item of; undefined where its parent is no menu. */
  async #parentMenu(app: AtspiApp, node: RawNode): Promise<string | undefined> {
    const read = parentOf(node);
    if (read) return read.role === "menu" ? parseHandle(read.handle).path : undefined;
    const { path } = parseHandle(node.handle);
    const [, parent] = (await app
      .property(path, IFACE.accessible, "Parent", this.callTimeoutMs)
      .catch(() => [undefined, undefined])) as [string | undefined, string | undefined];
    if (!parent) return undefined;
    const [role] = await app.call(parent, IFACE.accessible, "GetRole", this.callTimeoutMs).catch(() => [-1]);
    return roleName(Number(role)) === "menu" ? parent : undefined;
  }

  reportsShowing(handle: string): boolean | undefined {
    return this.#apps.get(parseHandle(handle).bus)?.reportsShowing;
  }

  /** `waitedMs`: what the unanswered call waited (less than the bound when the app was silent already). */
  #notResponding(app: AtspiApp, waitedMs = this.callTimeoutMs): AppNotResponding {
    return new AppNotResponding(app.described, waitedMs);
  }

  #app(handle: string): { app: AtspiApp; path: string } {
    const { bus, path } = parseHandle(handle);
    const app = this.#apps.get(bus);
    if (!app) throw new ElementGone(handle, "its application is no longer on the accessibility bus");
    return { app, path };
  }

  async matchCandidates(
    scope: { windowId: number } | { handle: string },
    filter: { roles: string[]; states: string[] },
    timeoutMs: number,
  ): Promise<string[] | undefined> {
    let app: AtspiApp;
    let paths: string[];
    if ("handle" in scope) {
      let path: string;
      ({ app, path } = this.#app(scope.handle));
      paths = [path];
    } else {
      const frame = this.#matches.get(scope.windowId)?.frame;
      if (!frame) return undefined;
      app = frame.app;
      // The window's open popups are searched after it, as its read puts them last.
      paths = [frame.path, ...(await this.#openPopups(frame, scope.windowId)).map((p) => p.path)];
    }
    if (!collectionWorthwhile(app)) return undefined;
    if (await this.#menuStatesMatter(scope, filter)) return undefined;
    const found = await Promise.all(
      paths.map((path) => collectionMatches(app, path, filter, timeoutMs).catch(() => undefined)),
    );
    if (found.some((f) => f === undefined)) return undefined;
    return found.flatMap((f) => f!.map((p) => handleOf(app.busName, p)));
  }

  /**
   * Whether a search names what only a read gives a GTK app's menu items (#withMenuStates): the app's
   * own search knows them as plain menu items, so the tree is read instead.
   */
  async #menuStatesMatter(
    scope: { windowId: number } | { handle: string },
    filter: { roles: string[]; states: string[] },
  ): Promise<boolean> {
    const named =
      filter.roles.some((role) => role === "check menu item" || role === "radio menu item") ||
      filter.states.some((state) => state === "checkable" || state === "checked");
    if (!named || !this.windows.gtkExports) return false;
    if ("handle" in scope) return true;
    const exports = await this.windows.gtkExports(scope.windowId).catch(() => undefined);
    return !!exports && exports.menus.length > 0;
  }

  async describe(handle: string, options: { maxText: number; windowId?: number }): Promise<RawNode> {
    const read = await this.readSubtree(handle, {
      maxDepth: 0,
      tableRows: 0,
      walkTables: false,
      nodeCeiling: 1,
      timeoutMs: this.callTimeoutMs,
    });
    const node = read.root;
    await this.enrich([node], {
      maxText: options.maxText,
      timeoutMs: this.callTimeoutMs,
      actions: true,
      accessibleIds: true,
      range: true,
      ...(options.windowId === undefined ? {} : { windowId: options.windowId }),
    });
    // A node that answered nothing at all is gone, unless its app answers nothing either (busy, hung).
    // One whose name went unread is asked after too: an app stopped mid-read answers half of it.
    const silent = node.unread.includes("role") && node.unread.includes("states");
    if (silent || node.unread.includes("name")) {
      const { app } = this.#app(handle);
      const alive = await app
        .call(app.rootPath, IFACE.accessible, "GetRole", LIVENESS_TIMEOUT_MS)
        .then(() => true)
        .catch((error) => !(error instanceof DBusTimeoutError));
      if (!alive) throw this.#notResponding(app);
      if (silent) throw new ElementGone(handle, "it no longer answers");
    }
    if (mayBeComboFace(node) && (await this.#isComboFace(handle))) readAsCombo(node);
    // A combo box that reports no value of its own (Chromium's <select>) shows its selected item.
    if (node.role === "combo box" && node.value === undefined && !node.text) {
      const shown = await this.#selectedItem(handle).catch(() => undefined);
      if (shown !== undefined) node.value = shown;
    }
    return node;
  }

  /** Whether an element read alone is the face of a hidden combo box: its siblings are read. */
  async #isComboFace(handle: string): Promise<boolean> {
    const { app, path } = this.#app(handle);
    const parent = (await app
      .property(path, IFACE.accessible, "Parent", this.callTimeoutMs)
      .catch(() => undefined)) as [string, string] | undefined;
    if (!parent || parent[1] === NULL_PATH) return false;
    const box = await this.readSubtree(handleOf(app.busName, parent[1]), {
      maxDepth: 1,
      tableRows: 0,
      walkTables: false,
      nodeCeiling: 12,
      timeoutMs: this.callTimeoutMs,
    }).catch(() => undefined);
    return box?.root.children.some((c) => c.handle === handle && c.role === "combo box") ?? false;
  }

  async cellPosition(handle: string): Promise<{ row: number; column: number } | undefined> {
    const { app } = this.#app(handle);
    let { path } = this.#app(handle);
    // The element itself, or one of the few ancestors between it and its cell (a link in a cell).
    for (let level = 0; level < 4 && path !== NULL_PATH; level++) {
      const [interfaces] = await app.call(path, IFACE.accessible, "GetInterfaces", this.callTimeoutMs);
      if ((interfaces as string[]).includes(IFACE.tableCell)) {
        const position = (await app.property(
          path,
          IFACE.tableCell,
          "Position",
          this.callTimeoutMs,
        )) as number[];
        return { row: Number(position[0]), column: Number(position[1]) };
      }
      const parent = (await app.property(path, IFACE.accessible, "Parent", this.callTimeoutMs)) as [
        string,
        string,
      ];
      path = parent[1];
    }
    return undefined;
  }

  async ancestorsOf(handle: string, levels: number): Promise<Ancestor[]> {
    const { app } = this.#app(handle);
    let { path } = this.#app(handle);
    const found: Ancestor[] = [];
    const parentPath = async (of: string) => {
      const parent = (await app.property(of, IFACE.accessible, "Parent", this.callTimeoutMs)) as [
        string,
        string,
      ];
      // The app's root has the desktop, on the registry's connection, as its parent.
      return !Array.isArray(parent) || parent[1] === NULL_PATH || parent[0] !== app.busName
        ? undefined
        : parent[1];
    };
    while (found.length < levels) {
      const parent = await parentPath(path);
      if (!parent || parent === REGISTRY_ROOT_PATH) break;
      path = parent;
      const [[role], name] = await Promise.all([
        app.call(path, IFACE.accessible, "GetRole", this.callTimeoutMs),
        app.property(path, IFACE.accessible, "Name", this.callTimeoutMs),
      ]);
      const ancestor: Ancestor = {
        handle: handleOf(app.busName, path),
        role: roleName(Number(role)),
        name: name ? String(name) : undefined,
      };
      found.push(ancestor);
      // Its window is as far as it goes: nothing above it groups anything in it. A frame inside a
      // window (Qt's dock widget, FeatherPad's replace panel) is a part of it, and the walk goes on;
      // one whose parent cannot be read is taken for the window.
      if (!WINDOW_ROLES.has(ancestor.role)) continue;
      const above = await parentPath(path);
      if (above === undefined || above === REGISTRY_ROOT_PATH) {
        ancestor.topLevel = true;
        break;
      }
    }
    return found;
  }

  /** The name of the item a combo box's list (child or grandchild) reports selected. */
  async #selectedItem(handle: string): Promise<string | undefined> {
    const read = await this.readSubtree(handle, {
      maxDepth: 2,
      tableRows: 0,
      walkTables: false,
      nodeCeiling: 500,
      timeoutMs: this.callTimeoutMs,
    });
    const items = read.root.children.flatMap((c) => (c.children.length > 0 ? c.children : [c]));
    return items.find((i) => i.states?.includes("selected"))?.name;
  }

  async readText(handle: string, start: number, length: number) {
    const { app, path } = this.#app(handle);
    return readText(app, path, start, length, this.callTimeoutMs);
  }

  async readCaret(handle: string) {
    const { app, path } = this.#app(handle);
    return readCaret(app, path, this.callTimeoutMs);
  }

  async readAttributes(handle: string) {
    const { app, path } = this.#app(handle);
    const [pairs] = await app.call(path, IFACE.accessible, "GetAttributes", this.callTimeoutMs);
    return Object.fromEntries((pairs as [string, string][]).map(([k, v]) => [String(k), String(v)]));
  }

  /**
   * Gecko reports each element's `lang` as its Locale, and nothing where a page declares none;
   * Chromium reports its process's locale for every element (both measured 2026-12-07), so it is not asked.
   */
  async readLanguage(handle: string) {
    const { app, path } = this.#app(handle);
    if (app.toolkit.name !== "Gecko") return undefined;
    const locale = await app.property(path, IFACE.accessible, "Locale", this.callTimeoutMs);
    return typeof locale === "string" && /^[a-z]{2,3}([-_][A-Za-z0-9]+)*$/u.test(locale)
      ? locale.replace(/-/gu, "_")
      : undefined;
  }

  /** Text.SetCaretOffset, through the bus like every call that changes the app. */
  async placeCaret(handle: string, offset: number, options: { timeoutMs: number }) {
    const { app, path } = this.#app(handle);
    const [moved] = await app.act(path, IFACE.text, "SetCaretOffset", options.timeoutMs, "i", [offset]);
    return moved === true;
  }

  async readTable(handle: string, rowStart: number, rowCount: number, maxCells: number) {
    const { app, path } = this.#app(handle);
    return readTable(app, path, rowStart, rowCount, maxCells, this.callTimeoutMs);
  }

  async perform(
    handle: string,
    action: SemanticAction,
    options: { timeoutMs: number; node?: RawNode },
  ): Promise<ActionReport> {
    const { app, path } = this.#app(handle);
    const [node, parent] = await Promise.all([
      options.node?.actions !== undefined ? options.node : this.describe(handle, { maxText: 0 }),
      app.property(path, IFACE.accessible, "Parent", this.callTimeoutMs).catch(() => undefined),
    ]);
    const parentPath = Array.isArray(parent) ? String(parent[1]) : undefined;
    return performAction(
      { app, path, node, actions: node.actions ?? [], parentPath },
      action,
      options.timeoutMs,
    );
  }

  /**
   * What deskhand holds on the accessibility bus, from the bus daemon's own statistics
   * (org.freedesktop.DBus.Debug.Stats): its match rules, and listeners on its sockets. `undefined`
   * where the daemon was built without statistics.
   */
  async busFootprint(): Promise<{ matchRules: number; listeners: number; apps: number } | undefined> {
    const name = this.a11y.uniqueName;
    if (!name) return undefined;
    try {
      const [stats] = await this.a11y.call(
        {
          destination: "org.freedesktop.DBus",
          path: "/org/freedesktop/DBus",
          iface: "org.freedesktop.DBus.Debug.Stats",
          member: "GetConnectionStats",
          signature: "s",
          body: [name],
        },
        this.callTimeoutMs,
      );
      const entry = (stats as [string, [unknown, unknown[]]][]).find(([key]) => key === "MatchRules");
      const listeners = [this.a11y, ...[...this.#apps.values()].flatMap((a) => a.connections())].reduce(
        (n, c) => n + c.socketListeners,
        0,
      );
      return { matchRules: Number(entry?.[1][1][0] ?? Number.NaN), listeners, apps: this.#apps.size };
    } catch {
      return undefined;
    }
  }

  /** The accessibility bus or the window source (X display, sway) went away (restarted or stopped): this backend is done. */
  get closed(): boolean {
    return this.a11y.closed || this.windows.closed;
  }

  async close(): Promise<void> {
    for (const app of this.#apps.values()) app.close();
    this.#apps.clear();
    this.a11y.close();
    this.windows.close();
    this.#session?.then((session) => session.close()).catch(() => undefined);
  }
}
