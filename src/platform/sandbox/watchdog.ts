// The sandbox dies with its owner. A watchdog process, in a session of its own, holds the read end of a
// pipe from the owner and is told each process group the sandbox starts, its folder and its files.
// When the pipe closes without a "done" line (the owner died, by any signal, SIGKILL included), it
// ends every group it knows (SIGTERM, then SIGKILL half a second later) and removes the folder and
// files. A clean stop says "done" first, having ended everything itself.
import { type ChildProcess, spawn } from "node:child_process";

/** Plain JavaScript run with `node -e`: no file to find, in a build or under tsx. */
const SCRIPT = `
const fs = require("node:fs");
const groups = [];
const paths = [];
let done = false;
let buffered = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  buffered += chunk;
  let end;
  while ((end = buffered.indexOf("\\n")) >= 0) {
    const line = buffered.slice(0, end);
    buffered = buffered.slice(end + 1);
    const space = line.indexOf(" ");
    const kind = space < 0 ? line : line.slice(0, space);
    const value = line.slice(space + 1);
    if (kind === "done") done = true;
    else if (kind === "group") groups.push(Number(value));
    else if (kind === "path") paths.push(value);
  }
});
const signal = (target, name) => { try { process.kill(target, name); } catch {} };
const cleanup = () => {
  if (done) process.exit(0);
  for (const group of [...groups].reverse()) signal(-group, "SIGTERM");
  setTimeout(() => {
    for (const group of groups) { signal(-group, "SIGKILL"); signal(group, "SIGKILL"); }
    for (const path of paths) { try { fs.rmSync(path, { recursive: true, force: true }); } catch {} }
    process.exit(0);
  }, 500);
};
process.stdin.on("end", cleanup);
process.stdin.on("error", cleanup);
`;

export class Watchdog {
  private constructor(private readonly child: ChildProcess) {}

  static start(): Watchdog {
    const child = spawn(process.execPath, ["-e", SCRIPT], {
      detached: true,
      stdio: ["pipe", "ignore", "ignore"],
    });
    child.unref();
    // The pipe must not keep the owner alive, and a write after the watchdog is gone is not an error.
    (child.stdin as unknown as { unref?: () => void }).unref?.();
    child.stdin?.on("error", () => undefined);
    return new Watchdog(child);
  }

  #tell(line: string): void {
    if (this.child.stdin?.writable) this.child.stdin.write(`${line}\n`);
  }

  /** A process group (its leader's pid) to end if the owner dies. */
  watchGroup(pid: number): void {
    this.#tell(`group ${pid}`);
  }

  /** A file or folder to remove if the owner dies. */
  watchPath(path: string): void {
    this.#tell(`path ${path}`);
  }

  /** The owner ended everything itself: the watchdog leaves. */
  done(): void {
    this.#tell("done");
    this.child.stdin?.end();
  }
}
