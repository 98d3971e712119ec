// Refs that hold, through the input tools on fake hands and a fake backend: an element moved since it
// was seen is pressed at its centre now and the reply says so; click and drag take find's arguments,
// and an ambiguous find sends nothing.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { FakeElement } from "../../src/platform/fake/backend.js";
import type { State } from "../../src/platform/roles.js";
import { callTool } from "../../src/tools/call.js";
import { type ToolName, toolNamed } from "../../src/tools/registry.js";
import { fakeContext } from "./fake-desktop.js";

const dir = mkdtempSync(join(tmpdir(), "deskhand-refs-input-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const showing: State[] = ["enabled", "sensitive", "showing", "visible", "focusable"];
const go = (x: number): FakeElement => ({
  role: "push button",
  name: "Go",
  states: showing,
  actions: ["click"],
  interfaces: ["Accessible", "Component", "Action"],
  bounds: { x, y: 40, width: 60, height: 20 },
});
const window = (id: number, title: string, buttons: FakeElement[]) => ({
  id,
  title,
  pid: 10 + id,
  app: "fake",
  rect: { x: 0, y: 0, width: 400, height: 300 },
  root: {
    role: "frame" as const,
    name: title,
    states: showing,
    bounds: { x: 0, y: 0, width: 400, height: 300 },
    children: [{ role: "panel" as const, states: showing, children: buttons }],
  },
});

function desktop(buttons: FakeElement[]) {
  const windows = [window(7, "Form", buttons)];
  const fake = fakeContext({
    windows,
    hands: { windows: windows.map((w) => ({ id: w.id, rect: w.rect })), active: 7 },
    dir,
  });
  const call = (tool: ToolName, input: Record<string, unknown>) =>
    callTool(fake.context, toolNamed(tool), input);
  return { ...fake, call };
}

describe("input by a ref that moved, and by find", () => {
  it("a moved button is clicked at its centre now, and the reply says it moved", async () => {
    const { backend, hands, context, call } = desktop([go(20)]);
    const found = await call("find", { target: { kind: "title", glob: "Form" }, role: "push button" });
    const ref = found.ok ? (found.output.data.matches as { ref: string }[])[0]!.ref : "";
    backend.replace("w7/0/0", go(23));
    const clicked = await call("click", { ref, intent: "Press Go" });
    assert.ok(clicked.ok && clicked.outcome === "done", JSON.stringify(clicked));
    assert.deepEqual(
      hands.sent.filter((s) => s.startsWith("click")),
      ["click left 1 at 53,50"],
    );
    assert.match(clicked.output.text, /\nmoved: from 20,40 60x20 to 23,40 60x20/);
    // act follows the same rule: the invoke reaches the moved button, and says it moved.
    const acted = await call("act", { ref, action: { kind: "invoke" }, intent: "Press Go" });
    assert.ok(acted.ok && acted.outcome === "done", JSON.stringify(acted));
    assert.match(acted.output.text, /\nmoved: from 20,40 60x20 to 23,40 60x20/);
    assert.deepEqual(backend.desktop.invoked, ["Go"]);
    await context.close();
  });

  it("click and drag by find land on the one match; an ambiguous find sends nothing", async () => {
    const { hands, context, call } = desktop([go(20), go(120)]);
    const both = { target: { kind: "title", glob: "Form" }, role: "push button", name: "Go" };
    const ambiguous = await call("click", { find: both, intent: "Press Go" });
    assert.ok(!ambiguous.ok && ambiguous.error.code === "ambiguous", JSON.stringify(ambiguous));
    assert.match(ambiguous.error.message, /nth 0: .*\n {2}nth 1: /);
    assert.equal(hands.sent.length, 0, "nothing was sent");
    const second = { ...both, nth: 1 };
    const clicked = await call("click", { find: second, intent: "Press the second Go" });
    assert.ok(clicked.ok && clicked.outcome === "done", JSON.stringify(clicked));
    assert.deepEqual(
      hands.sent.filter((s) => s.startsWith("click")),
      ["click left 1 at 150,50"],
    );
    const one = { ...both, nth: 0 };
    const dragged = await call("drag", {
      from: { find: one },
      to: { at: { space: "global", x: 200, y: 200 } },
      intent: "Drag Go away",
    });
    assert.ok(dragged.ok && dragged.outcome === "done", JSON.stringify(dragged));
    assert.ok(hands.sent.includes("drag left 50,50 to 200,200"), JSON.stringify(hands.sent));
    const both2 = await call("click", { ref: "s1:e1", find: one, intent: "Press Go" });
    assert.ok(!both2.ok && both2.error.code === "invalid_params", JSON.stringify(both2));
    await context.close();
  });
});

describe("element_info on an element whose states changed", () => {
  it("says it is the same element and which states changed, never 'unchanged'", async () => {
    const disabled: FakeElement = { ...go(20), states: ["sensitive", "showing", "visible", "focusable"] };
    const { backend, call } = desktop([disabled]);
    const found = await call("find", { target: { kind: "title", glob: "Form" }, role: "push button" });
    const ref = found.ok ? (found.output.data.matches as { ref: string }[])[0]!.ref : "";
    const before = await call("element_info", { ref });
    assert.ok(before.ok);
    assert.match(before.output.text, /verified: the same element, unchanged/);
    backend.replace("w7/0/0", go(20));
    const info = await call("element_info", { ref });
    assert.ok(info.ok, JSON.stringify(info));
    assert.match(info.output.text, /verified: the same element; its states since: enabled: no → yes/);
    assert.doesNotMatch(info.output.text, /unchanged/);
    assert.deepEqual(info.output.data.states_changed, ["enabled: no → yes"]);
  });

  it("says its value changed since it was seen (a size field set in a dialog), never 'unchanged'", async () => {
    const size = (value: string): FakeElement => ({
      role: "text",
      name: "Size",
      text: value,
      bounds: { x: 10, y: 40, width: 100, height: 24 },
      interfaces: ["Accessible", "Component", "Text", "EditableText"],
      states: ["enabled", "sensitive", "showing", "visible", "editable", "focusable"],
    });
    const { backend, call } = desktop([size("12 pt")]);
    const found = await call("find", { target: { kind: "title", glob: "Form" }, role: "text" });
    const ref = found.ok ? (found.output.data.matches as { ref: string }[])[0]!.ref : "";
    backend.replace("w7/0/0", size("20 pt"));
    const info = await call("element_info", { ref });
    assert.ok(info.ok, JSON.stringify(info));
    assert.match(
      info.output.text,
      /verified: the same element; its value "12 pt" → "20 pt" since it was seen/,
    );
    assert.deepEqual(info.output.data.value_changed, { was: "12 pt", now: "20 pt" });
  });
});
