// GNOME Shell as a window source, through deskhand's own Shell extension (gnome-extension.ts,
// data/gnome-shell/service.js): one D-Bus call a question, each carrying the token the extension
// wrote to a 0600 file in the user's runtime folder. Measured on GNOME 43 (shared/notes/kde-gnome.md
// §2): 2–23 ms a window list.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DBusCallError, DBusConnection, nameHasOwner } from "../dbus.js";
import type { Point } from "../hands.js";
import type { Rect } from "../types.js";
import type { WindowSource } from "../window-source.js";
import { type ClientWindow, windowsAtPoint } from "../window-source.js";
import { CompositorUnreachable } from "./compositor.js";
import { extensionVersion, SHELL_NAME, SHELL_PATH, TOKEN_FILE } from "./gnome-extension.js";
import { busNameGone, windowNumber } from "./kwin.js";
import { frontOf, type ListedWindow, listedClientWindows } from "./window-control.js";

/** A window as the extension reports it (Meta.Window). */
export interface ShellWindow extends ListedWindow {
  /** Mutter's window id (64 bits; deskhand's number is its hash). */
  id: number;
  /** The window without its client-side shadow, and the surface's buffer (shadow included). */
  frame: Rect;
  buffer: Rect;
  /** Its monitor's scale: the Shell's points are the screen's pixels, so its app's are this many. */
  scale?: number;
}

export type ShellAction = "activate" | "minimize" | "restore" | "close";

/** Where GNOME Shell has no deskhand extension to answer, and what to do. */
const NO_EXTENSION =
  "GNOME Shell has no deskhand extension answering on the session bus (org.deskhand.Shell): run `deskhand setup gnome`, log out and in once, then `gnome-extensions enable deskhand@deskhand.dev`; or run apps inside `deskhand sandbox run --gnome`";

export class GnomeShell {
  private constructor(
    readonly bus: DBusConnection,
    private readonly tokenFile: string,
    private token: string,
    private readonly timeoutMs: number,
    /** The extension's version, and whether it is this deskhand's. */
    readonly version: string,
  ) {}

  /** The session's Shell with deskhand's extension, or why there is none. */
  static async open(env: NodeJS.ProcessEnv, timeoutMs: number): Promise<GnomeShell> {
    if (!env.DBUS_SESSION_BUS_ADDRESS)
      throw new Error("DBUS_SESSION_BUS_ADDRESS is not set: GNOME Shell cannot be asked");
    const bus = await DBusConnection.open(env.DBUS_SESSION_BUS_ADDRESS, { timeoutMs });
    try {
      const [version] = (await bus
        .call({ destination: SHELL_NAME, path: SHELL_PATH, iface: SHELL_NAME, member: "Version" }, timeoutMs)
        .catch(async (error: Error) => {
          throw error instanceof DBusCallError ? await shellProblem(bus, timeoutMs) : error;
        })) as [string];
      const file = join(env.XDG_RUNTIME_DIR ?? "", TOKEN_FILE);
      return new GnomeShell(bus, file, readToken(file), timeoutMs, version);
    } catch (error) {
      bus.close();
      throw error;
    }
  }

  /** Whether the extension answering is the one this deskhand would install. */
  get current(): boolean {
    return this.version === extensionVersion();
  }

  get closed(): boolean {
    return this.bus.closed;
  }

  /**
   * One of the extension's methods, with the token. A Shell restarted (or the extension enabled
   * again) has written a new one: on a refusal the file is read again, once.
   */
  async call<T extends unknown[]>(
    member: string,
    signature = "",
    body: unknown[] = [],
    timeoutMs = this.timeoutMs,
  ): Promise<T> {
    const ask = () =>
      this.bus.call(
        {
          destination: SHELL_NAME,
          path: SHELL_PATH,
          iface: SHELL_NAME,
          member,
          signature: `s${signature}`,
          body: [this.token, ...body],
        },
        timeoutMs,
      ) as Promise<T>;
    try {
      return await ask();
    } catch (error) {
      // The Shell gone, or the extension disabled, mid-session: said as such.
      if (busNameGone(error) || (error instanceof DBusCallError && error.dbusName.endsWith(".UnknownMethod")))
        throw await shellProblem(this.bus, timeoutMs);
      // The Shell killed while it answered: no reply, and no Shell on the bus any more.
      if (error instanceof DBusCallError && error.dbusName.endsWith(".NoReply")) {
        const problem = await shellProblem(this.bus, timeoutMs);
        if (problem.problem === "compositor_gone") throw problem;
      }

      if (!(error instanceof DBusCallError) || !error.dbusName.endsWith(".Denied")) throw error;
      const fresh = readToken(this.tokenFile);
      if (fresh === this.token) throw error;
      this.token = fresh;
      return ask();
    }
  }

