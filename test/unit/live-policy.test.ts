// The config read again when it changes, for every context at once; one that turns invalid keeps
// the safer of old and new, never the looser.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { ConfigError, policyInForce } from "../../src/safety/policy.js";

function configAt(): { env: NodeJS.ProcessEnv; write: (text: string) => void } {
  const dir = mkdtempSync(join(tmpdir(), "deskhand-live-policy-"));
  const path = join(dir, "config.json");
  const env = { DESKHAND_CONFIG: path, DESKHAND_AUDIT: join(dir, "audit.jsonl") };
  return { env, write: (text) => writeFileSync(path, text) };
}

const approveAll = { reason: "any" };
const approveValidation = { reason: "validation", tool: "click" };

describe("the config in force", () => {
  it("an edit applies at the next read: a lowered ceiling, a removed pre-approval", () => {
    const { env, write } = configAt();
    write(JSON.stringify({ ceiling: "L3", preapprove: [approveAll, approveValidation] }));
    const first = policyInForce(env);
    assert.equal(first.ceiling, "L3");
    assert.equal(first.preapprovals.length, 2);
    write(JSON.stringify({ ceiling: "L1", preapprove: [approveValidation] }));
    // Another context naming the same file sees the same edit (shared, not read once per session).
    const now = policyInForce({ ...env });
    assert.equal(now.ceiling, "L1");
    assert.equal(now.ceilingSource, "config");
    assert.deepEqual(now.preapprovals, [approveValidation]);
    assert.equal(now.configProblem, undefined);
  });

  it("a config that turns invalid keeps the lower ceiling and only pre-approvals both list", () => {
    const { env, write } = configAt();
    write(JSON.stringify({ ceiling: "L3", preapprove: [approveAll, approveValidation] }));
    assert.equal(policyInForce(env).ceiling, "L3");
    // Lower ceiling, one pre-approval gone, and an unknown key that makes the file invalid.
    write(JSON.stringify({ ceiling: "L2", preapprove: [approveValidation], typo: true }));
    const lowered = policyInForce(env);
    assert.equal(lowered.ceiling, "L2", "the new file's lower ceiling applies");
    assert.deepEqual(lowered.preapprovals, [approveValidation]);
    assert.match(lowered.configProblem ?? "", /typo/);
    assert.match(lowered.configProblem ?? "", /safer/);
    // A higher ceiling in an invalid file is not taken; not even JSON: no pre-approvals at all.
    write(JSON.stringify({ ceiling: "L4", preapprove: [approveAll, approveValidation], typo: true }));
    assert.equal(policyInForce(env).ceiling, "L2");
    write("{ not json");
    const broken = policyInForce(env);
    assert.equal(broken.ceiling, "L2");
    assert.deepEqual(broken.preapprovals, []);
    assert.match(broken.configProblem ?? "", /not JSON/);
    // Fixed: read as written, the problem gone.
    write(JSON.stringify({ ceiling: "L3" }));
    const fixed = policyInForce(env);
    assert.equal(fixed.ceiling, "L3");
    assert.equal(fixed.configProblem, undefined);
  });

  it("a config removed mid-session keeps its ceiling and no pre-approvals until a file is back", () => {
    const { env, write } = configAt();
    write(JSON.stringify({ ceiling: "L1", preapprove: [approveAll] }));
    assert.equal(policyInForce(env).ceiling, "L1");
    rmSync(env.DESKHAND_CONFIG!);
    const gone = policyInForce(env);
    assert.equal(gone.ceiling, "L1", "not the default L3");
    assert.deepEqual(gone.preapprovals, []);
    assert.match(gone.configProblem ?? "", /removed/);
    write(JSON.stringify({ ceiling: "L2" }));
    assert.equal(policyInForce(env).ceiling, "L2");
  });

  it("a config invalid from the start refuses until it is fixed", () => {
    const { env, write } = configAt();
    write("{ not json");
    assert.throws(() => policyInForce(env), ConfigError);
    assert.throws(() => policyInForce(env), ConfigError, "still refused while unchanged");
    write(JSON.stringify({ ceiling: "L1" }));
    assert.equal(policyInForce(env).ceiling, "L1");
  });
});
