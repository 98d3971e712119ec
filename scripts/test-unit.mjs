// `npm run test:unit [-- FILE...]`: the unit tests, or the files named, with no desktop and no build,
// each input journaled to a file of its own under a config nobody wrote (as in `npm test`).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const named = process.argv.slice(2);
const files = named.length
  ? named
  : readdirSync("test/unit")
      .filter((f) => f.endsWith(".test.ts"))
      .sort()
      .map((f) => `test/unit/${f}`);
const root = mkdtempSync(join(tmpdir(), "deskhand-unit-"));
const env = {
  ...process.env,
  DESKHAND_AUDIT: join(root, "audit.jsonl"),
  DESKHAND_CONFIG: join(root, "none.json"),
};
delete env.DESKHAND_CEILING;
const run = spawnSync(process.execPath, ["--import", "tsx", "--test", "--test-force-exit", ...files], {
  env,
  stdio: "inherit",
});
process.exit(run.status ?? 1);
