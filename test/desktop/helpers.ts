// Shared by the desktop tests, which run inside `deskhand sandbox run` with the apps of
// scripts/run-tests.mjs already registered on the accessibility bus.
import { execFile, spawn } from "node:child_process";
import { promisify } from "node:util";
import { AtspiBackend } from "../../src/platform/atspi/backend.js";
import type { WindowInfo } from "../../src/platform/types.js";

const run = promisify(execFile);

export const TITLES = {
  gtk3: "gtk3-widget-factory",
  gtk4: "GTK Widget Factory",
  swing: "Deskhand Fixture",
} as const;

export const CLI = ["dist/frontends/cli/main.js"];

export async function connect(): Promise<AtspiBackend> {
  return AtspiBackend.connect();
}

export async function windowTitled(backend: AtspiBackend, title: string): Promise<WindowInfo> {
  const windows = await backend.listWindows();
  const found = windows.find((w) => w.title === title);
  if (!found) throw new Error(`no window titled ${title}; have ${windows.map((w) => w.title).join(", ")}`);
  return found;
}

export interface PeerWalk {
  nodes: [number, number, string, number, ([number, number, number, number] | null)?][];
  times_ms: number[];
}

/** The pyatspi peer, under Debian's own python3 where python3-pyatspi lives. */
export async function pyatspiWalk(pid: number, frameIndex: number, extra: string[] = []): Promise<PeerWalk> {
  const { stdout } = await run(
    "/usr/bin/python3",
    ["test/peers/pyatspi_walk.py", "--pid", String(pid), "--frame-index", String(frameIndex), ...extra],
    { maxBuffer: 64 << 20, timeout: 120_000 },
  );
  return JSON.parse(stdout) as PeerWalk;
}

export async function cli(
  args: string[],
  input?: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...CLI, ...args], { stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("exit", (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(input ?? "");
  });
}
