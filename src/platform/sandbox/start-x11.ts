// The X11 sandbox: Xvfb, which picks a free display itself, the session bus, openbox, the
// accessibility bus and registry, and AT_SPI_BUS on the root window (shared/notes/linux-desktop.md).
import { X11Connection } from "../x11/connection.js";
import { readLineFrom, startDetached } from "./processes.js";
import { monitorLayout, type Starter, spanOf, until } from "./starting.js";

/**
 * What a desktop set to scale X11 apps by `scale` tells each toolkit, as GNOME and Plasma do: GTK
 * an integer factor (its fonts kept at their size, as Xft.dpi scales them already), Qt its factor
 * (its fonts at 96 dpi for the same reason), Java its uiScale. Browsers are told nothing more.
 */
function scaledToolkits(scale: number, env: Record<string, string>): Record<string, string> {
  const scaled: Record<string, string> = {
    QT_SCALE_FACTOR: String(scale),
    QT_FONT_DPI: "96",
  };
  if (Number.isInteger(scale)) {
    scaled.GDK_SCALE = String(scale);
    scaled.GDK_DPI_SCALE = String(1 / scale);
  }
  if (env.JAVA_TOOL_OPTIONS !== undefined)
    scaled.JAVA_TOOL_OPTIONS = `${env.JAVA_TOOL_OPTIONS} -Dsun.java2d.uiScale=${scale}`;
  return scaled;
}

export const startX11: Starter = async (s, options) => {
  const { env, daemonEnv, log, step } = s;
  const dpi = options.dpi ?? (options.scale ? Math.round(96 * options.scale) : undefined);
  if (options.scale) Object.assign(env, scaledToolkits(options.scale, env));
  // 2. Xvfb picks a free display itself and writes its number to fd 3: no race with other sandboxes.
  const layout = monitorLayout(options, "right");
  const span = spanOf(layout);
  const xvfb = startDetached(
    "Xvfb",
    "Xvfb",
    [
      "-displayfd",
      "3",
      "-screen",
      "0",
      `${span.width}x${span.height}x24`,
      ...(dpi ? ["-dpi", String(dpi)] : []),
      "-nolisten",
      "tcp",
      "+extension",
      "XTEST",
      "-noreset",
    ],
    { env: daemonEnv(), logFile: log("xvfb"), extraPipes: 1 },
  );
  s.service(xvfb);
  const displayNumber = await readLineFrom(xvfb, 3, step);
  env.DISPLAY = `:${displayNumber}`;

  await s.sessionBus();

  const x = await until("X display", step, () => X11Connection.open(env.DISPLAY!, 1000));
  try {
    // Before the window manager, which lays windows out by the monitors it finds as it starts.
    if (layout.length > 1) await x.setMonitors(layout, dpi ?? x.dpi ?? 96);
    // 4. A window manager: focus, _NET_ACTIVE_WINDOW and raising windows need one.
    s.service(
      startDetached("openbox", "openbox", ["--sm-disable"], { env: daemonEnv(), logFile: log("openbox") }),
    );
    await until("openbox managing the screen", step, async () =>
      (await x.cardinals(x.root, "_NET_SUPPORTING_WM_CHECK")) ? true : undefined,
    );

    const a11yAddress = await s.accessibility();
    // 8. Qt 5.15 registered 1 time in 5 without the address on the root window, 5 in 5 with it.
    await x.setStringProperty(x.root, "AT_SPI_BUS", a11yAddress);
    // Xft.dpi, where Qt, Chromium and Firefox read the screen's dots per inch (as xrdb sets it).
    if (dpi) await x.setStringProperty(x.root, "RESOURCE_MANAGER", `Xft.dpi:\t${dpi}\n`);
    s.ready(env.DISPLAY!, a11yAddress);
  } finally {
    x.close();
  }
};
