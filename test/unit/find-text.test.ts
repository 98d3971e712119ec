// find's `text`: one query matched against an element's name, label, value (or text) and description
// at once, the reply saying where it was found when that is not the name (issue 56: "Page 1 of 3"
// was a value, and find by name missed it).
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

const dir = mkdtempSync(join(tmpdir(), "deskhand-find-text-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const SHOWN = ["enabled", "sensitive", "visible", "showing"] as State[];
type Match = { role: string; name: string | null; text_in?: string };
/** A find's matches, from a call that must have answered. */
function matchesOf(result: Awaited<ReturnType<typeof callTool>>): Match[] {
  assert.ok(result.ok, JSON.stringify(!result.ok && result.error));
  return result.output.data.matches as Match[];
}
const at = (y: number) => ({ x: 20, y, width: 200, height: 24 });
const elements: FakeElement[] = [
  {
    role: "label",
    name: "",
    text: "Page 1 of 3",
    interfaces: ["Accessible", "Text"],
    states: SHOWN,
    bounds: at(10),
  },
  { role: "push button", name: "Send", description: "Mail the invoice now", states: SHOWN, bounds: at(40) },
  { role: "push button", name: "Next page", states: SHOWN, bounds: at(70) },
  {
    role: "password text",
    name: "Secret",
    text: "page-secret",
    interfaces: ["Accessible", "Text"],
    states: SHOWN,
    bounds: at(100),
  },
];

it("text finds words in a value, a description or a name, and says where; never in a password", async () => {
  const { context } = oneWindow("Pages", elements, dir);
  const find = (query: Record<string, unknown>) =>
    callTool(context, toolNamed("find"), { target: { kind: "title", glob: "Pages" }, ...query });

  // No element is named so; the reply lists where the words are, with a ref, in the same call.
  const byName = await find({ name: "Page 1 of 3" });
  assert.ok(byName.ok);
  assert.equal(byName.output.data.total, 0, "no element is named so");
  assert.match(
    byName.output.text,
    /^No match for name "Page 1 of 3"\.\nIts words are on this, not as a name:\n- label = "Page 1 of 3" · found in its value \[ref=(s\d+:\w+)\]/,
  );
  const elsewhere = byName.output.data.elsewhere as { ref: string }[];
  const info = await callTool(context, toolNamed("element_info"), { ref: elsewhere[0]!.ref });
  assert.ok(info.ok, "its ref is one the agent can use");
  const nowhere = await find({ name: "Nowhere at all" });
  assert.ok(nowhere.ok);
  assert.equal(nowhere.output.data.elsewhere, undefined);

  const page = await find({ text: "page 1 OF 3" });
  assert.ok(page.ok);
  assert.deepEqual(
    matchesOf(page).map((m) => [m.role, m.text_in]),
    [["label", "value"]],
  );
  assert.match(page.output.text, /label = "Page 1 of 3" · found in its value \[ref=/);

  const mail = await find({ text: "invoice" });
  assert.ok(mail.ok);
  assert.equal(matchesOf(mail)[0]?.name, "Send");
  assert.equal(matchesOf(mail)[0]?.text_in, "description");
  assert.match(mail.output.text, /"Send" described "Mail the invoice now" · found in its description/);

  // In a name the line says nothing more; a password's text is never searched.
  const pages = await find({ text: "page", role: "push button" });
  assert.ok(pages.ok);
  assert.deepEqual(
    matchesOf(pages).map((m) => [m.name, m.text_in]),
    [["Next page", undefined]],
  );
  const secret = await find({ text: "secret" });
  assert.ok(secret.ok);
  assert.deepEqual(
    matchesOf(secret).map((m) => m.role),
    ["password text"],
    "found by its name, Secret",
  );
  assert.deepEqual(matchesOf(await find({ text: "page-secret" })), []);
});

it("a match left out as off screen is no reason to point at pixels: only a tree with no match is", async () => {
  const hidden: FakeElement = {
    role: "push button",
    name: "Export",
    states: ["enabled", "sensitive", "visible"] as State[],
  };
  const canvas: FakeElement = {
    role: "drawing area",
    states: SHOWN,
    bounds: { x: 0, y: 200, width: 400, height: 300 },
  };
  const { context } = oneWindow("Pages", [hidden, canvas], dir);
  const find = (name: string) =>
    callTool(context, toolNamed("find"), { target: { kind: "title", glob: "Pages" }, name });
  const offScreen = await find("Export");
  assert.ok(offScreen.ok);
  assert.equal(offScreen.output.data.total, 0);
  assert.match(offScreen.output.text, /1 not on screen .*include_off_screen lists them/);
  assert.doesNotMatch(offScreen.output.text, /pixels only/);
  const nowhere = await find("Import");
  assert.ok(nowhere.ok);
  assert.match(nowhere.output.text, /Part of this scope is pixels only/);
});
