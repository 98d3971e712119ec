// A value said to be cut is one cut from its text: a spin button's Value ("4") beside its text
// ("4 caratteri", Kate's tab width) is whole, and was said to be "first 1 of 11 characters".
import assert from "node:assert/strict";
import { it } from "node:test";
import { elementState } from "../../src/core/receipt.js";
import type { RawNode } from "../../src/platform/types.js";

const node = (extra: Partial<RawNode>): RawNode => ({
  handle: "h",
  role: "spin button",
  name: "Tab width",
  description: undefined,
  states: ["enabled", "showing"],
  interfaces: ["Accessible", "Text", "Value"],
  childCount: 0,
  indexInParent: 0,
  children: [],
  unread: [],
  ...extra,
});

it("a Value's number is whole beside a longer text; a text cut says its whole length", () => {
  const spin = elementState(node({ value: "4", text: "4 caratteri", textLength: 11 }));
  assert.equal(spin.value, "4");
  assert.equal(spin.value_length, undefined);
  const text = elementState(
    node({ role: "text", interfaces: ["Accessible", "Text"], text: "abc", textLength: 5000 }),
  );
  assert.equal(text.value, "abc");
  assert.equal(text.value_length, 5000);
});
