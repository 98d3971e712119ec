// The state file `sandbox start` polls for: written whole, and a reader that meets a file still being
// written (as readers did under load) waits for the rest instead of failing on half a JSON text.
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { readState, type SandboxState, writeState } from "../../src/platform/sandbox/state.js";

const state: SandboxState = {
  supervisorPid: 4242,
  root: "/tmp/deskhand-sandbox-x",
  env: { DISPLAY: ":9" },
  exports: { DISPLAY: ":9" },
  apps: [],
};

describe("sandbox state file", () => {
  it("a half-written file is read again until it is whole", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "deskhand-state-")), "sandbox-x.json");
    const text = JSON.stringify(state);
    writeFileSync(file, text.slice(0, 20));
    setTimeout(() => writeFileSync(file, text), 200);
    assert.deepEqual(await readState(file), state);
  });

  it("is written whole, with no temporary left beside it; none is undefined", async () => {
    const dir = mkdtempSync(join(tmpdir(), "deskhand-state-"));
    const file = join(dir, "sandbox-x.json");
    assert.equal(await readState(file), undefined);
    await writeState(file, state);
    assert.deepEqual(await readState(file), state);
    assert.deepEqual(readdirSync(dir), ["sandbox-x.json"]);
  });

  it("a file that never becomes whole is an error naming it", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "deskhand-state-")), "sandbox-x.json");
    writeFileSync(file, "{");
    await assert.rejects(readState(file), /sandbox-x\.json is not whole JSON/);
  });
});
