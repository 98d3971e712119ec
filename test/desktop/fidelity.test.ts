// deskhand's full snapshot of a window must agree with a plain pyatspi walk of the same window, node for
// node, on role, name and child count.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { SNAPSHOT_CEILINGS, SNAPSHOT_DEFAULTS } from "../../src/core/limits.js";
import { RefStore } from "../../src/core/refs.js";
import { type SnapshotElement, SnapshotStore } from "../../src/core/snapshot.js";
import type { AtspiBackend } from "../../src/platform/atspi/backend.js";
import { roleNumber } from "../../src/platform/atspi/roles.js";
import { connect, pyatspiWalk, TITLES, windowTitled } from "./helpers.js";

async function fullSnapshot(store: SnapshotStore, windowId: number): Promise<SnapshotElement[]> {
  const limits = {
    ...SNAPSHOT_DEFAULTS,
    maxDepth: SNAPSHOT_CEILINGS.maxDepth,
    maxNodes: SNAPSHOT_CEILINGS.maxNodes,
    walkTables: true,
    timeoutMs: 30_000,
  };
  let page = await store.take({ kind: "window", id: windowId }, limits);
  const elements = [...page.elements];
  while (page.cursor) {
    page = await store.continue(page.cursor);
    elements.push(...page.elements);
  }
  const structural = page.truncatedBy.filter((cut) => cut !== "maxText");
  assert.deepEqual(structural, [], "a full snapshot leaves no element out");
  return elements;
}

describe("fidelity against pyatspi", () => {
  let backend: AtspiBackend;
  let store: SnapshotStore;
  before(async () => {
    backend = await connect();
    store = new SnapshotStore(async () => backend, new RefStore("latest-snapshot"));
  });
  after(() => backend.close());

  for (const [toolkit, title] of Object.entries(TITLES)) {
    it(`${toolkit}: every node agrees on role, name and child count`, async () => {
      const window = await windowTitled(backend, title);
      const ours = await fullSnapshot(store, window.id);
      const peer = await pyatspiWalk(window.pid!, ours[0]!.index);
      assert.ok(ours.length > 50, `${toolkit} has a real tree (${ours.length} nodes)`);
      const differences: string[] = [];
      const count = Math.max(ours.length, peer.nodes.length);
      for (let i = 0; i < count && differences.length < 10; i++) {
        const mine = ours[i];
        const theirs = peer.nodes[i];
        if (!mine || !theirs) {
          differences.push(`#${i}: only ${mine ? "deskhand" : "pyatspi"} has a node here`);
          continue;
        }
        const [depth, role, name, childCount] = theirs;
        const expected = { depth, role, name, childCount };
        const actual = {
          depth: mine.depth,
          role: roleNumber(mine.role),
          name: mine.name,
          childCount: mine.childCount,
        };
        if (JSON.stringify(expected) !== JSON.stringify(actual)) {
          differences.push(`#${i}: pyatspi ${JSON.stringify(expected)} deskhand ${JSON.stringify(actual)}`);
        }
      }
      assert.deepEqual(
        differences,
        [],
        `${ours.length} deskhand nodes vs ${peer.nodes.length} pyatspi nodes`,
      );
    });
  }
});
