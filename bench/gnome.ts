// bench/gnome: bench/input's figures on GNOME Shell, headless (`sandbox --gnome`, the GTK 3 editor
// fixture), all through deskhand's Shell extension: a window list, a click on a verified ref, typing
// 200 characters (keysyms by the Shell's virtual keyboard; text outside the keymap committed run by
// run) read back each time, a full-screen screenshot, and the Shell's capture alone. The peer is the
// gdbus command asking the Shell for its windows over D-Bus in the same run (its own Introspect
// interface where the Shell allows it, else the extension's list). `npm run bench -- gnome`.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { SHELL_NAME, SHELL_PATH, TOKEN_FILE } from "../src/platform/wayland/gnome-extension.js";
import { openGnomeHands } from "../src/platform/wayland/gnome-hands.js";
import { GnomeShell } from "../src/platform/wayland/gnome-shell.js";
import { benchTools, compositorRows } from "./input-steps.js";
import { medianTime } from "./stats.js";

const run = promisify(execFile);
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const TITLE = "GNOME Bench";
const ms = (v: number) => `${v.toFixed(1)} ms`;

const timed = (work: () => Promise<unknown>, runs = RUNS) => medianTime(work, runs);

/** gdbus asking the Shell for its windows: its Introspect where allowed, else deskhand's extension. */
async function peer(): Promise<{ label: string; ms: number }> {
  const introspect = [
    "call",
    "--session",
    "--dest",
    "org.gnome.Shell",
    "--object-path",
    "/org/gnome/Shell/Introspect",
    "--method",
    "org.gnome.Shell.Introspect.GetWindows",
  ];
  if (
    await run("gdbus", introspect).then(
      () => true,
      () => false,
    )
  )
    return { label: "gdbus Introspect.GetWindows", ms: await timed(() => run("gdbus", introspect)) };
  const token = readFileSync(join(process.env.XDG_RUNTIME_DIR ?? "", TOKEN_FILE), "utf8");
  const extension = [
    "call",
    "--session",
    "--dest",
    SHELL_NAME,
    "--object-path",
    SHELL_PATH,
    "--method",
    `${SHELL_NAME}.Windows`,
    token,
  ];
  return {
    label: "gdbus, the extension's list (the Shell refused Introspect)",
    ms: await timed(() => run("gdbus", extension)),
  };
}

async function main(): Promise<void> {
  const { context, call, find } = benchTools(TITLE);
  const rows: string[] = [];

  const shell = await GnomeShell.open(process.env, 5000);
  const list = await timed(() => shell.windows());
  shell.close();
  const other = await peer();
  rows.push(
    `| window list (the extension) | ${ms(list)} | ${ms(other.ms)} (${other.label}) | ${(list / other.ms).toFixed(2)} |`,
  );

  rows.push(
    ...(await compositorRows(call, find, RUNS, () => openGnomeHands(process.env), {
      outside: "the keymap committed",
      capture: "the Shell's PNG decoded",
    })),
  );

  console.log(
    `# bench/gnome · GNOME Shell 43, headless · medians of ${RUNS} (typing, capture: 5) · node ${process.versions.node}`,
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
