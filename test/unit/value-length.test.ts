// A value said to be cut is one cut from its text: a spin button's Value ("4") beside its text
// ("4 caratteri", Kate's tab width) is whole, and was said to be "first 1 of 11 characters".
import assert from "node:assert/strict";
import { it } from "node:test";
import { type FlatEntry, fingerprintOf } from "../../src/core/flatten.js";
import { elementState, type Receipt, renderReceipt } from "../../src/core/receipt.js";
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

// Geany's "Larghezza" spin button is unnamed: the listing showed it ~"Larghezza", and set_range's
// reply said `after: spin button "" = "2"`.
it("an unnamed element's after-line names it by the label the listing showed", () => {
  const seen = fingerprintOf({
    node: node({ name: undefined, inferredLabel: "Larghezza", value: "4" }),
    path: [0, 1],
    windowId: 7,
  } as FlatEntry);
  assert.equal(seen.label, "Larghezza");
  assert.equal(
    fingerprintOf({ node: node({ inferredLabel: "Width" }), path: [0], windowId: 7 } as FlatEntry).label,
    undefined,
  );
  const text = renderReceipt({
    ref: "s1:e2",
    action: "set_range",
    route: "Value.CurrentValue",
    action_outcome: "completed",
    after: elementState(node({ name: undefined, value: "2" })),
    after_read: "complete",
    seen_label: seen.label,
    windows_appeared: [],
    windows_disappeared: [],
  } as Receipt);
  assert.match(text, /after: spin button ~"Larghezza" = "2"/, text);
  // With no label either, no empty name: Gnote's note read `after: text "" = "Spesa…"`.
  const bare = renderReceipt({
    ref: "s1:e2",
    action: "set_value",
    route: "EditableText",
    action_outcome: "completed",
    after: elementState(node({ role: "text", name: "", value: "Spesa" })),
    after_read: "complete",
    windows_appeared: [],
    windows_disappeared: [],
  } as Receipt);
  assert.match(bare, /^after: text = "Spesa"/m, bare);
});
