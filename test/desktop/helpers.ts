// Shared by the desktop tests, which run inside `deskhand sandbox run` with the apps of
// scripts/run-tests.mjs already registered on the accessibility bus.

import assert from "node:assert/strict";
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before } from "node:test";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { AtspiBackend } from "../../src/platform/atspi/backend.js";
import { launchApp } from "../../src/platform/sandbox/apps.js";
import { Desktop } from "../../src/platform/sandbox/desktop.js";
import type { WindowInfo } from "../../src/platform/types.js";
import { callTool } from "../../src/tools/call.js";
import { createContext, type ToolContext } from "../../src/tools/context.js";
import { type ToolName, toolNamed } from "../../src/tools/registry.js";

const run = promisify(execFile);

/**
 * How much longer a bound in a test may take on a machine someone declared busy
 * (DESKHAND_TEST_SLACK, which `scripts/load.mjs` sets to 3 for what it runs). What a test asserts
 * happened is the same; only how long it may take to happen stretches.
 */
export const SLACK = Math.max(1, Number(process.env.DESKHAND_TEST_SLACK ?? 1) || 1);
export const within = (ms: number) => ms * SLACK;

/**
 * Reads until `done` holds of what is read or `ms` (times the slack) passed: the last read. For an
 * app's state that follows an input a moment later (a menu that opens, a document that loads).
 */
export async function settled<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  ms: number,
): Promise<T> {
  const deadline = Date.now() + within(ms);
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * A time bound that only a hang misses. The machine the suite runs on is shared and loaded (one
 * typecheck beside it made bounds of 2 to 8 s fail), so a test asserts that a call ends, and what it
 * answered says it ended the right way (the cut named, the outcome); how fast is bench/'s to measure.
 */
export const HANG_MS = 60_000;

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
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // A session of its own, with no controlling terminal: a confirmation is refused as in CI, never
    // asked of whoever runs the tests at a terminal.
    const child = spawn(process.execPath, [...CLI, ...args], {
      stdio: ["pipe", "pipe", "pipe"],
      env,
      detached: true,
    });
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

export const SWING_COMMAND = [
  "java",
  "-Djavax.accessibility.assistive_technologies=org.GNOME.Accessibility.AtkWrapper",
  "-cp",
  "build/fixtures:/usr/share/java/java-atk-wrapper.jar",
  "DeskhandFixture",
];

/** Starts one of the Swing fixtures (test/fixtures/swing) by its class, with its arguments. */
export function startSwingFixture(
  fixture: string,
  args: string[] = [],
  env: NodeJS.ProcessEnv = process.env,
): StartedApp {
  return startApp([...SWING_COMMAND.slice(0, -1), fixture, ...args], env);
}

/** Starts a second Swing fixture and waits until its window is readable; the caller kills it. */
export async function startExtraSwingApp(
  backend: AtspiBackend,
): Promise<{ pid: number; windowId: number; kill: () => void }> {
  const child = spawn(SWING_COMMAND[0]!, SWING_COMMAND.slice(1), { stdio: "ignore", detached: true });
  const pid = child.pid!;
  // A JVM starting beside a loaded suite took more than 20 s to register: only a hang misses this.
  const deadline = Date.now() + HANG_MS;
  while (Date.now() < deadline) {
    const window = (await backend.listWindows()).find((w) => w.pid === pid && w.accessible);
    if (window) {
      return {
        pid,
        windowId: window.id,
        kill: () => {
          try {
            process.kill(-pid, "SIGKILL");
          } catch {
            // Already gone.
          }
        },
      };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  process.kill(-pid, "SIGKILL");
  throw new Error(`the extra Swing fixture did not register in ${HANG_MS / 1000} s`);
}

/** A `deskhand serve` process driven one request at a time. */
export class NdjsonClient {
  readonly child;
  #buffer = "";
  #waiting: ((line: string) => void)[] = [];
  #lines: string[] = [];
  readonly exited: Promise<number>;

  constructor(env: NodeJS.ProcessEnv = process.env) {
    this.child = spawn(process.execPath, [...CLI, "serve"], { stdio: ["pipe", "pipe", "inherit"], env });
    this.exited = new Promise((resolve) => this.child.on("exit", (code) => resolve(code ?? -1)));
    this.child.stdout.on("data", (chunk: Buffer) => {
      this.#buffer += chunk.toString();
      let newline = this.#buffer.indexOf("\n");
      while (newline >= 0) {
        const line = this.#buffer.slice(0, newline);
        this.#buffer = this.#buffer.slice(newline + 1);
        const waiter = this.#waiting.shift();
        if (waiter) waiter(line);
        else this.#lines.push(line);
        newline = this.#buffer.indexOf("\n");
      }
    });
  }

  next(): Promise<Record<string, any>> {
    const line = this.#lines.shift();
    if (line !== undefined) return Promise.resolve(JSON.parse(line));
    return new Promise((resolve) => this.#waiting.push((l) => resolve(JSON.parse(l))));
  }

  async request(id: number | string, method: string, params?: unknown): Promise<Record<string, any>> {
    this.child.stdin.write(
      `${JSON.stringify(params === undefined ? { id, method } : { id, method, params })}\n`,
    );
    return this.next();
  }

  writeRaw(data: string | Buffer): void {
    this.child.stdin.write(data);
  }

  end(): void {
    this.child.stdin.end();
  }
}

/** Calls registry tools in-process, as a front end does; failures come back as their JSON, not thrown. */
export function toolCaller(context: ToolContext) {
  return async (tool: ToolName, input: Record<string, unknown>) => {
    const started = Date.now();
    const result = await callTool(context, toolNamed(tool), input);
    // Where a file's time goes, call by call: DESKHAND_CALL_TIMES=1 prints each call's time.
    if (process.env.DESKHAND_CALL_TIMES)
      console.error(`# call ${Date.now() - started} ms ${tool} ${result.ok ? "" : result.error.code}`);
    return result.ok
      ? {
          ok: true as const,
          data: result.output.data as any,
          text: result.output.text,
          error: undefined as any,
        }
      : { ok: false as const, data: undefined as any, text: undefined, error: result.error.toJSON() as any };
  };
}

/**
 * A suite's own deskhand session, opened before its tests and closed after them: its caller. Call it
 * inside `describe`.
 */
export function suiteCaller(): ReturnType<typeof toolCaller> {
  let context: ToolContext | undefined;
  before(() => {
    context = createContext({ refLifetime: "while-verified" });
  });
  after(() => context?.close());
  return (tool, input) => {
    if (!context) throw new Error("suiteCaller: called before the suite began");
    return toolCaller(context)(tool, input);
  };
}

/**
 * The clipboard both ways on an app's text field: deskhand's text pasted by the app's ctrl+v, then
 * the app's ctrl+c read back by deskhand. `field` re-reads the field; `becomes` waits for a value.
 */
export async function clipboardBothWays(
  call: ReturnType<typeof toolCaller>,
  field: () => Promise<{ ref: string; value?: string }>,
  becomes: (read: () => Promise<string | undefined>, expected: RegExp) => Promise<string | undefined>,
): Promise<void> {
  const intent = "Move a text through the clipboard";
  const text = "Zoë 42 ✓ clip";
  const written = await call("clipboard", { text, intent });
  assert.equal(written.data.status, "done", written.text);
  const { ref } = await field();
  await call("act", { ref, action: { kind: "set_value", text: "" }, intent });
  const pasted = await call("key", { key: "ctrl+v", ref, intent });
  assert.equal(pasted.data.status, "done", pasted.text);
  assert.equal(await becomes(async () => (await field()).value, /clip$/), text, "the app pasted it");
  await call("act", { ref, action: { kind: "set_value", text: "copied by the app" }, intent });
  await call("key", { key: "ctrl+a", ref, intent });
  await call("key", { key: "ctrl+c", ref, intent });
  const read = await call("clipboard", { intent });
  assert.equal(read.data.result.text, "copied by the app", read.text);
}

/** An MCP client of `deskhand mcp` (with its extra arguments: a profile), through the SDK's stdio transport. */
export async function mcpClient(name: string, args: string[] = []): Promise<Client> {
  const client = new Client({ name, version: "0" });
  const env = Object.fromEntries(
    Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined),
  );
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [...CLI, "mcp", ...args], env }),
  );
  return client;
}

