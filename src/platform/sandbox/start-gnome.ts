import { spawnSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { openSessionBus } from "../atspi/bus.js";
import { nameHasOwner } from "../dbus.js";
import { EXTENSION_UUID, formFor, SHELL_NAME, writeExtension } from "../wayland/gnome-extension.js";
import { GnomeShell } from "../wayland/gnome-shell.js";
import { startDetached } from "./processes.js";
import { type DesktopOptions, type Starter, until } from "./starting.js";

/** The Wayland socket's name in a GNOME sandbox's private runtime folder. */
const GNOME_SOCKET = "wayland-gnome";

/** Why a GNOME sandbox cannot have these options; undefined where it can. */
export function gnomeRefuses(options: DesktopOptions): string | undefined {
  if ((options.monitors ?? 1) > 1) return "a GNOME sandbox has one screen: --monitors is for X11 and sway";
  if (options.scale && !Number.isInteger(options.scale))
    return "a GNOME sandbox takes a whole scale (GNOME's scaling-factor): 2, 3 or 4; use --wayland or --kde for a fractional one";
  if (options.xwayland)
    return "a GNOME sandbox has no XWayland (the Shell runs with --no-x11): use --wayland --xwayland";
  return undefined;
}

/** The major version of the GNOME Shell installed (43 on Debian 12), which decides its extension's form. */
function shellMajor(): number {
  const probe = spawnSync("gnome-shell", ["--version"], { timeout: 10_000, encoding: "utf8" });
  if ((probe.error as NodeJS.ErrnoException | undefined)?.code === "ENOENT")
    throw new Error("gnome-shell is not installed: a GNOME sandbox needs it (apt-get install gnome-shell)");
  return Number(/GNOME Shell (\d+)/.exec(probe.stdout ?? "")?.[1] ?? 43);
}

/**
 * Headless GNOME Shell (shared/notes/kde-gnome.md §2): its own virtual monitor, its own session
 * and system buses, settings in a key file that enable deskhand's extension (written into the
 * sandbox's data folder, as `deskhand setup gnome` does on a user's desktop). The accessibility
 * bus comes first, so the Shell finds it as it starts. Ready when the extension owns its name.
 */
export const startGnome: Starter = async (s, options) => {
  const { env, daemonEnv, log, step } = s;
  const refused = gnomeRefuses(options);
  if (refused) throw new Error(refused);
  await s.sessionBus();
  const systemBus = await s.systemBus();
  await writeExtension(env.XDG_DATA_HOME!, formFor(shellMajor()));
  const settings = join(env.XDG_CONFIG_HOME!, "glib-2.0", "settings");
  await mkdir(settings, { recursive: true });
  await writeFile(
    join(settings, "keyfile"),
    `[org/gnome/shell]\nenabled-extensions=['${EXTENSION_UUID}']\nwelcome-dialog-last-shown-version='999'\n` +
      // A whole scale, as GNOME's display settings set one: the screen stays its pixels.
      (options.scale ? `[org/gnome/desktop/interface]\nscaling-factor=uint32 ${options.scale}\n` : ""),
  );
  const a11yAddress = await s.accessibility();
  const width = options.width ?? 1280;
  const height = options.height ?? 1024;
  s.service(
    startDetached(
      "gnome-shell",
      "gnome-shell",
      [
        "--headless",
        "--wayland",
        "--no-x11",
        "--virtual-monitor",
        `${width}x${height}`,
        "--wayland-display",
        GNOME_SOCKET,
      ],
      {
        // Only the Shell keeps its settings in the file; apps keep theirs in memory, as elsewhere.
        env: { ...daemonEnv(), GSETTINGS_BACKEND: "keyfile", DBUS_SYSTEM_BUS_ADDRESS: systemBus },
        logFile: log("gnome-shell"),
      },
    ),
  );
  const session = await openSessionBus(env.DBUS_SESSION_BUS_ADDRESS, step);
  try {
    // The Shell loads extensions once it has started: up to 10 s on a loaded machine (measured).
    await until("GNOME Shell's deskhand extension owning org.deskhand.Shell", step * 3, async () =>
      (await nameHasOwner(session, SHELL_NAME, 1000)) ? true : undefined,
    );
  } finally {
    session.close();
  }
  // The Shell starts in its overview; a desktop of windows is what the apps are tried on.
  const shell = await GnomeShell.open(env, step);
  try {
    await shell.call("LeaveOverview");
  } finally {
    shell.close();
  }
  env.WAYLAND_DISPLAY = GNOME_SOCKET;
  s.ready(GNOME_SOCKET, a11yAddress);
};
