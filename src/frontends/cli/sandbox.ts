// `deskhand sandbox run|start|stop`: process management around platform/sandbox, no tools involved.

import { spawn } from "node:child_process";
import { existsSync, openSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { descendantsOf, statOf } from "../../platform/processes.js";
import { launchApp } from "../../platform/sandbox/apps.js";
import { Desktop, SANDBOX_VARIABLES, toolkitEnvironment } from "../../platform/sandbox/desktop.js";
import { gnomeRefuses } from "../../platform/sandbox/start-gnome.js";
import type { DesktopOptions } from "../../platform/sandbox/starting.js";
import { readState, type SandboxState, stateFile, writeState } from "../../platform/sandbox/state.js";
import { configPath, defaultAuditPath } from "../../safety/policy.js";
import { UsageError } from "./usage-error.js";

function parseSize(size: string | undefined): { width?: number; height?: number } {
  if (size === undefined) return {};
  const match = /^(\d+)x(\d+)$/.exec(size);
  if (!match) throw new UsageError(`--size takes WIDTHxHEIGHT, like 1280x1024, not ${JSON.stringify(size)}`);
  return { width: Number(match[1]), height: Number(match[2]) };
}

/**
 * --scale, --dpi and --monitors, checked: a scale from 1 to 4 (1.25, 1.5, 2), whole dots per inch
 * from 48 to 480, from 1 to 4 monitors.
 */
type Screen = Pick<DesktopOptions, "scale" | "dpi" | "monitors">;

function parseScreen(
  values: { [K in keyof Screen]?: string } & Pick<DesktopOptions, "wayland" | "kde" | "gnome" | "xwayland">,
): Screen {
  const screen: Screen = {};
  if ([values.wayland, values.kde, values.gnome].filter(Boolean).length > 1)
    throw new UsageError(
      "--wayland (sway), --kde (KWin) and --gnome (GNOME Shell) each start a compositor: give one of them",
    );
  if (values.monitors !== undefined) {
    const monitors = Number(values.monitors);
    if (!Number.isInteger(monitors) || monitors < 1 || monitors > 4)
      throw new UsageError(
        `--monitors takes a count from 1 to 4, like 2, not ${JSON.stringify(values.monitors)}`,
      );
    if (values.kde && monitors > 1)
      throw new UsageError("a KDE sandbox has one screen: --monitors is for X11 and --wayland (sway)");
    screen.monitors = monitors;
  }
  if (values.scale !== undefined) {
    const scale = Number(values.scale);
    if (!(scale >= 1 && scale <= 4))
      throw new UsageError(
        `--scale takes a factor from 1 to 4, like 2 or 1.5, not ${JSON.stringify(values.scale)}`,
      );
    screen.scale = scale;
  }
  if (values.dpi !== undefined) {
    const dpi = Number(values.dpi);
    if (!Number.isInteger(dpi) || dpi < 48 || dpi > 480)
      throw new UsageError(
        `--dpi takes whole dots per inch from 48 to 480, like 144, not ${JSON.stringify(values.dpi)}`,
      );
    if (values.wayland || values.kde || values.gnome)
      throw new UsageError("--dpi is for X11: a Wayland output takes --scale");
    screen.dpi = dpi;
  }
  const refused = values.gnome ? gnomeRefuses({ ...screen, xwayland: values.xwayland === true }) : undefined;
  if (refused) throw new UsageError(refused);
  return screen;
}

const sandboxFlags = {
  app: { type: "string", multiple: true },
  "app-timeout-ms": { type: "string" },
  size: { type: "string" },
  scale: { type: "string" },
  dpi: { type: "string" },
  monitors: { type: "string" },
  wayland: { type: "boolean" },
  kde: { type: "boolean" },
  gnome: { type: "boolean" },
  xwayland: { type: "boolean" },
  name: { type: "string" },
  state: { type: "string" },
  json: { type: "boolean" },
} as const;

function parse(args: string[]) {
  try {
    return parseArgs({ args, options: sandboxFlags, allowPositionals: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/**
 * The sandbox's XDG folders are private and go away with it; the user's safety config and audit
 * journal must not. Commands inside keep the ones the user has outside.
 */
function withUserSafety(env: Record<string, string>): Record<string, string> {
  return {
    ...env,
    DESKHAND_CONFIG: process.env.DESKHAND_CONFIG ?? configPath(process.env),
    DESKHAND_AUDIT: process.env.DESKHAND_AUDIT ?? defaultAuditPath(process.env),
  };
}

/**
 * What a shell needs to use this sandbox: every variable the sandbox sets, even where the caller's
 * value is the same (the lines are often saved and sourced in another shell, where a DISPLAY that
 * happened to match here would be missing), and any inherited one it changed.
 */
function exportsOf(env: Record<string, string>): Record<string, string> {
  const own = new Set<string>([
    ...Object.keys(toolkitEnvironment()),
    ...SANDBOX_VARIABLES,
    "DESKHAND_CONFIG",
    "DESKHAND_AUDIT",
  ]);
  return Object.fromEntries(
    Object.entries(env).filter(
      ([key, value]) => key !== "HOME" && (own.has(key) || process.env[key] !== value),
    ),
  );
}

async function startWithApps(
  values: ReturnType<typeof parse>["values"],
): Promise<{ desktop: Desktop; apps: { command: string; pid: number }[] }> {
  const timeout = values["app-timeout-ms"] === undefined ? 30_000 : Number(values["app-timeout-ms"]);
  if (!Number.isInteger(timeout) || timeout <= 0)
    throw new UsageError("--app-timeout-ms takes a positive whole number");
  const desktop = await Desktop.start({
    ...parseSize(values.size),
    ...parseScreen(values),
    ...(values.wayland ? { wayland: true } : {}),
    ...(values.kde ? { kde: true } : {}),
    ...(values.gnome ? { gnome: true } : {}),
    ...(values.xwayland ? { xwayland: true } : {}),
  });
  try {
    const apps = [];
    for (const command of values.app ?? []) {
      const launched = await launchApp(desktop, command, timeout);
      apps.push({ command, pid: launched.registeredPid });
    }
    return { desktop, apps };
  } catch (error) {
    await desktop.stop();
    throw error;
  }
}

export async function sandboxRun(args: string[]): Promise<number> {
  const separator = args.indexOf("--");
  if (separator < 0 || separator === args.length - 1)
    throw new UsageError("sandbox run needs `-- COMMAND [ARGS...]`");
  const { values, positionals } = parse(args.slice(0, separator));
  if (positionals.length > 0) throw new UsageError(`unexpected ${JSON.stringify(positionals[0])} before --`);
  const [command, ...commandArgs] = args.slice(separator + 1) as [string, ...string[]];
  const { desktop } = await startWithApps(values);
  let child: ReturnType<typeof spawn> | undefined;
  const forward = (signal: NodeJS.Signals) => () => child?.kill(signal);
  process.on("SIGINT", forward("SIGINT"));
  process.on("SIGTERM", forward("SIGTERM"));
  try {
    // In a group of its own, so that if this process is killed the watchdog ends the command and what
    // it started too; at a terminal it stays in the foreground group, which alone may read the terminal.
    const ownGroup = !process.stdin.isTTY;
    child = spawn(command, commandArgs, {
      env: withUserSafety(desktop.info.env),
      stdio: "inherit",
      detached: ownGroup,
    });
    if (ownGroup && child.pid !== undefined) desktop.watchGroup(child.pid);
    return await new Promise<number>((resolve) => {
      child!.on("error", (error) => {
        process.stderr.write(`deskhand sandbox run: cannot run ${command}: ${error.message}\n`);
        resolve(127);
      });
      child!.on("exit", (code, signal) => resolve(code ?? (signal ? 128 + 15 : 1)));
    });
  } finally {
    await desktop.stop();
  }
}

/** The long-lived process behind `sandbox start`: owns the desktop until SIGTERM. */
export async function sandboxSupervise(args: string[]): Promise<number> {
  const { values } = parse(args);
  const file = values.state;
  if (!file) throw new UsageError("internal: --state is required");
  const { desktop, apps } = await startWithApps(values);
  // If this supervisor is killed, the watchdog removes its state file and log with the desktop.
  desktop.watchPath(file);
  desktop.watchPath(`${file}.log`);
  const state: SandboxState = {
    supervisorPid: process.pid,
    root: desktop.root,
    env: withUserSafety(desktop.info.env),
    exports: exportsOf(withUserSafety(desktop.info.env)),
    apps,
  };
  await writeState(file, state);
  await new Promise<void>((resolve) => {
    process.once("SIGTERM", resolve);
    process.once("SIGINT", resolve);
  });
  await desktop.stop();
  await rm(file, { force: true });
  return 0;
}

function printExports(state: SandboxState, json: boolean): void {
  if (json) {
    process.stdout.write(
      `${JSON.stringify({ supervisorPid: state.supervisorPid, env: state.exports, apps: state.apps })}\n`,
    );
    return;
  }
  const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;
  const lines = Object.entries(state.exports).map(([key, value]) => `export ${key}=${quote(value)}`);
  lines.push("unset AT_SPI_BUS_ADDRESS");
  process.stdout.write(`${lines.join("\n")}\n`);
}

export async function sandboxStart(args: string[]): Promise<number> {
  const { values, positionals } = parse(args);
  if (positionals.length > 0) throw new UsageError(`unexpected ${JSON.stringify(positionals[0])}`);
  const file = stateFile(values.name ?? "default");
  const previous = await readState(file);
  if (previous) {
    try {
      process.kill(previous.supervisorPid, 0);
      throw new UsageError(
        `sandbox ${JSON.stringify(values.name ?? "default")} is already running; stop it first or pick --name`,
      );
    } catch (error) {
      if (error instanceof UsageError) throw error;
      await rm(file, { force: true }); // Its supervisor died: the state is stale.
    }
  }
  const log = `${file}.log`;
  const out = openSync(log, "w");
  const forwarded = args.filter((a) => a !== "--json");
  const supervisor = spawn(
    process.execPath,
    [process.argv[1]!, "sandbox", "_supervise", "--state", file, ...forwarded],
    {
      detached: true,
      stdio: ["ignore", out, out],
    },
  );
  supervisor.unref();
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const state = await readState(file);
    if (state) {
      printExports(state, Boolean(values.json));
      return 0;
    }
    if (supervisor.exitCode !== null) break;
    await sleep(100);
  }
  const output = await readFile(log, "utf8").catch(() => "");
  process.stderr.write(`deskhand sandbox start: the desktop did not come up.\n${output}`);
  return 1;
}

/** How long a stop waits for the sandbox to end itself before it ends what is left with SIGKILL. */
const STOP_BOUND_MS = 12_000;

function signalSafely(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}

export async function sandboxStop(args: string[]): Promise<number> {
  const { values } = parse(args);
  const name = values.name ?? "default";
  const file = stateFile(name);
  const state = await readState(file);
  if (!state) {
    process.stderr.write(`deskhand sandbox stop: no sandbox named ${JSON.stringify(name)} is running\n`);
    return 1;
  }
  // What the sandbox runs, read before it stops: once the supervisor is gone its orphans lose the link.
  const started = descendantsOf(state.supervisorPid);
  try {
    process.kill(state.supervisorPid, "SIGTERM");
  } catch {
    await rm(file, { force: true });
    await rm(`${file}.log`, { force: true });
    return 0;
  }
  const deadline = Date.now() + STOP_BOUND_MS;
  // Done when the supervisor has exited, not merely when it removed its state file on the way out.
  // (It may linger as a zombie: its parent exited long ago and PID 1 here does not reap.)
  const exited = () => {
    const stat = statOf(state.supervisorPid);
    return stat === undefined || stat.state === "Z";
  };
  while ((existsSync(file) || !exited()) && Date.now() < deadline) {
    await sleep(50);
  }
  // Past the bound, what is left of it is ended at once (an app that ignores SIGTERM, a child in a
  // session of its own), and said.
  const left = started.filter((p) => {
    const now = statOf(p.pid);
    return now !== undefined && now.start === p.start && now.state !== "Z";
  });
  if (left.length > 0) {
    for (const p of left) signalSafely(p.pid, "SIGKILL");
    await rm(file, { force: true });
    process.stderr.write(
      `deskhand sandbox stop: ${left.length} process${left.length === 1 ? "" : "es"} of the sandbox still ran (pids ${left.map((p) => p.pid).join(", ")}): ended with SIGKILL\n`,
    );
  }
  // The supervisor's output went to this log: nothing of the sandbox is left behind.
  await rm(`${file}.log`, { force: true });
  return 0;
}
