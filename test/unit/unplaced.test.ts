// A ref that cannot be clicked says why, and what would work: an element that shows but has no
// place deskhand trusts (a popover whose window was not found: bounds null) is pointed to its
// accessibility action or a click at a point seen; one off screen to scrolling it into view.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, it } from "node:test";
import type { FakeElement } from "../../src/platform/fake/backend.js";
import type { State } from "../../src/platform/roles.js";
import { callTool } from "../../src/tools/call.js";
import { toolNamed } from "../../src/tools/registry.js";
import { oneWindow } from "./fake-desktop.js";

const dir = mkdtempSync(join(tmpdir(), "deskhand-unplaced-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const shown: State[] = ["enabled", "sensitive", "showing", "visible"];
const item = (name: string, states: State[]): FakeElement => ({
  role: "menu item",
  name,
  states,
  actions: ["click"],
  interfaces: ["Accessible", "Component", "Action"],
  bounds: null,
});
const { context } = oneWindow(
  "Editor",
  [item("Preferences", shown), item("Later", ["enabled", "sensitive"])],
  dir,
);

const clickRef = async (name: string) => {
  const found = await callTool(context, toolNamed("find"), {
    target: { kind: "title", glob: "Editor" },
    name,
    include_off_screen: true,
  });
  assert.ok(found.ok, JSON.stringify(!found.ok && found.error));
  const ref = (found.output.data as { matches: { ref: string }[] }).matches[0]!.ref;
  const clicked = await callTool(context, toolNamed("click"), { ref, intent: `Open ${name}` });
  assert.ok(!clicked.ok, "refused");
  return clicked.error;
};

it("an element that shows with no trusted place points to its action or a point seen, not scrolling", async () => {
  const error = await clickRef("Preferences");
  assert.equal(error.code, "not_clickable");
  assert.match(error.message, /shows, but deskhand has no place for it that it can trust/);
  assert.match(error.next ?? "", /accessibility action/);
  assert.doesNotMatch(error.next ?? "", /scroll/i);
});

it("one that does not show is pointed to scrolling it into view", async () => {
  const error = await clickRef("Later");
  assert.equal(error.code, "not_clickable");
  assert.match(error.next ?? "", /scroll_into_view/);
});
