// Read-only checks of the machine, for `doctor`. Nothing here changes what it reports on: the AT-SPI bus
// is asked for its address only when its launcher already runs (asking earlier would start one), and a
// value that could not be measured is "unavailable" with the reason, never zero or "missing".
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { promisify } from "node:util";
import { getAccessibilityBusAddress, openSessionBus, registeredApplications } from "./atspi/bus.js";
import { A11Y_BUS_NAME, A11Y_BUS_PATH, A11Y_STATUS_IFACE, IFACE } from "./atspi/names.js";
import { DBusConnection, nameHasOwner } from "./dbus.js";
import { adoptDesktop, describeDiscovery } from "./desktop-discovery.js";
import { desktopOf, sessionKind } from "./desktops.js";
import { platformSupport } from "./index.js";
import { TesseractRecognizer } from "./ocr/tesseract.js";
import { ATK_WRAPPER_JAR } from "./sandbox/desktop.js";
import { NoAnswerError, waitedFor } from "./types.js";
import { X11Connection } from "./x11/connection.js";

const run = promisify(execFile);

export type CheckStatus = "ok" | "warn" | "fail" | "unavailable";

export interface Check {
  section: string;
  name: string;
  status: CheckStatus;
  value: string;
  hint?: string;
}

/** System packages by name: what each is for, and whether deskhand needs it or only its tests do. */
const SYSTEM_PACKAGES: { name: string; role: string; required: boolean }[] = [
  { name: "at-spi2-core", role: "AT-SPI bus launcher and registry", required: true },
  { name: "dbus-daemon", role: "session bus", required: true },
  { name: "xvfb", role: "headless X server for `deskhand sandbox`", required: false },
  { name: "openbox", role: "window manager for `deskhand sandbox`", required: false },
  { name: "libatk-wrapper-java", role: "Java Swing accessibility (ATK wrapper)", required: false },
  { name: "libatk-wrapper-java-jni", role: "Java Swing accessibility (native part)", required: false },
  { name: "python3-pyatspi", role: "the peer in tests and benchmarks", required: false },
  { name: "gtk-3-examples", role: "gtk3-widget-factory for the demo and tests", required: false },
  { name: "gtk-4-examples", role: "gtk4-widget-factory for tests", required: false },
  { name: "tesseract-ocr", role: "text from pixels (read_screen_text, find_text)", required: false },
  { name: "sway", role: "a Wayland session (sway's IPC gives deskhand its windows there)", required: false },
  { name: "grim", role: "screenshots under Wayland", required: false },
  { name: "kwin-wayland", role: "KDE Plasma's compositor for `deskhand sandbox --kde`", required: false },
  {
    name: "wl-clipboard",
    role: "the clipboard tool on Wayland; text outside KWin's keymap, pasted",
    required: false,
  },
  { name: "xclip", role: "the clipboard tool on X11", required: false },
  {
    name: "libglib2.0-bin",
    role: "gresource: a GTK app's shortcuts window, which says what its chords do",
    required: false,
  },
];

/**
 * How long each connection and call of a check waits. A loaded machine's X server and buses answered
 * a doctor late (2 s was missed), not never; a check that gets no answer says UNAVAILABLE, not FAIL.
 */
export const CHECK_MS = 4000;
/** The bound on each group of checks; the groups run at once, so doctor answers within about this. */
export const GROUP_MS = 8000;

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** `promise`, or a NoAnswerError once `ms` have passed (what it waited on then goes on alone). */
export function bounded<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new NoAnswerError(`${what}: no answer within ${ms} ms`, ms)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * A check that threw: UNAVAILABLE with the time it waited when only the answer did not come in time
 * (the peer may be slow, not broken), else FAIL with `value`.
 */
export function failedCheck(base: { section: string; name: string }, error: unknown, value: string): Check {
  const waited = waitedFor(error);
  return waited === undefined
    ? { ...base, status: "fail", value }
    : {
        ...base,
        status: "unavailable",
        value: `UNAVAILABLE (no answer within ${waited} ms: slow or hung, not known to be broken; ${message(error)})`,
      };
}

