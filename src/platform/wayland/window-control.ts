// Window control on a compositor that lists its windows and acts on one at a time (KWin's scripts,
// GNOME Shell's extension): focus, minimize, hide and show an app's windows, close, each read back
// from the compositor's own list afterwards.
import { setTimeout as sleep } from "node:timers/promises";
import type { FocusTruth, Point, WindowControl } from "../hands.js";
import { type ClientWindow, windowsAtPoint } from "../x11/windows.js";

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
