// A private headless accessible desktop: Xvfb, a session bus that activates only the AT-SPI bus, openbox,
// the AT-SPI bus launcher and registry. The start order follows shared/notes/linux-desktop.md; each step
// says why it is where it is. With `wayland`, headless sway takes the place of Xvfb and openbox
// (shared/notes/wayland.md): the buses, the registry, the folders and the teardown are the same.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, copyFile, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  enableAccessibility,
  getAccessibilityBusAddress,
  openSessionBus,
  registeredApplications,
} from "../atspi/bus.js";
import { A11Y_BUS_NAME, REGISTRY_NAME } from "../atspi/names.js";
import { DBusConnection, nameHasOwner } from "../dbus.js";
import { deskhandCacheDir } from "../translations.js";
import { EXTENSION_UUID, formFor, SHELL_NAME, writeExtension } from "../wayland/gnome-extension.js";
import { GnomeShell } from "../wayland/gnome-shell.js";
import { kwinExecutable, writeGrant } from "../wayland/kwin-grant.js";
import { X11Connection } from "../x11/connection.js";
import { readLineFrom, type StartedProcess, startDetached, stopGroups } from "./processes.js";
import { Watchdog } from "./watchdog.js";

export const ATK_WRAPPER_JAR = "/usr/share/java/java-atk-wrapper.jar";
const A11Y_BUS_SERVICE_FILE = "/usr/share/dbus-1/services/org.a11y.Bus.service";
const BUS_LAUNCHER = "/usr/libexec/at-spi-bus-launcher";
const REGISTRY_DAEMON = "/usr/libexec/at-spi2-registryd";
/** The Wayland socket's name in a KDE sandbox's private runtime folder. */
const KWIN_SOCKET = "wayland-kde";
/** And in a GNOME sandbox's. */
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

export interface DesktopInfo {
  root: string;
  display: string;
  sessionBusAddress: string;
  accessibilityBusAddress: string;
  env: Record<string, string>;
  pids: Record<string, number>;
}

/** What the sandbox itself sets, besides the toolkit variables: its display, bus and folders. */
export const SANDBOX_VARIABLES = [
  "DISPLAY",
  "WAYLAND_DISPLAY",
  "SWAYSOCK",
  "GDK_BACKEND",
  "QT_QPA_PLATFORM",
  "DBUS_SESSION_BUS_ADDRESS",
  "XDG_RUNTIME_DIR",
  "XDG_CONFIG_HOME",
  "XDG_CACHE_HOME",
  "XDG_DATA_HOME",
  "XDG_STATE_HOME",
  "XDG_SESSION_TYPE",
  "XDG_CURRENT_DESKTOP",
  "KDE_FULL_SESSION",
] as const;

/** Variables that make each toolkit expose its tree under Xvfb. */
export function toolkitEnvironment(): Record<string, string> {
  const env: Record<string, string> = {
    GNOME_ACCESSIBILITY: "1",
    NO_AT_BRIDGE: "0",
    QT_LINUX_ACCESSIBILITY_ALWAYS_ON: "1",
    // GTK 2 (GIMP 2.10) loads its accessibility as modules; GTK 3 and 4 have theirs built in.
    GTK_MODULES: "gail:atk-bridge",
    QT_ACCESSIBILITY: "1",
    SAL_USE_VCLPLUGIN: "gtk3",
    // GL under Xvfb starves GTK4's accessibility registration (30 s and more); cairo registers in ~1 s.
    GSK_RENDERER: "cairo",
    GSETTINGS_BACKEND: "memory",
    GTK_USE_PORTAL: "0",
    GIO_USE_VFS: "local",
    LIBGL_ALWAYS_SOFTWARE: "1",
  };
  if (existsSync(ATK_WRAPPER_JAR)) {
    // For Java apps we cannot pass flags to; the jar must be on the boot class path or AWT dies with
    // "Assistive Technology not found".
    env.JAVA_TOOL_OPTIONS =
      `-Djavax.accessibility.assistive_technologies=org.GNOME.Accessibility.AtkWrapper ` +
      `-Xbootclasspath/a:${ATK_WRAPPER_JAR}`;
  }
  return env;
}

