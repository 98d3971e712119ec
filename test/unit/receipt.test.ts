// How a receipt reads where the call did not come back: a window that appeared meanwhile is named as
// what holds the call (a modal dialog the action opened); with none, the outcome is unknown.
import assert from "node:assert/strict";
import { it } from "node:test";
import { type Receipt, renderReceipt } from "../../src/core/receipt.js";

const base: Receipt = {
  ref: "s1:e1",
  action: "invoke",
  route: 'Action.DoAction("Press")',
  action_outcome: "unknown",
  after: null,
  after_read: "partial",
  windows_appeared: [],
  windows_disappeared: [],
};

it("a call held by the dialog it opened says so, and a call with no such window is unknown", () => {
  const held = renderReceipt({
    ...base,
    windows_appeared: [{ id: 7, title: "Save As", app: "kate" }],
    held_by: { id: 7, title: "Save As" },
    detail: "the call did not return in time: the app may be showing a modal dialog, or hung",
  });
  assert.match(held, /it opened window 7 "Save As", which holds the call until it closes \(a modal dialog\)/);
  assert.doesNotMatch(held, /outcome unknown|or hung/);
  assert.match(renderReceipt(base), /outcome unknown: the call did not return in time/);
});

it("an app that exited is said to have exited, not that its element is unreadable", () => {
  const text = renderReceipt({
    ...base,
    action_outcome: "completed",
    after_read: "unavailable",
    unread: ["the element is gone"],
    app_exited: { pid: 42, app: "python3" },
  });
  assert.match(text, /the app exited: python3 \(pid 42\) has no window and no process left/);
  assert.doesNotMatch(text, /after_read/);
});
