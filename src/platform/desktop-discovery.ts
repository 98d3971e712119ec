// The desktop a process was started without: a stock MCP client starts its servers with HOME and PATH
// only, so DISPLAY, WAYLAND_DISPLAY and the session bus are missing although a desktop is right there.
// A desktop session publishes them in the environment of every program it starts: the nearest
// ancestor whose environment names a desktop (the client itself, started in the session) is the one
// meant; else the one desktop this user's programs name, when there is exactly one. A variable the
// caller set is never replaced (one set empty says there is none), and the caller chooses among
// several by setting DISPLAY or WAYLAND_DISPLAY alone. Only what names the desktop is taken: deskhand's own config, journal and
// caches stay the caller's.

import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { statOf } from "./processes.js";
import { waylandSocketPath } from "./wayland/socket-path.js";

/** The variables that name a desktop, its buses and its compositor. */
const DESKTOP_VARIABLES = [
  "DISPLAY",
  "XAUTHORITY",
  "WAYLAND_DISPLAY",
  "SWAYSOCK",
  "DBUS_SESSION_BUS_ADDRESS",
  "XDG_RUNTIME_DIR",
  "XDG_SESSION_TYPE",
  "XDG_CURRENT_DESKTOP",
  "XDG_DATA_HOME",
  "KDE_FULL_SESSION",
] as const;

export type DesktopVariables = Partial<Record<(typeof DESKTOP_VARIABLES)[number], string>>;

export interface FoundDesktop {
  variables: DesktopVariables;
  /** Where it was found, for doctor and for a list of choices: "gtk3-demo (pid 812), the client's parent". */
  seenIn: string;
}

export type Discovery =
  | { kind: "environment" }
  | { kind: "found"; desktop: FoundDesktop; how: "ancestor" | "only one" }
  | { kind: "none" }
  | { kind: "several"; desktops: FoundDesktop[] };

/** Processes read at most when looking for a desktop. */
const PROCESSES_READ = 4000;
/** Ancestors looked at, nearest first. */
const ANCESTORS_READ = 12;

const named = (env: DesktopVariables | NodeJS.ProcessEnv) => !!(env.DISPLAY || env.WAYLAND_DISPLAY);

/** Whether what a desktop's variables name is there: its X or Wayland socket, its bus socket. */
export function reachable(v: DesktopVariables): boolean {
  const x = v.DISPLAY?.match(/^:(\d+)(\.\d+)?$/);
  const xThere = !v.DISPLAY || !x || existsSync(`/tmp/.X11-unix/X${x[1]}`);
  const wayland = v.WAYLAND_DISPLAY;
  const waylandThere = !wayland || existsSync(waylandSocketPath(v));
  const bus = v.DBUS_SESSION_BUS_ADDRESS?.match(/(?:^|;)unix:path=([^,;]+)/);
  const busThere = !bus || existsSync(bus[1]!);
  return named(v) && xThere && waylandThere && busThere;
}

function environOf(pid: number): DesktopVariables | undefined {
  let raw: string;
  try {
    raw = readFileSync(`/proc/${pid}/environ`, "latin1");
  } catch {
    return undefined;
  }
  const found: DesktopVariables = {};
  for (const entry of raw.split("\0")) {
    const at = entry.indexOf("=");
    const key = entry.slice(0, at) as (typeof DESKTOP_VARIABLES)[number];
    if (at > 0 && (DESKTOP_VARIABLES as readonly string[]).includes(key)) found[key] = entry.slice(at + 1);
  }
  return named(found) ? found : undefined;
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, "utf8").trim();
  } catch {
    return "?";
  }
}

/** One desktop's key: its session bus, else its displays (a desktop is one session bus). */
const keyOf = (v: DesktopVariables) =>
  v.DBUS_SESSION_BUS_ADDRESS ?? `${v.DISPLAY ?? ""}|${v.WAYLAND_DISPLAY ?? ""}`;

/** Whether a desktop is the one the caller chose by the display it set. */
const chosen = (v: DesktopVariables, env: NodeJS.ProcessEnv) =>
  (!env.DISPLAY || v.DISPLAY === env.DISPLAY) &&
  (!env.WAYLAND_DISPLAY || v.WAYLAND_DISPLAY === env.WAYLAND_DISPLAY);

function fromAncestors(env: NodeJS.ProcessEnv, self: number): FoundDesktop | undefined {
  let pid = statOf(self)?.ppid;
  for (let i = 0; i < ANCESTORS_READ && pid && pid > 1; i++, pid = statOf(pid)?.ppid) {
    const variables = environOf(pid);
    if (variables && chosen(variables, env) && reachable(variables))
      return { variables, seenIn: `${commandOf(pid)} (pid ${pid}), which started deskhand` };
  }
  return undefined;
}

