// One focus as a person sees it: Qt reports `focused` on every widget proxying the one that has it
// (KWrite's status bar buttons beside its document), and a snapshot says it on the text alone;
// where no element or every element that says it takes text, all keep it (which one has it is not
// known).
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

const dir = mkdtempSync(join(tmpdir(), "deskhand-focus-proxies-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const shown: State[] = ["enabled", "sensitive", "showing", "visible", "focusable"];
const at = (y: number) => ({ x: 10, y, width: 200, height: 24 });

async function focusedIn(children: FakeElement[]): Promise<string[]> {
  const { context } = oneWindow("Editor", children, dir);
  try {
    const result = await callTool(context, toolNamed("snapshot"), { format: "json" });
    assert.ok(result.ok, JSON.stringify(result));
    const elements = result.output.data.elements as { name: string | null; states: string[] | null }[];
    return elements.filter((e) => e.states?.includes("focused")).map((e) => e.name ?? "");
  } finally {
    await context.close();
  }
}

it("a document that takes text keeps the focus; the status bar buttons proxying it do not", async () => {
  const document: FakeElement = {
    role: "text",
    name: "Untitled",
    states: [...shown, "editable", "multi line", "focused"],
    interfaces: ["Accessible", "Component", "Text"],
    bounds: at(40),
  };
  const proxy = (name: string, y: number): FakeElement => ({
    role: "push button",
    name,
    states: [...shown, "focused"],
    bounds: at(y),
  });
  assert.deepEqual(await focusedIn([document, proxy("1:1", 80), proxy("INSERT", 120)]), ["Untitled"]);
});

it("two buttons that both say focused both keep it: which has it is not known", async () => {
  const button = (name: string, y: number): FakeElement => ({
    role: "push button",
    name,
    states: [...shown, "focused"],
    bounds: at(y),
  });
  assert.deepEqual(await focusedIn([button("A", 40), button("B", 80)]), ["A", "B"]);
});