function sessionBusConfig(root: string): string {
  return `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <keep_umask/>
  <listen>unix:path=${join(root, "runtime", "session-bus")}</listen>
  <auth>EXTERNAL</auth>
  <servicedir>${join(root, "dbus-services")}</servicedir>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
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

export class Desktop {
  /** The desktop's own services, in start order. */
  readonly #processes: StartedProcess[] = [];
  /** Processes started in the desktop after it came up: apps, commands. */
  readonly #spawned: StartedProcess[] = [];
  #info: DesktopInfo | undefined;
  #stopped = false;
  /** Ends everything and removes the folder if this process dies without stopping the desktop. */
  readonly #watchdog = Watchdog.start();

  private constructor(readonly root: string) {
    this.#watchdog.watchPath(root);
  }

  /** A file outside the folder to remove if the owner dies (`sandbox start`'s state and log). */
  watchPath(path: string): void {
    this.#watchdog.watchPath(path);
  }

  /** A process started in the desktop some other way (the command of `sandbox run`), in its own group. */
  watchGroup(pid: number): void {
    this.#watchdog.watchGroup(pid);
  }

  #service(started: StartedProcess): void {
    this.#processes.push(started);
    this.#watchdog.watchGroup(started.pid);
  }

  get info(): DesktopInfo {
    if (!this.#info) throw new Error("the desktop is not started");
    return this.#info;
  }

  get logDir(): string {
    return join(this.root, "logs");
  }

  static async start(options: DesktopOptions = {}): Promise<Desktop> {
    const root = await mkdtemp(join(tmpdir(), "deskhand-sandbox-"));
    const desktop = new Desktop(root);
    try {
      await desktop.#start(options);
      return desktop;
    } catch (error) {
      await desktop.stop();
      throw error;
    }
  }

  /** Starts a process in the desktop, in its own session; stop() ends it and what it spawned. */
  spawn(label: string, command: string, args: string[], env?: Record<string, string>): StartedProcess {
    const started = startDetached(label, command, args, {
      env: { ...this.info.env, HOME: join(this.root, "home"), ...env },
      logFile: join(this.logDir, `${label.replace(/[^\w.-]+/g, "_").slice(0, 60)}.log`),
    });
    this.#spawned.push(started);
    this.#watchdog.watchGroup(started.pid);
    return started;
  }

  async #start(options: DesktopOptions): Promise<void> {
    const step = options.stepTimeoutMs ?? 10_000;
    const dirs = ["runtime", "home", "config", "cache", "data", "state", "logs", "dbus-services"];
    for (const dir of dirs) await mkdir(join(this.root, dir), { recursive: true });
    // XDG_RUNTIME_DIR decides where the a11y bus socket goes; it must be private and 0700.
    await chmod(join(this.root, "runtime"), 0o700);

    // 1. The environment first: bus-activated services inherit the bus daemon's environment, not ours.
    const base: Record<string, string> = {};
    for (const [key, value] of Object.entries(process.env)) if (value !== undefined) base[key] = value;
    // A stale accessibility bus address made the registry dial a dead bus and never answer.
    delete base.AT_SPI_BUS_ADDRESS;
    delete base.DBUS_SESSION_BUS_ADDRESS;
    delete base.WAYLAND_DISPLAY;
    delete base.SWAYSOCK;
    // Under Wayland an X display would let toolkits pick X11: apps see the compositor only.
    const wayland = options.wayland || options.kde || options.gnome;
    if (wayland) delete base.DISPLAY;
    const env: Record<string, string> = {
      ...base,
      ...toolkitEnvironment(),
      XDG_RUNTIME_DIR: join(this.root, "runtime"),
      XDG_CONFIG_HOME: join(this.root, "config"),
      XDG_CACHE_HOME: join(this.root, "cache"),
      XDG_DATA_HOME: join(this.root, "data"),
      XDG_STATE_HOME: join(this.root, "state"),
      XDG_SESSION_TYPE: wayland ? "wayland" : "x11",
      // deskhand's own cache (the catalogs' labels, the gate's phrases) is kept from one sandbox to
      // the next: it is keyed by what it was made from, and the apps never read it.
      DESKHAND_CACHE_DIR: deskhandCacheDir(process.env),
      ...(wayland ? { GDK_BACKEND: "wayland", QT_QPA_PLATFORM: "wayland", MOZ_ENABLE_WAYLAND: "1" } : {}),
      // What a Plasma session sets, and how deskhand knows KWin is the compositor there.
      ...(options.kde ? { XDG_CURRENT_DESKTOP: "KDE", KDE_FULL_SESSION: "true" } : {}),
      ...(options.gnome ? { XDG_CURRENT_DESKTOP: "GNOME" } : {}),
    };
    const daemonEnv = () => ({ ...env, HOME: join(this.root, "home") });
    const log = (name: string) => join(this.logDir, `${name}.log`);
    if (wayland && options.dpi)
      throw new Error("a Wayland output has a scale, not dots per inch: give it a scale instead");
    if (options.kde) return this.#startKde(options, env, daemonEnv, log, step);
    if (options.gnome) return this.#startGnome(options, env, daemonEnv, log, step);
    if (options.wayland) return this.#startWayland(options, env, daemonEnv, log, step);

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
    this.#service(xvfb);
    const displayNumber = await readLineFrom(xvfb, 3, step);
    env.DISPLAY = `:${displayNumber}`;

    await this.#startSessionBus(env, daemonEnv, log, step);

    const x = await until("X display", step, () => X11Connection.open(env.DISPLAY!, 1000));
    try {
      // Before the window manager, which lays windows out by the monitors it finds as it starts.
      if (layout.length > 1) await x.setMonitors(layout, dpi ?? x.dpi ?? 96);
      // 4. A window manager: focus, _NET_ACTIVE_WINDOW and raising windows need one.
      this.#service(
        startDetached("openbox", "openbox", ["--sm-disable"], { env: daemonEnv(), logFile: log("openbox") }),
      );
      await until("openbox managing the screen", step, async () =>
        (await x.cardinals(x.root, "_NET_SUPPORTING_WM_CHECK")) ? true : undefined,
      );

      const a11yAddress = await this.#startAccessibility(env, daemonEnv, log, step);
      // 8. Qt 5.15 registered 1 time in 5 without the address on the root window, 5 in 5 with it.
      await x.setStringProperty(x.root, "AT_SPI_BUS", a11yAddress);
      // Xft.dpi, where Qt, Chromium and Firefox read the screen's dots per inch (as xrdb sets it).
      if (dpi) await x.setStringProperty(x.root, "RESOURCE_MANAGER", `Xft.dpi:\t${dpi}\n`);
      this.#ready(env, env.DISPLAY!, a11yAddress);
    } finally {
      x.close();
    }
  }

  #ready(env: Record<string, string>, display: string, a11yAddress: string): void {
    this.#info = {
      root: this.root,
      display,
      sessionBusAddress: env.DBUS_SESSION_BUS_ADDRESS!,
      accessibilityBusAddress: a11yAddress,
      env,
      pids: Object.fromEntries(this.#processes.map((p) => [p.label, p.pid])),
    };
  }

  /** 3. A session bus whose only service is the AT-SPI bus: the stock config activates portals, which then show up as extra applications. */
  async #startSessionBus(
    env: Record<string, string>,
    daemonEnv: () => Record<string, string>,
    log: (name: string) => string,
    step: number,
  ): Promise<void> {
    // 3. A session bus whose only service is the AT-SPI bus: the stock config activates portals, which
    // then show up as extra applications.
    if (existsSync(A11Y_BUS_SERVICE_FILE)) {
      await copyFile(A11Y_BUS_SERVICE_FILE, join(this.root, "dbus-services", "org.a11y.Bus.service"));
    }
    const configFile = join(this.root, "session-bus.conf");
    await writeFile(configFile, sessionBusConfig(this.root));
    const busDaemon = startDetached(
      "dbus-daemon",
      "dbus-daemon",
      [`--config-file=${configFile}`, "--nofork", "--nopidfile", "--print-address=3"],
      { env: daemonEnv(), logFile: log("dbus-daemon"), extraPipes: 1 },
    );
    this.#service(busDaemon);
    env.DBUS_SESSION_BUS_ADDRESS = await readLineFrom(busDaemon, 3, step);
  }

  /** 5–7: the AT-SPI bus, accessibility switched on, the registry; the accessibility bus's address. */
  async #startAccessibility(
    env: Record<string, string>,
    daemonEnv: () => Record<string, string>,
    log: (name: string) => string,
    step: number,
  ): Promise<string> {
    // 5. The bus launcher, started by us so it gets our environment. Calling GetAddress before it owns
    // org.a11y.Bus would bus-activate a second launcher with the daemon's environment.
    this.#service(
      startDetached("at-spi-bus-launcher", BUS_LAUNCHER, ["--launch-immediately"], {
        env: daemonEnv(),
        logFile: log("at-spi-bus-launcher"),
      }),
    );
    const session = await openSessionBus(env.DBUS_SESSION_BUS_ADDRESS, step);
    try {
      await until("the AT-SPI bus launcher owning org.a11y.Bus", step, async () =>
        (await nameHasOwner(session, A11Y_BUS_NAME, 1000)) ? true : undefined,
      );
      // 6. Accessibility on, for toolkits that check the switch before loading their bridge.
      await enableAccessibility(session, step);
      // 7. The registry, started by us rather than bus-activated: an activated registry is double-forked
      // to PID 1, which on these machines never reaps it.
      const a11yAddress = await getAccessibilityBusAddress(session, step);
      this.#service(
        startDetached("at-spi2-registryd", REGISTRY_DAEMON, [], {
          env: { ...daemonEnv(), AT_SPI_BUS_ADDRESS: a11yAddress },
          logFile: log("at-spi2-registryd"),
        }),
      );
      const a11y = await DBusConnection.open(a11yAddress, { timeoutMs: step });
      try {
        await until("the AT-SPI registry owning its name", step, async () =>
          (await nameHasOwner(a11y, REGISTRY_NAME, 1000)) ? true : undefined,
        );
        await registeredApplications(a11y, step);
      } finally {
        a11y.close();
      }
      return a11yAddress;
    } finally {
      session.close();
    }
  }

  /**
   * Headless sway in place of Xvfb and openbox (shared/notes/wayland.md): pixman, no input devices,
   * tiled windows with sway's own borders, XWayland only when asked. Sway refuses to run as root; in
   * a user namespace it runs (as uid 1000 there) and root's clients outside use its sockets.
   */
  async #startWayland(
    options: DesktopOptions,
    env: Record<string, string>,
    daemonEnv: () => Record<string, string>,
    log: (name: string) => string,
    step: number,
  ): Promise<void> {
    await this.#startSessionBus(env, daemonEnv, log, step);
    const runtime = env.XDG_RUNTIME_DIR!;
    const config = join(this.root, "sway.config");
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
    this.#service(
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
    const a11yAddress = await this.#startAccessibility(env, daemonEnv, log, step);
    this.#ready(env, sockets.display, a11yAddress);
  }

  /**
   * Headless KWin (shared/notes/kde-gnome.md §1): its virtual backend, its own session bus, and a
   * desktop file in the sandbox's data folder that grants deskhand's Node its fake input and
   * screenshots (kwin-grant.ts), as `deskhand setup kde` does on a user's desktop. KWin runs as
   * root; a container that forbids its file capability gets a copy without it.
   */
  async #startKde(
    options: DesktopOptions,
    env: Record<string, string>,
    daemonEnv: () => Record<string, string>,
    log: (name: string) => string,
    step: number,
  ): Promise<void> {
    if ((options.monitors ?? 1) > 1)
      throw new Error("a KDE sandbox has one screen: --monitors is for X11 and sway");
    await this.#startSessionBus(env, daemonEnv, log, step);
    await writeGrant(env.XDG_DATA_HOME!);
    const kwin = await kwinExecutable(join(this.root, "bin"));
    // KWin takes the screen's size in its own points; --size is pixels, as sway's output mode is.
    const width = Math.round((options.width ?? 1280) / (options.scale ?? 1));
    const height = Math.round((options.height ?? 1024) / (options.scale ?? 1));
    const xSockets = options.xwayland ? await xDisplays() : [];
    const kwinEnv = daemonEnv();
    // KWin is a Qt program with a platform of its own; the apps' Qt settings are not for it.
    for (const key of Object.keys(kwinEnv)) if (key.startsWith("QT_")) delete kwinEnv[key];
    this.#service(
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
    const a11yAddress = await this.#startAccessibility(env, daemonEnv, log, step);
    this.#ready(env, KWIN_SOCKET, a11yAddress);
  }

  /**
   * Headless GNOME Shell (shared/notes/kde-gnome.md §2): its own virtual monitor, its own session
   * and system buses, settings in a key file that enable deskhand's extension (written into the
   * sandbox's data folder, as `deskhand setup gnome` does on a user's desktop). The accessibility
   * bus comes first, so the Shell finds it as it starts. Ready when the extension owns its name.
   */
  async #startGnome(
    options: DesktopOptions,
    env: Record<string, string>,
    daemonEnv: () => Record<string, string>,
    log: (name: string) => string,
    step: number,
  ): Promise<void> {
    const refused = gnomeRefuses(options);
    if (refused) throw new Error(refused);
    await this.#startSessionBus(env, daemonEnv, log, step);
    const systemBus = await this.#startSystemBus(daemonEnv, log, step);
    await writeExtension(env.XDG_DATA_HOME!, formFor(shellMajor()));
    const settings = join(env.XDG_CONFIG_HOME!, "glib-2.0", "settings");
    await mkdir(settings, { recursive: true });
    await writeFile(
      join(settings, "keyfile"),
      `[org/gnome/shell]\nenabled-extensions=['${EXTENSION_UUID}']\nwelcome-dialog-last-shown-version='999'\n` +
        // A whole scale, as GNOME's display settings set one: the screen stays its pixels.
        (options.scale ? `[org/gnome/desktop/interface]\nscaling-factor=uint32 ${options.scale}\n` : ""),
    );
    const a11yAddress = await this.#startAccessibility(env, daemonEnv, log, step);
    const width = options.width ?? 1280;
    const height = options.height ?? 1024;
    this.#service(
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
    this.#ready(env, GNOME_SOCKET, a11yAddress);
  }

  /** A private system bus, which GNOME Shell needs to start: it allows everything, and activates nothing. */
  async #startSystemBus(
    daemonEnv: () => Record<string, string>,
    log: (name: string) => string,
    step: number,
  ): Promise<string> {
    const configFile = join(this.root, "system-bus.conf");
    await writeFile(
      configFile,
      sessionBusConfig(this.root)
        .replace("<type>session</type>", "<type>system</type>")
        .replace("session-bus", "system-bus")
        .replace(/ *<servicedir>.*\n/, ""),
    );
    const bus = startDetached(
      "dbus-daemon-system",
      "dbus-daemon",
      [`--config-file=${configFile}`, "--nofork", "--nopidfile", "--print-address=3"],
      { env: daemonEnv(), logFile: log("dbus-daemon-system"), extraPipes: 1 },
    );
    this.#service(bus);
    return readLineFrom(bus, 3, step);
  }

  /** Ends every process this desktop started (and what they spawned), newest first, and removes its files. */
  async stop(options: { keepFiles?: boolean } = {}): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    // Apps first, so they do not see their buses vanish under them and spin.
    await stopGroups(this.#spawned);
    // One at a time, newest first: the bus launcher must still have its session bus while it reaps its
    // own bus daemon, or it exits first and the daemon is orphaned.
    for (const service of [...this.#processes].reverse()) await stopGroups([service]);
    if (!options.keepFiles) await rm(this.root, { recursive: true, force: true });
    this.#watchdog.done();
  }
}

/** Each screen of a sandbox (DesktopOptions.monitors): the first, then the others toward `side`. */
function monitorLayout(
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
function spanOf(layout: { x: number; y: number; width: number; height: number }[]) {
  return {
    width: Math.max(...layout.map((m) => m.x + m.width)),
    height: Math.max(...layout.map((m) => m.y + m.height)),
  };
}

/** XWayland's display: the X socket that was not there before the compositor started, answering. */
function freshXDisplay(what: string, before: string[], step: number): Promise<string> {
  return until(what, step, async () => {
    const fresh = (await xDisplays()).find((d) => !before.includes(d));
    if (fresh === undefined) return undefined;
    (await X11Connection.open(fresh, 1000)).close();
    return fresh;
  });
}

/** The X displays with a socket in /tmp/.X11-unix (":0", ":12"). */
async function xDisplays(): Promise<string[]> {
  const names = await readdir("/tmp/.X11-unix").catch(() => [] as string[]);
  return names.filter((n) => /^X\d+$/.test(n)).map((n) => `:${n.slice(1)}`);
}
