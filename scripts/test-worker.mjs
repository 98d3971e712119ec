// The desktop suite's runner inside its sandbox: each test file in turn, its whole output printed at
// once as it ends, so a long suite shows its progress file by file.
// Usage: node scripts/test-worker.mjs NODE_TEST_ARGS... -- FILE...
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

const args = process.argv.slice(2);
const split = args.indexOf("--");
const testArgs = args.slice(0, split);
const files = args.slice(split + 1);

// Windows of the shared desktop that draw all the while, minimized while a file that does not name
// them runs (DESKHAND_IDLE_WINDOWS: [{ title, named: [words a file using it holds] }]). GTK 4's widget
// factory pulses a busy progress bar and sets its size hints on every frame: it, the window manager
// and the X server took a fifth of a CPU with nothing asked of them, beside the tests.
const idle = JSON.parse(process.env.DESKHAND_IDLE_WINDOWS ?? "[]");

/**
 * A test file's text and that of the helpers it imports from its own folder, but helpers.ts, which
 * names every window of the shared desktop for all of them.
 */
function sourceOf(file) {
  const text = readFileSync(file, "utf8");
  const helpers = [...text.matchAll(/from "(\.\/[^"]+)\.js"/g)]
    .filter((m) => m[1] !== "./helpers")
    .map((m) => join(dirname(file), `${m[1]}.ts`))
    .filter(existsSync);
  return [text, ...helpers.map((h) => readFileSync(h, "utf8"))].join("\n");
}

const xdotool = (...command) => spawnSync("xdotool", command, { encoding: "utf8", timeout: 5000 });
/** The windows minimized here, by title: only they are mapped again. */
const minimized = new Map();

/**
 * Minimizes each idle window a file does not use, and maps again those it minimized for one that
 * does (xdotool; best effort). Only windows on screen are minimized: GTK 3 keeps an unmapped leader
 * window under its app's title, and mapping that showed a second window of the same title.
 */
function placeIdle(file) {
  const source = idle.length ? sourceOf(file) : "";
  for (const { title, named } of idle) {
    if (named.some((word) => source.includes(word))) {
      for (const id of minimized.get(title) ?? []) xdotool("windowmap", "--sync", id);
      minimized.delete(title);
    } else if (!minimized.has(title)) {
      const shown = xdotool("search", "--onlyvisible", "--name", `^${title}$`).stdout?.split("\n");
      const ids = shown?.filter(Boolean) ?? [];
      for (const id of ids) xdotool("windowminimize", "--sync", id);
      minimized.set(title, ids);
    }
  }
}

let status = 0;
for (const file of files) {
  placeIdle(file);
  const started = Date.now();
  const run = spawnSync(process.execPath, [...testArgs, file], {
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  const seconds = Math.round((Date.now() - started) / 1000);
  const failed = run.status !== 0;
  if (failed) status = 1;
  process.stdout.write(
    `\n# ── ${file} · ${seconds} s${failed ? ` · FAILED (exit ${run.status ?? run.signal})` : ""}\n${run.stdout}${run.stderr}`,
  );
}
process.exit(status);
