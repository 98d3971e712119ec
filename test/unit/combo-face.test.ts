// LibreOffice's dialog combo box is an unnamed toggle button beside a hidden combo box: read as the
// combo box it draws. A toggle button without such a sibling stays one.
import assert from "node:assert/strict";
import { it } from "node:test";
import { markComboFace } from "../../src/platform/atspi/combo-face.js";
import type { Role, State } from "../../src/platform/roles.js";
import type { RawNode } from "../../src/platform/types.js";

const node = (role: Role, states: State[], name = ""): RawNode => ({
  handle: `:1.1/${role}`,
  role,
  name,
  description: "",
  interfaces: ["Accessible"],
  states,
  childCount: 0,
  indexInParent: 0,
  children: [],
  unread: [],
});
const SHOWN: State[] = ["enabled", "showing", "visible"];

it("the toggle button beside a hidden combo box reads as a combo box", () => {
  const face = node("toggle button", SHOWN);
  markComboFace([node("text", ["editable"]), node("combo box", ["enabled"]), face]);
  assert.equal(face.role, "combo box");
  assert.deepEqual(face.unread, ["value"], "its value is drawn, not in the tree");
});

it("a toggle button stays one beside a shown combo box, with a name, or with another like it", () => {
  const cases: RawNode[][] = [
    [node("combo box", SHOWN), node("toggle button", SHOWN)],
    [node("combo box", ["enabled"]), node("toggle button", SHOWN, "Bold")],
    [node("combo box", ["enabled"]), node("toggle button", SHOWN), node("toggle button", SHOWN)],
    [node("toggle button", SHOWN)],
  ];
  for (const children of cases) {
    markComboFace(children);
    assert.ok(
      children.filter((c) => c.handle.endsWith("toggle button")).every((c) => c.role === "toggle button"),
      JSON.stringify(children.map((c) => [c.role, c.name, c.states])),
    );
  }
});
