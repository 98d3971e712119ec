// deskhand's full snapshot of a window must agree with a plain pyatspi walk of the same window, node for
// node, on role, name and child count.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { RefStore } from "../../src/core/refs.js";
import { type SnapshotElement, SnapshotStore } from "../../src/core/snapshot.js";
import type { AtspiBackend } from "../../src/platform/atspi/backend.js";
import { fullSnapshot, treeDifferences } from "./fidelity-check.js";
import { connect, pyatspiWalk, TITLES, windowTitled } from "./helpers.js";

describe("fidelity against pyatspi: the tree, and the bounds", () => {
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
      const { elements: ours } = await fullSnapshot(store, { kind: "window", id: window.id });
      const peer = await pyatspiWalk(window.pid!, ours[0]!.index);
      assert.ok(ours.length > 50, `${toolkit} has a real tree (${ours.length} nodes)`);
      assert.deepEqual(
        treeDifferences(ours, peer, { gtk4: toolkit === "gtk4" }),
        [],
        `${ours.length} deskhand nodes vs ${peer.nodes.length} pyatspi nodes`,
      );
    });
  }

  // GTK 4.8 reports no `showing`: deskhand does not ask the extents of what lies below an element with no
  // area, and gives no bounds to an element with none. The peer asks every element; nothing with an area
  // may have been left out, and the second read (which asks early for what had an area) must agree.
  it("gtk4: every visible element with an area has its bounds; only those without go without", async () => {
    const window = await windowTitled(backend, TITLES.gtk4);
    const { elements: first } = await fullSnapshot(store, { kind: "window", id: window.id });
    const { elements: again } = await fullSnapshot(store, { kind: "window", id: window.id });
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
