// The programs an app starts (GIMP's plug-ins, a helper dialog such as zenity), read from Linux's
// /proc: a window such a program opens belongs to another process and comes later than the press
// that started it, so a press is told which programs it started and which of them draw on the screen.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { basename } from "node:path";

export interface ProcessEntry {
  pid: number;
  /** Its executable's path, or its name where the path cannot be read (another user's). */
  program: string;
}

/** Every process's parent, from /proc/PID/stat: the fourth field, after the name in parentheses. */
function parents(): Map<number, number> {
  const parentOf = new Map<number, number>();
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return parentOf;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parentOf.set(Number(entry), parent);
    } catch {
      // It ended while the list was read.
    }
  }
  return parentOf;
}

/** Executables that run a program given to them: the program is then the script they run. */
const INTERPRETER = /^(python|perl|ruby|node|gjs|java|wish|tclsh|bash|dash|sh)[\d.]*$/;

/**
 * What a process runs: its executable's path, else its name; for an interpreter, with the script it
 * runs (its first argument that is no option). Undefined once it has ended.
 */
export function programOf(pid: number): string | undefined {
  let executable: string;
  try {
    executable = readlinkSync(`/proc/${pid}/exe`);
  } catch {
    try {
      return readFileSync(`/proc/${pid}/comm`, "utf8").trim();
    } catch {
      return undefined;
    }
  }
  if (!INTERPRETER.test(basename(executable))) return executable;
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").slice(1);
    const script = args.find((a) => a !== "" && !a.startsWith("-"));
    return script ? `${executable} ${script}` : executable;
  } catch {
    return undefined;
  }
}

/** The processes below `pid`: its children, theirs, and so on. None where /proc cannot be read. */
export function processesBelow(pid: number): ProcessEntry[] {
  const childrenOf = new Map<number, number[]>();
  for (const [child, parent] of parents()) childrenOf.set(parent, [...(childrenOf.get(parent) ?? []), child]);
  const below: ProcessEntry[] = [];
  const queue = [...(childrenOf.get(pid) ?? [])];
  while (queue.length > 0 && below.length < 1000) {
    const next = queue.shift()!;
    const program = programOf(next);
    if (program !== undefined) below.push({ pid: next, program });
    queue.push(...(childrenOf.get(next) ?? []));
  }
  return below;
}

/** A client library of a display server: a process that has one loaded can open windows. */
const DISPLAY_CLIENT = /\/lib(X11|xcb|wayland-client)\.so/;

/** Whether a process has loaded a display client library (Xlib, XCB, Wayland's): it may open a window. */
export function drawsOnScreen(pid: number): boolean {
  try {
    return DISPLAY_CLIENT.test(readFileSync(`/proc/${pid}/maps`, "utf8"));
  } catch {
    return false;
  }
}
