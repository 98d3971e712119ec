// The desktop suite's runner inside its sandbox: each test file in turn, its whole output printed at
// once as it ends, so a long suite shows its progress file by file.
// Usage: node scripts/test-worker.mjs NODE_TEST_ARGS... -- FILE...
import { spawnSync } from "node:child_process";

const args = process.argv.slice(2);
const split = args.indexOf("--");
const testArgs = args.slice(0, split);
const files = args.slice(split + 1);

let status = 0;
for (const file of files) {
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
