import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { startDetached } from "./processes.js";
import { freshXDisplay, monitorLayout, type Starter, until, xDisplays } from "./starting.js";

/**
 * Headless sway in place of Xvfb and openbox (shared/notes/wayland.md): pixman, no input devices,
 * tiled windows with sway's own borders, XWayland only when asked. Sway refuses to run as root; in
 * a user namespace it runs (as uid 1000 there) and root's clients outside use its sockets.
 */
export const startSway: Starter = async (s, options) => {
  const { env, daemonEnv, log, step } = s;
  await s.sessionBus();
  const runtime = env.XDG_RUNTIME_DIR!;
  const config = join(s.root, "sway.config");
  await writeFile(
    config,
    [
      ...monitorLayout(options, "left").map(
        (m, i) =>
          `output ${m.name} resolution ${m.width}x${m.height} position ${m.x} ${m.y} scale ${i === 0 ? (options.scale ?? 1) : 1}`,
      ),
      // "force" starts XWayland with sway, so its display is there before any app needs it.
      options.xwayland ? "xwayland force" : "xwayland disable",
      "focus_follows_mouse no",
      "default_border normal 2",
      "",
    ].join("\n"),
  );
  const asRoot = process.getuid?.() === 0;
  const xSockets = options.xwayland ? await xDisplays() : [];
  s.service(
    startDetached(
      "sway",
      asRoot ? "unshare" : "sway",
      // Root outside is an ordinary user inside (uid 1000, not the unmapped nobody): a program that
      // drops to its real uid, as XWayland's X server does before it runs xkbcomp, fails for an
      // unmapped one (measured: "Failed to activate virtual core keyboard"); sway refuses uid 0.
      [...(asRoot ? ["--user", "--map-user=1000", "--map-group=1000", "sway"] : []), "-c", config],
      {
        env: {
          ...daemonEnv(),
          WLR_BACKENDS: "headless",
          WLR_HEADLESS_OUTPUTS: String(options.monitors ?? 1),
          WLR_LIBINPUT_NO_DEVICES: "1",
          WLR_RENDERER: "pixman",
        },
        logFile: log("sway"),
      },
    ),
  );
  const sockets = await until("sway's sockets", step, async () => {
    const names = await readdir(runtime);
    const display = names.find((n) => /^wayland-\d+$/.test(n));
    const ipc = names.find((n) => n.startsWith("sway-ipc.") && n.endsWith(".sock"));
    return display && ipc ? { display, ipc: join(runtime, ipc) } : undefined;
  });
  env.WAYLAND_DISPLAY = sockets.display;
  env.SWAYSOCK = sockets.ipc;
  env.XDG_SESSION_TYPE = "wayland";
  if (options.xwayland) env.DISPLAY = await freshXDisplay("sway's XWayland", xSockets, step);
  const a11yAddress = await s.accessibility();
  s.ready(sockets.display, a11yAddress);
};