/**
 * One dpkg-query for every package: twelve at once blocked this process for seconds under load
 * (spawning is synchronous), and the X and bus checks' timers, started in the same tick, then fired
 * before their answers were read.
 */
async function packageChecks(): Promise<Check[]> {
  const names = SYSTEM_PACKAGES.map((pkg) => pkg.name);
  let stdout: string;
  try {
    ({ stdout } = await run("dpkg-query", ["-W", `-f=\${Package}\t\${Status}\t\${Version}\n`, ...names], {
      timeout: CHECK_MS,
    }));
  } catch (error) {
    const failure = error as { code?: string | number; stdout?: string; killed?: boolean };
    // Status 1: some package is unknown to dpkg; the others are listed all the same.
    if (failure.code === 1 && typeof failure.stdout === "string") stdout = failure.stdout;
    else {
      const why =
        failure.code === "ENOENT"
          ? "dpkg-query not found: not a Debian system"
          : failure.killed
            ? `dpkg-query gave no answer within ${CHECK_MS} ms`
            : message(error);
      return names.map((name) => ({
        section: "packages",
        name,
        status: "unavailable",
        value: `UNAVAILABLE (${why})`,
      }));
    }
  }
  const installed = new Map<string, string>();
  for (const line of stdout.split("\n")) {
    const [name, status, version] = line.split("\t");
    if (name && status === "install ok installed") installed.set(name, version || "installed");
  }
  return SYSTEM_PACKAGES.map((pkg): Check => {
    const version = installed.get(pkg.name);
    return version !== undefined
      ? { section: "packages", name: pkg.name, status: "ok", value: version }
      : {
          section: "packages",
          name: pkg.name,
          status: pkg.required ? "fail" : "warn",
          value: `not installed (${pkg.role})`,
          hint: `apt-get install ${pkg.name}`,
        };
  });
}

/**
 * Which session this is, and what deskhand can do on its desktop: each desktop's own checks
 * (platform/desktops.ts), or why deskhand knows no desktop here.
 */
async function sessionChecks(env: NodeJS.ProcessEnv): Promise<Check[]> {
  const section = "session";
  const kind = sessionKind(env);
  if (kind === "none")
    return [{ section, name: "session", status: "fail", value: "no display server in this environment" }];
  const session: Check = {
    section,
    name: "session",
    status: "ok",
    value:
      kind === "x11"
        ? `X11 (DISPLAY=${env.DISPLAY})`
        : `Wayland (WAYLAND_DISPLAY=${env.WAYLAND_DISPLAY})${env.DISPLAY ? `, with an X display ${env.DISPLAY} (XWayland)` : ""}`,
  };
  const found = desktopOf(env);
  if ("none" in found)
    return [
      session,
      { section, name: "compositor", status: "unavailable", value: `UNAVAILABLE (${found.none})` },
    ];
  return [session, ...(await found.desktop.checks(env, CHECK_MS)).map((check) => ({ section, ...check }))];
}

/** The variables through which toolkits scale themselves on X11, as desktops set them. */
const SCALE_VARIABLES = [
  "GDK_SCALE",
  "GDK_DPI_SCALE",
  "QT_SCALE_FACTOR",
  "QT_SCREEN_SCALE_FACTORS",
  "QT_AUTO_SCREEN_SCALE_FACTOR",
  "QT_ENABLE_HIGHDPI_SCALING",
  "QT_FONT_DPI",
];

/**
 * What X11 apps may scale themselves by: the server's and Xft.dpi's dots per inch and the toolkit
 * variables here. X11 itself has no scale: each window's own factor is read from its frame.
 */
