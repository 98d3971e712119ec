// A dialog's committing press made indirectly (Enter in its field pressing its default Save), which
// a person allowed: where the dialog then stays, with no window come, gone or retitled, the reply
// says the press may not have happened (a file chooser's completion took the Enter in Mousepad),
// never "done"; where the dialog closes, it is done.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, it } from "node:test";
import type { FakeElement } from "../../src/platform/fake/backend.js";
import type { State } from "../../src/platform/roles.js";
import { callTool } from "../../src/tools/call.js";
import { toolNamed } from "../../src/tools/registry.js";
import { fakeContext } from "./fake-desktop.js";

const dir = mkdtempSync(join(tmpdir(), "deskhand-press-unseen-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const showing: State[] = ["enabled", "sensitive", "showing", "visible", "focusable"];
const rect = { x: 0, y: 0, width: 400, height: 300 };

function saveDialog(closes: boolean) {
  const root: FakeElement = {
    role: "dialog",
    name: "Save As",
    states: [...showing, "modal"],
    bounds: rect,
    children: [
      {
        role: "text",
        name: "Name",
        states: [...showing, "editable", "focused"],
        interfaces: ["Accessible", "Component", "Text", "EditableText"],
        bounds: { x: 20, y: 40, width: 200, height: 24 },
      },
      {
        role: "push button",
        name: "Save",
        actions: ["click"],
        interfaces: ["Accessible", "Component", "Action"],
        states: [...showing, "is default"],
        bounds: { x: 300, y: 250, width: 80, height: 30 },
      },
    ],
  };
  const desk = fakeContext({
    windows: [{ id: 7, title: "Save As", pid: 11, app: "fake", rect, root, focused: true }],
    hands: { windows: [{ id: 7, rect }], active: 7 },
    dir,
    confirm: async () => "approved",
  });
  // The app saves: its dialog goes as the key arrives.
  if (closes) {
    const chord = desk.hands.chord.bind(desk.hands);
    desk.hands.chord = async (...args) => {
      await chord(...args);
      desk.backend.desktop.windows = [];
      desk.hands.desktop.windows = [];
      desk.hands.desktop.active = undefined;
    };
  }
  return desk;
}

const pressEnter = async (context: ReturnType<typeof saveDialog>["context"]) => {
  const pressed = await callTool(context, toolNamed("key"), {
    key: "Enter",
    window: { id: 7 },
    intent: "Save the file",
  });
  assert.ok(pressed.ok, JSON.stringify(pressed));
  return pressed.output;
};

it("Enter that was to press the dialog's Save, the dialog still there: not verified, naming the press", async () => {
  const { context } = saveDialog(false);
  try {
    const pressed = await pressEnter(context);
    assert.equal(pressed.data.status, "unverified", pressed.text);
    assert.match(pressed.text, /^sent, not verified: .*it was to press push button "Save"/s);
    assert.match(pressed.text, /that press may not have happened/);
    assert.deepEqual(pressed.data.press_unseen, {
      role: "push button",
      name: "Save",
      via: "the default button",
    });
  } finally {
    await context.close();
  }
});

it("the same Enter with the dialog gone: done", async () => {
  const { context } = saveDialog(true);
  try {
    const pressed = await pressEnter(context);
    assert.equal(pressed.data.status, "done", pressed.text);
    assert.match(pressed.text, /window disappeared/);
  } finally {
    await context.close();
  }
});
