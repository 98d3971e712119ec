// What stands at a point, on a fake desktop shaped as the toolkits report it: a closed menu whose
// item still claims `showing` with its stale bounds over a button (what a Qt menu bar gave), and a
// hidden page whose committing button keeps its bounds. Only what is on screen is judged.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { FakeElement } from "../../src/platform/fake/backend.js";
import type { State } from "../../src/platform/roles.js";
import type { RawNode } from "../../src/platform/types.js";
import { commitReason } from "../../src/safety/classify.js";
import { callTool } from "../../src/tools/call.js";
import { opensMenu } from "../../src/tools/hands/facts.js";
import { toolNamed } from "../../src/tools/registry.js";
import { fakeButton, fakeContext } from "./fake-desktop.js";

const dir = mkdtempSync(join(tmpdir(), "deskhand-hits-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const showing: State[] = ["enabled", "sensitive", "showing", "visible"];
const hidden: State[] = ["enabled", "sensitive"];
const button = (name: string, states: State[], y: number): FakeElement => fakeButton(name, y, states);

/** Alpha at (100, 55), under a closed menu's stale "Delete All" and a hidden page's "Send". */
const root = (): FakeElement => ({
  role: "frame",
  name: "Stale",
  states: showing,
  bounds: { x: 0, y: 0, width: 400, height: 300 },
  children: [
    {
      role: "menu bar",
      states: showing,
      bounds: { x: 0, y: 0, width: 400, height: 20 },
      children: [
        {
          role: "menu item",
          name: "Edit",
          states: showing,
          bounds: { x: 0, y: 0, width: 40, height: 20 },
          children: [
            {
              role: "popup menu",
              states: hidden,
              bounds: { x: 0, y: 20, width: 200, height: 60 },
              children: [button("Delete All", showing, 40)].map((b) => ({
                ...b,
                role: "menu item" as const,
              })),
            },
          ],
        },
      ],
    },
    {
      role: "page tab list",
      states: showing,
      bounds: { x: 0, y: 20, width: 400, height: 280 },
      children: [
        {
          role: "page tab",
          name: "Shown",
          states: showing,
          bounds: { x: 0, y: 20, width: 400, height: 280 },
          children: [button("Alpha", showing, 40)],
        },
        {
          role: "page tab",
          name: "Hidden",
          states: hidden,
          bounds: { x: 0, y: 20, width: 400, height: 280 },
          children: [button("Send", showing, 40)],
        },
      ],
    },
  ],
});

describe("what stands at a point", () => {
  it("a closed menu's item and a hidden page's button, whatever they claim, do not: the button on screen is clicked", async () => {
    const { hands, context } = fakeContext({
      windows: [
        {
          id: 7,
          title: "Stale",
          pid: 11,
          app: "fake",
          rect: { x: 0, y: 0, width: 400, height: 300 },
          root: root(),
        },
      ],
      hands: { windows: [{ id: 7, rect: { x: 0, y: 0, width: 400, height: 300 } }], active: 7 },
      dir,
    });
    const result = await callTool(context, toolNamed("click"), {
      at: { space: "global", x: 100, y: 55 },
      intent: "Press Alpha",
    });
    assert.ok(result.ok, JSON.stringify(!result.ok && result.error));
    assert.equal(result.output.data.status, "done", result.output.text);
    assert.match(result.output.text, /push button "Alpha"/);
    assert.deepEqual(hands.sent, ["click left 1 at 100,55"]);
    await context.close();
  });
});

describe("the rules for a menu title, a double click and a drop", () => {
  const node = (role: RawNode["role"], children: RawNode[] = []) =>
    ({ role, name: "x", children, states: [], unread: [] }) as unknown as RawNode;

  it("a menu item holding its menu opens it; a button holding one is a split button, judged by its label", () => {
    assert.equal(opensMenu(node("menu item", [node("popup menu")])), true);
    assert.equal(opensMenu(node("push button", [node("popup menu")])), false);
    // GTK 3's GtkMenuButton: a toggle button holding its menu's items.
    assert.equal(opensMenu(node("toggle button", [node("menu item"), node("menu item")])), true);
    assert.equal(opensMenu(node("toggle button", [node("label")])), false);
    assert.equal(opensMenu(node("menu item")), false);
    assert.equal(commitReason({ role: "menu item", name: "☰", opensMenu: true }), undefined);
    assert.match(commitReason({ role: "menu item", name: "☰" }) ?? "", /symbols only/);
  });

  it("a double click on a command counts as committing; on a list's row or a check box it is judged by its label", () => {
    assert.match(commitReason({ role: "push button", name: "Count 1", twice: true }) ?? "", /twice/);
    assert.match(commitReason({ role: "push button", name: "Remove…", twice: true }) ?? "", /twice/);
    assert.match(
      commitReason({ role: "push button", name: "Delete", twice: true }) ?? "",
      /"delete" commits/,
    );
    assert.equal(commitReason({ role: "list item", name: "notes.txt", twice: true }), undefined);
    assert.equal(commitReason({ role: "check box", name: "Send me news", twice: true }), undefined);
  });

  it("a drop is judged by the words of what it lands on, the drop's own words aside", () => {
    assert.match(commitReason({ role: "label", name: "Trash", dropped: true }) ?? "", /drops .* "Trash"/);
    assert.match(
      commitReason({ role: "label", name: "Drop here to delete", dropped: true }) ?? "",
      /"Drop here to delete" \("delete" commits\)/,
    );
    assert.equal(commitReason({ role: "label", name: "Drop here", dropped: true }), undefined);
    assert.equal(commitReason({ role: "label", name: "Documents", dropped: true }), undefined);
    assert.equal(
      commitReason({ role: "label", name: "Trash" }),
      undefined,
      "a click on a label presses nothing",
    );
  });
});
