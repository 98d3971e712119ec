// One of the desktop suite's workers: inside a sandbox of its own, it takes the next test file nobody
// has taken (a directory made under QUEUE: mkdir is atomic, so two workers never take the same file),
// runs it, and prints its whole output at once, so two workers' files never interleave line by line.
// Usage: node scripts/test-worker.mjs QUEUE -- NODE_TEST_ARGS... -- FILE...
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";

const [queue, ...rest] = process.argv.slice(2);
const split = rest.indexOf("--", 1);
const testArgs = rest.slice(1, split);
const files = rest.slice(split + 1);

function claim(index) {
  try {
    mkdirSync(join(queue, String(index)));
    return true;
  } catch {
    return false;
  }
}

let status = 0;
for (const [index, file] of files.entries()) {
  if (!claim(index)) continue;
  const started = Date.now();
  const run = spawnSync(process.execPath, [...testArgs, file], {
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  const seconds = Math.round((Date.now() - started) / 1000);
  const failed = run.status !== 0;
  if (failed) status = 1;
  process.stdout.write(
    `\n# ── ${file} · ${seconds} s on ${process.env.DISPLAY ?? process.env.WAYLAND_DISPLAY}${failed ? ` · FAILED (exit ${run.status ?? run.signal})` : ""}\n${run.stdout}${run.stderr}`,
  );
}
process.exit(status);