  async windows(): Promise<ShellWindow[]> {
    const [json] = await this.call<[string]>("Windows");
    return JSON.parse(json) as ShellWindow[];
  }

  /** Whether the window was there to act on. */
  async act(id: number, action: ShellAction): Promise<boolean> {
    const [found] = await this.call<[boolean]>("Act", "ss", [String(id), action]);
    return found;
  }

  async cursor(): Promise<Point> {
    const [x, y] = await this.call<[number, number]>("Cursor");
    return { x, y };
  }

  async screen(): Promise<Rect & { scale: number }> {
    const [json] = await this.call<[string]>("Screen");
    return JSON.parse(json) as Rect & { scale: number };
  }

  close(): void {
    this.bus.close();
  }
}

const shellNumber = (w: ShellWindow) => windowNumber(String(w.id));

function readToken(file: string): string {
  try {
    return readFileSync(file, "utf8").trim();
  } catch (error) {
    throw new Error(
      `the deskhand extension answers, but its token file ${file} cannot be read (${(error as NodeJS.ErrnoException).code}): deskhand runs as another user than the desktop, or XDG_RUNTIME_DIR is not the session's`,
    );
  }
}

/** The window in front, as deskhand names windows (window-control.ts, frontOf). */
export function shellFrontWindow(windows: ShellWindow[]): number | undefined {
  return frontOf(windows, shellNumber);
}

/**
 * The Shell's windows as deskhand lists them, each as drawn, shadow aside: a toolkit whose extents
 * start at its shadow (GTK 3) or inside its own title bar (Qt 5) is measured apart (csd.ts). On a
 * scaled screen, the app's points are the scale times larger than the Shell's.
 */
export function shellClientWindows(windows: ShellWindow[]): ClientWindow[] {
  const scales = new Map(windows.map((w) => [shellNumber(w), w.scale ?? 1]));
  return listedClientWindows(windows, shellNumber, (w) => w.frame).map((w) => {
    const scale = scales.get(w.id) ?? 1;
    return scale > 1 ? { ...w, extentsScale: scale, extentsScaledBy: "output" as const } : w;
  });
}

/** GNOME Shell as the AT-SPI backend's window source. */
export function shellWindowSource(shell: GnomeShell): WindowSource {
  return {
    kind: "gnome",
    server: "GNOME Shell",
    clientWindows: async () => shellClientWindows(await shell.windows()),
    activeWindow: async () => shellFrontWindow(await shell.windows()),
    async windowUnderPointer(windows) {
      return windowsAtPoint(windows, await shell.cursor())[0]?.id;
    },
    async openMenus() {
      return (await shell.windows()).filter((w) => w.menu && !w.minimized).map((w) => w.frame);
    },
    windowRelativeExtents: true,
    ownTitleBars: true,
    get closed() {
      return shell.closed;
    },
    close: () => shell.close(),
  };
}

/**
 * Why the extension does not answer: the Shell itself is gone from the session bus, or it runs
 * without deskhand's extension (not installed, or disabled).
 */
async function shellProblem(bus: DBusConnection, timeoutMs: number): Promise<CompositorUnreachable> {
  const owned = await nameHasOwner(bus, "org.gnome.Shell", timeoutMs).catch(() => undefined);
  return owned === false
    ? new CompositorUnreachable("gnome", "compositor_gone", "org.gnome.Shell has no owner on the session bus")
    : new CompositorUnreachable("gnome", "extension_missing", NO_EXTENSION);
}
