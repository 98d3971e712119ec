// Processes the sandbox starts. Each runs in its own session (setsid) so a caller's process-group kill
// does not take the desktop down, and so teardown can end a process together with everything it spawned
// (bus-activated services stay in their launcher's group) without touching anything it did not start.
import { type ChildProcess, spawn } from "node:child_process";
import { openSync } from "node:fs";

export interface StartedProcess {
  readonly label: string;
  readonly child: ChildProcess;
  readonly pid: number;
  exited: boolean;
  exitCode: number | null;
}

export interface StartOptions {
  env: NodeJS.ProcessEnv;
  logFile: string;
  /** Extra pipes after stdio, for -displayfd and --print-address. */
  extraPipes?: number;
}

export function startDetached(label: string, command: string, args: string[], options: StartOptions): StartedProcess {
  const log = openSync(options.logFile, "a");
  const stdio: ("ignore" | "pipe" | number)[] = ["ignore", log, log];
  for (let i = 0; i < (options.extraPipes ?? 0); i++) stdio.push("pipe");
  const child = spawn(command, args, { env: options.env, stdio, detached: true });
  if (child.pid === undefined) {
    throw new Error(`cannot start ${label} (${command}): is it installed? See \`deskhand doctor\`.`);
  }
  const started: StartedProcess = { label, child, pid: child.pid, exited: false, exitCode: null };
  child.on("error", () => {
    started.exited = true;
  });
  child.on("exit", (code, signal) => {
    started.exited = true;
    started.exitCode = code ?? (signal ? 128 : null);
  });
  return started;
}

/** Reads one line (up to a newline) from an extra pipe, bounded in time. */
export function readLineFrom(started: StartedProcess, fd: number, timeoutMs: number): Promise<string> {
  const stream = started.child.stdio[fd] as NodeJS.ReadableStream | null;
  if (!stream) return Promise.reject(new Error(`${started.label} has no pipe ${fd}`));
  return new Promise((resolve, reject) => {
    let buffered = "";
    const finish = (error?: Error) => {
      clearTimeout(timer);
      stream.removeAllListeners("data");
      started.child.removeListener("exit", onExit);
      if (error) reject(error);
      else resolve(buffered.split("\n")[0]!.trim());
    };
    const onExit = () => finish(new Error(`${started.label} exited before it was ready; see its log`));
    const timer = setTimeout(
      () => finish(new Error(`${started.label} was not ready within ${timeoutMs} ms; see its log`)),
      timeoutMs,
    );
    stream.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      if (buffered.includes("\n")) finish();
    });
    started.child.once("exit", onExit);
  });
}

function signalGroup(started: StartedProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-started.pid, signal);
  } catch {
    // The group is already empty.
  }
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM each group, wait up to graceMs for the groups to empty, then SIGKILL what is left. */
export async function stopGroups(processes: readonly StartedProcess[], graceMs = 2000): Promise<void> {
  for (const started of processes) signalGroup(started, "SIGTERM");
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && processes.some((p) => groupAlive(p.pid))) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  for (const started of processes) if (groupAlive(started.pid)) signalGroup(started, "SIGKILL");
}

/** Parent pid of a process, from /proc; undefined when it is gone. */
export async function parentPid(pid: number): Promise<number | undefined> {
  const { readFile } = await import("node:fs/promises");
  try {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8");
    // The command name is in parentheses and may contain spaces; the ppid is the second field after it.
    const afterName = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(afterName[1]);
  } catch {
    return undefined;
  }
}

/** Whether `pid` is `ancestor` or one of its descendants. */
export async function isDescendant(pid: number, ancestor: number): Promise<boolean> {
  let current: number | undefined = pid;
  for (let hops = 0; current !== undefined && current > 1 && hops < 64; hops++) {
    if (current === ancestor) return true;
    current = await parentPid(current);
  }
  return false;
}
