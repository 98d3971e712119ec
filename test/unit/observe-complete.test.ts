// observe is complete for what is on screen (issue 35), on the fake backend: an empty surface laid over
// a form is not pixels only and hides nothing, one over nothing still is; a cut value says by how
// much; what maxDepth cuts is named with its ref; an index of -1 is unknown, not a move.
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { it } from "node:test";
import { observeTargets } from "../../src/core/observe.js";
import type { SnapshotElement } from "../../src/core/snapshot.js";
import { differences, identity } from "../../src/core/verify.js";
import type { FakeElement, FakeWindow } from "../../src/platform/fake/backend.js";
import { callTool } from "../../src/tools/call.js";
import { toolNamed } from "../../src/tools/registry.js";
import { fakeContext } from "./fake-desktop.js";

const field = (name: string, y: number): FakeElement => ({
  role: "text",
  name,
  text: "",
  states: ["enabled", "visible", "showing", "focusable", "editable"],
  bounds: { x: 20, y, width: 200, height: 24 },
  interfaces: ["Accessible", "Component", "Text", "EditableText"],
});

/** A pane holding a form and, over it, an empty filler as large as the pane; a map with a zoom button over it. */
function window(): FakeWindow {
  return {
    id: 1,
    title: "Cover",
    pid: 100,
    app: "fake",
    rect: { x: 0, y: 0, width: 800, height: 600 },
    focused: true,
    root: {
      role: "frame",
      name: "Cover",
      bounds: { x: 0, y: 0, width: 800, height: 600 },
      children: [
        {
          role: "panel",
          name: "Address Book",
          bounds: { x: 0, y: 0, width: 800, height: 300 },
          children: [
            {
              role: "panel",
              bounds: { x: 0, y: 0, width: 800, height: 300 },
              children: [field("Full name", 20), field("Email", 60)],
            },
            { role: "filler", bounds: { x: 0, y: 0, width: 800, height: 300 } },
          ],
        },
        { role: "drawing area", bounds: { x: 0, y: 320, width: 800, height: 260 } },
        // Zoom buttons floating over the map: they cover little of it, so it stays pixels only.
        {
          role: "panel",
          bounds: { x: 740, y: 330, width: 40, height: 60 },
          children: [
            {
              role: "push button",
              name: "Zoom in",
              bounds: { x: 740, y: 330, width: 40, height: 30 },
              actions: ["click"],
              interfaces: ["Accessible", "Component", "Action"],
            },
          ],
        },
      ],
    },
  };
}

it("an empty surface over a form hides nothing and is not pixels only; a map under a zoom button is", async () => {
  const { context } = fakeContext({
    windows: [window()],
    hands: { windows: [] },
    dir: mkdtempSync(join(tmpdir(), "deskhand-observe-cover-")),
  });
  const result = await callTool(context, toolNamed("observe"), { target: { kind: "title", glob: "Cover" } });
  assert.ok(result.ok, JSON.stringify(!result.ok && result.error.toJSON()));
  const text = result.output.text;
  assert.match(text, /text "Full name"/, text);
  assert.match(text, /text "Email"/, text);
  // The filler over the form is not a target; the drawing area, over nothing, is pixels only.
  assert.doesNotMatch(text, /filler/, text);
  assert.equal(text.match(/pixels only/g)?.length, 1, text);
  assert.match(text, /drawing area \(pixels only\)/, text);
  assert.match(text, /push button "Zoom in"/, text);
  await context.close();
});

let n = 0;
const el = (role: string, extra: Partial<SnapshotElement> = {}): SnapshotElement => ({
  ref: `s1:e${++n}`,
  role,
  name: null,
  states: ["enabled", "sensitive", "showing", "visible", "focusable", "editable"],
  bounds: { x: 0, y: 20 * n, width: 200, height: 20 },
  index: 0,
  depth: 1,
  childCount: 0,
  interfaces: ["Accessible", "Component", "Text", "EditableText"],
  ...extra,
});

