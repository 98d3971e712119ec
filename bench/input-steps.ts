// What bench/input (X11) and bench/wayland (sway) both measure, through the registry tools: typing
// 200 characters into a field, read back each run so a fast wrong answer fails the bench, and a
// full-screen screenshot.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { callTool } from "../src/tools/call.js";
import { createContext, type ToolContext } from "../src/tools/context.js";
import { findTool } from "../src/tools/registry.js";
import { median, medianTime } from "./stats.js";

export const TEXT_ASCII = "The quick brown fox jumps over the lazy dog 0123456789. ".repeat(4).slice(0, 200);
export const TEXT_UNICODE = "Grüße, été, ñandú, 日本語, ✓✗, Ωμέγα; ".repeat(7).slice(0, 200);

type Call = (name: string, input: Record<string, unknown>) => Promise<Record<string, any>>;

/** A context with no journal, a tool caller that throws on a failed call, and a find in one window. */
export function benchTools(title: string): {
  context: ToolContext;
  call: Call;
  find: (query: Record<string, unknown>) => Promise<any>;
} {
  const context = createContext({
    refLifetime: "while-verified",
    env: { ...process.env, DESKHAND_AUDIT: "/dev/null" },
  });
  const call: Call = async (name, input) => {
    const result = await callTool(context, findTool(name)!, input);
    if (!result.ok) throw new Error(`${name}: ${result.error.message}`);
    return result.output.data as Record<string, any>;
  };
  const find = async (query: Record<string, unknown>) =>
    (await call("find", { target: { kind: "title", glob: title }, ...query })).matches[0];
  return { context, call, find };
}

/** The median typing time of `text` into the field `query` finds (emptied before each run). */
export async function typingMedian(
  call: Call,
  read: () => Promise<{ ref: string; value?: string }>,
  text: string,
  runs: number,
): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const field = await read();
    await call("act", { ref: field.ref, action: { kind: "set_value", text: "" } });
    const done = await call("type_text", { ref: field.ref, text, intent: "Bench typing", settleMs: 0 });
    if (done.status !== "done") throw new Error(`type_text: ${done.reason}`);
    times.push(done.result.typing_ms as number);
    const value = (await read()).value;
    if (value !== text) {
      const got = [...(value ?? "")];
      const at = [...text].findIndex((c, j) => got[j] !== c);
      throw new Error(
        `typed text did not read back: ${got.length} of ${[...text].length} characters; from character ${at} ` +
          `${JSON.stringify([...text].slice(at, at + 20).join(""))} was wanted, ${JSON.stringify(got.slice(at, at + 20).join(""))} came`,
      );
    }
  }
  return median(times);
}

/** The median time of a click on a verified ref (verify, probe, gate, journal, input, no re-read). */
export async function clickMedian(call: Call, ref: string, runs: number): Promise<number> {
  const clicks: number[] = [];
  for (let i = 0; i < runs + 1; i++) {
    const start = performance.now();
    const done = await call("click", { ref, intent: "Bench a click", settleMs: 0 });
    if (done.status !== "done") throw new Error(`click: ${done.reason}`);
    if (i > 0) clicks.push(performance.now() - start);
  }
  return median(clicks);
}

/** The median time of a full-screen screenshot, and its size. */
export async function screenshotMedian(call: Call, runs: number): Promise<{ ms: number; size: string }> {
  const shots: number[] = [];
  let size = "";
  for (let i = 0; i < runs + 1; i++) {
    const start = performance.now();
    const shot = await call("screenshot", { of: { kind: "screen" }, max_width: 4096 });
    if (i > 0) shots.push(performance.now() - start);
    size = `${shot.width}×${shot.height}, ${(shot.png_bytes / 1024).toFixed(0)} KB`;
  }
  return { ms: median(shots), size };
}

/** How long a peer's command took, or null when it is not installed or failed. */
export async function peerMs(command: string, args: string[]): Promise<number | null> {
  const start = performance.now();
  try {
    await promisify(execFile)(command, args, { timeout: 60_000 });
    return performance.now() - start;
  } catch {
    return null;
  }
}

/**
 * The rows bench/kde and bench/gnome share on the GTK 3 editor fixture: a click on a verified ref,
 * typing 200 ASCII characters and 200 with runs outside the keymap (each read back), a full-screen
 * screenshot, and the hands' capture alone. `outside` and `capture` name how each desktop does it.
 */
export async function compositorRows(
  call: Call,
  find: (query: Record<string, unknown>) => Promise<{ ref: string }>,
  runs: number,
  hands: () => Promise<{
    screen(): Promise<{ width: number; height: number; x: number; y: number }>;
    capture(region: { x: number; y: number; width: number; height: number }): Promise<unknown>;
    close(): Promise<void>;
  }>,
  words: { outside: string; capture: string },
): Promise<string[]> {
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  const rows: string[] = [];
  const field = await find({ role: "text", name: "Find" });
  rows.push(`| click a verified ref | ${ms(await clickMedian(call, field.ref, runs))} | – | – |`);
  for (const [label, text] of [
    ["type 200 ASCII characters", TEXT_ASCII],
    [`type 200 characters, runs outside ${words.outside}`, TEXT_UNICODE],
  ] as const) {
    const m = await typingMedian(call, () => find({ role: "text", name: "First" }), text, Math.min(runs, 5));
    rows.push(`| ${label} | ${ms(m)} (${(200 / (m / 1000)).toFixed(0)} chars/s, read back exact) | – | – |`);
  }
  const shot = await screenshotMedian(call, runs);
  rows.push(`| full-screen screenshot (${shot.size}, PNG encoded) | ${ms(shot.ms)} | – | – |`);
  const opened = await hands();
  const screen = await opened.screen();
  const capture = await medianTime(() => opened.capture(screen), 5);
  rows.push(
    `| full-screen capture as RGBA (${screen.width}×${screen.height}, ${words.capture}) | ${ms(capture)} | – | – |`,
  );
  await opened.close();
  return rows;
}
