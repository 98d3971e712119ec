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

/** What /proc/PID/stat says of a process: its state ("Z" a zombie), parent, group and start time. */
export interface ProcessStat {
  pid: number;
  state: string;
  ppid: number;
  pgid: number;
  /** Its start time in clock ticks since boot (field 22): with the pid, it names one process. */
  start: number;
}

/** A process's stat line, read; undefined once it has ended (or where there is no /proc). */
export function statOf(pid: number): ProcessStat | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name is in parentheses and may hold spaces: fields are counted after its end.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return {
      pid,
      state: fields[0]!,
      ppid: Number(fields[1]),
      pgid: Number(fields[2]),
      start: Number(fields[19]) >>> 0,
    };
  } catch {
    return undefined;
  }
}

/** Every running process's stat, from /proc. */
export function allProcesses(): ProcessStat[] {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const stat = /^\d+$/.test(entry) ? statOf(Number(entry)) : undefined;
    return stat ? [stat] : [];
  });
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
  for (const { pid: child, ppid } of allProcesses())
    childrenOf.set(ppid, [...(childrenOf.get(ppid) ?? []), child]);
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

/**
 * Whether a process still runs: signal 0 tests it without sending anything. EPERM means it runs
 * under another user. (A zombie its parent has not reaped counts as running.)
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * A process and everything it started that still lives, by parent links (a child that left its
 * process group or session, as a daemon does, included), children after their parents.
 */
export function descendantsOf(pid: number, processes: ProcessStat[] = allProcesses()): ProcessStat[] {
  const live = processes.filter((p) => p.state !== "Z" && p.state !== "X");
  const tree: ProcessStat[] = [];
  const add = (parent: number) => {
    for (const child of live.filter((p) => p.ppid === parent && !tree.includes(p))) {
      tree.push(child);
      add(child.pid);
    }
  };
  const self = live.find((p) => p.pid === pid);
  if (self) tree.push(self);
  add(pid);
  return tree;
}

/**
 * The language a process shows its messages in, as gettext picks it: the first of LANGUAGE's list,
 * else LC_ALL, LC_MESSAGES or LANG ("pt_BR.UTF-8" is "pt_BR"); "en" for the C and POSIX locales.
 * Undefined where its environment cannot be read (another user's process, no /proc) or names none.
 */
export function processLanguage(pid: number): string | undefined {
  let environ: string;
  try {
    environ = readFileSync(`/proc/${pid}/environ`, "utf8");
  } catch {
    return undefined;
  }
  const env = new Map(
    environ
      .split("\0")
      .map((entry) => [entry.slice(0, entry.indexOf("=")), entry.slice(entry.indexOf("=") + 1)] as const),
  );
  const locale = env.get("LC_ALL") || env.get("LC_MESSAGES") || env.get("LANG");
  // gettext ignores LANGUAGE where the locale is exactly C (POSIX is its other name): the app shows
  // its English msgids. C.UTF-8 is a locale of its own, where glibc (2.35 on) honours LANGUAGE.
  if (locale === "C" || locale === "POSIX") return "en";
  const first = env.get("LANGUAGE")?.split(":").find(Boolean) ?? locale;
  if (!first) return undefined;
  if (/^(C|POSIX)([._@].*)?$/u.test(first)) return "en";
  // A locale name is letters, a region and a variant ("sr_RS@latin"); anything else names none.
  const name = first.replace(/\..*$/u, "");
  return /^[A-Za-z]{2,8}(?:[_@-][A-Za-z0-9]{1,8}){0,2}$/u.test(name) ? name : undefined;
}

/**
 * The app's own gettext catalogs, as the process has them mapped: the `.mo` named for its program
 * ("/usr/share/locale/de/LC_MESSAGES/gnome-calculator.mo" for /usr/bin/gnome-calculator), one for
 * its language and each it falls back to (Pluma maps pt's and pt_BR's: a label may come from
 * either). A toolkit's catalogs (gtk30.mo) are not its own; an interpreter's program (python3)
 * names none. Empty where none is mapped or /proc cannot be read.
 */
export function ownCatalogs(pid: number): string[] {
  const known = ownCatalogsOf.get(pid);
  if (known && Date.now() - known.at < OWN_CATALOG_KEPT_MS) return known.paths;
  const paths = mappedOwnCatalogs(pid);
  if (ownCatalogsOf.size > 64) ownCatalogsOf.clear();
  ownCatalogsOf.set(pid, { paths, at: Date.now() });
  return paths;
}

// Every window read of an app asks: its maps (thousands of lines for a big app) are read again only
// after a while, as an app maps its catalog once, at its start.
const OWN_CATALOG_KEPT_MS = 30_000;
const ownCatalogsOf = new Map<number, { paths: string[]; at: number }>();

function mappedOwnCatalogs(pid: number): string[] {
  let program: string;
  let maps: string;
  try {
    program = basename(readlinkSync(`/proc/${pid}/exe`));
    maps = readFileSync(`/proc/${pid}/maps`, "utf8");
  } catch {
    return [];
  }
  const own = `/${program}.mo`;
  const paths = new Set<string>();
  for (const line of maps.split("\n")) {
    const path = line.slice(line.indexOf("/"));
    if (line.includes("/") && path.endsWith(own) && path.includes("/LC_MESSAGES/")) paths.add(path);
  }
  return [...paths];
}
