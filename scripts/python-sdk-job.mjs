// The Python SDK job: test/python-sdk/clients.test.ts in a sandbox with the Swing fixture, each of
// docs/clients.md's configurations driven through the official Python MCP SDK. The SDK is on PyPI,
// which CI's machines do not reach, so this runs by hand where DESKHAND_PYTHON names a python3 that
// has it (`python3 -m venv v && v/bin/pip install mcp`), and records what it passed on (the hash of
// its inputs, the date and the SDK's version) in docs/ledger/python-sdk.json.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SWING_FIXTURE } from "./swing-fixture.mjs";

const RECORD = "docs/ledger/python-sdk.json";
const INPUTS = ["docs/clients.md", "test/desktop/client-snippets.ts", "package.json", "package-lock.json"];
const python = process.env.DESKHAND_PYTHON;
if (!python) {
  console.log(
    "# python SDK job: set DESKHAND_PYTHON to a python3 with the official MCP SDK (pip install mcp)",
  );
  process.exit(2);
}
const hash = createHash("sha256");
const folder = readdirSync("test/python-sdk").map((f) => join("test/python-sdk", f));
for (const file of [...INPUTS, ...folder].sort()) hash.update(file).update(readFileSync(file));
const sdk = execFileSync(python, ["-c", "import importlib.metadata as m; print(m.version('mcp'))"], {
  encoding: "utf8",
}).trim();
const started = Date.now();
const run = spawnSync(
  process.execPath,
  [
    "dist/frontends/cli/main.js",
    "sandbox",
    "run",
    "--app",
    SWING_FIXTURE,
    "--",
    process.execPath,
    "--import",
    "tsx",
    "--test",
    "--test-force-exit",
    "test/python-sdk/clients.test.ts",
  ],
  { stdio: "inherit", env: { ...process.env, DESKHAND_PYTHON: python } },
);
const seconds = Math.round((Date.now() - started) / 1000);
if (run.status !== 0) {
  console.log(`# python SDK job: failed in ${seconds} s (mcp ${sdk})`);
  process.exit(run.status ?? 1);
}
const record = { sha256: hash.digest("hex"), date: new Date().toISOString().slice(0, 10), sdk: `mcp ${sdk}` };
writeFileSync(RECORD, `${JSON.stringify(record, null, 1)}\n`);
console.log(`# python SDK job: passed in ${seconds} s with mcp ${sdk}; ${RECORD} records it`);
