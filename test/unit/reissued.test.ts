// An element the app hands out anew (a new handle for the same role, name and place, as LibreOffice's
// cells are when a menu opens) is neither added nor removed, and its ref follows it.
import assert from "node:assert/strict";
import { it } from "node:test";
import { diffEntries } from "../../src/core/diff.js";
import type { FlatEntry } from "../../src/core/flatten.js";
import { RefStore } from "../../src/core/refs.js";
import type { Role } from "../../src/platform/roles.js";
import type { RawNode } from "../../src/platform/types.js";

const entry = (handle: string, role: Role, name: string, path: number[]): FlatEntry => ({
  node: {
    handle,
    role,
    name,
    description: "",
    interfaces: ["Accessible"],
    states: ["enabled", "showing", "visible"],
    childCount: 0,
    indexInParent: path.at(-1) ?? 0,
    children: [],
    unread: [],
  } as RawNode,
  depth: path.length,
  path,
  windowId: 1,
});

it("a cell re-issued at its place is not a removal and an addition; a new one elsewhere is", async () => {
  const before = [entry(":1.2/a", "table cell", "C1", [0, 2]), entry(":1.2/b", "table cell", "D1", [0, 3])];
  const after = [entry(":1.2/x", "table cell", "C1", [0, 2]), entry(":1.2/y", "table cell", "E1", [0, 3])];
  const changes = await diffEntries(before, after, new Set());
  assert.deepEqual(
    changes.reissued.map(([was, now]) => [was.node.handle, now.node.handle]),
    [[":1.2/a", ":1.2/x"]],
  );
  assert.deepEqual(
    changes.added.map((e) => e.node.name),
    ["E1"],
  );
  assert.deepEqual(
    changes.removed.map((e) => e.node.name),
    ["D1"],
  );
});

it("a ref follows its element to the handle it was re-issued under", () => {
  const refs = new RefStore("while-verified");
  const fingerprint = {
    role: "table cell",
    name: "C1",
    indexInParent: 2,
    bounds: null,
    path: [0, 2],
    windowId: 1,
  };
  const ref = refs.assign("s1", ":1.2/a", fingerprint);
  refs.rebind(":1.2/a", ":1.2/x");
  assert.equal(refs.assign("s2", ":1.2/x", fingerprint), ref);
  assert.equal(refs.lookup(ref).handle, ":1.2/x");
});
