// The desktops deskhand works on, one line each: how a session is recognised as it, where its
// windows come from, its hands (input and pixels), what `doctor` checks there and the sandbox option
// that starts one. Connecting the backend, the hands and doctor all read this table: a new desktop
// is its own folder and a line here (docs/architecture.md, "Adding a desktop").
import type { DesktopCheck } from "./checks.js";
import type { Hands } from "./hands.js";
import { NO_COMPOSITOR, waylandCompositor } from "./wayland/compositor.js";
import { gnomeChecks } from "./wayland/gnome-checks.js";
import { openGnomeHands } from "./wayland/gnome-hands.js";
import { GnomeShell, shellWindowSource } from "./wayland/gnome-shell.js";
import { openWaylandHands } from "./wayland/hands.js";
import { KWinScripting, kwinWindowSource } from "./wayland/kwin.js";
import { kwinChecks } from "./wayland/kwin-checks.js";
import { openKWinHands } from "./wayland/kwin-hands.js";
import { SwayIpc, swayWindowSource } from "./wayland/sway.js";
import { swayChecks } from "./wayland/sway-checks.js";
import type { WindowSource } from "./window-source.js";
import { X11Connection } from "./x11/connection.js";
import { openX11Hands } from "./x11/hands.js";
import { x11WindowSource } from "./x11/windows.js";

export interface Desktop {
  /** Its short name: the backend is named "atspi+" it, and doctor says it. */
  kind: string;
  /** As a person calls it. */
  name: string;
  /** The display server its sessions speak. */
  session: "x11" | "wayland";
  /** Whether a session of that display server is this desktop, from its environment. */
  claims(env: NodeJS.ProcessEnv): boolean;
  /** Its list of windows, their places, the focus and what is under the pointer. */
  windows(env: NodeJS.ProcessEnv, timeoutMs: number): Promise<WindowSource>;
  /** Its input and pixels. */
  hands(env: NodeJS.ProcessEnv): Promise<Hands>;
  /** What `doctor` checks there, beyond the session (read-only). */
  checks(env: NodeJS.ProcessEnv, timeoutMs: number): Promise<DesktopCheck[]>;
  /** The `deskhand sandbox` option that starts one headless; none for X11, the default. */
  sandboxOption?: "wayland" | "kde" | "gnome";
}

/** In the order they are tried: the first whose session and claim match is the desktop. */
export const DESKTOPS: readonly Desktop[] = [
  {
    kind: "sway",
    name: "sway",
    session: "wayland",
    claims: (env) => waylandCompositor(env) === "sway",
    windows: async (env, ms) => swayWindowSource(await SwayIpc.open(env.SWAYSOCK!, ms), ms),
    hands: (env) => openWaylandHands(env, { xwayland: openX11Hands }),
    checks: swayChecks,
    sandboxOption: "wayland",
  },
  {
    kind: "kwin",
    name: "KWin (KDE Plasma)",
    session: "wayland",
    claims: (env) => waylandCompositor(env) === "kwin",
    windows: async (env, ms) => kwinWindowSource(await KWinScripting.open(env, ms)),
    hands: (env) => openKWinHands(env),
    checks: kwinChecks,
    sandboxOption: "kde",
  },
  {
    kind: "gnome",
    name: "GNOME Shell",
    session: "wayland",
    claims: (env) => waylandCompositor(env) === "gnome",
    windows: async (env, ms) => shellWindowSource(await GnomeShell.open(env, ms)),
    hands: (env) => openGnomeHands(env),
    checks: gnomeChecks,
    sandboxOption: "gnome",
  },
  {
    kind: "x11",
    name: "X11",
    session: "x11",
    claims: (env) => !!env.DISPLAY,
    windows: async (env, ms) => x11WindowSource(await X11Connection.open(env.DISPLAY!, ms)),
    hands: (env) => openX11Hands({ display: env.DISPLAY }),
    // The X display's own checks are doctor's "display" section.
    checks: async () => [],
  },
];

/** Which display server this process's session speaks, from its environment. */
export function sessionKind(env: NodeJS.ProcessEnv): "x11" | "wayland" | "none" {
  if (env.WAYLAND_DISPLAY && (!env.DISPLAY || env.XDG_SESSION_TYPE === "wayland")) return "wayland";
  if (env.DISPLAY) return "x11";
  return "none";
}

/** This session's desktop, or why deskhand knows none here. */
export function desktopOf(env: NodeJS.ProcessEnv): { desktop: Desktop } | { none: string } {
  const session = sessionKind(env);
  const desktop = DESKTOPS.find((d) => d.session === session && d.claims(env));
  if (desktop) return { desktop };
  if (session === "wayland") return { none: NO_COMPOSITOR };
  return {
    none: "neither DISPLAY nor WAYLAND_DISPLAY is set: there is no display here to list windows on, send input to or capture. Run inside `deskhand sandbox run`, or give deskhand the variables of your desktop's session.",
  };
}
