// Window management through the window manager (EWMH client messages), each answer read back from the
// window manager's own properties: what we asked for is not reported as what happened.
import { setTimeout as sleep } from "node:timers/promises";
import { type FocusTruth, type Point, WINDOW_MANAGER_ANSWER_MS, type WindowControl } from "../hands.js";
import { windowsAtPoint } from "../window-source.js";
import type { X11Connection } from "./connection.js";
import { activeWindow, clientWindows } from "./windows.js";

// The window manager acts on its own time; these bound how long we watch for the result.
const SETTLE_MS = 1500;
const POLL_MS = 25;
/** Written on the marker window, then overwritten by the window manager's answer. */
const UNANSWERED = [0xfffffff1, 0xfffffff2, 0xfffffff3, 0xfffffff4];
const SOURCE_PAGER = 2; // EWMH source indication: a pager or taskbar, which WMs obey without focus-stealing rules.
const ICONIC_STATE = 3;

/**
 * How long an app that takes the focus itself (WM_TAKE_FOCUS: Java, GTK) may take to do so once the
 * window manager has asked it: the Swing fixture on a loaded machine took over SETTLE_MS.
 */
const APP_TAKES_FOCUS_MS = 10_000;

async function until<T>(
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  boundMs = SETTLE_MS,
): Promise<T> {
  const deadline = Date.now() + boundMs;
  let value = await probe();
  while (!done(value) && Date.now() < deadline) {
    await sleep(POLL_MS);
    value = await probe();
  }
  return value;
}

/** After a window is activated, before input may follow. */
const AFTER_ACTIVATION_MS = 200;

export class X11WindowControl implements WindowControl {
  constructor(private readonly x: X11Connection) {}

  activeWindow(): Promise<number | undefined> {
    return activeWindow(this.x);
  }

  async windowAt(point: Point): Promise<number | undefined> {
    const hits = windowsAtPoint(await clientWindows(this.x), point);
    // A minimized window keeps its geometry but is not on screen.
    for (const hit of hits) if (!(await this.#minimized(hit.id).catch(() => false))) return hit.id;
    return undefined;
  }

  async #supports(hint: string): Promise<boolean> {
    const supported = await this.x.cardinals(this.x.root, "_NET_SUPPORTED").catch(() => undefined);
    if (!supported) return false;
    return supported.includes(await this.x.atom(hint));
  }

  async #minimized(windowId: number): Promise<boolean> {
    const [state, hidden, netState] = await Promise.all([
      this.x.cardinals(windowId, "WM_STATE"),
      this.x.atom("_NET_WM_STATE_HIDDEN"),
      this.x.cardinals(windowId, "_NET_WM_STATE"),
    ]);
    return state?.[0] === ICONIC_STATE || (netState ?? []).includes(hidden);
  }

