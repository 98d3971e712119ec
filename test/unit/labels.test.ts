// Labels inferred from where they sit: an unnamed field takes the label to its left or above; a label
// that shows a value takes the key on its line ("Producer:") as what it is the value of.
import assert from "node:assert/strict";
import { it } from "node:test";
import { inferLabels } from "../../src/core/labels.js";
import type { Role } from "../../src/platform/roles.js";
import type { RawNode } from "../../src/platform/types.js";

const node = (
  role: Role,
  name: string,
  x: number,
  y: number,
  width = 100,
  children: RawNode[] = [],
): RawNode => ({
  handle: `${role}:${name}:${x}:${y}`,
  role,
  name,
  description: "",
  states: ["enabled", "showing", "visible"],
  interfaces: ["Accessible", "Component"],
  childCount: children.length,
  indexInParent: 0,
  children,
  bounds: { x, y, width, height: 20 },
  enriched: true,
  unread: [],
});

it("a property pane's values take their keys; a key, and a label with no key beside it, take none", () => {
  // The tree gives values before keys, as a PDF viewer's properties did.
  const producer = node("label", "heldout-pdf 2.7", 120, 10);
  const pages = node("label", "12", 120, 40);
  const title = node("label", "Document properties", 0, 80, 300);
  const pane = node("panel", "", 0, 0, 400, [
    producer,
    pages,
    node("label", "Producer:", 0, 10),
    node("label", "Pages:", 0, 40),
    title,
  ]);
  inferLabels([pane]);
  assert.equal(producer.inferredLabel, "Producer");
  assert.equal(pages.inferredLabel, "Pages");
  assert.equal(title.inferredLabel, undefined);
  assert.equal(pane.children[2]!.inferredLabel, undefined, "a key is not the value of anything");
});

it("an unnamed field still takes the label beside it", () => {
  const field = node("text", "", 120, 10);
  inferLabels([node("panel", "", 0, 0, 400, [field, node("label", "Search for:", 0, 10)])]);
  assert.equal(field.inferredLabel, "Search for");
});

it("a field boxed alone with its hidden parts takes the label beside its box; a box of two fields does not", () => {
  // LibreOffice's dialog combo box: a box of the shown combo box and a hidden one, the label outside.
  const hidden: RawNode = { ...node("combo box", "", 0, 0, 0), states: ["enabled"] };
  const shown = node("combo box", "", 80, 10, 200);
  const box = node("filler", "", 80, 10, 200, [hidden, shown]);
  const other = node("combo box", "", 80, 40, 90);
  const pair = node("filler", "", 80, 40, 200, [other, node("combo box", "", 180, 40, 90)]);
  inferLabels([
    node("panel", "", 0, 0, 400, [
      box,
      node("label", "Column", 0, 10, 60),
      pair,
      node("label", "Row", 0, 40, 60),
    ]),
  ]);
  assert.equal(shown.inferredLabel, "Column");
  assert.equal(hidden.inferredLabel, undefined);
  assert.equal(
    other.inferredLabel,
    undefined,
    "two fields in a box: which one the label names cannot be told",
  );
});
