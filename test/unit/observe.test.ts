// observe's model on plain snapshot elements: reading order by place, the work surface listed (a
// table as one target with its rows, a pixels-only surface with what reads it), what has nothing to
// do left out and counted, inferred names marked, states a person sees on the line, never a "" name.
import assert from "node:assert/strict";
import { it } from "node:test";
import { observeTargets } from "../../src/core/observe.js";
import type { SnapshotElement } from "../../src/core/snapshot.js";

let n = 0;
const el = (role: string, extra: Partial<SnapshotElement> = {}): SnapshotElement => ({
  ref: `s1:e${++n}`,
  role,
  name: null,
  states: ["enabled", "sensitive", "showing", "visible", "focusable"],
  bounds: null,
  index: 0,
  depth: 1,
  childCount: 0,
  actions: [],
  interfaces: ["Accessible", "Component"],
  ...extra,
});
const box = (x: number, y: number, width = 120, height = 24) => ({ x, y, width, height });
const field = (label: string, y: number) =>
  el("text", {
    inferredLabel: label,
    bounds: box(100, y),
    interfaces: ["Accessible", "Component", "Text", "EditableText"],
    states: ["enabled", "sensitive", "showing", "visible", "focusable", "editable"],
  });

it("lists a form's fields in reading order, whatever the tree's order", () => {
  // The tree gives them bottom-up, as a GTK grid did: Plan, Email, Name; Name is on top.
  const plan = el("combo box", { inferredLabel: "Plan", bounds: box(100, 120), actions: ["press"] });
  const email = field("Email", 80);
  const name = field("Name", 40);
  const ok = el("push button", { name: "OK", bounds: box(300, 160, 60), actions: ["click"] });
  const cancel = el("push button", { name: "Cancel", bounds: box(200, 160, 60), actions: ["click"] });
  const { targets } = observeTargets([plan, email, name, ok, cancel], { items: false, maxTargets: 50 });
  assert.deepEqual(
    targets.map((t) => t.label.split(" [")[0]),
    ['text ~"Name"', 'text ~"Email"', 'combo box ~"Plan"', 'push button "Cancel"', 'push button "OK"'],
  );
});

it("folds a table to one target with its rows, and names a pixels-only surface with what reads it", () => {
  const table = el("table", {
    name: "Files",
    childCount: 40,
    bounds: box(0, 0, 400, 300),
    interfaces: ["Accessible", "Component", "Table", "Selection"],
  });
  const cells = Array.from({ length: 40 }, (_, i) =>
    el("table cell", { name: `file ${i}`, depth: 2, bounds: box(0, 20 * i), actions: ["activate"] }),
  );
  const canvas = el("drawing area", { pixelsOnly: true, bounds: box(0, 320, 400, 200), depth: 1 });
  const observed = observeTargets([table, ...cells, canvas], { items: false, maxTargets: 50 });
  assert.equal(observed.targets.length, 2);
  assert.match(
    observed.targets[0]!.label,
    /^table "Files" \(40 rows; items: true lists them\) \[ref=s1:e\d+\] read_table,find/,
  );
  assert.equal(observed.targets[0]!.rows, 40);
  assert.match(
    observed.targets[1]!.label,
    /^drawing area \(pixels only\) \[ref=s1:e\d+\] read_screen_text,find_text,click$/,
  );
  assert.equal(observed.left_out.in_tables, 40);
  const unfolded = observeTargets([table, ...cells], { items: true, maxTargets: 100 });
  assert.ok(unfolded.targets.some((t) => t.label.startsWith('table cell "file 39"')));
});

it("leaves out and counts what has nothing to do; an unnamed button takes its tooltip, marked inferred", () => {
  const progress = el("progress bar", {
    value: "0",
    bounds: box(0, 0),
    interfaces: ["Accessible", "Component", "Value"],
  });
  const split = el("split pane", {
    value: "2147483647",
    bounds: box(0, 30),
    interfaces: ["Accessible", "Component", "Value"],
  });
  const bare = el("push button", { bounds: box(0, 60), actions: [] });
  const tooltip = el("push button", { description: "Open a file", bounds: box(0, 90), actions: ["click"] });
  const nameless = el("push button", { bounds: box(0, 120), actions: ["click"] });
  const observed = observeTargets([progress, split, bare, tooltip, nameless], {
    items: false,
    maxTargets: 50,
  });
  assert.equal(
    observed.left_out.nothing_to_do,
    2 + (observed.targets.some((t) => t.ref === bare.ref) ? 0 : 1),
  );
  const labels = observed.targets.map((t) => t.label);
  assert.ok(
    labels.some((l) => l.startsWith('push button ~"Open a file" [')),
    labels.join("\n"),
  );
  assert.ok(
    labels.every((l) => !l.includes('""')),
    labels.join("\n"),
  );
  assert.ok(
    labels.some((l) => l.startsWith(`push button [ref=${nameless.ref}`)),
    labels.join("\n"),
  );
});

