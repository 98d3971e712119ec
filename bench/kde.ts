// bench/kde: bench/input's figures on KDE Plasma's KWin, headless (`sandbox --kde`, the GTK 3 editor
// fixture): a window list (one KWin script), a click on a verified ref, typing 200 characters (ASCII
// by KWin's fake input; text outside its keymap pasted run by run) read back each time, a full-screen
// screenshot, and ScreenShot2's capture alone. The peer is the gdbus command asking KWin the same
// window question over D-Bus, in the same run. `npm run bench -- kde`.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { KWinScripting } from "../src/platform/wayland/kwin.js";
import { openKWinHands } from "../src/platform/wayland/kwin-hands.js";
import { benchTools, compositorRows } from "./input-steps.js";
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

  rows.push(
    ...(await compositorRows(call, find, RUNS, () => openKWinHands(process.env), {
      outside: "KWin's keymap pasted",
      capture: "ScreenShot2",
    })),
  );

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
