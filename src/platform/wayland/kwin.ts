// KWin (KDE Plasma's compositor) as a window source, through its scripting over D-Bus: deskhand
// writes a small script, KWin loads and runs it, and the script calls back with what it read
// (callDBus to deskhand's own unique name). One script a question; each is bounded in time and
// unloaded after. Measured on Plasma 5.27 (shared/notes/kde-gnome.md §1.4): 7–46 ms a script.
// Plasma 6 renamed the calls (windowList, activeWindow) and the script's object path; the script
// asks for either, and the path is tried both ways, but only 5.27 has run here.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DBusCallError, DBusConnection, nameHasOwner } from "../dbus.js";
import type { Point } from "../hands.js";
import type { Rect } from "../types.js";
import type { WindowSource } from "../window-source.js";
import { type ClientWindow, windowsAtPoint } from "../window-source.js";
import { CompositorUnreachable } from "./compositor.js";
import { frontOf, type ListedWindow, listedClientWindows } from "./window-control.js";

const KWIN = "org.kde.KWin";
const REPORT_PATH = "/org/deskhand/KWinReport";
const REPORT_IFACE = "org.deskhand.KWinReport";

/** A window as the script reports it. */
export interface KWinWindow extends ListedWindow {
  /** KWin's internalId, a UUID. */
  uuid: string;
  /** The frame KWin decorates (no client shadow), and the surface's buffer (shadow included). */
  frame: Rect;
  buffer: Rect;
}

/** KWin's UUIDs as the 31-bit numbers deskhand's windows are named by: the same each time. */
export function windowNumber(uuid: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < uuid.length; i++) hash = Math.imul(hash ^ uuid.charCodeAt(i), 0x01000193);
  return hash >>> 1 || 1;
}

// The script's own words for each API: Plasma 6's where it has them, 5.27's otherwise.
const PRELUDE = `
const all = () => (workspace.windowList ? workspace.windowList() : workspace.clientList());
const active = () => (workspace.activeWindow !== undefined ? workspace.activeWindow : workspace.activeClient);
const rect = (g) => ({ x: g.x, y: g.y, width: g.width, height: g.height });
const find = (uuid) => all().find((w) => w.internalId.toString() === uuid);
`;

const LIST = `
const front = active();
return all()
  .filter((w) => w.pid > 0 && !w.desktopWindow && !w.dock && !w.splash && !w.notification && !w.onScreenDisplay)
  .map((w) => ({
    uuid: w.internalId.toString(),
    pid: w.pid,
    title: w.caption,
    windowClass: String(w.resourceClass),
    frame: rect(w.frameGeometry),
    buffer: rect(w.bufferGeometry),
    stacking: w.stackingOrder,
    active: w === front,
    minimized: !!w.minimized,
    x11: !!w.windowId,
    menu: !!(w.popupWindow || w.popupMenu || w.dropdownMenu || w.comboBox),
  }));
`;

export type KWinAction = "activate" | "minimize" | "restore" | "close";

function actionScript(uuid: string, action: KWinAction): string {
  const doIt: Record<KWinAction, string> = {
    activate:
      "w.minimized = false; if (workspace.activeWindow !== undefined) workspace.activeWindow = w; else workspace.activeClient = w;",
    minimize: "w.minimized = true;",
    restore: "w.minimized = false;",
    close: "w.closeWindow();",
  };
  return `const w = find(${JSON.stringify(uuid)}); if (!w) return false; ${doIt[action]} return true;`;
}

export class KWinScripting {
  #waiting = new Map<string, (json: string) => void>();
  #count = 0;
  readonly #folder = mkdtempSync(join(tmpdir(), "deskhand-kwin-"));
  /** Which object path runs a loaded script: "/<id>" on 5.27, "/Scripting/Script<id>" on 6. */
  #runPath: ((id: number) => string) | undefined;

  private constructor(
    private readonly bus: DBusConnection,
    private readonly timeoutMs: number,
  ) {
    bus.serve(REPORT_PATH, REPORT_IFACE, "Report", (token, json) => {
      this.#waiting.get(String(token))?.(String(json));
    });
  }

  /** The session bus's KWin, or why there is none. */
  static async open(env: NodeJS.ProcessEnv, timeoutMs: number): Promise<KWinScripting> {
    if (!env.DBUS_SESSION_BUS_ADDRESS)
      throw new Error("DBUS_SESSION_BUS_ADDRESS is not set: KWin cannot be asked");
    const bus = await DBusConnection.open(env.DBUS_SESSION_BUS_ADDRESS, { timeoutMs });
    const owned = await nameHasOwner(bus, KWIN, timeoutMs).catch((error: Error) => {
      bus.close();
      throw error;
    });
    if (!owned) {
      bus.close();
      throw new CompositorUnreachable(
        "kwin",
        "compositor_gone",
        "org.kde.KWin has no owner on the session bus",
      );
    }
    return new KWinScripting(bus, timeoutMs);
  }

