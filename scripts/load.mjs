// Heavy CPU and disk load beside a command, bounded in time: a user's machine is rarely idle, and
// deskhand's waits must hold on a busy one (the window manager, the apps and the bus all slow down).
//
//   node scripts/load.mjs [--seconds N] [--workers N] -- COMMAND [ARG...]
//
// Starts N worker processes (2 by default): each alternates a CPU spin with writing and fsync-ing
// 64 MiB to a file under the system's temp folder, as a package install beside a test run does.
// The command runs with DESKHAND_TEST_SLACK=3 (unless set): the tests' time bounds stretch, what
// they assert happened does not. The workers stop when the command exits, when N seconds have
// passed (1200 by default), or when this process dies (each checks its parent). The exit status is
// the command's.
import { spawn } from "node:child_process";
import { closeSync, fsyncSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const WORKER = "--deskhand-load-worker";
const self = fileURLToPath(import.meta.url);

// Run as a program, not when a test imports startLoad.
if (process.argv[1] === self) {
  if (process.argv[2] === WORKER) worker(Number(process.argv[3]), process.argv[4]);
  else main();
}

function main() {
  const args = process.argv.slice(2);
  const split = args.indexOf("--");
  const options = split < 0 ? [] : args.slice(0, split);
  const command = split < 0 ? args : args.slice(split + 1);
  const option = (name, fallback) => {
    const at = options.indexOf(name);
    const value = at < 0 ? fallback : Number(options[at + 1]);
    if (!Number.isFinite(value) || value <= 0) {
      process.stderr.write(`load: ${name} takes a positive number\n`);
      process.exit(2);
    }
    return value;
  };
  const seconds = option("--seconds", 1200);
  const workers = option("--workers", 2);
  if (command.length === 0) {
    process.stderr.write("usage: node scripts/load.mjs [--seconds N] [--workers N] -- COMMAND [ARG...]\n");
    process.exit(2);
  }
  const stop = startLoad({ seconds, workers });
  // The tests' time bounds stretch on a machine declared busy (test/desktop/helpers.ts, SLACK).
  const env = { DESKHAND_TEST_SLACK: "3", ...process.env };
  const child = spawn(command[0], command.slice(1), { stdio: "inherit", env });
  const forward = (signal) => child.kill(signal);
  process.on("SIGTERM", forward);
  process.on("SIGINT", forward);
  child.on("exit", (code, signal) => {
    stop();
    process.exit(code ?? (signal ? 1 : 0));
  });
}

/** Starts the workers; the function returned stops them and removes their files. */
export function startLoad({ seconds = 1200, workers = 2 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "deskhand-load-"));
  const children = Array.from({ length: workers }, (_, i) =>
    spawn(process.execPath, [self, WORKER, String(seconds), join(dir, `w${i}`)], {
      stdio: "ignore",
    }),
  );
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    for (const child of children) child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  };
}

function worker(seconds, file) {
  const parent = process.ppid;
  const end = Date.now() + seconds * 1000;
  const chunk = Buffer.alloc(1 << 20, 0x5a);
  const alive = () => {
    try {
      process.kill(parent, 0);
      return Date.now() < end;
    } catch {
      return false;
    }
  };
  while (alive()) {
    // About half a second of pure CPU...
    const spinUntil = Date.now() + 500;
    let x = 0;
    while (Date.now() < spinUntil) x = (x * 31 + 7) % 1_000_003;
    // ...then 64 MiB written and forced to disk.
    const fd = openSync(file, "w");
    for (let i = 0; i < 64; i++) writeSync(fd, chunk);
    fsyncSync(fd);
    closeSync(fd);
    rmSync(file, { force: true });
  }
  process.exit(0);
}
