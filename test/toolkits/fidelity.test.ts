// deskhand's full snapshot of each toolkit's window must agree with a plain pyatspi walk of the same
// window, node for node, on depth, role, name and child count. Run once per toolkit, after the contract
// suite, in the same sandbox (see scripts/run-tests.mjs). Neither side walks a child list of more than
// 5,000 (LibreOffice's sheet has 2^34 cells).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { RefStore } from "../../src/core/refs.js";
import { SnapshotStore } from "../../src/core/snapshot.js";
import type { AtspiBackend } from "../../src/platform/atspi/backend.js";
import { fullSnapshot, treeDifferences } from "../desktop/fidelity-check.js";
import { connect, pyatspiWalk } from "../desktop/helpers.js";
import { PROFILES } from "./profiles.js";

const name = process.env.DESKHAND_TOOLKIT ?? "";
const profile = PROFILES[name];
if (!profile) throw new Error(`DESKHAND_TOOLKIT=${name} is not one of ${Object.keys(PROFILES).join(", ")}`);

describe(`fidelity against pyatspi: ${profile.label}`, () => {
  let backend: AtspiBackend;
  let store: SnapshotStore;
  before(async () => {
    backend = await connect();
    store = new SnapshotStore(async () => backend, new RefStore("latest-snapshot"));
  });
  after(() => backend.close());

  it("every node agrees on depth, role, name and child count", async () => {
    // The two walks are seconds apart, and an app may change meanwhile (Chromium renames its profile
    // button "You" to "Sign in to Chromium?" after start): a real disagreement shows in every pair.
    let ours: Awaited<ReturnType<typeof fullSnapshot>>["elements"] = [];
    let differences: string[] = [];
    let counts = "";
    for (let attempt = 0; attempt < 3; attempt++) {
      if (attempt > 0) await sleep(1000);
      const snapshot = await fullSnapshot(store, { kind: "title", glob: profile.title }, [
        "maxText",
        "hugeChildCount",
      ]);
      ours = snapshot.elements;
      const peer = await pyatspiWalk(snapshot.windows[0]!.pid!, ours[0]!.index);
      differences = treeDifferences(ours, peer, { gtk4: name === "gtk4" });
      counts = `${ours.length} deskhand nodes vs ${peer.nodes.length} pyatspi nodes`;
      if (differences.length === 0) break;
    }
    assert.deepEqual(differences, [], counts);
    assert.ok(ours.length > 20, `a real tree (${ours.length} nodes)`);
  });
});
