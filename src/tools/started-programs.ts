// A press that starts another program of the app (GIMP's export runs a plug-in, an app asks through
// zenity): that program's window belongs to another process and comes a second or more after the
// press, past the settle any press is given, so the receipt would say nothing came. The programs the
// press started that can draw are found below the app's process, and their window is waited for.
import { setTimeout as sleep } from "node:timers/promises";
import { type StartedProgram, windowsUntil } from "../core/receipt.js";
import { processAlive } from "../platform/index.js";
import { drawsOnScreen, type ProcessEntry, processesBelow, programOf } from "../platform/processes.js";
import type { WindowInfo } from "../platform/types.js";

/** How long a started program that can draw is given for its window: a plug-in takes a second or two. */
const STARTED_WINDOW_MS = 5000;
/** How long a started program is given to load a display client library, after the press's settle. */
const DRAWING_GRACE_MS = 600;

/** The app's process and those below it before the press: a later one of another program is new. */
export interface ProgramsBefore {
  pid: number;
  program: string | undefined;
  had: Set<number>;
}

export function programsBefore(appPid: number | null | undefined): ProgramsBefore | undefined {
  if (!appPid) return undefined;
  const had = new Set(processesBelow(appPid).map((p) => p.pid));
  return { pid: appPid, program: programOf(appPid), had };
}

/**
 * The programs the press started that can open a window (a display client library loaded), and the
 * windows once one of theirs came, each has ended, or STARTED_WINDOW_MS passed. The app's own
 * program started again (Firefox's content processes, Chromium's renderers) draws no window of its own.
 */
export async function windowsOfStarted(
  listWindows: () => Promise<WindowInfo[]>,
  before: ProgramsBefore | undefined,
  windows: WindowInfo[],
): Promise<{ windows: WindowInfo[]; started: StartedProgram[] }> {
  const started = before ? await drawingPrograms(before) : [];
  if (started.length === 0) return { windows, started: [] };
  const pids = new Set(started.map((p) => p.pid));
  const settled = (list: WindowInfo[]) =>
    list.some((w) => w.pid !== null && pids.has(w.pid)) || !started.some((p) => processAlive(p.pid));
  const now = await windowsUntil(listWindows, windows, STARTED_WINDOW_MS, settled);
  return {
    windows: now,
    started: started.map((p) => ({
      ...p,
      windows: now.filter((w) => w.pid === p.pid).map((w) => w.id),
      running: processAlive(p.pid),
    })),
  };
}

/**
 * The programs below the app's process since `before`, other than its own, that can draw. A program
 * loads its libraries as it starts (a Python one as it imports GTK): it is given DRAWING_GRACE_MS
 * to show that it can. One that never does (a shell's command) costs that much.
 */
async function drawingPrograms(before: ProgramsBefore): Promise<ProcessEntry[]> {
  const fresh = processesBelow(before.pid).filter(
    (p) => !before.had.has(p.pid) && p.program !== before.program,
  );
  const drawing = () => fresh.filter((p) => drawsOnScreen(p.pid));
  let found = drawing();
  for (const until = Date.now() + DRAWING_GRACE_MS; found.length === 0 && Date.now() < until; ) {
    if (!fresh.some((p) => processAlive(p.pid))) break;
    await sleep(100);
    found = drawing();
  }
  return found;
}