async function scalingCheck(x: X11Connection, env: NodeJS.ProcessEnv): Promise<Check> {
  const resources = (await x.text(x.root, "RESOURCE_MANAGER").catch(() => undefined)) ?? "";
  const xft = /^Xft\.dpi:\s*([\d.]+)/m.exec(resources)?.[1];
  const variables = SCALE_VARIABLES.filter((name) => env[name]).map((name) => `${name}=${env[name]}`);
  return {
    section: "display",
    name: "scaling",
    status: "ok",
    value:
      `X server ${x.dpi ?? "?"} dpi, Xft.dpi ${xft ?? "unset"}; toolkit variables here: ${variables.join(" ") || "none"}. ` +
      "A window's own factor is read from its frame against its rectangle (`windows`: app scales itself ×F)",
  };
}

async function displayChecks(env: NodeJS.ProcessEnv): Promise<Check[]> {
  const section = "display";
  if (!env.DISPLAY && sessionKind(env) === "wayland")
    return [{ section, name: "DISPLAY", status: "ok", value: "none: a Wayland session (see session)" }];
  if (!env.DISPLAY) {
    return [
      {
        section,
        name: "DISPLAY",
        status: "fail",
        value: "not set",
        hint: "run inside `deskhand sandbox run -- …` or a desktop session",
      },
      { section, name: "XTEST", status: "unavailable", value: "UNAVAILABLE (no display to ask)" },
    ];
  }
  const checks: Check[] = [{ section, name: "DISPLAY", status: "ok", value: env.DISPLAY }];
  let x: X11Connection | undefined;
  try {
    x = await X11Connection.open(env.DISPLAY, CHECK_MS);
    const geometry = await x.rootRect(x.root);
    checks.push({
      section,
      name: "X server",
      status: "ok",
      value: `reachable, screen ${geometry.width}x${geometry.height}`,
    });
    const monitors = await x.monitors();
    checks.push({
      section,
      name: "monitors",
      status: "ok",
      value:
        monitors
          .map((m) => `${m.name} ${m.width}x${m.height}@${m.x},${m.y}${m.primary ? " (primary)" : ""}`)
          .join("; ") || "none reported (no RandR 1.5): the root window is the one screen",
    });
    const xtest = await x.hasExtension("XTEST");
    checks.push({
      section,
      name: "XTEST",
      status: xtest ? "ok" : "warn",
      value: xtest ? "present" : "absent: synthetic input will not work",
    });
    checks.push(await scalingCheck(x, env));
    const wm = await x.cardinals(x.root, "_NET_SUPPORTING_WM_CHECK");
    checks.push({
      section,
      name: "window manager",
      status: wm ? "ok" : "warn",
      value: wm ? "EWMH window manager running" : "none: focus and window listing need one",
    });
  } catch (error) {
    // The check whose question went wrong: the connection, or one asked after it.
    const name = ["X server", "monitors", "XTEST", "window manager"].find(
      (n) => !checks.some((c) => c.name === n),
    )!;
    const failed = failedCheck(
      { section, name },
      error,
      `${name === "X server" ? "cannot connect" : "asking"}: ${message(error)}`,
    );
    checks.push(failed);
    if (name === "X server")
      checks.push({
        section,
        name: "XTEST",
        status: "unavailable",
        value: `UNAVAILABLE (X server ${failed.status === "fail" ? "not reachable" : "did not answer"})`,
      });
  } finally {
    x?.close();
  }
  return checks;
}

