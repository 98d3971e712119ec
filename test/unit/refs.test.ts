import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { DeskhandError } from "../../src/core/errors.js";
import { REF_SNAPSHOTS_KEPT } from "../../src/core/limits.js";
import { newSessionTag, RefStore } from "../../src/core/refs.js";
import { verifiedNote, verifyRef } from "../../src/core/verify.js";
import { type AccessibilityReader, ElementGone, type RawNode, type Rect } from "../../src/platform/types.js";

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

  it("a ref another session issued, with the same numbers, is refused as foreign", () => {
    const mine = new RefStore("latest-snapshot", undefined, undefined, newSessionTag());
    const theirs = new RefStore("latest-snapshot", undefined, undefined, newSessionTag());
    assert.notEqual(mine.tag, theirs.tag);
    assert.match(mine.tag, /^[a-z]{2}$/);
    const own = mine.assign(mine.newSnapshot(), "h1", print);
    const foreign = theirs.assign(theirs.newSnapshot(), "h2", print);
    assert.equal(own, `s1:e1${mine.tag}`);
    assert.equal(foreign, `s1:e1${theirs.tag}`, "the same numbers in the other session");
    assert.equal(mine.lookup(own).handle, "h1");
    for (const ref of [foreign, "s1:e1"]) {
      assert.throws(
        () => mine.lookup(ref),
        (e: Error & { code?: string; details?: { foreign?: boolean } }) =>
          e.code === "unknown_ref" && /not issued by this session/.test(e.message),
        ref,
      );
    }
  });

  it("forgets the oldest refs past its capacity", () => {
    const refs = new RefStore("while-verified", 3);
    const s = refs.newSnapshot();
    const made = [1, 2, 3, 4].map((i) => refs.assign(s, `h${i}`, { ...print, name: `n${i}` }));
    assert.equal(refs.size, 3);
    assert.throws(
      () => refs.lookup(made[0]!),
      (error: DeskhandError) =>
        error.code === "unknown_ref" &&
        error.details.released === true &&
        /was released: a session keeps the refs of the 3 elements/.test(error.message) &&
        /observe or snapshot again/.test(error.next),
    );
    assert.equal(refs.lookup(made[3]!).handle, "h4");
  });

  it("keeps a bounded memory of its snapshots: a ref from one long gone says it was released", () => {
    const refs = new RefStore("while-verified", 10);
    const first = refs.assign(refs.newSnapshot(), "h0", print);
    for (let i = 1; i <= REF_SNAPSHOTS_KEPT + 5; i++) refs.assign(refs.newSnapshot(), `h${i}`, print);
    assert.equal(refs.size, 10);
    assert.throws(() => refs.lookup(first), /s1:e1 was released/);
    // A number never handed out in a snapshot still counted is not "released".
    assert.throws(
      () => refs.lookup(`s${REF_SNAPSHOTS_KEPT + 6}:e9`),
      /no element with that number was handed out$/,
    );
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

/** A window's tree as an app shows it now: describe() knows only these handles, as AT-SPI would. */
type Shown = { handle: string; role: string; name: string; bounds?: Rect; children?: Shown[] };

function appShowing(root: Shown, defunct: Shown[] = []): AccessibilityReader {
  const nodes = new Map<string, RawNode>();
  const raw = (s: Shown, index: number): RawNode => {
    const node: RawNode = {
      handle: s.handle,
      role: s.role as RawNode["role"],
      name: s.name,
      description: undefined,
      states: [],
      interfaces: [],
      childCount: s.children?.length ?? 0,
      indexInParent: index,
      children: (s.children ?? []).map((c, i) => raw(c, i)),
      unread: [],
      bounds: s.bounds ?? { x: 0, y: 0, width: 10, height: 10 },
    };
    nodes.set(s.handle, node);
    return node;
  };
  const tree = raw(root, 0);
  // Old objects a re-rendered page leaves behind, answering as Firefox's do: defunct, unnamed, index -1.
  for (const old of defunct)
    nodes.set(old.handle, { ...raw(old, -1), name: "", states: ["defunct", "showing", "visible"] });
  return {
    async describe(handle: string) {
      const node = nodes.get(handle);
      if (!node) throw new ElementGone(handle, "the object is gone");
      return { ...node, children: [] };
    },
    async readWindow() {
      return { root: tree, method: "stub", timedOut: false, ceilingHit: false };
    },
  } as unknown as AccessibilityReader;
}

const box = (x: number) => ({ x, y: 40, width: 80, height: 30 });
const frame = (...children: Shown[]) => ({ handle: "f", role: "frame", name: "Dialog", children });
const button = (handle: string, name: string, x = 852): Shown => ({
  handle,
  role: "push button",
  name,
  bounds: box(x),
});

/** A ref to the push button "OK" seen at path [1] of window 1, at x 852. */
function seenOK(fromWindow = true) {
  const refs = new RefStore("while-verified");
  const ref = refs.assign(refs.newSnapshot(), "ok", {
    role: "push button",
    name: "OK",
    indexInParent: 1,
    bounds: box(852),
    path: fromWindow ? [1] : [],
    fromWindow,
    windowId: 1,
  });
  return { refs, ref };
}

const refused = (pattern: RegExp) => (e: Error & { code?: string }) =>
  e.code === "stale_element" && pattern.test(e.message);

describe("verifying a ref before it is used", () => {
  it("an element that moved and resized but kept role, name and index is used where it is now", async () => {
    const { refs, ref } = seenOK();
    const moved = { ...button("ok", "OK"), bounds: { x: 855, y: 41, width: 84, height: 30 } };
    const app = appShowing(frame(button("c", "Cancel"), moved));
    const verified = await verifyRef(app, refs, ref);
    assert.deepEqual(verified.node.bounds, { x: 855, y: 41, width: 84, height: 30 });
    assert.deepEqual(verified.moved, { from: box(852), to: { x: 855, y: 41, width: 84, height: 30 } });
    assert.equal(verifiedNote(verified), "moved: from 852,40 80x30 to 855,41 84x30");
  });

  it("an element where it was is not said to have moved", async () => {
    const { refs, ref } = seenOK();
    const verified = await verifyRef(appShowing(frame(button("c", "Cancel"), button("ok", "OK"))), refs, ref);
    assert.equal(verified.moved, undefined);
    assert.equal(verifiedNote(verified), undefined);
  });

  it("a renamed element, or one with another role, is refused with what differs", async () => {
    const { refs, ref } = seenOK();
    await assert.rejects(
      verifyRef(appShowing(frame(button("c", "Cancel"), button("ok", "Delete"))), refs, ref),
      refused(/name was "OK", now "Delete"/),
    );
    const toggle = { ...button("ok", "OK"), role: "toggle button" };
    await assert.rejects(
      verifyRef(appShowing(frame(button("c", "Cancel"), toggle)), refs, ref),
      refused(/role was "push button", now "toggle button"/),
    );
  });

  it("an element whose name went unread is refused as unverifiable, not said to be renamed", async () => {
    const { refs, ref } = seenOK();
    const app = appShowing(frame(button("c", "Cancel"), button("ok", "OK")));
    const read = app.describe.bind(app);
    app.describe = async (handle, options) => ({
      ...(await read(handle, options)),
      name: undefined,
      unread: ["name"],
    });
    await assert.rejects(
      verifyRef(app, refs, ref),
      (e: Error & { code?: string; differences?: unknown[] }) =>
        refused(/its name \("OK"\) could not be read/)(e) && !/now null/.test(e.message),
    );
  });

  it("a re-rendered element (new handle, same role, name and index at its path) is re-found", async () => {
    const { refs, ref } = seenOK();
    const app = appShowing(frame(button("c2", "Cancel"), button("ok2", "OK", 860)));
    const verified = await verifyRef(app, refs, ref);
    assert.deepEqual(verified.refound, { was: "ok", now: "ok2" });
    assert.equal(verified.node.handle, "ok2");
    assert.equal(refs.lookup(ref).handle, "ok2", "the ref now names the new object");
    assert.equal(refs.refOf("ok2"), ref);
    assert.match(verifiedNote(verified)!, /^re-found: .*; moved: from 852,40 80x30 to 860,40 80x30$/);
    // Named again under its new handle: no re-finding needed a second time.
    assert.equal((await verifyRef(app, refs, ref)).refound, undefined);
  });

  it("a defunct object (Firefox after a re-render) is gone: its like at its path is re-found", async () => {
    const { refs, ref } = seenOK();
    const app = appShowing(frame(button("c2", "Cancel"), button("ok2", "OK")), [button("ok", "OK")]);
    const verified = await verifyRef(app, refs, ref);
    assert.deepEqual(verified.refound, { was: "ok", now: "ok2" });
  });

  it("a gone element with another one at its path is refused, naming what is there", async () => {
    const { refs, ref } = seenOK();
    const app = appShowing(frame(button("c2", "Cancel"), button("x2", "Delete")));
    await assert.rejects(
      verifyRef(app, refs, ref),
      refused(/at its path now: push button "Delete" at \[1\]/),
    );
    assert.equal(refs.lookup(ref).handle, "ok", "nothing was re-pointed");
  });

  it("a gone element whose like moved elsewhere is refused, naming the candidate, never guessed", async () => {
    const { refs, ref } = seenOK();
    // An OK at index 1 of another parent: alike, but not at its path.
    const app = appShowing(
      frame(button("c2", "Cancel"), {
        handle: "p",
        role: "panel",
        name: "",
        children: [button("z", "Help"), button("ok2", "OK")],
      }),
    );
    await assert.rejects(verifyRef(app, refs, ref), (e: Error & { code?: string; details?: unknown }) => {
      assert.equal(e.code, "stale_element");
      assert.match(e.message, /alike elsewhere: push button "OK" at \[1,1\]/);
      return true;
    });
  });

  it("without a path from the window, one alike element is re-found and two are refused with both named", async () => {
    const one = seenOK(false);
    const single = appShowing(frame(button("c2", "Cancel"), button("ok2", "OK")));
    assert.equal((await verifyRef(single, one.refs, one.ref)).refound?.now, "ok2");
    const two = seenOK(false);
    const panel = (handle: string, ok: string): Shown => ({
      handle,
      role: "panel",
      name: "",
      children: [button(`${handle}c`, "Cancel"), button(ok, "OK")],
    });
    const twice = appShowing(frame(panel("p1", "okA"), panel("p2", "okB")));
    await assert.rejects(
      verifyRef(twice, two.refs, two.ref),
      refused(/2 elements could be it.*"OK" at \[0,1\].*"OK" at \[1,1\]/),
    );
    assert.equal(two.refs.lookup(two.ref).handle, "ok");
  });

  it("a gone element in no window is refused as before", async () => {
    const refs = new RefStore("while-verified");
    const ref = refs.assign(refs.newSnapshot(), "gone", { ...print, windowId: null });
    await assert.rejects(verifyRef(appShowing(frame()), refs, ref), refused(/the object is gone/));
  });
});
