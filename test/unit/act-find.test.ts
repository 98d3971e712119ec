// act's inline find and find agree on what matches: where find, which leaves out what is off screen,
// shows one element and a hidden copy of it is off screen, act acts on the one that shows instead of
// answering "ambiguous: 2". Off screen alone still matches (a closed menu's item).
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

const dir = mkdtempSync(join(tmpdir(), "deskhand-act-find-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const box = (name: string, shown: boolean): FakeElement => ({
  role: "check box",
  name,
  actions: ["click"],
  interfaces: ["Accessible", "Action", "Component"],
  // The copy reports visible, not showing, and has no bounds (as GTK keeps a popover's copy).
  states: (shown
    ? ["enabled", "sensitive", "visible", "showing"]
    : ["enabled", "sensitive", "visible"]) as State[],
  ...(shown ? { bounds: { x: 20, y: 40, width: 120, height: 24 } } : {}),
});

it("act by find takes the one find shows; an element only off screen is still found", async () => {
  const shown = box("Remember me", true);
  const copy = box("Remember me", false);
  const hiddenOnly = box("Advanced", false);
  const { context } = oneWindow("Sign in", [shown, copy, hiddenOnly], dir);
  const target = { kind: "title", glob: "Sign in" };
  const found = await callTool(context, toolNamed("find"), {
    target,
    role: "check box",
    name: "Remember me",
  });
  assert.ok(found.ok && found.output.data.total === 1, JSON.stringify(found));
  const acted = await callTool(context, toolNamed("act"), {
    find: { target, role: "check box", name: "Remember me" },
    action: { kind: "toggle" },
  });
  assert.ok(acted.ok, JSON.stringify(!acted.ok && acted.error));
  assert.ok(shown.states?.includes("checked"), "the shown one was toggled");
  assert.ok(!copy.states?.includes("checked"), "its hidden copy was not");
  const advanced = await callTool(context, toolNamed("act"), {
    find: { target, role: "check box", name: "Advanced" },
    action: { kind: "toggle" },
  });
  assert.ok(advanced.ok, JSON.stringify(!advanced.ok && advanced.error));
  assert.ok(hiddenOnly.states?.includes("checked"));
  await context.close();
});

it("act's nth counts what find lists: a hidden copy between two shown ones is not the second", async () => {
  // LibreOffice's Format Cells holds spin buttons of its hidden tabs between those of the one shown.
  const first = box("Places", true);
  const hidden = box("Places", false);
  const second = box("Places", true);
  const { context } = oneWindow("Format", [first, hidden, second], dir);
  const target = { kind: "title", glob: "Format" };
  const found = await callTool(context, toolNamed("find"), { target, role: "check box" });
  assert.ok(found.ok && found.output.data.total === 2, JSON.stringify(found));
  const acted = await callTool(context, toolNamed("act"), {
    find: { target, role: "check box" },
    nth: 1,
    action: { kind: "toggle" },
  });
  assert.ok(acted.ok, JSON.stringify(!acted.ok && acted.error));
  assert.ok(second.states?.includes("checked"), "the second one find lists was toggled");
  assert.ok(!hidden.states?.includes("checked"), "not the hidden one between");
  await context.close();
});

it("an element that answers neither role nor name is counted in find's reply, one with a role is listed", async () => {
  const gone = (n: number): FakeElement => ({
    ...box(`Gone ${n}`, true),
    unreadable: ["role", "name", "states"],
  });
  const nameless: FakeElement = { ...box("Keep", true), unreadable: ["name"] };
  const { context } = oneWindow("Leftovers", [box("Keep me", true), gone(1), gone(2), nameless], dir);
  const found = await callTool(context, toolNamed("find"), {
    target: { kind: "title", glob: "Leftovers" },
    name: "Keep",
  });
  assert.ok(found.ok, JSON.stringify(found));
  const text = found.output.text;
  assert.equal((found.output.data.unreadable_candidates as unknown[]).length, 3, text);
  assert.match(text, /^\? 2 elements answered neither role nor name .*: not checked$/m, text);
  assert.match(text, /^\? check box null \[ref=[^\]]+\] could not be checked: name unread$/m, text);
  assert.doesNotMatch(text, /\? unknown/, text);
  await context.close();
});

