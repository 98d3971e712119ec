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
  assert.match(
    held,
    /it opened window 7 "Save As", a modal dialog: the app finishes this press only when that closes, and it is open now/,
  );
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

it("a press whose reply shows what it changed leaves nothing to judge; one that shows nothing does", () => {
  const judge = /for you to judge/;
  const pressed = { ...base, action_outcome: "completed" as const, after_read: "complete" as const };
  const opened = renderReceipt({
    ...pressed,
    windows_appeared: [{ id: 9, title: "Resize", app: "kolourpaint" }],
  });
  assert.match(opened, /window appeared: 9 "Resize"/);
  assert.doesNotMatch(opened, judge, opened);
  const retitled = renderReceipt({ ...pressed, windows_retitled: [{ id: 3, was: "a", now: "*a" }] });
  assert.doesNotMatch(retitled, judge, retitled);
  assert.match(renderReceipt(pressed), judge, "the call returned, and nothing shows what it did");
  assert.match(renderReceipt({ ...pressed, effect: "not_seen" }), judge);
});

it("an element that lost enabled and sensitive reads disabled after the act, as a view lists it", () => {
  const after = { role: "push button", name: "Push right", bounds: null };
  const pressed = { ...base, action_outcome: "completed" as const, after_read: "complete" as const };
  const off = renderReceipt({ ...pressed, after: { ...after, states: ["focusable", "showing", "visible"] } });
  assert.match(off, /after: push button "Push right" \(focusable, showing, visible, disabled\)/);
  const on = renderReceipt({ ...pressed, after: { ...after, states: ["enabled", "sensitive", "visible"] } });
  assert.doesNotMatch(on, /disabled/);
});