/** Every desktop this user's programs name, one entry each, with the fullest environment seen. */
function everyDesktop(env: NodeJS.ProcessEnv): FoundDesktop[] {
  const uid = process.getuid?.();
  const byKey = new Map<string, FoundDesktop>();
  let pids: number[];
  try {
    pids = readdirSync("/proc")
      .filter((name) => /^\d+$/.test(name))
      .map(Number)
      .slice(0, PROCESSES_READ);
  } catch {
    return [];
  }
  for (const pid of pids) {
    if (pid === process.pid) continue;
    try {
      if (uid !== undefined && statSync(`/proc/${pid}`).uid !== uid) continue;
    } catch {
      continue;
    }
    const variables = environOf(pid);
    if (!variables || !chosen(variables, env) || !reachable(variables)) continue;
    const key = keyOf(variables);
    const held = byKey.get(key);
    if (!held || Object.keys(variables).length > Object.keys(held.variables).length)
      byKey.set(key, { variables, seenIn: `${commandOf(pid)} (pid ${pid})` });
  }
  // A program of the desktop that holds no bus address (its bus daemon itself) is part of the one that does.
  const displays = (v: DesktopVariables) => `${v.DISPLAY ?? ""}|${v.WAYLAND_DISPLAY ?? ""}`;
  const withBus = new Set(
    [...byKey.values()].filter((d) => d.variables.DBUS_SESSION_BUS_ADDRESS).map((d) => displays(d.variables)),
  );
  return [...byKey.values()].filter(
    (d) => d.variables.DBUS_SESSION_BUS_ADDRESS || !withBus.has(displays(d.variables)),
  );
}

/** Where the desktop is: the caller's environment, an ancestor's, the only one there is, or a choice. */
function discoverDesktop(env: NodeJS.ProcessEnv, self = process.pid): Discovery {
  if (named(env) && env.DBUS_SESSION_BUS_ADDRESS) return { kind: "environment" };
  // Set and empty: the caller said there is none (doctor run without a desktop on purpose).
  if (["DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS"].some((key) => env[key] === ""))
    return { kind: "environment" };
  const ancestor = fromAncestors(env, self);
  if (ancestor) return { kind: "found", desktop: ancestor, how: "ancestor" };
  const all = everyDesktop(env);
  if (all.length === 1) return { kind: "found", desktop: all[0]!, how: "only one" };
  return all.length === 0 ? { kind: "none" } : { kind: "several", desktops: all };
}

/** What discovery last decided for an environment it filled: doctor says it. */
const decided = new WeakMap<NodeJS.ProcessEnv, Discovery>();

/**
 * Fills the variables of the desktop found into `env` (never replacing one set), once per
 * environment that lacked them; returns what was decided. Cheap where the environment names one.
 */
export function adoptDesktop(env: NodeJS.ProcessEnv): Discovery {
  const known = decided.get(env);
  if (known?.kind === "found" || known?.kind === "environment") return known;
  const discovery = discoverDesktop(env);
  if (discovery.kind === "found")
    for (const [key, value] of Object.entries(discovery.desktop.variables)) env[key] ??= value;
  decided.set(env, discovery);
  return discovery;
}

/** What doctor and a missing display say of where the desktop came from, or why there is none. */
export function describeDiscovery(discovery: Discovery | undefined): string | undefined {
  if (!discovery || discovery.kind === "environment") return undefined;
  if (discovery.kind === "none")
    return "no desktop found: no program of this user names a display and a bus that are there";
  const name = (d: FoundDesktop) =>
    [
      d.variables.DISPLAY && `DISPLAY=${d.variables.DISPLAY}`,
      d.variables.WAYLAND_DISPLAY && `WAYLAND_DISPLAY=${d.variables.WAYLAND_DISPLAY}`,
    ]
      .filter(Boolean)
      .join(" ");
  if (discovery.kind === "found")
    return `the desktop ${name(discovery.desktop)} was found in the environment of ${discovery.desktop.seenIn}${discovery.how === "only one" ? ", the only desktop this user's programs name" : ""}`;
  return `${discovery.desktops.length} desktops found (${discovery.desktops.map((d) => `${name(d)}, seen in ${d.seenIn}`).join("; ")}): choose one by setting DISPLAY or WAYLAND_DISPLAY in deskhand's environment (the MCP client's "env"), and the rest is found`;
}
