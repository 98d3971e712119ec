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

/** Minimizes, or maps again, each idle window as the file uses it or not (xdotool; best effort). */
function placeIdle(file) {
  const source = idle.length ? sourceOf(file) : "";
  for (const { title, named } of idle) {
    const used = named.some((word) => source.includes(word));
    const xdotool = (...command) => spawnSync("xdotool", command, { encoding: "utf8", timeout: 5000 });
    for (const id of xdotool("search", "--name", `^${title}$`).stdout?.split("\n").filter(Boolean) ?? [])
      xdotool(used ? "windowmap" : "windowminimize", "--sync", id);
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
