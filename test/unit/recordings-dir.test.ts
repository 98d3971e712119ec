// Recordings are kept beside the journal, wherever DESKHAND_AUDIT or the config puts it (the README's
// word); DESKHAND_RECORDINGS still names a folder of its own.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { loadPolicy } from "../../src/safety/policy.js";
import { recordingsDir } from "../../src/tools/recording.js";

describe("where recordings are kept", () => {
  it("beside the journal the policy names, else where DESKHAND_RECORDINGS says", () => {
    const env = {
      HOME: "/home/u",
      DESKHAND_AUDIT: "/srv/journal/audit.jsonl",
      DESKHAND_CONFIG: "/nonexistent.json",
    };
    assert.equal(recordingsDir(env, loadPolicy(env).auditPath), "/srv/journal/recordings");
    const own = { ...env, DESKHAND_RECORDINGS: "/srv/recordings" };
    assert.equal(recordingsDir(own, loadPolicy(own).auditPath), "/srv/recordings");
    const plain = { HOME: "/home/u", XDG_STATE_HOME: "/home/u/state", DESKHAND_CONFIG: "/nonexistent.json" };
    assert.equal(recordingsDir(plain, loadPolicy(plain).auditPath), "/home/u/state/deskhand/recordings");
  });
});
