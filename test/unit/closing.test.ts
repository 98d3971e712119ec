// Closing a window is judged by what it holds (src/tools/hands/closing.ts): one with nothing a person
// made or chose closes with no one asked; text in a field, a canvas, a choice or an unsaved mark in
// its title asks, and nothing is sent without a person.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { FakeElement } from "../../src/platform/fake/backend.js";
import type { Role, State } from "../../src/platform/roles.js";
import { callTool } from "../../src/tools/call.js";
import { toolNamed } from "../../src/tools/registry.js";
import { oneWindow } from "./fake-desktop.js";

const dir = mkdtempSync(join(tmpdir(), "deskhand-closing-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const showing: State[] = ["enabled", "sensitive", "showing", "visible"];
const field = (text: string): FakeElement => ({
  role: "text",
  name: "Address",
  states: [...showing, "editable", "focusable"],
  interfaces: ["Accessible", "Component", "Text", "EditableText"],
  text,
});
const viewer: FakeElement[] = [
  {
    role: "tree",
    name: "Contents",
    states: showing,
    children: [{ role: "tree item", name: "Intro", states: showing }],
  },
  { role: "push button", name: "Back", states: showing },
];

/** Closes the one window by `window close`, or by the window manager's alt+F4 through `key`. */
async function close(
  title: string,
  children: FakeElement[],
  route: "window" | "key" = "window",
  role: Role = "frame",
) {
  const { hands, context } = oneWindow(title, children, dir, role);
  const result =
    route === "window"
      ? await callTool(context, toolNamed("window"), {
          action: "close",
          window: { id: 7 },
          intent: "Done reading",
        })
      : await callTool(context, toolNamed("key"), { key: "alt+F4", intent: "Done reading" });
  await context.close();
  assert.ok(result.ok, JSON.stringify(!result.ok && result.error));
  return { outcome: result.outcome, reason: String(result.output.data.reason ?? ""), sent: hands.sent };
}

describe("closing a window, judged by what it holds", () => {
  it("a viewer with an empty field: closed with no person, by the window tool and by alt+F4", async () => {
    for (const route of ["window", "key"] as const) {
      const closed = await close("Help", [...viewer, field("")], route);
      assert.equal(closed.outcome, "done", `${route}: ${closed.reason}`);
    }
    const typed = await close("Help", [...viewer, field("draft")], "key");
    assert.equal(typed.outcome, "refused", typed.reason);
    assert.match(typed.reason, /alt\+F4|holds text/);
    assert.deepEqual(typed.sent, [], "nothing was sent");
  });

  it("text in a field, a canvas, a choice, an unsaved mark: asks, nothing done", async () => {
    const cases: [string, FakeElement[], RegExp][] = [
      ["Help", [...viewer, field("draft")], /its text "Address" holds text/],
      ["Sketch", [{ role: "drawing area", name: "Page", states: showing }], /holds a drawing area/],
      ["Find", [{ role: "check box", name: "Match case", states: showing }], /holds a check box/],
      ["notes.txt * — KWrite", viewer, /its title marks unsaved changes/],
      ["jEdit - Untitled-1 (modified)", viewer, /its title marks unsaved changes/],
    ];
    for (const [title, children, why] of cases) {
      const closed = await close(title, children);
      assert.equal(closed.outcome, "refused", `${title}: ${closed.reason}`);
      assert.match(closed.reason, why, title);
    }
  });

  it("a dialog's close is its Cancel: a choice and a picture in it are lost by neither; typed text asks", async () => {
    const tip: FakeElement[] = [
      { role: "drawing area", name: "", states: showing },
      { role: "check box", name: "Show tips on startup", states: [...showing, "checked"] },
    ];
    for (const route of ["window", "key"] as const) {
      const closed = await close("Tip of the Day", tip, route, "dialog");
      assert.equal(closed.outcome, "done", `${route}: ${closed.reason}`);
    }
    const typed = await close("Comment", [...tip, field("draft")], "window", "dialog");
    assert.equal(typed.outcome, "refused", typed.reason);
    assert.match(typed.reason, /holds text/);
  });
});

describe("a chord judged to open a menu", () => {
  // A menu bar whose Edit title has the mnemonic alt+e; the fake display opens nothing.
  const menuBar: FakeElement[] = [
    {
      role: "menu bar",
      states: showing,
      children: [
        {
          role: "menu item",
          name: "Edit",
          states: showing,
          keyBindings: ["e;<Alt>e;"],
          // Closed: its menu and items are not on screen.
          children: [
            {
              role: "menu",
              name: "Edit",
              states: ["enabled"],
              children: [{ role: "menu item", name: "Cut", states: ["enabled"] }],
            },
          ],
        },
      ],
    },
    { role: "push button", name: "Back", states: showing },
  ];

  it("is sent with no person, and its reply says the menu did not show, where none showed", async () => {
    const { hands, context } = oneWindow("Notes", menuBar, dir);
    const result = await callTool(context, toolNamed("key"), { key: "alt+e", intent: "Open the Edit menu" });
    await context.close();
    assert.ok(result.ok, JSON.stringify(!result.ok && result.error));
    assert.equal(result.output.data.status, "unverified", result.output.text);
    assert.equal((result.output.data.result as { menu_opened?: boolean }).menu_opened, false);
    assert.match(
      result.output.text,
      /^pressed, not verified: pressed alt\+e.*the menu it opens \("Edit"\) did not show/s,
    );
    assert.ok(hands.sent.length > 0, "the chord was sent");
  });
});
