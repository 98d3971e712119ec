// fill_form on a fake form whose app reacts: one line for the whole call says what the form changed
// in the windows (a field that opened a window), beside each field's own line.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, it } from "node:test";
import type { FakeElement } from "../../src/platform/fake/backend.js";
import type { State } from "../../src/platform/roles.js";
import { callTool } from "../../src/tools/call.js";
import { toolNamed } from "../../src/tools/registry.js";
import { fakeContext, fakeWindow } from "./fake-desktop.js";

const dir = mkdtempSync(join(tmpdir(), "deskhand-fill-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const showing: State[] = ["enabled", "sensitive", "showing", "visible", "focusable", "editable"];
const field = (name: string, y: number): FakeElement => ({
  role: "text",
  name,
  text: "",
  states: showing,
  interfaces: ["Accessible", "Component", "Text", "EditableText"],
  bounds: { x: 20, y, width: 200, height: 24 },
});
const rect = { x: 0, y: 0, width: 400, height: 300 };

it("a field whose value opens a window: fill_form says so once, for the whole form", async () => {
  const form = fakeWindow("New account", [field("Name", 40), field("Country", 80)], { id: 7 });
  const windows = [form];
  const { context } = fakeContext({
    windows,
    hands: { windows: [{ id: 7, rect }], active: 7 },
    dir,
    // The app offers its country list in a window of its own once a country is typed.
    react: (element, _action, desktop) => {
      if (element.name === "Country")
        desktop.windows.push({ id: 8, title: "Pick a country", pid: 11, app: "fake", rect });
    },
  });
  try {
    const result = await callTool(context, toolNamed("fill_form"), {
      target: { kind: "title", glob: "New account" },
      fields: [
        { label: "Name", value: "Ada" },
        { label: "Country", value: "Ireland" },
      ],
    });
    assert.ok(result.ok, JSON.stringify(!result.ok && result.error));
    const text = result.output.text ?? "";
    assert.match(text, /window appeared: 8 "Pick a country"/, text);
    assert.equal(text.match(/window appeared/g)?.length, 1, text);
    // Each field was set and read back from the fake app.
    const [name, country] = form.root!.children!;
    assert.equal(name!.text, "Ada");
    assert.equal(country!.text, "Ireland");
  } finally {
    await context.close();
  }
});

it("fields refused for one reason: the reason is said once, whole, and named by its field after", async () => {
  const form = fakeWindow("Address", [field("Name", 40), field("Street", 80), field("City", 120)], { id: 9 });
  const { context } = fakeContext({
    windows: [form],
    hands: { windows: [{ id: 9, rect }], active: 9 },
    dir,
    ceiling: "L1",
  });
  try {
    const result = await callTool(context, toolNamed("fill_form"), {
      target: { kind: "title", glob: "Address" },
      fields: [
        { label: "Name", value: "Erika" },
        { label: "Street", value: "Hauptstraße 5" },
        { label: "City", value: "Berlin" },
      ],
      intent: "Fill the address",
    });
    assert.ok(result.ok, JSON.stringify(!result.ok && result.error));
    const text = result.output.text ?? "";
    assert.match(text, /^refused: no field was set/, text);
    assert.equal(text.match(/above the ceiling L1/g)?.length, 1, text);
    assert.equal(text.match(/the same as s\d+:e\d+/g)?.length, 2, text);
    assert.ok(
      form.root!.children!.every((f) => f.text === ""),
      "no field was written",
    );
  } finally {
    await context.close();
  }
});
