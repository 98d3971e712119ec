// The image job (.ci/image): builds deskhand's desktop image and runs test/image/pods.test.ts (two
// pods under `podman kube play`, each driven by an MCP client). An image build takes minutes, more
// than `npm test`'s CI budget holds, so the job runs only where its inputs changed since a run passed
// (their hash in docs/ledger/image.json, written when it passes), or with DESKHAND_IMAGE_JOB=1.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { imageHash } from "../image/inputs-hash.mjs";

const RECORD = "docs/ledger/image.json";
const hash = imageHash("job");
const recorded = existsSync(RECORD) ? JSON.parse(readFileSync(RECORD, "utf8")) : {};
if (recorded.sha256 === hash && process.env.DESKHAND_IMAGE_JOB !== "1") {
  console.log(
    `# image job: its inputs are as when it passed on ${recorded.date} (${RECORD}); DESKHAND_IMAGE_JOB=1 runs it`,
  );
  process.exit(0);
}
const started = Date.now();
const run = spawnSync(
  process.execPath,
  ["--import", "tsx", "--test", "--test-force-exit", "test/image/pods.test.ts"],
  {
    stdio: "inherit",
  },
);
const seconds = Math.round((Date.now() - started) / 1000);
if (run.status !== 0) {
  console.log(`# image job: failed in ${seconds} s`);
  process.exit(run.status ?? 1);
}
writeFileSync(
  RECORD,
  `${JSON.stringify({ sha256: hash, date: new Date().toISOString().slice(0, 10) }, null, 1)}\n`,
);
console.log(`# image job: passed in ${seconds} s; ${RECORD} records its inputs`);
