// What each desktop's starter (start-x11.ts, start-sway.ts, start-kwin.ts, start-gnome.ts) is given by
// the sandbox: its folder, the environment being built, the services every desktop shares (the
// session bus, the accessibility bus and registry, a system bus) and how to say it is ready; and the
// helpers more than one starter uses.
import { readdir } from "node:fs/promises";
import { X11Connection } from "../x11/connection.js";
import type { StartedProcess } from "./processes.js";

export interface DesktopOptions {
  width?: number;
  height?: number;
  /** Headless sway instead of Xvfb and openbox: apps run on Wayland. */
  wayland?: boolean;
  /** KDE Plasma's compositor, KWin, headless instead of sway (implies Wayland; kwin.ts). */
  kde?: boolean;
  /** GNOME Shell headless with deskhand's extension instead of sway (implies Wayland; gnome-shell.ts). */
  gnome?: boolean;
  /** With wayland: sway's XWayland too, its DISPLAY given to apps (for X11-only ones). */
  xwayland?: boolean;
  /**
   * A scaled screen, as a desktop set to scale shows one: under Wayland the output's scale; under
   * X11 (which has no scale of its own) the dots per inch times it and each toolkit's own factor.
   */
  scale?: number;
  /** X11 only: the dots per inch the X server and Xft.dpi report, with no toolkit told to scale. */
  dpi?: number;
  /**
   * Screens, 1 to 4: the first at width × height and `scale`, each other 1024×768 at scale 1, to its
   * right under X11 (RandR monitors of one root window, which cannot start left of 0) and to its
   * left under Wayland (negative origins).
   */
  monitors?: number;
  /** Bound on each start step. */
  stepTimeoutMs?: number;
}

/** The sandbox, as a desktop's starter sees it while it starts. */
export interface Starting {
  readonly root: string;
  /** The environment the apps will get, filled in as the desktop comes up. */
  readonly env: Record<string, string>;
  /** The environment of the desktop's own services. */
  daemonEnv(): Record<string, string>;
  /** A service's log file. */
  log(name: string): string;
  /** How long each step may take, in ms. */
  readonly step: number;
  /** A process of the desktop itself, ended with it. */
  service(started: StartedProcess): void;
  /** A session bus whose only service is the AT-SPI bus; sets DBUS_SESSION_BUS_ADDRESS. */
  sessionBus(): Promise<void>;
  /** The AT-SPI bus, accessibility switched on, the registry: the accessibility bus's address. */
  accessibility(): Promise<string>;
  /** A private system bus, which allows everything and activates nothing: its address. */
  systemBus(): Promise<string>;
  /** The desktop is up: its display and accessibility bus. */
  ready(display: string, a11yAddress: string): void;
}

/** Starts one kind of desktop in the sandbox. */
export type Starter = (s: Starting, options: DesktopOptions) => Promise<void>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function until<T>(
  what: string,
  timeoutMs: number,
  probe: () => Promise<T | undefined>,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    await sleep(50);
  }
  const reason = lastError instanceof Error ? `: ${lastError.message}` : "";
  throw new Error(`${what} did not happen within ${timeoutMs} ms${reason}`);
}

/** Each screen of a sandbox (DesktopOptions.monitors): the first, then the others toward `side`. */
export function monitorLayout(
  options: DesktopOptions,
  side: "left" | "right",
): { name: string; x: number; y: number; width: number; height: number }[] {
  const first = { width: options.width ?? 1280, height: options.height ?? 1024 };
  const name = (i: number) => (side === "left" ? `HEADLESS-${i + 1}` : `DESKHAND-${i + 1}`);
  const layout = [{ name: name(0), x: 0, y: 0, ...first }];
  for (let i = 1; i < (options.monitors ?? 1); i++) {
    const x = side === "right" ? first.width + (i - 1) * 1024 : -i * 1024;
    layout.push({ name: name(i), x, y: 0, width: 1024, height: 768 });
  }
  return layout;
}

/** The rectangle from the origin that holds every monitor (an X root window's size). */
export function spanOf(layout: { x: number; y: number; width: number; height: number }[]) {
  return {
    width: Math.max(...layout.map((m) => m.x + m.width)),
    height: Math.max(...layout.map((m) => m.y + m.height)),
  };
}

/** XWayland's display: the X socket that was not there before the compositor started, answering. */
export function freshXDisplay(what: string, before: string[], step: number): Promise<string> {
  return until(what, step, async () => {
    const fresh = (await xDisplays()).find((d) => !before.includes(d));
    if (fresh === undefined) return undefined;
    (await X11Connection.open(fresh, 1000)).close();
    return fresh;
  });
}

/** The X displays with a socket in /tmp/.X11-unix (":0", ":12"). */
export async function xDisplays(): Promise<string[]> {
  const names = await readdir("/tmp/.X11-unix").catch(() => [] as string[]);
  return names.filter((n) => /^X\d+$/.test(n)).map((n) => `:${n.slice(1)}`);
}
