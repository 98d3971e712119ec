// bench/wayland: bench/input's figures on a headless sway (`sandbox --wayland`, the GTK 3 editor
// fixture): a click on a verified ref, typing 200 characters (ASCII, and text outside the us keymap,
// swapped onto spare keys) read back each time, a full-screen screenshot, and the capture alone by
// deskhand's own screencopy and by grim, against wtype and grim, the usual Wayland peers, in the same
// run. `npm run bench -- wayland`.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { ppmToRgba } from "../src/platform/wayland/hands.js";
import { WaylandScreencopy } from "../src/platform/wayland/screencopy.js";
import { SwayIpc } from "../src/platform/wayland/sway.js";
import {
  benchTools,
  clickMedian,
  peerMs,
  screenshotMedian,
  TEXT_ASCII,
  TEXT_UNICODE,
  typingMedian,
} from "./input-steps.js";
import { medianTime } from "./stats.js";

const run = promisify(execFile);
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const TITLE = "Wayland Bench";

const ms = (v: number) => `${v.toFixed(1)} ms`;

async function main(): Promise<void> {
  const { context, call, find } = benchTools(TITLE);
  const rows: string[] = [];

  const field = await find({ role: "text", name: "Find" });
  rows.push(`| click a verified ref | ${ms(await clickMedian(call, field.ref, RUNS))} | – | – |`);

  const first = await find({ role: "text", name: "First" });
  for (const [label, text] of [
    ["type 200 ASCII characters", TEXT_ASCII],
    ["type 200 characters, 24 distinct ones outside the us keymap", TEXT_UNICODE],
  ] as const) {
    const m = await typingMedian(call, () => find({ role: "text", name: "First" }), text, Math.min(RUNS, 5));
    // The peer types where the focus is: the field, focused by deskhand's last call.
    let peer = "wtype not installed";
    await call("act", { ref: first.ref, action: { kind: "set_value", text: "" } });
    const took = await peerMs("wtype", [text]);
    if (took !== null) {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const value = (await find({ role: "text", name: "First" })).value ?? "";
      peer = `${ms(took)} (read back ${value === text ? "exact" : `WRONG: ${[...value].length} of 200 characters`})`;
    }
    rows.push(
      `| ${label} | ${ms(m)} (${(200 / (m / 1000)).toFixed(0)} chars/s, read back exact) | ${peer} | ≥ 200 chars/s |`,
    );
  }
  await call("act", { ref: first.ref, action: { kind: "set_value", text: "" } });

  const shot = await screenshotMedian(call, RUNS);
  rows.push(`| full-screen screenshot (${shot.size}, PNG encoded) | ${ms(shot.ms)} | – | ≤ 150 ms |`);

  // The capture alone, as RGBA: deskhand's screencopy against spawning grim.
  const copy = await WaylandScreencopy.open(process.env, 2000);
  const ipc = await SwayIpc.open(process.env.SWAYSOCK!, 2000);
  const outputs =
    await ipc.request<{ name: string; rect: { x: number; y: number; width: number; height: number } }[]>(3);
  const screen = outputs[0]!.rect;
  const timed = (capture: () => Promise<unknown>) => medianTime(capture, RUNS);
  const grim = await timed(async () =>
    ppmToRgba((await run("grim", ["-t", "ppm", "-"], { encoding: "buffer", maxBuffer: 64 << 20 })).stdout),
  );
  const ours = typeof copy === "string" ? copy : ms(await timed(() => copy.capture(screen, outputs)));
  rows.push(
    `| full-screen capture as RGBA (${screen.width}×${screen.height}) | ${ours} (screencopy) | ${ms(grim)} (grim) | – |`,
  );
  if (typeof copy !== "string") copy.close();
  ipc.close();

  console.log(
    `# bench/wayland · sway, headless · medians of ${RUNS} (typing: 5) · node ${process.versions.node}`,
  );
  console.log("| what | deskhand | peer (wtype, grim) | target |");
  console.log("|---|---|---|---|");
  for (const row of rows) console.log(row);
  await context.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