it("an act's reply says which toggled state the element gained or lost", async () => {
  const bold = box("Bold", true);
  const { context } = oneWindow("Format", [bold], dir);
  const toggle = () =>
    callTool(context, toolNamed("act"), {
      find: { target: { kind: "title", glob: "Format" }, role: "check box", name: "Bold" },
      action: { kind: "toggle" },
    });
  const on = await toggle();
  assert.ok(on.ok, JSON.stringify(on));
  assert.match(
    on.output.text,
    /^after: check box "Bold" \([^)]*checked[^)]*\); now checked$/m,
    on.output.text,
  );
  // The toggle asked is read back: nothing is left for the caller to judge.
  assert.equal(on.output.data.effect, "seen");
  assert.doesNotMatch(on.output.text, /for you to judge/, on.output.text);
  const off = await toggle();
  assert.ok(off.ok, JSON.stringify(off));
  assert.ok(!bold.states?.includes("checked"));
  assert.match(off.output.text, /^after: check box "Bold" \([^)]*\); no longer checked$/m, off.output.text);
  await context.close();
});

it("a window id written as digits in a string is taken, as `windows` prints it bare; other text is refused", async () => {
  const { context } = oneWindow("Digits", [box("Keep me", true)], dir);
  const listed = await callTool(context, toolNamed("windows"), {});
  assert.ok(listed.ok, JSON.stringify(listed));
  const id = /^- (\d+) "Digits"/m.exec(listed.output.text)?.[1];
  assert.ok(id, listed.output.text);
  const read = await callTool(context, toolNamed("snapshot"), { target: { kind: "window", id } });
  assert.ok(read.ok, JSON.stringify(read));
  assert.match(read.output.text, /check box "Keep me"/);
  const typed = await callTool(context, toolNamed("type_text"), {
    text: "x",
    intent: "Type",
    window: { id },
  });
  assert.ok(typed.ok || typed.error.code !== "invalid_params", JSON.stringify(typed));
  const wrong = await callTool(context, toolNamed("snapshot"), { target: { kind: "window", id: "Digits" } });
  assert.ok(!wrong.ok && wrong.error.code === "invalid_params", JSON.stringify(wrong));
  const yes = await callTool(context, toolNamed("snapshot"), { target: { kind: "window", id: true } });
  assert.ok(!yes.ok && yes.error.code === "invalid_params", "true is no window 1");
  await context.close();
});

it("a select the toolkit answers false to, that reads unselected, says it did not take", async () => {
  const tab = (name: string, refusesSelect: boolean): FakeElement => ({
    role: "page tab",
    name,
    actions: ["click"],
    interfaces: ["Accessible", "Action", "Component"],
    states: ["enabled", "sensitive", "visible", "showing", "selectable"] as State[],
    bounds: { x: 20, y: 40, width: 120, height: 24 },
    refusesSelect,
  });
  const sent = tab("Sent", true);
  const archive = tab("Archive", false);
  const { context } = oneWindow("Messages", [sent, archive], dir);
  const target = { kind: "title", glob: "Messages" };
  const refused = await callTool(context, toolNamed("act"), {
    find: { target, role: "page tab", name: "Sent" },
    action: { kind: "select" },
  });
  assert.ok(refused.ok, JSON.stringify(!refused.ok && refused.error));
  assert.match(refused.output.text, /The tab does not read as selected afterwards/, refused.output.text);
  const taken = await callTool(context, toolNamed("act"), {
    find: { target, role: "page tab", name: "Archive" },
    action: { kind: "select" },
  });
  assert.ok(taken.ok, JSON.stringify(!taken.ok && taken.error));
  assert.match(taken.output.text, /The tab reads selected afterwards/, taken.output.text);
  await context.close();
});

it("element_info gives a slider's range", async () => {
  const slider: FakeElement = {
    role: "slider",
    name: "Volume",
    interfaces: ["Accessible", "Component", "Value"],
    states: ["enabled", "sensitive", "visible", "showing"] as State[],
    bounds: { x: 20, y: 40, width: 200, height: 24 },
    value: "50",
    range: { min: 0, max: 100 },
  };
  const { context } = oneWindow("Mixer", [slider], dir);
  const found = await callTool(context, toolNamed("find"), {
    target: { kind: "title", glob: "Mixer" },
    role: "slider",
  });
  assert.ok(found.ok, JSON.stringify(found));
  const [match] = found.output.data.matches as { ref: string }[];
  const info = await callTool(context, toolNamed("element_info"), { ref: match!.ref });
  assert.ok(info.ok, JSON.stringify(!info.ok && info.error));
  assert.match(info.output.text, /^range: 0–100$/m, info.output.text);
  await context.close();
});

