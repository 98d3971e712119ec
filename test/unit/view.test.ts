// Replies that answer in one call (issue 56). The view (src/tools/view.ts): an acting call done ends
// with the window in front and what it shows, whole where the agent has not seen that window, else
// what came and went since its last look; a run or a form ends with one; `view: false` leaves it out.
// An empty field's placeholder; a table cell found with its row.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { FakeElement } from "../../src/platform/fake/backend.js";
import { FakeBackend } from "../../src/platform/fake/backend.js";
import type { State } from "../../src/platform/roles.js";
import { callTool } from "../../src/tools/call.js";
import { createContext, type ToolContext } from "../../src/tools/context.js";
import { toolNamed } from "../../src/tools/registry.js";
import { fakeContext, fakeDesktop, fakeWindow, oneWindow } from "./fake-desktop.js";

const dir = mkdtempSync(join(tmpdir(), "deskhand-view-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const SHOWN: State[] = ["enabled", "sensitive", "visible", "showing"];
const at = (y: number, x = 20) => ({ x, y, width: 120, height: 24 });
const button = (name: string, y: number, x = 20): FakeElement => ({
  role: "push button",
  name,
  actions: ["click"],
  interfaces: ["Accessible", "Action", "Component"],
  states: SHOWN,
  bounds: at(y, x),
});
const checkBox = (name: string, y: number, x = 20): FakeElement => ({
  ...button(name, y, x),
  role: "check box",
});
const rect = { x: 0, y: 0, width: 400, height: 300 };

/** An editor whose "Settings…" opens a dialog in front of it. */
function editor() {
  const windows = [
    fakeWindow("Editor", [button("Settings…", 10), checkBox("Bold", 40), button("Count words", 70)]),
  ];
  // Beside the editor, not over it: the fake stacks its windows in the order listed.
  const settings = fakeWindow(
    "Settings",
    [
      checkBox("Dark theme", 10, 520),
      button("Close", 40, 520),
      { role: "label", name: "Changes apply at once", states: SHOWN, bounds: at(70, 520) },
    ],
    { id: 8, rect: { ...rect, x: 500 }, role: "dialog" },
  );
  return fakeContext({
    windows,
    hands: { windows: [{ id: 7, rect }], active: 7 },
    dir,
    react: (element, action, desktop) => {
      if (action.kind !== "invoke" || element.name !== "Settings…") return;
      desktop.windows[0]!.focused = false;
      desktop.windows.push(settings);
    },
  });
}

const act = (name: string, kind: string, extra: Record<string, unknown> = {}) => ({
  find: { target: { kind: "title", glob: "Editor" }, name },
  action: { kind },
  intent: `Press ${name}`,
  ...extra,
});

const textOf = (result: Awaited<ReturnType<typeof callTool>>) => {
  assert.ok(result.ok, JSON.stringify(!result.ok && result.error));
  return result.output.text;
};

/**
 * Observes a window, checking that its look says it was cut by `cut`, then toggles its "Bold" box
 * asking for the view: the toggle's reply.
 */
async function lookedCutThenToggled(
  context: ToolContext,
  title: string,
  cut: string,
  observe: Record<string, unknown> = {},
): Promise<string> {
  const target = { kind: "title", glob: title };
  const observed = await callTool(context, toolNamed("observe"), { target, ...observe });
  assert.ok(observed.ok && (observed.output.data.truncated_by as string[]).includes(cut), textOf(observed));
  const toggled = await callTool(context, toolNamed("act"), {
    find: { target, name: "Bold" },
    action: { kind: "toggle" },
    view: true,
  });
  return textOf(toggled);
}

describe("the view an acting reply ends with", () => {
  it("a dialog the act opened is named in front and listed whole", async () => {
    const { context } = editor();
    const text = textOf(await callTool(context, toolNamed("act"), act("Settings…", "invoke")));
    const view = text.slice(text.indexOf("# view:"));
    assert.match(
      view,
      /^# view: window 8 "Settings" \(fake\) in front · s\d+, new to you: 2 targets$/m,
      text,
    );
    assert.match(view, /^0\. check box "Dark theme" \(unchecked\) \[ref=s\d+:e\d+\w*\] toggle,click$/m);
    assert.match(view, /^1\. push button "Close"/m);
    assert.match(view, /label "Changes apply at once"/, "the text a person reads in it");
  });

  it("a dialog its app fills only after it shows is read again until it lists something", async () => {
    // It maps empty, and its app puts its buttons in a second later.
    const late = fakeWindow("Question", [], { id: 9, rect: { ...rect, x: 500 }, role: "dialog" });
    const filled = fakeWindow("Question", [button("Cancel", 10, 520), button("Delete", 40, 520)], {
      id: 9,
      rect: { ...rect, x: 500 },
      role: "dialog",
    }).root;
    const { context } = fakeContext({
      windows: [fakeWindow("Editor", [button("Settings…", 10)])],
      hands: { windows: [{ id: 7, rect }], active: 7 },
      dir,
      react: (element, action, desktop) => {
        if (action.kind !== "invoke" || element.name !== "Settings…") return;
        desktop.windows[0]!.focused = false;
        desktop.windows.push(late);
        setTimeout(() => {
          late.root = filled;
        }, 1000);
      },
    });
    const text = textOf(await callTool(context, toolNamed("act"), act("Settings…", "invoke")));
    assert.match(
      text,
      /^# view: window 9 "Question" \(fake\) in front · s\d+, new to you: 2 targets$/m,
      text,
    );
    assert.match(text, /^1\. push button "Delete"/m, text);
  });

  it("after a look, only what changed: a toggled box comes and goes; nothing changed says so", async () => {
    const { context } = editor();
    const observed = textOf(
      await callTool(context, toolNamed("observe"), { target: { kind: "window", id: 7 } }),
    );
    assert.match(observed, /check box "Bold"/);
    const toggled = textOf(await callTool(context, toolNamed("act"), act("Bold", "toggle")));
    const view = toggled.slice(toggled.indexOf("# view:"));
    assert.match(
      view,
      /^# view: window 7 "Editor" \(fake\) in front · s\d+, since your last look: 0 targets new, 1 changed, 0 gone, 2 the same$/m,
    );
    assert.match(view, /^~ 1\. check box "Bold" \(checked\) \[ref=/m, view);
    assert.equal(view.split("\n").length, 2, "the box once, as it is now");
    const again = textOf(await callTool(context, toolNamed("act"), act("Count words", "invoke")));
    assert.match(
      again,
      /# view: window 7 "Editor" \(fake\) in front · s\d+, as you last saw it \(3 targets\)$/,
    );
  });

  /** Window 7 "Editor" behind window 8 "Viewer", which is in front. */
  const editorBehindViewer = () =>
    fakeContext({
      windows: [
        { ...fakeWindow("Editor", [checkBox("Bold", 40), button("Count words", 70)]), focused: false },
        fakeWindow("Viewer", [button("Zoom", 10, 520)], { id: 8, rect: { ...rect, x: 500 } }),
      ],
      hands: { windows: [{ id: 8, rect }], active: 8 },
      dir,
    });

  it("an act in a window behind the one in front views the window it went to, where the front shows nothing new", async () => {
    const { context } = editorBehindViewer();
    for (const id of [7, 8])
      await callTool(context, toolNamed("observe"), { target: { kind: "window", id } });
    const toggled = textOf(await callTool(context, toolNamed("act"), act("Bold", "toggle")));
    const view = toggled.slice(toggled.indexOf("# view:"));
    assert.match(
      view,
      /^# view: window 7 "Editor" \(fake\), where you acted \(window 8 "Viewer" \(fake\) is in front\) · s\d+, since your last look: 0 targets new, 1 changed/m,
      view,
    );
    assert.match(view, /^~ 0\. check box "Bold" \(checked\)/m, view);
  });

  it("the window acted in is viewed where the one in front was there before the act, though never read", async () => {
    // Kate's act "Nuevo" with KCalc in front, listed by `windows` only: the view had shown KCalc.
    const { context } = editorBehindViewer();
    await callTool(context, toolNamed("observe"), { target: { kind: "window", id: 7 } });
    const toggled = textOf(await callTool(context, toolNamed("act"), act("Bold", "toggle")));
    const view = toggled.slice(toggled.indexOf("# view:"));
    assert.match(view, /^# view: window 7 "Editor" \(fake\), where you acted \(window 8 "Viewer"/m, view);
  });

  /**
   * The view after pressing `pressed` in an "Editor" of `children` the agent has looked at once;
   * `change` is what the press does to the window's root.
   */
  async function viewAfterPressing(
    children: FakeElement[],
    pressed: string,
    change: (root: FakeElement) => void,
  ): Promise<string[]> {
    const { context } = fakeContext({
      windows: [fakeWindow("Editor", children)],
      hands: { windows: [{ id: 7, rect }], active: 7 },
      dir,
      react: (element, action, desktop) => {
        if (action.kind === "invoke" && element.name === pressed) change(desktop.windows[0]!.root!);
      },
    });
    await callTool(context, toolNamed("observe"), { target: { kind: "window", id: 7 } });
    const text = textOf(await callTool(context, toolNamed("act"), act(pressed, "invoke")));
    return text.slice(text.indexOf("# view:")).split("\n");
  }

  it("a menu that closed is one line, naming its first items", async () => {
    const item = (name: string, y: number): FakeElement => ({ ...button(name, y), role: "menu item" });
    const names = ["New", "Open", "Save", "Print", "Close", "Quit"];
    const items = names.map((n, i) => item(n, 10 + 30 * i));
    const view = await viewAfterPressing([button("Count words", 300), ...items], "Count words", (root) => {
      root.children = root.children!.filter((child) => child.role !== "menu item");
    });
    assert.deepEqual(view.slice(1), ['- 6 menu item targets gone: "New", "Open", "Save"…'], view.join("\n"));
  });

  // Chromium's form scrolled as a field below was filled: its name field was listed as gone, and the
  // agent never saw it had taken its value.
  it("a target the read still holds, off screen now, is said so, not gone", async () => {
    const names = ["Name", "Email"];
    const fields = names.map((n, i) => button(n, 10 + 30 * i));
    const view = await viewAfterPressing([button("Scroll down", 300), ...fields], "Scroll down", (root) => {
      for (const child of root.children!)
        if (names.includes(child.name ?? ""))
          child.states = (child.states ?? []).filter((s) => s !== "showing");
    });
    assert.match(view[0]!, /0 gone, 1 the same, 2 off screen now \(still there\)$/, view.join("\n"));
    assert.deepEqual(
      view.slice(1).map((l) => l.replace(/ \[ref=[^\]]+\]/, "")),
      [
        '- push button "Name" invoke,click · off screen now',
        '- push button "Email" invoke,click · off screen now',
      ],
      view.join("\n"),
    );
  });

  // Gnote's note tab, renamed by its note's first line: it was listed as a new tab, and the old name
  // "off screen now (still there)".
  it("a target renamed in place is one changed target, wherever the listing now puts it", async () => {
    const tab = (name: string, y: number): FakeElement => ({ ...button(name, y), role: "page tab" });
    const view = await viewAfterPressing([tab("Spesa", 10), button("Rename", 100)], "Rename", (root) => {
      const renamed = root.children![0]!;
      renamed.name = "Spesa di lunedì";
      renamed.bounds = at(200);
    });
    assert.match(view[0]!, /0 targets new, 1 changed, 0 gone, 1 the same$/, view.join("\n"));
    assert.match(view[1]!, /^~ 1\. page tab "Spesa di lunedì" \[ref=/, view.join("\n"));
    assert.doesNotMatch(view.join("\n"), /still there|off screen/);
  });

  // Geany's Search menu, closed as its item opened a dialog: its items were said to be "off screen
  // now (still there)", as if the menu were open somewhere else.
  it("a menu's items still read but off screen went with their menu: said so", async () => {
    const names = ["Find", "Replace", "Go to Line", "Mark All", "Find Next"];
    const items = names.map((n, i): FakeElement => ({ ...button(n, 10 + 30 * i), role: "menu item" }));
    const view = await viewAfterPressing([button("Show results", 300), ...items], "Show results", (root) => {
      for (const child of root.children!)
        if (child.role === "menu item") child.states = (child.states ?? []).filter((s) => s !== "showing");
    });
    assert.match(view[0]!, /0 gone, 1 the same, 5 hidden as their menu closed$/, view.join("\n"));
    assert.deepEqual(
      view.slice(1),
      ['- 5 menu item targets hidden as their menu closed: "Find", "Replace", "Go to Line"…'],
      view.join("\n"),
    );
  });

  it("a look whose long texts or table rows were cut is still what the next view compares with", async () => {
    const note: FakeElement = {
      role: "label",
      text: "A note longer than the cut",
      interfaces: ["Accessible", "Text"],
      states: SHOWN,
      bounds: at(70),
    };
    const { context } = oneWindow("Notes", [checkBox("Bold", 10), note], dir);
    const toggled = await lookedCutThenToggled(context, "Notes", "maxText", { maxText: 5 });
    assert.match(
      toggled,
      /# view: window \d+ "Notes" \(\w+\) in front · s\d+, since your last look: /,
      toggled,
    );
  });

  it("a look that stopped at maxTargets is compared with too, and what is past its end is not called gone", async () => {
    // 110 small buttons in a grid, all on screen: a listing of 100 stops before the last of them.
    const many = Array.from({ length: 110 }, (_, i) => ({
      ...button(`Item ${i}`, 0),
      bounds: { x: (i % 12) * 32, y: 40 + Math.floor(i / 12) * 26, width: 30, height: 24 },
    }));
    const { context } = oneWindow("Long", [checkBox("Bold", 10), ...many], dir);
    const toggled = await lookedCutThenToggled(context, "Long", "maxTargets");
    const view = toggled.slice(toggled.indexOf("# view:"));
    assert.match(view, /since your last look: 0 targets new, 1 changed, 0 gone, 99 the same$/m, view);
    assert.equal(view.split("\n").length, 2, "the box once, and nothing else");
  });

  it("an empty field shows its placeholder in observe, in the view and in element_info", async () => {
    const date: FakeElement = {
      role: "text",
      name: "Due",
      states: [...SHOWN, "editable", "single line"],
      bounds: at(100),
      interfaces: ["Accessible", "Component", "Text", "EditableText"],
      text: "",
      attributes: { "placeholder-text": "DD/MM/YYYY" },
    };
    const { context } = oneWindow("Invoice", [date, button("Next", 130)], dir);
    const observed = textOf(
      await callTool(context, toolNamed("observe"), { target: { kind: "window", id: 7 } }),
    );
    const line = /^\d+\. text "Due".* placeholder "DD\/MM\/YYYY" \[ref=(\S+)\]/m.exec(observed);
    assert.ok(line, observed);
    const info = textOf(await callTool(context, toolNamed("element_info"), { ref: line[1] }));
    assert.match(info, /^placeholder: "DD\/MM\/YYYY"$/m);
    // Filled, it shows its value instead.
    date.text = "01/02/2027";
    const filled = textOf(
      await callTool(context, toolNamed("observe"), { target: { kind: "window", id: 7 } }),
    );
    assert.doesNotMatch(filled, /placeholder/);
  });

  it("DESKHAND_VIEW=off leaves it out unless a call asks for it", async () => {
    const { context } = editor();
    (context.env as Record<string, string>).DESKHAND_VIEW = "off";
    assert.doesNotMatch(textOf(await callTool(context, toolNamed("act"), act("Bold", "toggle"))), /# view/);
    const asked = textOf(await callTool(context, toolNamed("act"), act("Bold", "toggle", { view: true })));
    assert.match(asked, /# view: window 7 "Editor"/);
  });

  it("a target made anew in its place with other words is said changed, under its new ref", async () => {
    const { context, backend } = oneWindow("Calculator", [button("0", 10), button("=", 40)], dir);
    const observed = textOf(
      await callTool(context, toolNamed("observe"), { target: { kind: "window", id: 7 } }),
    );
    assert.match(observed, /push button "0"/);
    // As KCalc does with its display: the app puts a new object where the old one was.
    backend.desktop.react = () => backend.replace("w7/0", button("15", 10));
    const pressed = textOf(
      await callTool(context, toolNamed("act"), {
        find: { target: { kind: "window", id: 7 }, name: "=" },
        action: { kind: "invoke" },
      }),
    );
    const view = pressed.slice(pressed.indexOf("# view:"));
    assert.match(view, /0 targets new, 1 changed, 0 gone, 1 the same$/m, view);
    assert.match(view, /^~ 0\. push button "15" \[ref=/m, view);
  });

  it("a menu left open on screen is said first: the next keys go to it", async () => {
    const { context, backend } = editor();
    backend.desktop.react = (element, _action, desktop) => {
      if (element.name === "Bold") desktop.openMenus = [{ x: 20, y: 60, width: 150, height: 200 }];
    };
    const text = textOf(await callTool(context, toolNamed("act"), act("Bold", "toggle")));
    const view = text.slice(text.indexOf("# view:")).split("\n");
    assert.match(
      view[1] ?? "",
      /^# a menu or popup is open on screen \(1; a completion list is one\): keys and typed text go to it/,
      text,
    );
  });

  it("view: false leaves it out; a run of two acts ends with one view", async () => {
    const { context } = editor();
    const quiet = textOf(await callTool(context, toolNamed("act"), act("Bold", "toggle", { view: false })));
    assert.doesNotMatch(quiet, /# view/);
    const ran = textOf(
      await callTool(context, toolNamed("run"), {
        steps: [
          { tool: "act", args: act("Bold", "toggle") },
          { tool: "act", args: act("Count words", "invoke") },
        ],
      }),
    );
    assert.equal(ran.match(/# view:/g)?.length, 1, ran);
    assert.match(ran, /# view: window 7 "Editor"[^\n]*new to you: 3 targets$/m, ran);
  });
});

describe("a closed combo box", () => {
  it("shows the item its list reports selected, where it says no value of its own", async () => {
    const item = (name: string, selected = false): FakeElement => ({
      role: "list item",
      name,
      states: ["enabled", "visible", ...(selected ? (["selected"] as State[]) : [])],
    });
    const box: FakeElement = {
      role: "combo box",
      name: "Sort key 1",
      states: SHOWN,
      bounds: at(10),
      actions: ["press"],
      interfaces: ["Accessible", "Action", "Component"],
      children: [
        {
          role: "list",
          states: ["enabled"],
          children: [item("- none -"), item("Column A", true), item("Column B")],
        },
      ],
    };
    const { context } = oneWindow("Sort", [box], dir);
    const observed = textOf(
      await callTool(context, toolNamed("observe"), { target: { kind: "window", id: 7 } }),
    );
    assert.match(observed, /^\d+\. combo box "Sort key 1" = "Column A"/m, observed);
  });
});

describe("a table cell found", () => {
  it("comes with its row read across, each column by its header", async () => {
    const backend = new FakeBackend(fakeDesktop());
    const context = createContext({ refLifetime: "while-verified", connect: async () => backend });
    const found = await callTool(context, toolNamed("find"), {
      target: { kind: "window", id: 1 },
      name: "r5c2",
      search_tables: true,
    });
    assert.ok(found.ok, JSON.stringify(!found.ok && found.error));
    const match = (found.output.data.matches as { cell?: object; row?: object }[])[0];
    assert.deepEqual(match?.cell, { row: 5, column: 2 });
    assert.deepEqual(match?.row, { C0: "r5c0", C1: "r5c1", C2: "r5c2", C3: "r5c3" });
    assert.match(
      found.output.text,
      /\(table row 5, column 2\) · its row: C0: "r5c0", C1: "r5c1", C2: "r5c2", C3: "r5c3"/,
    );
  });

  it("its row's empty cells are counted, not quoted one by one", async () => {
    const desktop = fakeDesktop();
    const table = desktop.windows[0]!.root!.children!.find((c) => c.role === "table")!;
    for (const cell of table.children!) if (cell.name === "r5c0" || cell.name === "r5c3") cell.name = "";
    const context = createContext({
      refLifetime: "while-verified",
      connect: async () => new FakeBackend(desktop),
    });
    const found = await callTool(context, toolNamed("find"), {
      target: { kind: "window", id: 1 },
      name: "r5c2",
      search_tables: true,
    });
    assert.ok(found.ok, JSON.stringify(!found.ok && found.error));
    assert.match(
      found.output.text,
      /· its row: C1: "r5c1", C2: "r5c2" \(2 empty\) \[|· its row: C1: "r5c1", C2: "r5c2" \(2 empty\)$/m,
      found.output.text,
    );
  });
});
