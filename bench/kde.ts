// bench/kde: bench/input's figures on KDE Plasma's KWin, headless (`sandbox --kde`, the GTK 3 editor
// fixture): a window list (one KWin script), a click on a verified ref, typing 200 characters (ASCII
// by KWin's fake input; text outside its keymap pasted run by run) read back each time, a full-screen
// screenshot, and ScreenShot2's capture alone. The peer is the gdbus command asking KWin the same
// window question over D-Bus, in the same run. `npm run bench -- kde`.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { KWinScripting } from "../src/platform/wayland/kwin.js";
import { openKWinHands } from "../src/platform/wayland/kwin-hands.js";
import {
  benchTools,
  clickMedian,
  screenshotMedian,
  TEXT_ASCII,
  TEXT_UNICODE,
  typingMedian,
} from "./input-steps.js";
import { medianTime } from "./stats.js";

const run = promisify(execFile);
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const TITLE = "KDE Bench";
const ms = (v: number) => `${v.toFixed(1)} ms`;

const timed = (work: () => Promise<unknown>, runs = RUNS) => medianTime(work, runs);

async function main(): Promise<void> {
  const { context, call, find } = benchTools(TITLE);
  const rows: string[] = [];

  const kwin = await KWinScripting.open(process.env, 5000);
  const list = await timed(() => kwin.windows());
  // The peer: KWin's own D-Bus answer about one window (no list exists there), through gdbus.
  const uuid = (await kwin.windows())[0]!.uuid;
  const peer = await timed(() =>
    run("gdbus", [
      "call",
      "--session",
      "--dest",
      "org.kde.KWin",
      "--object-path",
      "/KWin",
      "--method",
      "org.kde.KWin.getWindowInfo",
      uuid,
    ]),
  );
  rows.push(
    `| window list (one KWin script) | ${ms(list)} | ${ms(peer)} (gdbus getWindowInfo, one window) | ${(list / peer).toFixed(2)} |`,
  );
  kwin.close();

  const field = await find({ role: "text", name: "Find" });
  rows.push(`| click a verified ref | ${ms(await clickMedian(call, field.ref, RUNS))} | – | – |`);
  for (const [label, text] of [
    ["type 200 ASCII characters", TEXT_ASCII],
    ["type 200 characters, runs outside KWin's keymap pasted", TEXT_UNICODE],
  ] as const) {
    const m = await typingMedian(call, () => find({ role: "text", name: "First" }), text, Math.min(RUNS, 5));
    rows.push(`| ${label} | ${ms(m)} (${(200 / (m / 1000)).toFixed(0)} chars/s, read back exact) | – | – |`);
  }
  const shot = await screenshotMedian(call, RUNS);
  rows.push(`| full-screen screenshot (${shot.size}, PNG encoded) | ${ms(shot.ms)} | – | – |`);
  const hands = await openKWinHands(process.env);
  const screen = await hands.screen();
  rows.push(
    `| full-screen capture as RGBA (${screen.width}×${screen.height}, ScreenShot2) | ${ms(await timed(() => hands.capture(screen), 5))} | – | – |`,
  );
  await hands.close();

  console.log(
    `# bench/kde · KWin 5.27, headless · medians of ${RUNS} (typing, capture: 5) · node ${process.versions.node}`,
  );
  console.log("| what | deskhand | peer | ratio |");
  console.log("|---|---|---|---|");
  for (const row of rows) console.log(row);
  await context.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
