// bench/input: the latency of a click, the time to type 200 characters and the time of a full-screen
// screenshot, through the registry tools, against xdotool (the usual peer) in the same run. Every
// typed text is read back from the app, so a fast wrong answer cannot pass. `npm run bench -- input`.
import {
  benchTools,
  clickMedian,
  peerMs,
  screenshotMedian,
  TEXT_ASCII,
  TEXT_UNICODE,
  typingMedian,
} from "./input-steps.js";
import { median } from "./stats.js";

const RUNS = Number(process.env.BENCH_RUNS ?? 15);

const ms = (v: number) => `${v.toFixed(1)} ms`;

async function main(): Promise<void> {
  const { context, call, find } = benchTools("Deskhand Fixture");
  const windowId = (await call("windows", {})).windows.find((w: any) => w.title === "Deskhand Fixture").id;
  await call("window", { action: "focus", window: { id: windowId }, intent: "Bench in the fixture" });
  const rows: string[] = [];

  // A click on a verified ref: verify, probe, gate, journal, XTEST, no re-read.
  const alpha = await find({ role: "push button", name_contains: "Alpha" });
  const click = await clickMedian(call, alpha.ref, RUNS);
  const b = alpha.bounds;
  const peerClicks: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const took = await peerMs("xdotool", ["mousemove", String(b.x + 5), String(b.y + 5), "click", "1"]);
    if (took !== null) peerClicks.push(took);
  }
  rows.push(
    `| click a verified ref | ${ms(click)} | ${peerClicks.length ? ms(median(peerClicks)) : "xdotool not installed"} | – |`,
  );

  // Typing 200 characters into the Name field, read back each time.
  const name = await find({ role: "text", name: "Name" });
  for (const [label, text] of [
    ["type 200 ASCII characters", TEXT_ASCII],
    ["type 200 characters, 24 distinct ones missing from the keymap", TEXT_UNICODE],
  ] as const) {
    const median200 = await typingMedian(
      call,
      () => find({ role: "text", name: "Name" }),
      text,
      Math.min(RUNS, 5),
    );
    let peer = "xdotool not installed";
    await call("act", { ref: name.ref, action: { kind: "set_value", text: "" } });
    const took = await peerMs("xdotool", ["type", "--delay", "0", text]);
    if (took !== null) {
      const value = (await find({ role: "text", name: "Name" })).value ?? "";
      peer = `${ms(took)} (${(200 / (took / 1000)).toFixed(0)} chars/s; read back ${value === text ? "exact" : `WRONG: ${[...value].length} chars`})`;
    }
    rows.push(
      `| ${label} | ${ms(median200)} (${(200 / (median200 / 1000)).toFixed(0)} chars/s, read back exact) | ${peer} | ≥ 200 chars/s |`,
    );
  }
  await call("act", { ref: name.ref, action: { kind: "set_value", text: "" } });

  // A full-screen screenshot: capture, convert, PNG-encode.
  const shot = await screenshotMedian(call, RUNS);
  rows.push(`| full-screen screenshot (${shot.size}) | ${ms(shot.ms)} | – | ≤ 150 ms |`);

  console.log(`# bench/input · medians of ${RUNS} (typing: 5) · node ${process.versions.node}`);
  console.log("| what | deskhand | xdotool | target |");
  console.log("|---|---|---|---|");
  for (const row of rows) console.log(row);
  await context.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
