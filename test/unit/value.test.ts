// The value an element shows (core/value.ts): one judgement for snapshot, find, receipts and
// value_contains. A message region's words may sit in its children; an empty field is a value.
import assert from "node:assert/strict";
import { it } from "node:test";
import { shownValue } from "../../src/core/value.js";
import type { RawNode } from "../../src/platform/types.js";

const node = (role: string, extra: Partial<RawNode> = {}): RawNode =>
  ({ handle: role, role, indexInParent: 0, children: [], unread: [], ...extra }) as RawNode;

it("an empty field's value is empty, and placeholders alone say nothing", () => {
  assert.equal(shownValue(node("entry", { text: "" })), "");
  assert.equal(shownValue(node("section", { text: "\uFFFC \uFFFC" })), undefined);
  assert.equal(shownValue(node("label", { text: "Name \uFFFC" })), "Name");
});

it("an alert whose text only marks its children reads as their words, in order, each placeholder replaced", () => {
  const alert = node("alert", {
    text: "\uFFFC\uFFFC",
    children: [
      node("paragraph", { text: "Saved \uFFFC now", children: [node("link", { name: "twice" })] }),
      node("paragraph", { text: "to disk" }),
    ],
  });
  assert.equal(shownValue(alert), "Saved twice now to disk");
});

it("a message region's own text wins; a password inside one is never read; unread children say nothing", () => {
  assert.equal(
    shownValue(node("status bar", { text: "Ready", children: [node("label", { text: "x" })] })),
    "Ready",
  );
  const withPassword = node("notification", {
    children: [node("label", { text: "Your code" }), node("password text", { text: "hunter2" })],
  });
  assert.equal(shownValue(withPassword), "Your code");
  assert.equal(shownValue(node("alert", { text: "\uFFFC" })), "");
  assert.equal(shownValue(node("alert")), undefined);
});
