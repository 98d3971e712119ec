import assert from "node:assert/strict";
import { it } from "node:test";
import { treeIncomplete } from "../../src/core/completeness.js";
import type { Role } from "../../src/platform/roles.js";
import type { RawNode, WindowInfo } from "../../src/platform/types.js";

const node = (role: Role, children: RawNode[] = [], extra: Partial<RawNode> = {}): RawNode => ({
  handle: role,
  role,
  name: "",
  description: "",
  states: [],
  interfaces: [],
  childCount: children.length,
  indexInParent: 0,
  children,
  unread: [],
  ...extra,
});
const window = (app: string, width = 1000, height = 800): WindowInfo => ({
  id: 7,
  title: "Page",
  pid: 1,
  app,
  rect: { x: 0, y: 0, width, height },
  focused: true,
  accessible: true,
});

it("a large window with nothing readable under its frame is incomplete, with the toolkit's fix", () => {
  const unanswered = node("unknown", [], { unread: ["role", "states", "name"], childCount: undefined });
  const known = treeIncomplete(window("Chromium"), node("frame", [unanswered]));
  assert.match(known!.reason, /exposes nothing under its frame/);
  assert.match(known!.fix, /--force-renderer-accessibility/);
  assert.match(treeIncomplete(window("Firefox"), node("frame"))!.fix, /GNOME_ACCESSIBILITY=1/);
  assert.equal(
    treeIncomplete(window("Chromium", 100, 50), node("frame")),
    undefined,
    "a small window may be empty",
  );
});

it("an empty web document is incomplete; a tree with content is not", () => {
  const empty = node("frame", [node("panel", [node("document web", [], { name: "Form" })])]);
  assert.match(treeIncomplete(window("Chromium"), empty)!.reason, /document web "Form" has no children/);
  const full = node("frame", [node("panel", [node("document web", [node("push button")])])]);
  assert.equal(treeIncomplete(window("Chromium"), full), undefined);
});