it("shows the states a person sees, and marks the focused element", () => {
  const radio = el("radio button", {
    name: "Large",
    bounds: box(0, 0),
    actions: ["click"],
    states: ["enabled", "sensitive", "showing", "visible", "focusable", "checked", "focused"],
  });
  const expander = el("toggle button", {
    name: "Details",
    bounds: box(0, 40),
    actions: ["click"],
    states: ["enabled", "sensitive", "showing", "visible", "expandable"],
  });
  const off = el("push button", {
    name: "Apply",
    bounds: box(0, 80),
    actions: ["click"],
    states: ["showing", "visible"],
  });
  const observed = observeTargets([radio, expander, off], { items: false, maxTargets: 50 });
  const labels = observed.targets.map((t) => t.label.split(" [")[0]);
  assert.deepEqual(labels, [
    'radio button "Large" (focused, checked)',
    'toggle button "Details" (collapsed)',
    'push button "Apply" (disabled)',
  ]);
  assert.equal(observed.focused, radio.ref);
});

it("names a pixels-only surface by the pane holding it, and lists a table before its items", () => {
  const frame = el("frame", { name: "fmdir - Thunar", depth: 0, bounds: box(0, 0, 640, 480) });
  const pane = el("directory pane", { name: "Icon view", depth: 1, bounds: box(200, 40, 440, 400) });
  const surface = el("panel", { pixelsOnly: true, depth: 2, bounds: box(200, 40, 440, 400) });
  const alone = el("drawing area", { pixelsOnly: true, depth: 1, bounds: box(0, 440, 200, 40) });
  const table = el("tree table", {
    depth: 1,
    childCount: 2,
    bounds: box(0, 40, 200, 300),
    interfaces: ["Accessible", "Component", "Table", "Selection"],
  });
  // Thunar's side pane: each row an unnamed cell (the one with a place on screen) holding named cells.
  const row = (name: string, y: number) => [
    el("table cell", { depth: 2, bounds: box(0, y, 200, 20), actions: ["activate"] }),
    el("table cell", { depth: 3, name, actions: ["activate"] }),
    el("table cell", { depth: 3, actions: ["activate"] }),
  ];
  const { targets, left_out } = observeTargets(
    [frame, table, ...row("Places", 40), ...row("File System", 60), pane, surface, alone],
    { items: false, maxTargets: 50 },
  );
  assert.deepEqual(
    targets.map((t) => t.label.split(" [")[0]!.replace(/ \(pixels.*/, "")),
    ["tree table", 'table cell ~"Places"', 'table cell ~"File System"', 'panel ~"Icon view"', "drawing area"],
  );
  assert.equal(left_out.in_tables, 4, "the row's own cells are counted as inside it");
});

it("a row drawn as sibling cells (GTK's tree view) is one target at its named cell, the rest said beside it", () => {
  const table = el("table", {
    childCount: 2,
    bounds: box(0, 0, 400, 100),
    interfaces: ["Accessible", "Table"],
  });
  const cell = (name: string | null, x: number, y: number, depth = 2) =>
    el("table cell", { name, depth, bounds: box(x, y, 80, 21), actions: ["activate"] });
  const rows = [
    [cell(null, 0, 20), cell("Print to File", 80, 20), cell("Ready", 160, 20), cell(null, 240, 20)],
    [cell(null, 0, 41), cell("Office", 80, 41), cell(null, 160, 41), cell(null, 240, 41)],
  ];
  const { targets, left_out } = observeTargets([table, ...rows.flat()], { items: false, maxTargets: 50 });
  const lines = targets.map((t) => t.label.split(" [")[0]);
  assert.deepEqual(lines, ['table cell "Print to File" · "Ready"', 'table cell "Office"']);
  assert.equal(targets[0]!.ref, rows[0]![1]!.ref, "the row is acted on at its named cell");
  assert.equal(left_out.in_tables, 6, "the other cells are counted");
  // A spreadsheet's cells are each a target: their names are their places.
  const sheet = [cell("A1", 0, 20), cell("B1", 80, 20), cell("C1", 160, 20)];
  const calc = observeTargets([table, ...sheet], { items: false, maxTargets: 50 });
  assert.equal(calc.targets.length, 3);
});

it("an element read twice (an open popup that is also its owner's child) is one target", () => {
  const item = el("menu item", { name: "List View", bounds: box(100, 40), actions: ["click"], depth: 3 });
  const popup = el("menu", { bounds: box(100, 40, 120, 80), depth: 0 });
  const { targets } = observeTargets([item, popup, { ...item, depth: 1 }], { items: false, maxTargets: 50 });
  assert.equal(targets.filter((t) => t.ref === item.ref).length, 1, JSON.stringify(targets));
});
