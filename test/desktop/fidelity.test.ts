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

describe("bounds against pyatspi's extents", () => {
  let backend: AtspiBackend;
  let store: SnapshotStore;
  before(async () => {
    backend = await connect();
    store = new SnapshotStore(async () => backend, new RefStore("latest-snapshot"));
  });
  after(() => backend.close());

  // GTK 4.8 reports no `showing`: deskhand does not ask the extents of what lies below an element with no
  // area, and gives no bounds to an element with none. The peer asks every element; nothing with an area
  // may have been left out, and the second read (which asks early for what had an area) must agree.
  it("gtk4: every visible element with an area has its bounds; only those without go without", async () => {
    const window = await windowTitled(backend, TITLES.gtk4);
    const first = await fullSnapshot(store, window.id);
    const again = await fullSnapshot(store, window.id);
    const peer = await pyatspiWalk(window.pid!, first[0]!.index, ["--extents"]);
    assert.equal(peer.nodes.length, first.length, "the same tree");
    const offsets = new Map<string, number>();
    const wrong: string[] = [];
    let withheld = 0;
    first.forEach((mine, i) => {
      const extents = peer.nodes[i]![4] ?? null;
      const hasArea = extents !== null && extents[2] > 0 && extents[3] > 0;
      const label = `#${i} ${mine.role} "${mine.name}" deskhand ${JSON.stringify(mine.bounds)} pyatspi ${JSON.stringify(extents)}`;
      if (mine.bounds) {
        if (!hasArea || mine.bounds.width !== extents[2] || mine.bounds.height !== extents[3])
          wrong.push(label);
        else {
          const offset = `${mine.bounds.x - extents[0]},${mine.bounds.y - extents[1]}`;
          offsets.set(offset, (offsets.get(offset) ?? 0) + 1);
        }
      } else if (hasArea && mine.states?.includes("visible")) {
        wrong.push(label);
      } else if (extents !== null) {
        withheld++;
      }
    });
    assert.deepEqual(wrong.slice(0, 10), [], `${wrong.length} elements disagree`);
    // The window's origin is added to GTK 4.8's window-relative extents: one offset for all, but for
    // the widget factory's spinners, which move between two reads.
    const placed = [...offsets.values()].reduce((a, b) => a + b, 0);
    const [, common] = [...offsets].sort((a, b) => b[1] - a[1])[0]!;
    assert.ok(common >= placed - 4, `one window offset for the elements: ${JSON.stringify([...offsets])}`);
    assert.ok(withheld > 300, `the hidden pages' elements go without bounds (${withheld})`);
    // Which elements have bounds, and their sizes (the spinners move): the early asking changes neither.
    const sizes = (elements: SnapshotElement[]) =>
      elements.map((e) => e.bounds && [e.bounds.width, e.bounds.height]);
    assert.deepEqual(sizes(again), sizes(first), "the second read agrees with the first");
  });
});