  async #siblings(windowId: number): Promise<number[]> {
    const windows = await clientWindows(this.x);
    const pid = windows.find((w) => w.id === windowId)?.pid;
    if (pid === null || pid === undefined) return [windowId];
    return windows.filter((w) => w.pid === pid).map((w) => w.id);
  }

  /**
   * A round trip through the window manager's queue: it handles requests in the order they came, so
   * once it has answered a frame-extents request for our marker window, it has handled every request
   * sent before. "unsupported": it offers no such request; false: no answer within WINDOW_MANAGER_ANSWER_MS.
   */
  async #windowManagerCaughtUp(): Promise<boolean | "unsupported"> {
    if (!(await this.#supports("_NET_REQUEST_FRAME_EXTENTS"))) return "unsupported";
    const marker = this.x.markerWindow();
    await this.x.setCardinals(marker, "_NET_FRAME_EXTENTS", UNANSWERED);
    await this.x.clientMessage(marker, "_NET_REQUEST_FRAME_EXTENTS", []);
    const deadline = Date.now() + WINDOW_MANAGER_ANSWER_MS;
    while (Date.now() < deadline) {
      const extents = await this.x.cardinals(marker, "_NET_FRAME_EXTENTS");
      if (extents && extents[0] !== UNANSWERED[0]) return true;
      await sleep(POLL_MS);
    }
    return false;
  }

  async #transientFor(windowId: number): Promise<number | undefined> {
    return (await this.x.cardinals(windowId, "WM_TRANSIENT_FOR").catch(() => undefined))?.[0];
  }

  async #takesFocusItself(windowId: number): Promise<boolean> {
    const [protocols, takeFocus] = await Promise.all([
      this.x.cardinals(windowId, "WM_PROTOCOLS").catch(() => undefined),
      this.x.atom("WM_TAKE_FOCUS"),
    ]);
    return protocols?.includes(takeFocus) ?? false;
  }

  async activate(windowId: number): Promise<FocusTruth> {
    if (!(await this.#supports("_NET_ACTIVE_WINDOW"))) return "unknown";
    try {
      const wasActive = (await activeWindow(this.x)) === windowId;
      if (await this.#minimized(windowId)) await this.x.mapWindow(windowId);
      // Asked twice at most: an app activated just before (Java) may take the focus back a moment
      // after the window manager gave it away; asked again once it has, the window manager gives
      // it. A dialog of this window in front is an answer, not such a race.
      let truth = await this.#requestActive(windowId);
      if (truth === "not_front" && !(await this.#dialogOf(windowId)))
        truth = await this.#requestActive(windowId);
      // The app learns of its activation on its own time: Java dropped a click and the first key
      // that came right after. Whoever sends input next finds it ready.
      if (truth === "front" && !wasActive) await sleep(AFTER_ACTIVATION_MS);
      return truth;
    } catch {
      return "unknown";
    }
  }

  /** Whether the window in front is a dialog of this one (a modal dialog keeps the focus). */
  async #dialogOf(windowId: number): Promise<boolean> {
    const now = await activeWindow(this.x);
    return now !== windowId && now !== undefined && (await this.#transientFor(now)) === windowId;
  }

  async #requestActive(windowId: number): Promise<FocusTruth> {
    // Sent even to the active window: one that another covers is raised by it.
    await this.x.clientMessage(windowId, "_NET_ACTIVE_WINDOW", [SOURCE_PAGER, 0, 0]);
    // Wait for the window manager's answer, however busy it is: once to know it has handled the
    // request (and set the focus), once more to know it has seen the focus arrive and said so.
    // What is left after that is the app's own time, which SETTLE_MS bounds.
    for (let round = 0; round < 2; round++) {
      const caughtUp = await this.#windowManagerCaughtUp();
      if (caughtUp === "unsupported") break;
      if (!caughtUp) return (await activeWindow(this.x)) === windowId ? "front" : "unknown";
      if (round === 0 && (await activeWindow(this.x)) === windowId) break;
    }
    // The window manager has answered. A dialog of this window in front is its decision: said at
    // once. Otherwise an app that takes the focus itself is given its time, one that does not only
    // SETTLE_MS.
    if (await this.#dialogOf(windowId)) return "not_front";
    const active = await until(
      () => activeWindow(this.x),
      (id) => id === windowId,
      (await this.#takesFocusItself(windowId)) ? APP_TAKES_FOCUS_MS : SETTLE_MS,
    );
    return active === windowId ? "front" : "not_front";
  }

  async minimize(windowId: number): Promise<{ minimized: boolean | "unknown" }> {
    await this.x.clientMessage(windowId, "WM_CHANGE_STATE", [ICONIC_STATE]);
    try {
      await this.#windowManagerCaughtUp();
      return {
        minimized: await until(
          () => this.#minimized(windowId),
          (v) => v,
        ),
      };
    } catch {
      return { minimized: "unknown" };
    }
  }

  async hide(windowId: number): Promise<{ windows: number[]; hidden: boolean | "unknown" }> {
    const windows = await this.#siblings(windowId);
    const results = await Promise.all(windows.map((id) => this.minimize(id)));
    const states = results.map((r) => r.minimized);
    const hidden = states.includes("unknown") ? "unknown" : states.every((s) => s === true);
    return { windows, hidden };
  }

  async show(windowId: number): Promise<{ windows: number[]; focus: FocusTruth }> {
    const windows = await this.#siblings(windowId);
    for (const id of windows) if (id !== windowId && (await this.#minimized(id))) await this.x.mapWindow(id);
    return { windows, focus: await this.activate(windowId) };
  }

  async closeWindow(windowId: number): Promise<{ closed: boolean | "unknown" }> {
    if (!(await this.#supports("_NET_CLOSE_WINDOW"))) return { closed: "unknown" };
    await this.x.clientMessage(windowId, "_NET_CLOSE_WINDOW", [0, SOURCE_PAGER]);
    // The window manager passes the request on; then the app takes its own time (SETTLE_MS).
    await this.#windowManagerCaughtUp().catch(() => undefined);
    const gone = await until(
      async () => !(await clientWindows(this.x)).some((w) => w.id === windowId),
      (v) => v,
    );
    // Still listed: the app may be asking "save changes?" — not closed, and we say so.
    return { closed: gone };
  }
}