  get closed(): boolean {
    return this.bus.closed;
  }

  /** Whether KWin still owns its name on the session bus (a bus that cannot say counts as yes). */
  async present(): Promise<boolean> {
    return nameHasOwner(this.bus, KWIN, this.timeoutMs).catch(() => true);
  }

  /** Runs `body` (a function body that returns JSON-able data) in KWin; what it returned. */
  async run<T>(body: string): Promise<T> {
    const name = `deskhand-${process.pid}-${++this.#count}`;
    const file = join(this.#folder, `${name}.js`);
    const me = this.bus.uniqueName;
    if (!me) throw new Error("deskhand has no name on the session bus for KWin to answer");
    writeFileSync(
      file,
      `${PRELUDE}\ncallDBus(${JSON.stringify(me)}, "${REPORT_PATH}", "${REPORT_IFACE}", "Report", ${JSON.stringify(name)}, JSON.stringify((() => {${body}})()));\n`,
      { mode: 0o600 },
    );
    const answer = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiting.delete(name);
        reject(new Error(`KWin did not run deskhand's script within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      this.#waiting.set(name, (json) => {
        clearTimeout(timer);
        this.#waiting.delete(name);
        resolve(json);
      });
    });
    answer.catch(() => undefined);
    try {
      const [id] = (await this.#scripting("loadScript", "ss", [file, name])) as [number];
      if (typeof id !== "number" || id < 0) throw new Error(`KWin refused deskhand's script (${id})`);
      await this.#start(id);
      return JSON.parse(await answer) as T;
    } finally {
      await this.#scripting("unloadScript", "s", [name]).catch(() => undefined);
      rmSync(file, { force: true });
    }
  }

  #scripting(member: string, signature: string, body: unknown[]): Promise<unknown[]> {
    return this.bus
      .call(
        { destination: KWIN, path: "/Scripting", iface: "org.kde.kwin.Scripting", member, signature, body },
        this.timeoutMs,
      )
      .catch((error: unknown) => {
        throw busNameGone(error)
          ? new CompositorUnreachable("kwin", "compositor_gone", "org.kde.KWin left the session bus")
          : error;
      });
  }

  async #start(id: number): Promise<void> {
    const paths = this.#runPath
      ? [this.#runPath]
      : [(n: number) => `/${n}`, (n: number) => `/Scripting/Script${n}`];
    for (const path of paths) {
      try {
        await this.bus.call(
          { destination: KWIN, path: path(id), iface: "org.kde.kwin.Script", member: "run" },
          this.timeoutMs,
        );
        this.#runPath = path;
        return;
      } catch (error) {
        if (!(error instanceof DBusCallError) || path === paths[paths.length - 1]) throw error;
      }
    }
  }

  windows(): Promise<KWinWindow[]> {
    return this.run<KWinWindow[]>(LIST);
  }

  /** Whether the window was there to act on. */
  act(uuid: string, action: KWinAction): Promise<boolean> {
    return this.run<boolean>(actionScript(uuid, action));
  }

  cursor(): Promise<Point> {
    return this.run<Point>("return { x: workspace.cursorPos.x, y: workspace.cursorPos.y };");
  }

  close(): void {
    this.bus.close();
    rmSync(this.#folder, { recursive: true, force: true });
  }
}

/** The window in front, as deskhand names windows (window-control.ts, frontOf). */
export function frontWindow(windows: KWinWindow[]): number | undefined {
  return frontOf(windows, (w) => windowNumber(w.uuid));
}

/** KWin's windows as deskhand lists them, each at its surface: every toolkit's extents are relative to it. */
export function kwinClientWindows(windows: KWinWindow[]): ClientWindow[] {
  return listedClientWindows(
    windows,
    (w) => windowNumber(w.uuid),
    (w) => w.buffer,
  );
}

/** KWin as the AT-SPI backend's window source. */
export function kwinWindowSource(kwin: KWinScripting): WindowSource {
  return {
    kind: "kwin",
    server: "KWin",
    clientWindows: async () => kwinClientWindows(await kwin.windows()),
    activeWindow: async () => frontWindow(await kwin.windows()),
    async windowUnderPointer(windows) {
      return windowsAtPoint(windows, await kwin.cursor())[0]?.id;
    },
    async openMenus() {
      return (await kwin.windows()).filter((w) => w.menu && !w.minimized).map((w) => w.frame);
    },
    windowRelativeExtents: true,
    get closed() {
      return kwin.closed;
    },
    close: () => kwin.close(),
  };
}

/** Whether a D-Bus call failed because its destination's name has no owner (the service is gone). */
export function busNameGone(error: unknown): boolean {
  return error instanceof DBusCallError && /\.(ServiceUnknown|NameHasNoOwner)$/.test(error.dbusName);
}