/** A menu item shown in an open menu. */
const menuItem = (role: "menu item" | "check menu item", name: string): FakeElement => ({
  role,
  name,
  actions: ["click"],
  interfaces: ["Accessible", "Action", "Component"],
  states: ["enabled", "sensitive", "visible", "showing"] as State[],
  bounds: { x: 20, y: 40, width: 160, height: 24 },
});

it("an element its tree reaches twice is one match, and act takes it", async () => {
  // Swing lists a menu's items under the menu and under its popup: one object, one handle.
  const item = menuItem("menu item", "Find...");
  const popup: FakeElement = { role: "popup menu", children: [item] };
  const menu: FakeElement = { role: "menu", name: "Search", children: [item, popup] };
  const { context } = oneWindow("Editor", [menu], dir);
  const target = { kind: "title", glob: "Editor" };
  const found = await callTool(context, toolNamed("find"), { target, role: "menu item", name: "Find..." });
  assert.ok(found.ok);
  assert.equal((found.output.data as { total: number }).total, 1, found.output.text);
  const acted = await callTool(context, toolNamed("act"), {
    find: { target, role: "menu item", name: "Find..." },
    action: { kind: "invoke" },
    intent: "Open the search dialog",
  });
  assert.ok(acted.ok, JSON.stringify(!acted.ok && acted.error));
});

it("set_value into an editable combo box's field says when the combo box still reads its old value", async () => {
  // Swing's combo box takes its field's text only once committed: OK pressed before kept the old one.
  const field: FakeElement = {
    role: "text",
    text: "4",
    states: ["enabled", "editable", "visible", "showing"] as State[],
    interfaces: ["Accessible", "Component", "Text", "EditableText"],
    bounds: { x: 20, y: 40, width: 120, height: 24 },
  };
  const combo: FakeElement = {
    role: "combo box",
    name: "Tab width",
    value: "4",
    children: [field],
    bounds: { x: 20, y: 40, width: 140, height: 24 },
  };
  const { context } = oneWindow("Options", [combo], dir, "dialog");
  const set = await callTool(context, toolNamed("act"), {
    find: { target: { kind: "title", glob: "Options" }, role: "text" },
    action: { kind: "set_value", text: "3" },
    intent: "Tab width 3",
  });
  assert.ok(set.ok, JSON.stringify(!set.ok && set.error));
  assert.match(
    set.output.text ?? "",
    /the combo box it belongs to still reads "4": it takes the text once it is committed/,
    set.output.text,
  );
});

it("act by find with no match names what shows the name's longest word, of any role, with refs", async () => {
  // Writer's "Find and Replace..." is a check menu item: asked as a menu item "Find & Replace".
  const item = menuItem("check menu item", "Find and Replace...");
  const { context } = oneWindow("Writer", [{ role: "menu", name: "Edit", children: [item] }], dir);
  const acted = await callTool(context, toolNamed("act"), {
    find: { target: { kind: "title", glob: "Writer" }, role: "menu item", name: "Find & Replace" },
    action: { kind: "invoke" },
    intent: "Open Find and Replace",
  });
  assert.ok(!acted.ok);
  assert.equal(acted.error.code, "not_found");
  assert.match(
    acted.error.message,
    /Near it, by the word "Replace" of any role:\n {2}\S+ check menu item "Find and Replace\.\.\."/,
    acted.error.message,
  );
});

it("a find that counts what is off screen is given near matches off screen too", async () => {
  // Geany's File menu, closed: "Salva Come..." was asked as "Salva con nome", off screen included, and
  // the near matches named only the tool bar's buttons that show.
  const hidden: FakeElement = {
    ...menuItem("menu item", "Salva Come..."),
    states: ["enabled", "sensitive", "visible"] as State[],
  };
  const { context } = oneWindow("Geany", [{ role: "menu", name: "File", children: [hidden] }], dir);
  const asked = (include_off_screen: boolean) =>
    callTool(context, toolNamed("act"), {
      find: {
        target: { kind: "title", glob: "Geany" },
        role: "menu item",
        name: "Salva con nome",
        include_off_screen,
      },
      action: { kind: "invoke" },
      intent: "Save the file under a name",
    });
  const offScreen = await asked(true);
  assert.ok(!offScreen.ok);
  assert.match(offScreen.error.message, /menu item "Salva Come\.\.\."/, offScreen.error.message);
  const shown = await asked(false);
  assert.ok(!shown.ok);
  assert.doesNotMatch(shown.error.message, /Salva Come/, shown.error.message);
});