/**
 * A context under the default policy (ceiling L3) with no way to ask a person, its journal in `dir`:
 * what the gate must refuse, it refuses, but for what `preapprove` allows (a config written in `dir`).
 */
export function gatedContext(
  dir: string,
  preapprove?: Record<string, string>[],
  /** A desktop of the test's own (its `info.env`); the shared one by default. */
  desktopEnv: NodeJS.ProcessEnv = process.env,
): ToolContext {
  const config = join(dir, preapprove ? "config.json" : "none.json");
  if (preapprove) writeFileSync(config, JSON.stringify({ preapprove }));
  return createContext({
    refLifetime: "while-verified",
    env: { ...desktopEnv, DESKHAND_AUDIT: join(dir, "audit.jsonl"), DESKHAND_CONFIG: config },
  });
}

/** The lines a fixture app wrote to its log (each press of gtk3_labels.py and qt_labels.py), in order. */
export const loggedLines = (log: string): string[] =>
  existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : [];

/** Waits until the app's log ends with `line`: the press it names reached the app. */
export async function pressLogged(log: string, line: string): Promise<void> {
  for (
    const deadline = Date.now() + HANG_MS;
    Date.now() < deadline;
    await new Promise((r) => setTimeout(r, 100))
  )
    if (loggedLines(log).at(-1) === line) return;
  assert.fail(`${line} was never pressed: ${JSON.stringify(loggedLines(log))}`);
}

export interface StartedApp {
  child: ChildProcess;
  exited: Promise<number>;
  kill(): void;
}