async function busChecks(env: NodeJS.ProcessEnv): Promise<Check[]> {
  const section = "accessibility";
  const checks: Check[] = [];
  let session: DBusConnection | undefined;
  try {
    session = await openSessionBus(env.DBUS_SESSION_BUS_ADDRESS, CHECK_MS);
    checks.push({ section, name: "session bus", status: "ok", value: "reachable" });
  } catch (error) {
    checks.push(failedCheck({ section, name: "session bus" }, error, message(error)));
    checks.push({
      section,
      name: "AT-SPI bus",
      status: "unavailable",
      value: "UNAVAILABLE (no session bus to ask)",
    });
    return checks;
  }
  try {
    if (!(await nameHasOwner(session, A11Y_BUS_NAME, CHECK_MS))) {
      checks.push({
        section,
        name: "AT-SPI bus",
        status: "fail",
        value: "not running (org.a11y.Bus has no owner); not started, since doctor changes nothing",
        hint: "start /usr/libexec/at-spi-bus-launcher, or use `deskhand sandbox`",
      });
      return checks;
    }
    const [enabled] = await session.call(
      {
        destination: A11Y_BUS_NAME,
        path: A11Y_BUS_PATH,
        iface: IFACE.properties,
        member: "Get",
        signature: "ss",
        body: [A11Y_STATUS_IFACE, "IsEnabled"],
      },
      CHECK_MS,
    );
    const isEnabled = Array.isArray(enabled) ? Boolean((enabled[1] as unknown[])[0]) : Boolean(enabled);
    checks.push({
      section,
      name: "accessibility switch",
      status: isEnabled ? "ok" : "warn",
      value: isEnabled ? "IsEnabled = true" : "IsEnabled = false: some toolkits will not load their bridge",
    });
    const address = await getAccessibilityBusAddress(session, CHECK_MS);
    checks.push({ section, name: "AT-SPI bus", status: "ok", value: address.split(",")[0] ?? address });
    const a11y = await DBusConnection.open(address, { timeoutMs: CHECK_MS });
    try {
      const apps = await registeredApplications(a11y, CHECK_MS);
      checks.push({
        section,
        name: "registry",
        status: "ok",
        value: `answers; ${apps.length} application(s) registered`,
      });
    } catch (error) {
      checks.push(failedCheck({ section, name: "registry" }, error, `does not answer: ${message(error)}`));
    } finally {
      a11y.close();
    }
  } catch (error) {
    checks.push(failedCheck({ section, name: "AT-SPI bus" }, error, message(error)));
  } finally {
    session.close();
  }
  return checks;
}

/** Where Debian puts GTK 2's modules (libgail-common, libatk-adaptor). */
const GTK2_MODULES = "/usr/lib/x86_64-linux-gnu/gtk-2.0/modules";

function toolkitHints(env: NodeJS.ProcessEnv): Check[] {
  const section = "toolkits";
  const hint = (name: string, ok: boolean, good: string, bad: string, fix: string): Check =>
    ok
      ? { section, name, status: "ok", value: good }
      : { section, name, status: "warn", value: bad, hint: fix };
  const javaOptions = env.JAVA_TOOL_OPTIONS ?? "";
  return [
    hint(
      "GTK",
      env.NO_AT_BRIDGE !== "1",
      "bridge allowed",
      "NO_AT_BRIDGE=1 hides GTK3 apps",
      "unset NO_AT_BRIDGE",
    ),
    hint(
      "GTK 2",
      /(^|:)atk-bridge(:|$)/.test(env.GTK_MODULES ?? "") &&
        existsSync(`${GTK2_MODULES}/libatk-bridge.so`) &&
        existsSync(`${GTK2_MODULES}/libgail.so`),
      `GTK_MODULES=${env.GTK_MODULES}`,
      existsSync(`${GTK2_MODULES}/libatk-bridge.so`) && existsSync(`${GTK2_MODULES}/libgail.so`)
        ? "GTK 2 apps (GIMP 2.10) never join the accessibility bus without the gail and atk-bridge modules"
        : "GTK 2 apps (GIMP 2.10) expose nothing: their gail and atk-bridge modules are not installed",
      "apt-get install libgail-common libatk-adaptor; export GTK_MODULES=gail:atk-bridge",
    ),
    hint(
      "GTK4",
      env.GSK_RENDERER === "cairo" || !!env.WAYLAND_DISPLAY,
      "GSK_RENDERER=cairo",
      "GL rendering under Xvfb delays GTK4 registration by 30 s and more",
      "export GSK_RENDERER=cairo",
    ),
    hint(
      "Qt",
      env.QT_LINUX_ACCESSIBILITY_ALWAYS_ON === "1",
      "QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1",
      "Qt apps may not expose a tree",
      "export QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1",
    ),
    hint(
      "Java",
      javaOptions.includes("AtkWrapper") && existsSync(ATK_WRAPPER_JAR),
      "ATK wrapper in JAVA_TOOL_OPTIONS",
      existsSync(ATK_WRAPPER_JAR)
        ? "Swing apps expose nothing without the ATK wrapper"
        : `Swing apps expose nothing: ${ATK_WRAPPER_JAR} is missing`,
      `export JAVA_TOOL_OPTIONS="-Djavax.accessibility.assistive_technologies=org.GNOME.Accessibility.AtkWrapper -Xbootclasspath/a:${ATK_WRAPPER_JAR}"`,
    ),
    hint(
      "Firefox",
      env.GNOME_ACCESSIBILITY === "1",
      "GNOME_ACCESSIBILITY=1",
      "Firefox may not build its accessibility tree",
      "export GNOME_ACCESSIBILITY=1",
    ),
    hint(
      "LibreOffice",
      env.SAL_USE_VCLPLUGIN === "gtk3",
      "SAL_USE_VCLPLUGIN=gtk3",
      "LibreOffice's own plugins expose no AT-SPI tree",
      "export SAL_USE_VCLPLUGIN=gtk3",
    ),
  ];
}

