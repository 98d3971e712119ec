// observe with visibleOnly false lists what is off screen as targets, each marked so (a page's form
// below the fold); by default it leaves them out and counts them, saying visibleOnly false shows them.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, it } from "node:test";
import type { FakeElement } from "../../src/platform/fake/backend.js";
import type { State } from "../../src/platform/roles.js";
import { callTool } from "../../src/tools/call.js";
import { toolNamed } from "../../src/tools/registry.js";
import { fakeButton, oneWindow } from "./fake-desktop.js";

const dir = mkdtempSync(join(tmpdir(), "deskhand-observe-off-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const shown: State[] = ["enabled", "sensitive", "showing", "visible", "focusable"];
const button = (name: string, y: number, states = shown): FakeElement =>
  fakeButton(name, y, states, { width: 80, height: 24 });

it("visibleOnly false lists the targets off screen; by default they are counted and said", async () => {
  const below = button("Place order", 900, ["enabled", "sensitive", "visible", "focusable"]);
  const { context } = oneWindow("Checkout", [button("Update cart", 40), below], dir);
  try {
    const observe = (visibleOnly?: boolean) =>
      callTool(context, toolNamed("observe"), {
        target: { kind: "focused" },
        pixels: false,
        ...(visibleOnly === undefined ? {} : { visibleOnly }),
      });
    const shownOnly = await observe();
    assert.ok(shownOnly.ok, JSON.stringify(!shownOnly.ok && shownOnly.error));
    const text = shownOnly.output.text ?? "";
    assert.doesNotMatch(text, /Place order/, text);
    assert.match(text, /1 off screen \(visibleOnly: false shows them\)/, text);
    const all = await observe(false);
    assert.ok(all.ok, JSON.stringify(!all.ok && all.error));
    // Each says it is off screen, where a click would miss it; the one on screen does not.
    assert.match(all.output.text ?? "", /push button "Place order" \(off screen\)/, all.output.text);
    assert.match(all.output.text ?? "", /push button "Update cart" \[ref=/, all.output.text);
    assert.doesNotMatch(all.output.text ?? "", /off screen \(visibleOnly/, all.output.text);
  } finally {
    await context.close();
  }
});