/** Starts an app in a process group of its own, killed afterwards whatever happened. */
export function startApp(command: string[], env: NodeJS.ProcessEnv = process.env): StartedApp {
  const child = spawn(command[0]!, command.slice(1), { stdio: "ignore", detached: true, env });
  const exited = new Promise<number>((resolve) => child.on("exit", (code) => resolve(code ?? -1)));
  return {
    child,
    exited,
    kill: () => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // Already gone.
      }
    },
  };
}

/**
 * The first element a find in the titled window matches (off screen too), asked again until one is
 * there or `timeoutMs` passes: an app's dialog takes its time to appear on a busy machine.
 */
export async function findWaiting(
  call: ReturnType<typeof toolCaller>,
  title: string,
  query: Record<string, unknown>,
  timeoutMs: number,
): Promise<unknown> {
  const deadline = Date.now() + within(timeoutMs);
  for (;;) {
    const result = await call("find", {
      target: { kind: "title", glob: title },
      limit: 5,
      include_off_screen: true,
      ...query,
    });
    if (result.ok && result.data.matches[0]) return result.data.matches[0];
    if (Date.now() > deadline)
      throw new Error(`${JSON.stringify(query)} in ${title}: ${JSON.stringify(result)}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

/** Runs `work` while pinging every 50 ms, one ping at a time; answers each ping's round trip in ms. */
export async function pingsDuring(
  ping: () => Promise<unknown>,
  work: () => Promise<unknown>,
): Promise<number[]> {
  const trips: number[] = [];
  let done = false;
  const pinger = (async () => {
    while (!done) {
      const started = performance.now();
      await ping();
      trips.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  await work();
  done = true;
  await pinger;
  return trips;
}

/**
 * A desktop of the test's own with gtk3-widget-factory, and a context on it, for a test that breaks
 * its desktop (kills its bus or its X server): filled in before the suite's tests, ended after.
 */
export function ownDesktop(): { desktop: Desktop; context: ToolContext } {
  const own = {} as { desktop: Desktop; context: ToolContext };
  before(async () => {
    own.desktop = await Desktop.start();
    await launchApp(own.desktop, "gtk3-widget-factory", 30_000);
    own.context = createContext({
      refLifetime: "while-verified",
      env: { ...process.env, ...own.desktop.info.env },
    });
  });
  after(async () => {
    await own.context?.close();
    await own.desktop?.stop();
  });
  return own;
}

type Call = ReturnType<typeof toolCaller>;
export type Element = {
  ref: string;
  name: string;
  bounds: { x: number; y: number; width: number; height: number };
};

/** An input refused by the gate, its reason matching `reason`: a refused reply or a refused error (act). */
export function refusedWith(result: Awaited<ReturnType<Call>>, route: string, reason?: RegExp): void {
  const text = result.ok
    ? result.data.status === "refused" && result.data.reason
    : result.error.code === "refused" && result.error.message;
  assert.ok(text, `${route} is refused: ${result.ok ? result.text : JSON.stringify(result.error)}`);
  if (reason) assert.match(text, reason, route);
}

/** An element's centre, as a global point for `at`. */
export const centre = (e: Element) => ({
  space: "global",
  x: Math.round(e.bounds.x + e.bounds.width / 2),
  y: Math.round(e.bounds.y + e.bounds.height / 2),
});

/** The id of the readable window titled `title`, waited for until HANG_MS. */
export async function windowId(call: Call, title: string): Promise<number> {
  const deadline = Date.now() + HANG_MS;
  for (;;) {
    const windows = (await call("windows", {})).data?.windows as {
      id: number;
      title: string;
      accessible?: boolean;
    }[];
    const found = windows?.find((w) => w.title === title && w.accessible !== false);
    if (found) return found.id;
    if (Date.now() > deadline) throw new Error(`no readable window titled ${title}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

/** The one element a find in the titled window matches (on screen). */
export async function one(call: Call, title: string, query: Record<string, unknown>): Promise<Element> {
  const result = await call("find", { target: { kind: "title", glob: title }, limit: 5, ...query });
  assert.ok(result.ok && result.data.matches.length === 1, `${JSON.stringify(query)}: ${result.text}`);
  return result.data.matches[0];
}

/** A fresh Firefox profile under `dir` that opens no first-run or welcome tabs (as test/fixtures/web/firefox). */
export function firefoxProfile(dir: string): string {
  const path = mkdtempSync(join(dir, "firefox-"));
  const prefs = {
    "browser.startup.homepage_override.mstone": "ignore",
    "startup.homepage_welcome_url": "",
    "startup.homepage_welcome_url.additional": "",
    "browser.aboutwelcome.enabled": false,
    "datareporting.policy.dataSubmissionEnabled": false,
    "datareporting.policy.firstRunURL": "",
    "toolkit.telemetry.reportingpolicy.firstRun": false,
    "browser.shell.checkDefaultBrowser": false,
    "app.update.enabled": false,
  };
  const lines = Object.entries(prefs).map(
    ([k, v]) => `user_pref(${JSON.stringify(k)}, ${JSON.stringify(v)});`,
  );
  writeFileSync(join(path, "user.js"), `${lines.join("\n")}\n`);
  return path;
}
