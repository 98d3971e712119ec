// deskhand's full snapshot of each toolkit's window must agree with a plain pyatspi walk of the same
// window, node for node, on depth, role, name and child count. Run once per toolkit, after the contract
// suite, in the same sandbox (see scripts/run-tests.mjs). Neither side walks a child list of more than
// 5,000 (LibreOffice's sheet has 2^34 cells).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { SNAPSHOT_CEILINGS, SNAPSHOT_DEFAULTS } from "../../src/core/limits.js";
import { RefStore } from "../../src/core/refs.js";
import { type SnapshotElement, SnapshotStore } from "../../src/core/snapshot.js";
import type { AtspiBackend } from "../../src/platform/atspi/backend.js";
import { roleNumber } from "../../src/platform/atspi/roles.js";
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
    const limits = {
      ...SNAPSHOT_DEFAULTS,
      maxDepth: SNAPSHOT_CEILINGS.maxDepth,
      maxNodes: SNAPSHOT_CEILINGS.maxNodes,
      walkTables: true,
      timeoutMs: 30_000,
    };
    let page = await store.take({ kind: "title", glob: profile.title }, limits);
    const ours: SnapshotElement[] = [...page.elements];
    while (page.cursor) {
      page = await store.continue(page.cursor);
      ours.push(...page.elements);
    }
    const structural = page.truncatedBy.filter((cut) => cut !== "maxText" && cut !== "hugeChildCount");
    assert.deepEqual(structural, [], "a full snapshot leaves nothing out but huge child lists");
    const window = page.windows[0]!;
    const peer = await pyatspiWalk(window.pid!, ours[0]!.index);
    const differences: string[] = [];
    for (let i = 0; i < Math.max(ours.length, peer.nodes.length) && differences.length < 10; i++) {
      const mine = ours[i];
      const theirs = peer.nodes[i];
      if (!mine || !theirs) {
        differences.push(`#${i}: only ${mine ? "deskhand" : "pyatspi"} has a node here`);
        continue;
      }
      const [depth, role, nodeName, childCount] = theirs;
      const expected = JSON.stringify({ depth, role, name: nodeName, childCount });
      const actual = JSON.stringify({
        depth: mine.depth,
        role: roleNumber(mine.role),
        name: mine.name,
        childCount: mine.childCount,
      });
      if (expected !== actual) differences.push(`#${i}: pyatspi ${expected} deskhand ${actual}`);
    }
    assert.deepEqual(differences, [], `${ours.length} deskhand nodes vs ${peer.nodes.length} pyatspi nodes`);
    assert.ok(ours.length > 20, `a real tree (${ours.length} nodes)`);
  });
});
