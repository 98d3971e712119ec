import { existsSync } from "node:fs";
import { join } from "node:path";
import { openSessionBus } from "../atspi/bus.js";
import { nameHasOwner } from "../dbus.js";
import { kwinExecutable, writeGrant } from "../wayland/kwin-grant.js";
import { startDetached } from "./processes.js";
import { freshXDisplay, type Starter, until, xDisplays } from "./starting.js";

/** The Wayland socket's name in a KDE sandbox's private runtime folder. */
const KWIN_SOCKET = "wayland-kde";

/**
 * Headless KWin (shared/notes/kde-gnome.md §1): its virtual backend, its own session bus, and a
 * desktop file in the sandbox's data folder that grants deskhand's Node its fake input and
 * screenshots (kwin-grant.ts), as `deskhand setup kde` does on a user's desktop. KWin runs as
 * root; a container that forbids its file capability gets a copy without it.
 */
export const startKwin: Starter = async (s, options) => {
  const { env, daemonEnv, log, step } = s;
  if ((options.monitors ?? 1) > 1)
    throw new Error("a KDE sandbox has one screen: --monitors is for X11 and sway");
  await s.sessionBus();
  await writeGrant(env.XDG_DATA_HOME!);
  const kwin = await kwinExecutable(join(s.root, "bin"));
  // KWin takes the screen's size in its own points; --size is pixels, as sway's output mode is.
  const width = Math.round((options.width ?? 1280) / (options.scale ?? 1));
  const height = Math.round((options.height ?? 1024) / (options.scale ?? 1));
  const xSockets = options.xwayland ? await xDisplays() : [];
  const kwinEnv = daemonEnv();
  // KWin is a Qt program with a platform of its own; the apps' Qt settings are not for it.
  for (const key of Object.keys(kwinEnv)) if (key.startsWith("QT_")) delete kwinEnv[key];
  s.service(
    startDetached(
      "kwin_wayland",
      kwin,
      [
        "--virtual",
        "--width",
        String(width),
        "--height",
        String(height),
        ...(options.scale ? ["--scale", String(options.scale)] : []),
        "--socket",
        KWIN_SOCKET,
        "--no-lockscreen",
        "--no-global-shortcuts",
        "--no-kactivities",
        ...(options.xwayland ? ["--xwayland"] : []),
      ],
      { env: kwinEnv, logFile: log("kwin_wayland") },
    ),
  );
  const session = await openSessionBus(env.DBUS_SESSION_BUS_ADDRESS, step);
  try {
    await until("KWin owning org.kde.KWin", step, async () =>
      existsSync(join(env.XDG_RUNTIME_DIR!, KWIN_SOCKET)) &&
      (await nameHasOwner(session, "org.kde.KWin", 1000))
        ? true
        : undefined,
    );
  } finally {
    session.close();
  }
  env.WAYLAND_DISPLAY = KWIN_SOCKET;
  if (options.xwayland) env.DISPLAY = await freshXDisplay("KWin's XWayland", xSockets, step);
  const a11yAddress = await s.accessibility();
  s.ready(KWIN_SOCKET, a11yAddress);
};
