// Window control on a compositor that lists its windows and acts on one at a time (KWin's scripts,
// GNOME Shell's extension): focus, minimize, hide and show an app's windows, close, each read back
// from the compositor's own list afterwards.
import { setTimeout as sleep } from "node:timers/promises";
import type { FocusTruth, Point, WindowControl } from "../hands.js";
import type { Rect } from "../types.js";
import { type ClientWindow, windowsAtPoint } from "../window-source.js";
import { SeatPointer } from "./seat.js";

export type CompositorAction = "activate" | "minimize" | "restore" | "close";

/** A window as the compositor lists it, named by deskhand's number. */
export interface CompositorWindow {
  number: number;
  pid: number;
  minimized: boolean;
  menu: boolean;
}

export interface Compositor<W extends CompositorWindow> {
  windows(): Promise<W[]>;
  clientWindows(windows: W[]): ClientWindow[];
  front(windows: W[]): number | undefined;
  act(window: W, action: CompositorAction): Promise<unknown>;
}

export function compositorWindowControl<W extends CompositorWindow>(
  compositor: Compositor<W>,
): WindowControl {
  const numbered = async (id: number) => (await compositor.windows()).find((w) => w.number === id);
  const act = async (id: number, action: CompositorAction) => {
    const window = await numbered(id);
    if (window) await compositor.act(window, action);
    return window;
  };
  const activeWindow = async () => compositor.front(await compositor.windows());
  const activate = async (id: number): Promise<FocusTruth> => {
    await act(id, "activate");
    const focused = await activeWindow();
    return focused === id ? "front" : focused === undefined ? "unknown" : "not_front";
  };
  /** The app's windows that `pick` chooses, with the window `id`'s pid. */
  const appWindows = async (id: number, pick: (w: W) => boolean) => {
    const all = await compositor.windows();
    const pid = all.find((w) => w.number === id)?.pid;
    return all.filter((w) => w.pid === pid && !w.menu && pick(w));
  };
  return {
    activeWindow,
    async windowAt(point: Point) {
      return windowsAtPoint(compositor.clientWindows(await compositor.windows()), point)[0]?.id;
    },
    activate,
    async minimize(id) {
      if (!(await act(id, "minimize"))) return { minimized: "unknown" };
      return { minimized: (await numbered(id))?.minimized ?? "unknown" };
    },
    async hide(id) {
      const mine = await appWindows(id, (w) => !w.minimized);
      for (const w of mine) await compositor.act(w, "minimize");
      const after = await compositor.windows();
      return {
        windows: mine.map((w) => w.number),
        hidden: mine.every((w) => after.find((a) => a.number === w.number)?.minimized === true),
      };
    },
    async show(id) {
      const mine = await appWindows(id, (w) => w.minimized);
      for (const w of mine) await compositor.act(w, "restore");
      return { windows: mine.length ? mine.map((w) => w.number) : [id], focus: await activate(id) };
    },
    async closeWindow(id) {
      if (!(await act(id, "close"))) return { closed: "unknown" };
      for (let i = 0; i < 20; i++) {
        if (!(await numbered(id))) return { closed: true };
        await sleep(100);
      }
      return { closed: "unknown" };
    },
  };
}

/** A compositor's window as both KWin's scripts and GNOME Shell's extension list it. */
export interface ListedWindow {
  pid: number;
  title: string;
  windowClass: string;
  stacking: number;
  active: boolean;
  minimized: boolean;
  x11: boolean;
  /** A popup (a menu, a drop-down list, a tooltip): listed as a menu, not a window. */
  menu: boolean;
}

/**
 * The window in front, as deskhand names windows: an open popup (a menu) can hold the compositor's
 * focus, and then its app's window under it is the one in front (the popup is no window of
 * deskhand's; activating the window would close the menu).
 */
export function frontOf<W extends ListedWindow>(
  windows: W[],
  numberOf: (w: W) => number,
): number | undefined {
  const front = windows.find((w) => w.active);
  if (!front) return undefined;
  if (!front.menu) return numberOf(front);
  const owner = windows
    .filter((w) => !w.menu && !w.minimized && w.pid === front.pid)
    .sort((a, b) => b.stacking - a.stacking)[0];
  return owner ? numberOf(owner) : undefined;
}

/** The windows as deskhand lists them: bottom to top, minimized ones with no place, menus apart. */
export function listedClientWindows<W extends ListedWindow>(
  windows: W[],
  numberOf: (w: W) => number,
  placeOf: (w: W) => Rect,
): ClientWindow[] {
  return windows
    .filter((w) => !w.menu)
    .sort((a, b) => a.stacking - b.stacking)
    .map((w, stackIndex) => ({
      id: numberOf(w),
      title: w.title,
      pid: w.pid,
      rect: w.minimized ? null : placeOf(w),
      csdMargins: null,
      stackIndex,
      ...(w.windowClass ? { windowClass: w.windowClass } : {}),
      ...(w.x11 ? { xwayland: true as const } : {}),
    }));
}

/** The window control (and, from SeatPointer, the pointer) a compositor's hands delegate to, written once for KWin's and GNOME's. */
export abstract class CompositorControlled extends SeatPointer implements WindowControl {
  protected abstract readonly control: WindowControl;

  activeWindow(): Promise<number | undefined> {
    return this.control.activeWindow();
  }

  windowAt(point: Point): Promise<number | undefined> {
    return this.control.windowAt(point);
  }

  activate(windowId: number): Promise<FocusTruth> {
    return this.control.activate(windowId);
  }

  minimize(windowId: number): Promise<{ minimized: boolean | "unknown" }> {
    return this.control.minimize(windowId);
  }

  hide(windowId: number): Promise<{ windows: number[]; hidden: boolean | "unknown" }> {
    return this.control.hide(windowId);
  }

  show(windowId: number): Promise<{ windows: number[]; focus: FocusTruth }> {
    return this.control.show(windowId);
  }

  closeWindow(windowId: number): Promise<{ closed: boolean | "unknown" }> {
    return this.control.closeWindow(windowId);
  }
}
