import { existsSync } from "node:fs";
import { chmod, copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
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
import { readLineFrom, type StartedProcess, startDetached, stopGroups } from "./processes.js";
import { startGnome } from "./start-gnome.js";
import { startKwin } from "./start-kwin.js";
import { startSway } from "./start-sway.js";
import { startX11 } from "./start-x11.js";
import { type DesktopOptions, type Starter, type Starting, until } from "./starting.js";
import { Watchdog } from "./watchdog.js";

export const ATK_WRAPPER_JAR = "/usr/share/java/java-atk-wrapper.jar";
const A11Y_BUS_SERVICE_FILE = "/usr/share/dbus-1/services/org.a11y.Bus.service";
const BUS_LAUNCHER = "/usr/libexec/at-spi-bus-launcher";
const REGISTRY_DAEMON = "/usr/libexec/at-spi2-registryd";

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

/** The session bus's config: one private socket, one service folder, everything allowed. */
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

/** Each kind of desktop the sandbox starts, by the option that asks for it (X11 without one). */
const STARTERS: Record<"x11" | "wayland" | "kde" | "gnome", Starter> = {
  x11: startX11,
  wayland: startSway,
  kde: startKwin,
  gnome: startGnome,
};

function starterOf(options: DesktopOptions): keyof typeof STARTERS {
  return options.kde ? "kde" : options.gnome ? "gnome" : options.wayland ? "wayland" : "x11";
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
    return STARTERS[starterOf(options)](this.#starting(env, daemonEnv, log, step), options);
  }

  /** The sandbox as a desktop's starter sees it (starting.ts). */
  #starting(
    env: Record<string, string>,
    daemonEnv: () => Record<string, string>,
    log: (name: string) => string,
    step: number,
  ): Starting {
    return {
      root: this.root,
      env,
      daemonEnv,
      log,
      step,
      service: (started) => this.#service(started),
      sessionBus: () => this.#startSessionBus(env, daemonEnv, log, step),
      accessibility: () => this.#startAccessibility(env, daemonEnv, log, step),
      systemBus: () => this.#startSystemBus(daemonEnv, log, step),
      ready: (display, a11yAddress) => this.#ready(env, display, a11yAddress),
    };
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