/** Text recognition: the engine, the languages installed, and those DESKHAND_OCR_LANGUAGES asks for. */
async function ocrChecks(env: NodeJS.ProcessEnv): Promise<Check[]> {
  const info = await new TesseractRecognizer("tesseract", env).describe();
  const section = "text from pixels";
  if (!info.available)
    return [{ section, name: "engine", status: "warn", value: `not available: ${info.detail}` }];
  const checks: Check[] = [
    { section, name: "engine", status: "ok", value: `${info.engine} ${info.version ?? "(version unknown)"}` },
    { section, name: "languages", status: "ok", value: info.languages.join(", "), hint: info.detail },
  ];
  const asked = env.DESKHAND_OCR_LANGUAGES?.split(/[+,\s]+/).filter(Boolean) ?? [];
  const missing = asked.filter((l) => !info.languages.includes(l));
  if (missing.length > 0)
    checks.push({
      section,
      name: "DESKHAND_OCR_LANGUAGES",
      status: "warn",
      value: `asks for ${missing.join(", ")}, not installed`,
      hint: missing.map((l) => `apt-get install tesseract-ocr-${l.replace(/_/g, "-")}`).join("; "),
    });
  return checks;
}

export async function diagnose(env: NodeJS.ProcessEnv): Promise<Check[]> {
  const support = platformSupport();
  const platform: Check[] = [
    {
      section: "platform",
      name: "platform",
      status: support.supported ? "ok" : "fail",
      value: `${process.platform} ${process.arch}: ${support.detail}`,
    },
    {
      section: "platform",
      name: "node",
      status: Number(process.versions.node.split(".")[0]) >= 20 ? "ok" : "fail",
      value: process.versions.node,
    },
  ];
  if (!support.supported) return platform;
  // A client that started deskhand without the desktop's variables: where they came from, or why not.
  const discovery = adoptDesktop(env);
  const found = describeDiscovery(discovery);
  if (found)
    platform.push({
      section: "platform",
      name: "desktop",
      status: discovery.kind === "found" ? "ok" : "fail",
      value: found,
      ...(discovery.kind === "found"
        ? {}
        : {
            hint: "set DISPLAY or WAYLAND_DISPLAY (and DBUS_SESSION_BUS_ADDRESS) in deskhand's environment",
          }),
    });
  const group = (section: string, checks: Promise<Check[]>) =>
    bounded(checks, GROUP_MS, `${section} checks`).catch((error): Check[] => [
      failedCheck({ section, name: section }, error, message(error)),
    ]);
  const [session, display, bus, packages, ocr] = await Promise.all([
    group("session", sessionChecks(env)),
    group("display", displayChecks(env)),
    group("accessibility", busChecks(env)),
    group("packages", packageChecks()),
    group("text from pixels", ocrChecks(env)),
  ]);
  return [...platform, ...session, ...display, ...bus, ...packages, ...ocr, ...toolkitHints(env)];
}
