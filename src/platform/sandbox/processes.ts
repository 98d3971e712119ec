// Processes the sandbox starts. Each runs in its own session (setsid) so a caller's process-group kill
// does not take the desktop down, and so teardown can end a process together with everything it spawned
// (bus-activated services stay in their launcher's group) without touching anything it did not start.
import { type ChildProcess, spawn } from "node:child_process";
import { openSync } from "node:fs";
import { allProcesses, descendantsOf, type ProcessStat, statOf } from "../processes.js";

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

export function startDetached(
  label: string,
  command: string,
  args: string[],
  options: StartOptions,
): StartedProcess {
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

/**
 * Live (non-zombie) members of a process group, read from /proc, and what they started that left the
 * group (a child in a session of its own would otherwise outlive the sandbox forever).
 */
function groupMembers(pgid: number): ProcessStat[] {
  const processes = allProcesses();
  const members = processes.filter((s) => s.pgid === pgid && s.state !== "Z" && s.state !== "X");
  const escaped = members.flatMap((m) => descendantsOf(m.pid, processes)).filter((d) => d.pgid !== pgid);
  return [...members, ...escaped.filter((d, i) => escaped.findIndex((e) => e.pid === d.pid) === i)];
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}

/**
 * Ends a process group from the leaves up. PID 1 on these machines does not reap, so a child orphaned by
 * its parent's death would stay a zombie forever; ending children first lets each parent reap its own,
 * and the group leader is our child, reaped by Node.
 */
async function stopGroup(leader: number, graceMs: number): Promise<void> {
  for (let round = 0; round < 32; round++) {
    const members = groupMembers(leader);
    if (members.length === 0) return;
    const parents = new Set(members.map((m) => m.ppid));
    const leaves = members.filter((m) => !parents.has(m.pid));
    const targets = leaves.length > 0 ? leaves : members;
    for (const target of targets) signal(target.pid, "SIGTERM");
    const deadline = Date.now() + graceMs;
    // Gone means reaped: a zombie whose parent lives is waited for, or killing the parent next would
    // orphan it to PID 1 for good. A zombie already orphaned cannot be helped.
    const unreaped = () =>
      targets.map((t) => statOf(t.pid)).filter((s) => s && !(s.state === "Z" && s.ppid === 1));
    while (Date.now() < deadline && unreaped().length > 0) await new Promise((r) => setTimeout(r, 10));
    for (const left of unreaped()) if (left && left.state !== "Z") signal(left.pid, "SIGKILL");
    const reapDeadline = Date.now() + 500;
    while (Date.now() < reapDeadline && unreaped().length > 0) await new Promise((r) => setTimeout(r, 10));
  }
}

/** Ends each process's group: it and what it spawned, children before parents. */
export async function stopGroups(processes: readonly StartedProcess[], graceMs = 2000): Promise<void> {
  await Promise.all(processes.map((p) => stopGroup(p.pid, graceMs)));
}

/** Parent pid of a process, from /proc; undefined when it is gone. */
async function parentPid(pid: number): Promise<number | undefined> {
  return statOf(pid)?.ppid;
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
