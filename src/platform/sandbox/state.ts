// The state file of a sandbox that `sandbox start` left running: written by its supervisor once the
// desktop is up, read by `start` (to print it), by a second `start` and by `stop`.
import { mkdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { writeWhole } from "../files.js";

export interface SandboxState {
  supervisorPid: number;
  root: string;
  env: Record<string, string>;
  exports: Record<string, string>;
  apps: { command: string; pid: number }[];
}

/** How long a reader waits for a file that does not parse to be whole (one a writer of an older deskhand was still writing). */
const SETTLE_MS = 2000;

export function stateFile(name: string): string {
  const dir = join(tmpdir(), `deskhand-${process.getuid?.() ?? "user"}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return join(dir, `sandbox-${name}.json`);
}

/** Written whole: `start` polls for the file and must never read half of it. */
export async function writeState(file: string, state: SandboxState): Promise<void> {
  await writeWhole(file, JSON.stringify(state));
}

/**
 * The state, or undefined when there is no such file. A file that does not parse is read again for a
 * moment before it counts as broken: under load, readers met files still being written.
 */
export async function readState(file: string): Promise<SandboxState | undefined> {
  const deadline = Date.now() + SETTLE_MS;
  for (;;) {
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
    try {
      return JSON.parse(text) as SandboxState;
    } catch (error) {
      if (Date.now() > deadline)
        throw new Error(
          `the sandbox state file ${file} is not whole JSON after ${SETTLE_MS} ms: ${(error as Error).message}`,
        );
      await sleep(50);
    }
  }
}