it("a value cut on a target's line says so, with the characters left and what reads them", () => {
  const long = "a".repeat(150);
  const short = "b".repeat(80);
  const { targets } = observeTargets(
    [
      el("text", { name: "Long", value: long }),
      el("text", { name: "Exactly", value: short }),
      // maxText cut the value read at 120 of 412 characters: the whole length is what is said.
      el("text", { name: "Cut", value: "c".repeat(120), textLength: 412 }),
    ],
    { items: false, maxTargets: 10 },
  );
  assert.ok(targets[0]!.label.includes(`= "${"a".repeat(80)}…" (+70 chars, read_text)`), targets[0]!.label);
  assert.ok(targets[1]!.label.includes(`= "${short}" [ref=`), targets[1]!.label);
  assert.ok(targets[2]!.label.includes(`= "${"c".repeat(80)}…" (+332 chars, read_text)`), targets[2]!.label);
});

it("an element whose children maxDepth cut is named, so its ref can be read on", () => {
  const deep = el("panel", { name: "Replace", childCount: 3, cut: { reason: "maxDepth" } });
  const observed = observeTargets([deep, el("text", { name: "Find" })], { items: false, maxTargets: 10 });
  assert.deepEqual(observed.cut_by_depth, [deep.ref]);
  const none = observeTargets([el("text", { name: "Find" })], { items: false, maxTargets: 10 });
  assert.equal(none.cut_by_depth, undefined);
});

it("an index of -1 is the toolkit not knowing, not a move; a real move still is one", () => {
  const entry = {
    ref: "s1:e1",
    snapshotId: "s1",
    handle: "h",
    fingerprint: {
      role: "list item",
      name: "a.txt",
      indexInParent: 0,
      bounds: undefined,
      path: [0],
      windowId: 1,
    },
  };
  const node = (indexInParent: number) => ({
    handle: "h",
    role: "list item" as const,
    name: "a.txt",
    description: "",
    states: [],
    interfaces: [],
    childCount: 0,
    indexInParent,
    children: [],
    unread: [],
  });
  assert.deepEqual(differences(entry, node(-1)), []);
  assert.deepEqual(
    differences({ ...entry, fingerprint: { ...entry.fingerprint, indexInParent: -1 } }, node(3)),
    [],
  );
  assert.deepEqual(differences(entry, node(2)), [{ field: "index", was: 0, now: 2 }]);
  // A view's item at another index is another item; a combo box whose siblings came before it (a
  // settings page that showed a new row) is the same element, its index said as a difference.
  assert.equal(identity(differences(entry, node(2)), "list item").length, 1);
  assert.equal(identity(differences(entry, node(2)), "combo box").length, 0);
});

it("an item view that lists nothing while it shows items (KDE's file view: 0 rows, no children) is pixels only", async () => {
  const view: FakeWindow = {
    id: 2,
    title: "Files",
    pid: 101,
    app: "fake",
    rect: { x: 0, y: 0, width: 800, height: 600 },
    focused: true,
    root: {
      role: "frame",
      name: "Files",
      bounds: { x: 0, y: 0, width: 800, height: 600 },
      children: [
        {
          role: "table",
          bounds: { x: 0, y: 0, width: 600, height: 400 },
          interfaces: ["Accessible", "Component", "Table"],
        },
        {
          role: "list",
          name: "Places",
          bounds: { x: 600, y: 0, width: 200, height: 400 },
          children: [{ role: "list item", name: "Home", bounds: { x: 600, y: 0, width: 200, height: 20 } }],
        },
      ],
    },
  };
  const { context } = fakeContext({
    windows: [view],
    hands: { windows: [] },
    dir: mkdtempSync(join(tmpdir(), "deskhand-items-")),
  });
  const observed = await callTool(context, toolNamed("observe"), {
    target: { kind: "window", id: 2 },
    pixels: false,
  });
  assert.ok(observed.ok, JSON.stringify(observed));
  assert.match(observed.output.text, /table \(pixels only\)/, observed.output.text);
  assert.doesNotMatch(observed.output.text, /list "Places" \(pixels only\)/, observed.output.text);
});
