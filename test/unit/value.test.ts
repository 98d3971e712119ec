// The value an element shows (core/value.ts): one judgement for snapshot, find, receipts and
// value_contains. A message region's words may sit in its children; an empty field is a value.
import assert from "node:assert/strict";
import { it } from "node:test";
import {
  CODE_MARKER,
  CREDENTIAL_MARKER,
  hidesSecret,
  secretRanges,
  shownValue,
} from "../../src/core/value.js";
import type { RawNode } from "../../src/platform/types.js";

const node = (role: string, extra: Partial<RawNode> = {}): RawNode =>
  ({ handle: role, role, indexInParent: 0, children: [], unread: [], ...extra }) as RawNode;

it("an empty field's value is empty, and placeholders alone say nothing", () => {
  assert.equal(shownValue(node("entry", { text: "" })), "");
  assert.equal(
    shownValue(
      node("entry", { name: "Name", text: "", states: ["editable"], interfaces: ["EditableText"] }),
      true,
    ),
    "",
    "a field's empty text is its value",
  );
  // Firefox's option and icon button: an empty text beside a name says nothing, in a listing.
  assert.equal(shownValue(node("menu item", { name: "Blue", text: "" }), true), undefined);
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

it("a card number or a key in a field, and a code field's value, never come back; a document's text does", () => {
  const card = "5371 1890 2645 7730";
  assert.equal(shownValue(node("text", { text: `Card ${card}` })), `Card ${CREDENTIAL_MARKER}`);
  assert.equal(shownValue(node("entry", { value: "sk-proj-Qx7vB2mN9pL4kR8sT1wZ3yH6" })), CREDENTIAL_MARKER);
  const otp = node("text", {
    name: "One-time code",
    text: "482913",
    interfaces: ["EditableText"],
    states: ["editable"],
  });
  assert.equal(shownValue(otp), CODE_MARKER);
  assert.deepEqual(secretRanges(otp, "482913"), [[0, 6]]);
  assert.ok(hidesSecret(shownValue(otp)));
  // Plain text, a postal code and a number that is no card stay as they are.
  assert.equal(shownValue(node("text", { text: "lunch with Mireille" })), "lunch with Mireille");
  assert.equal(
    shownValue(node("text", { name: "Postal code", text: "75011", states: ["editable"] })),
    "75011",
  );
  assert.equal(shownValue(node("text", { text: "3.14159265358979" })), "3.14159265358979");
  assert.ok(!hidesSecret("lunch with Mireille"));
  // A digest in a document or a terminal is data.
  assert.equal(shownValue(node("document text", { text: card })), card);
  assert.equal(shownValue(node("terminal", { text: card })), card);
});
