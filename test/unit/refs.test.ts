import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { RefStore } from "../../src/core/refs.js";

const print = { role: "push button", name: "OK", indexInParent: 0, bounds: null, path: [0], windowId: 1 };

describe("refs", () => {
  it("latest-snapshot: an older snapshot's ref is unknown, with the reason", () => {
    const refs = new RefStore("latest-snapshot");
    const s1 = refs.newSnapshot();
    const old = refs.assign(s1, "h1", print);
    assert.equal(old, "s1:e1");
    const s2 = refs.newSnapshot();
    const fresh = refs.assign(s2, "h1", print);
    assert.equal(fresh, "s2:e1");
    assert.throws(
      () => refs.lookup(old),
      (e: Error & { code?: string }) => e.code === "unknown_ref" && /replaced/.test(e.message),
    );
    assert.equal(refs.lookup(fresh).handle, "h1");
  });

  it("while-verified: a ref outlives later snapshots and is reused while role and name hold", () => {
    const refs = new RefStore("while-verified");
    const first = refs.assign(refs.newSnapshot(), "h1", print);
    const s2 = refs.newSnapshot();
    assert.equal(refs.assign(s2, "h1", { ...print, bounds: { x: 1, y: 1, width: 2, height: 2 } }), first);
    assert.deepEqual(refs.lookup(first).fingerprint.bounds, { x: 1, y: 1, width: 2, height: 2 });
    const renamed = refs.assign(s2, "h1", { ...print, name: "Cancel" });
    assert.notEqual(renamed, first, "a renamed element gets a new ref");
    assert.equal(refs.lookup(first).fingerprint.name, "OK", "the old ref keeps what it saw");
  });

  it("malformed and never-issued refs are unknown, each with its own reason", () => {
    const refs = new RefStore("latest-snapshot");
    assert.throws(() => refs.lookup("e12"), /look like s3:e12/);
    assert.throws(() => refs.lookup("s9:e1"), /no snapshot with that id/);
    refs.assign(refs.newSnapshot(), "h", print);
    assert.throws(() => refs.lookup("s1:e99"), /no element with that number/);
  });

  it("forgets the oldest refs past its capacity", () => {
    const refs = new RefStore("while-verified", 3);
    const s = refs.newSnapshot();
    const made = [1, 2, 3, 4].map((i) => refs.assign(s, `h${i}`, { ...print, name: `n${i}` }));
    assert.equal(refs.size, 3);
    assert.throws(() => refs.lookup(made[0]!), /unknown|forgotten/);
    assert.equal(refs.lookup(made[3]!).handle, "h4");
  });
});

/** The push button `h` as it is read now, for comparing with what was seen. */
const seenNow = (name: string, bounds: { x: number; y: number; width: number; height: number }) => ({
  handle: "h",
  role: "push button" as const,
  name,
  description: undefined,
  states: [],
  interfaces: [],
  childCount: 0,
  indexInParent: 0,
  children: [],
  unread: [],
  bounds,
});

describe("verification", () => {
  it("an element with no place on screen when seen, and one now, is the same element; a move is not", async () => {
    const { differences } = await import("../../src/core/verify.js");
    const entry = { handle: "h", fingerprint: { ...print, bounds: null } };
    const node = seenNow("OK", { x: 5, y: 5, width: 10, height: 10 });
    assert.deepEqual(differences(entry as never, node), []);
    const placed = { handle: "h", fingerprint: { ...print, bounds: { x: 1, y: 1, width: 10, height: 10 } } };
    assert.deepEqual(
      differences(placed as never, node).map((d) => d.field),
      ["bounds"],
    );
  });

  it('a name filled in since ("" then "Next page") is the same element; a name changed is not', async () => {
    const { differences } = await import("../../src/core/verify.js");
    const bounds = { x: 5, y: 5, width: 10, height: 10 };
    const node = (name: string) => seenNow(name, bounds);
    const unnamed = { handle: "h", fingerprint: { ...print, name: "", bounds } };
    assert.deepEqual(differences(unnamed as never, node("Next page")), []);
    const named = { handle: "h", fingerprint: { ...print, name: "Back", bounds } };
    assert.deepEqual(
      differences(named as never, node("Next page")).map((d) => d.field),
      ["name"],
    );
    const moved = { handle: "h", fingerprint: { ...print, name: "", bounds: { ...bounds, x: 50 } } };
    assert.deepEqual(
      differences(moved as never, node("Next page")).map((d) => d.field),
      ["bounds"],
    );
  });
});
