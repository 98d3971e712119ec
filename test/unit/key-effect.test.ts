// What a key will press, judged on the fake backend (the same contract as AT-SPI): the focused
// element, the default button, a key binding, the guessed accelerator, and "cannot tell".
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { FakeElement } from "../../src/platform/fake/backend.js";
import { parseChord } from "../../src/platform/keys.js";
import type { State } from "../../src/platform/roles.js";
import { commitReason } from "../../src/safety/classify.js";
import { createContext } from "../../src/tools/context.js";
import { keyEffect } from "../../src/tools/hands/key-effect.js";
import { backendWithWindow } from "./fake-desktop.js";

const showing: State[] = ["enabled", "sensitive", "showing", "visible", "focusable"];
const button = (name: string, extra: Partial<FakeElement> = {}): FakeElement => ({
  role: "push button",
  name,
  actions: ["click"],
  interfaces: ["Accessible", "Component", "Action"],
  states: showing,
  ...extra,
});

function contextWith(root: FakeElement) {
  const backend = backendWithWindow(root);
  return createContext({ refLifetime: "while-verified", connect: async () => backend });
}

const judged = async (root: FakeElement, key: { chord?: string; text?: string }) => {
  const context = contextWith(root);
  const effect = await keyEffect(context, {
    windowId: 7,
    ...(key.chord ? { chord: parseChord(key.chord) } : {}),
    ...(key.text !== undefined ? { text: key.text } : {}),
  });
  await context.close();
  return effect.presses.map((p, i) => ({ name: p.name, via: effect.via[i], commits: !!commitReason(p) }));
};

describe("Escape with a menu open", () => {
  it("closes the menu: a window's own binding of Esc (KCalc's Clear) is not what it presses", async () => {
    const root: FakeElement = {
      role: "frame",
      name: "KCalc",
      states: showing,
      children: [button("Clear", { keyBindings: ["Esc"] })],
    };
    const backend = backendWithWindow(root);
    const context = createContext({ refLifetime: "while-verified", connect: async () => backend });
    const judge = async () =>
      (await keyEffect(context, { windowId: 7, chord: parseChord("Escape") })).presses.map((p) => p.name);
    assert.deepEqual(await judge(), ["Clear"], "no menu open: Escape presses Clear");
    // A Qt popup menu on screen, which no tree shows.
    backend.desktop.openMenus = [{ x: 10, y: 30, width: 150, height: 120 }];
    assert.deepEqual(await judge(), []);
    await context.close();
  });
});

describe("what a key presses", () => {
  const dialog = (children: FakeElement[]): FakeElement => ({
    role: "dialog",
    name: "D",
    states: [...showing, "modal"],
    children,
  });

  it("Enter and space press the focused button; typed text without them presses nothing", async () => {
    const root = dialog([button("No"), button("Delete", { states: [...showing, "focused"] })]);
    assert.deepEqual(await judged(root, { chord: "Enter" }), [
      { name: "Delete", via: "the focused element", commits: true },
    ]);
    assert.deepEqual(await judged(root, { text: " " }), [
      { name: "Delete", via: "the focused element", commits: true },
    ]);
    assert.deepEqual(await judged(root, { text: "abc" }), []);
  });

  it("Enter on a focused control may press the default button instead (Qt, Swing): both are judged", async () => {
    const zoom = button("Zoom", { states: [...showing, "focused"] });
    const later: FakeElement = {
      role: "radio button",
      name: "Later",
      actions: ["click"],
      states: [...showing, "focused"],
    };
    for (const focused of [zoom, later]) {
      const root = dialog([focused, button("Transfer", { states: [...showing, "is default"] })]);
      assert.deepEqual(await judged(root, { chord: "Enter" }), [
        { name: focused.name, via: "the focused element", commits: false },
        { name: "Transfer", via: "the default button, which Enter may press instead", commits: true },
      ]);
      // Space presses only what has the focus.
      assert.deepEqual(await judged(root, { text: " " }), [
        { name: focused.name, via: "the focused element", commits: false },
      ]);
    }
    // The default button focused is judged once.
    const root = dialog([button("Transfer", { states: [...showing, "is default", "focused"] })]);
    assert.deepEqual(await judged(root, { chord: "Enter" }), [
      { name: "Transfer", via: "the focused element", commits: true },
    ]);
  });

  it("Enter in a field presses the default button; in a multi-line text it presses nothing", async () => {
    const field: FakeElement = { role: "text", name: "Name", states: [...showing, "editable", "focused"] };
    const root = dialog([field, button("Save", { states: [...showing, "is default"] })]);
    assert.deepEqual(await judged(root, { chord: "Enter" }), [
      { name: "Save", via: "the default button", commits: true },
    ]);
    assert.deepEqual(await judged(root, { chord: "space" }), []);
    const notes: FakeElement = {
      role: "text",
      name: "Notes",
      states: [...showing, "editable", "focused", "multi line"],
    };
    assert.deepEqual(
      await judged(dialog([notes, button("Save", { states: [...showing, "is default"] })]), { text: "\n" }),
      [],
    );
  });

  it("on a web page, a form's default is Enter's only in that form's fields", async () => {
    const page = (focusedInForm: boolean): FakeElement => ({
      role: "frame",
      name: "Page",
      states: showing,
      children: [
        {
          role: "document web",
          name: "Page",
          states: showing,
          children: [
            {
              role: "entry",
              name: "Search…",
              states: [
                ...showing,
                "editable",
                "single line",
                ...(focusedInForm ? [] : (["focused"] as State[])),
              ],
            },
            {
              role: "form",
              name: "",
              states: showing,
              children: [
                {
                  role: "entry",
                  name: "Amount",
                  states: [
                    ...showing,
                    "editable",
                    "single line",
                    ...(focusedInForm ? (["focused"] as State[]) : []),
                  ],
                },
                button("Pay", { states: [...showing, "is default"] }),
              ],
            },
          ],
        },
      ],
    });
    assert.deepEqual(await judged(page(true), { chord: "Enter" }), [
      { name: "Pay", via: "the default button", commits: true },
    ]);
    // Outside the form, a field that searches by its name runs the search: nothing is pressed.
    assert.deepEqual(await judged(page(false), { chord: "Enter" }), []);
  });

  it("with no default reported, Enter in a dialog may press any of its buttons", async () => {
    const field: FakeElement = { role: "text", name: "Name", states: [...showing, "editable", "focused"] };
    const pressed = await judged(dialog([field, button("Cancel"), button("OK")]), { chord: "Enter" });
    assert.deepEqual(
      pressed.map((p) => p.name),
      ["Cancel", "OK"],
    );
    assert.ok(pressed.some((p) => p.commits));
  });

  it("no element reporting the focus is 'cannot tell'", async () => {
    const [only] = await judged(dialog([button("OK")]), { chord: "space" });
    assert.equal(only?.via, "unknown");
    assert.equal(only?.commits, true);
  });

  it("a chord presses what it is bound to, and a guess stands in where no accelerator is reported", async () => {
    const frame = (items: FakeElement[]): FakeElement => ({
      role: "frame",
      name: "F",
      states: showing,
      children: items,
    });
    const save: FakeElement = {
      role: "menu item",
      name: "Save",
      actions: ["click"],
      interfaces: ["Accessible", "Action"],
      states: showing,
    };
    const bound = await judged(frame([{ ...save, keyBindings: ["s;<Alt>f:s;<Control>s"] }]), {
      chord: "ctrl+s",
    });
    assert.deepEqual(bound, [{ name: "Save", via: "its key binding, ctrl+s", commits: true }]);
    // Where the app reports no accelerator, nothing tells what the chord runs: it counts as
    // committing, and the usual menu item is named as a guess beside it.
    const print = { ...save, name: "Print" };
    const guessed = await judged(frame([print]), { chord: "ctrl+p" });
    assert.equal(guessed[0]?.via, "unknown");
    assert.match(guessed[1]?.via ?? "", /a guess/);
    // ctrl+s where the menus hold Save is that Save, by convention (AbiWord): judged as its press.
    assert.deepEqual(await judged(frame([save]), { chord: "ctrl+s" }), [
      { name: "Save", via: "ctrl+s, Save by the convention editors share", commits: true },
    ]);
    assert.equal((await judged(frame([save]), { chord: "ctrl+shift+d" }))[0]?.via, "unknown");
    // ctrl with shift is another command than ctrl alone: no "Save" is guessed for ctrl+shift+s
    // (AbiWord's Save As), which never commits, nor for ctrl+shift+S-anything else.
    assert.deepEqual(await judged(frame([save]), { chord: "ctrl+shift+s" }), []);
    const saveAll = { ...save, name: "Save All" };
    const shifted = await judged(frame([saveAll]), { chord: "ctrl+alt+s" });
    assert.deepEqual(
      shifted.map((p) => p.via),
      ["unknown"],
    );
    assert.equal((await judged(frame([save]), { chord: "F8" }))[0]?.via, "unknown");
    assert.deepEqual(await judged(frame([save]), { chord: "ctrl+c" }), [], "copying never commits");
    assert.deepEqual(await judged(frame([save]), { chord: "ctrl+Left" }), [], "nor moving");
    assert.deepEqual(
      await judged(frame([{ ...save, keyBindings: ["<Control>s"] }]), { chord: "ctrl+c" }),
      [],
    );
  });

  it("an alignment chord aligns where a menu of the window holds left, center and right; a lone side says nothing", async () => {
    const item = (name: string): FakeElement => ({
      role: "radio menu item",
      name,
      actions: ["click"],
      interfaces: ["Accessible", "Action"],
      states: showing.filter((s) => s !== "showing"),
    });
    const menu = (names: string[]): FakeElement => ({
      role: "frame",
      name: "F",
      states: showing,
      children: [{ role: "menu", name: "Align", states: showing, children: names.map(item) }],
    });
    const align = menu(["Left", "Center", "Right", "Justify"]);
    for (const chord of ["ctrl+e", "ctrl+l", "ctrl+r"])
      assert.deepEqual(await judged(align, { chord }), [], chord);
    // A panel's side, "Left" and "Right", is no Align menu: what ctrl+r runs stays unknown.
    assert.equal((await judged(menu(["Left", "Right"]), { chord: "ctrl+r" }))[0]?.via, "unknown");
    assert.equal((await judged(menu(["Left", "Right", "Justify"]), { chord: "ctrl+e" }))[0]?.via, "unknown");
  });

  it("Enter in a single-line field with no default: a web form's buttons, a search, or what cannot be read", async () => {
    const field = (name: string): FakeElement => ({
      role: "entry",
      name,
      states: [...showing, "editable", "focused", "single line"],
    });
    const page = (children: FakeElement[]): FakeElement => ({
      role: "frame",
      name: "Shop",
      states: showing,
      children: [{ role: "document web", name: "Shop", states: showing, children }],
    });
    const inForm = (children: FakeElement[]) => page([{ role: "form", name: "", states: showing, children }]);
    assert.deepEqual(await judged(inForm([field("Card"), button("Pay now")]), { text: "4242\n" }), [
      { name: "Pay now", via: "the form's submit button", commits: true },
    ]);
    const hidden = button("Pay now", { states: ["enabled", "sensitive", "focusable"] });
    const implicit = await judged(inForm([field("Card"), hidden]), { chord: "Enter" });
    assert.deepEqual(implicit, [{ name: undefined, via: "the form's implicit submission", commits: true }]);
    assert.deepEqual(await judged(page([field("Search")]), { chord: "Enter" }), [], "a search only searches");
    const own = await judged(page([field("Code")]), { chord: "Enter" });
    assert.deepEqual(own, [{ name: undefined, via: "the field's own action", commits: true }]);
  });

  it("Enter in a find bar's field searches; in a bar's other field, or a tool bar's named field, it is the field's own", async () => {
    const at = (x: number, width = 100) => ({ x, y: 10, width, height: 24 });
    const field = (extra: Partial<FakeElement> = {}): FakeElement => ({
      role: "text",
      name: "",
      bounds: at(60),
      interfaces: ["Accessible", "Component", "Text", "EditableText"],
      states: [...showing, "editable"],
      ...extra,
    });
    const focused = (extra: Partial<FakeElement> = {}) =>
      field({ states: [...showing, "editable", "focused"], ...extra });
    const label = (name: string, x: number): FakeElement => ({
      role: "label",
      name,
      bounds: at(x, 40),
      interfaces: ["Accessible", "Component"],
      states: showing,
    });
    const frame = (bar: FakeElement): FakeElement => ({
      role: "frame",
      name: "Editor",
      states: showing,
      children: [{ role: "text", name: "Document", states: [...showing, "editable", "multi line"] }, bar],
    });
    const filler = (children: FakeElement[]): FakeElement => ({ role: "filler", states: showing, children });
    const toolBar = (children: FakeElement[]): FakeElement => ({
      role: "tool bar",
      states: showing,
      children,
    });
    const combo = (child: FakeElement): FakeElement => ({
      role: "combo box",
      name: "words",
      bounds: at(60),
      interfaces: ["Accessible", "Component"],
      states: showing,
      children: [child],
    });
    const own = [{ name: undefined, via: "the field's own action", commits: true }];
    // KWrite's: "Find:" beside the combo box holding the field. Mousepad's: a tool bar with a Close.
    assert.deepEqual(
      await judged(frame(filler([label("Find:", 10), combo(focused())])), { chord: "Enter" }),
      [],
    );
    assert.deepEqual(
      await judged(frame(toolBar([button("Close"), combo(focused())])), { chord: "Enter" }),
      [],
    );
    assert.deepEqual(
      await judged(frame(filler([focused(), { role: "check box", name: "Match case", states: showing }])), {
        chord: "Enter",
      }),
      [],
    );
    // A bar of two fields: the second has its own label, which does not search.
    const replace = filler([
      label("Find:", 10),
      field(),
      label("Replace:", 170),
      focused({ bounds: at(220) }),
    ]);
    assert.deepEqual(await judged(frame(replace), { chord: "Enter" }), own);
    // A tool bar with a Close around a field named for something else (a message) is no find bar's.
    const chat = toolBar([button("Close"), focused({ name: "Message" })]);
    assert.deepEqual(await judged(frame(chat), { chord: "Enter" }), own);
  });

  it("Enter in a text of many lines may press a sending button beside it; ctrl+Enter any of the window's", async () => {
    const text = (name: string): FakeElement => ({
      role: "text",
      name,
      interfaces: ["Accessible", "Text", "EditableText"],
      states: [...showing, "editable", "focused", "multi line"],
    });
    const frame = (children: FakeElement[]): FakeElement => ({
      role: "frame",
      name: "F",
      states: showing,
      children,
    });
    const box = (children: FakeElement[]): FakeElement => ({
      role: "filler",
      name: "",
      states: showing,
      children,
    });
    const pane = (child: FakeElement): FakeElement => ({
      role: "scroll pane",
      name: "",
      states: showing,
      children: [child],
    });
    const chat = frame([box([pane(text("Chat")), button("Attach"), button("Send")]), button("Delete")]);
    assert.deepEqual(await judged(chat, { text: "hi\n" }), [
      { name: "Send", via: "a sending button beside the text", commits: true },
    ]);
    const arrow = frame([box([pane(text("Chat")), button("")])]);
    assert.equal((await judged(arrow, { chord: "Enter" }))[0]?.via, "a sending button beside the text");
    // An editor's toolbar saves and formats: nothing of it sends, and Enter is a line break.
    const editor = frame([
      box([box([button("Save"), button("Bold")]), pane(text("Body"))]),
      { role: "link", name: "Publish", states: showing },
    ]);
    assert.deepEqual(await judged(editor, { text: "one\ntwo" }), []);
    // A word processor's page (Writer's "document text" of paragraphs) beside its sidebar's unnamed
    // buttons: Enter is a new paragraph.
    const paragraph: FakeElement = { ...text(""), role: "paragraph" };
    const page: FakeElement = {
      role: "document text",
      name: "Untitled 1",
      states: showing,
      children: [paragraph],
    };
    const writer = frame([box([pane(page), box([button(""), button("Properties")])])]);
    assert.deepEqual(await judged(writer, { text: "Title\nBody" }), []);
    // ctrl+Enter, bound by no element here, counts as committing; the window's sending link is named.
    const sent = await judged(editor, { chord: "ctrl+Enter" });
    assert.ok(
      sent.some((p) => p.name === "Publish" && /ctrl\+Enter may press/.test(p.via ?? "")),
      JSON.stringify(sent),
    );
  });

  it("Enter in a field that only moves a view commits nothing: a spreadsheet's Name Box, a page entry", async () => {
    const field = (name: string, text: string): FakeElement => ({
      role: "text",
      name,
      text,
      interfaces: ["Accessible", "Text", "EditableText"],
      states: [...showing, "editable", "focused", "single line"],
    });
    const sheet: FakeElement = { role: "document spreadsheet", name: "Sheet", states: showing };
    const frame = (children: FakeElement[]): FakeElement => ({
      role: "frame",
      name: "Calc",
      states: showing,
      children,
    });
    assert.deepEqual(await judged(frame([sheet, field("", "$B$7")]), { chord: "Enter" }), []);
    assert.equal(
      (await judged(frame([sheet, field("", "Total")]), { chord: "Enter" }))[0]?.via,
      "the field's own action",
    );
    assert.equal(
      (await judged(frame([field("", "B7")]), { chord: "Enter" }))[0]?.via,
      "the field's own action",
      "no sheet",
    );
    assert.deepEqual(await judged(frame([field("Page", "3 of 10")]), { chord: "Enter" }), []);
    assert.deepEqual(await judged(frame([field("Go to line", "")]), { chord: "Enter" }), []);
    assert.equal(
      (await judged(frame([field("Page title", "Home")]), { chord: "Enter" }))[0]?.via,
      "the field's own action",
    );
  });

  it("a GTK 4.8 dialog reports no showing: its visible buttons are what Enter may press", async () => {
    const visible: State[] = ["enabled", "sensitive", "visible", "focusable"];
    const root: FakeElement = {
      role: "dialog",
      name: "Save As",
      states: ["enabled", "visible", "modal"],
      children: [
        { role: "text", name: "Name", states: [...visible, "editable", "focused"] },
        button("Cancel", { states: visible }),
        button("Save", { states: visible }),
      ],
    };
    const pressed = await judged(root, { chord: "Enter" });
    assert.deepEqual(
      pressed.map((p) => [p.name, p.commits]),
      [
        ["Cancel", false],
        ["Save", true],
      ],
    );
  });

  it("with no focus reported, Enter presses the item an open popup chose", async () => {
    const item = (name: string, selected = false): FakeElement => ({
      role: "menu item",
      name,
      states: [...showing, ...(selected ? (["selected"] as State[]) : [])],
    });
    const root = (chosen: string): FakeElement => ({
      role: "frame",
      name: "W",
      states: showing,
      children: [
        {
          role: "combo box",
          name: "Colour",
          states: showing,
          children: [
            {
              role: "menu",
              name: "",
              states: showing,
              children: ["Red", chosen].map((n, i) => item(n, i === 1)),
            },
          ],
        },
      ],
    });
    assert.deepEqual(await judged(root("Green"), { chord: "Enter" }), [
      { name: "Green", via: "the selected item of the open menu", commits: false },
    ]);
    assert.equal((await judged(root("Delete all"), { chord: "Enter" }))[0]?.commits, true);
  });

  const frame = (children: FakeElement[]): FakeElement => ({
    role: "frame",
    name: "F",
    states: showing,
    children,
  });
  const item = (name: string, extra: Partial<FakeElement> = {}): FakeElement => ({
    role: "menu item",
    name,
    actions: ["click"],
    interfaces: ["Accessible", "Action"],
    states: showing,
    ...extra,
  });
  const label = (name: string): FakeElement => ({ role: "label", name, states: showing });

  it("a menu item's label that shows the chord says what it presses (GTK 4's accel label, Qt's tab)", async () => {
    // GTK 4.8 reports no accelerators; its popover items show theirs in a label of their own.
    const gtk4 = frame([
      item("Rename…", { children: [label("Rename…"), label("F2")], keyBindings: ["<Space>"] }),
      item("New Folder", {
        children: [label("New Folder"), label("Shift+Ctrl+N")],
        keyBindings: ["<Space>"],
      }),
      item("Quit", { children: [label("Quit"), label("Ctrl+Q")], keyBindings: ["<Space>"] }),
    ]);
    assert.deepEqual(await judged(gtk4, { chord: "F2" }), [
      { name: "Rename…", via: "the shortcut its label shows, F2", commits: false },
    ]);
    assert.deepEqual(await judged(gtk4, { chord: "ctrl+shift+n" }), [
      { name: "New Folder", via: "the shortcut its label shows, Shift+Ctrl+N", commits: false },
    ]);
    assert.deepEqual(await judged(gtk4, { chord: "ctrl+q" }), [
      { name: "Quit", via: "the shortcut its label shows, Ctrl+Q", commits: true },
    ]);
    // A chord no label shows is still unknown there.
    assert.equal((await judged(gtk4, { chord: "ctrl+d" }))[0]?.via, "unknown");
    const qt = frame([item("Save\tCtrl+S")]);
    assert.deepEqual(await judged(qt, { chord: "ctrl+s" }), [
      { name: "Save\tCtrl+S", via: "the shortcut its label shows, Ctrl+S", commits: true },
    ]);
  });

  it("a chord that never commits elsewhere is judged by what the app's menu binds it to", async () => {
    const sends = frame([item("Send Now", { keyBindings: ["Ctrl+O"] })]);
    assert.deepEqual(await judged(sends, { chord: "ctrl+o" }), [
      { name: "Send Now", via: "its key binding, ctrl+o", commits: true },
    ]);
  });

  it("in an open menu a letter presses the item whose mnemonic it is, and Enter the selected one", async () => {
    const closed: State[] = ["enabled", "sensitive", "visible"];
    const menu = (states: State[], selected = false): FakeElement =>
      frame([
        {
          role: "menu bar",
          states: showing,
          children: [
            {
              role: "menu item",
              name: "File",
              states: showing,
              children: [
                {
                  role: "popup menu",
                  states,
                  children: [
                    item("Open", { keyBindings: ["Ctrl+O"], states }),
                    item("Delete", { keyBindings: ["Alt+D"], states }),
                    item("Empty Trash", {
                      keyBindings: ["t;<Alt>f:t;"],
                      states: selected ? [...states, "selected"] : states,
                    }),
                  ],
                },
              ],
            },
          ],
        },
      ]);
    const open = menu(showing);
    // Qt's "Alt+D" is the item's mnemonic while its menu is open: "d" presses it, typed or as a key.
    for (const key of [{ chord: "d" }, { chord: "alt+d" }, { text: "d" }])
      assert.deepEqual(await judged(open, key), [
        { name: "Delete", via: "the open menu's mnemonic d", commits: true },
      ]);
    // GTK's bare "t" is Empty Trash's mnemonic; Open reports none, so a letter of its label may press it.
    assert.deepEqual(await judged(open, { chord: "t" }), [
      { name: "Empty Trash", via: "the open menu's mnemonic t", commits: true },
    ]);
    assert.deepEqual(await judged(open, { text: "p" }), [
      { name: "Open", via: "a possible mnemonic in the open menu (none reported): p", commits: false },
    ]);
    const enter = await judged(menu(showing, true), { chord: "Enter" });
    assert.ok(enter.some((p) => p.name === "Empty Trash" && p.commits));
    // A closed menu's items are not on screen: typing is typing.
    assert.deepEqual(await judged(menu(closed), { text: "d" }), []);
  });

  it("alt+letter that no label may show, in an app that reports no key bindings, is a chord nothing reads (a Qt QShortcut)", async () => {
    const root = frame([button("Zoom"), button("Archive")]);
    const send = await judged(root, { chord: "alt+s" });
    assert.deepEqual(send, [{ name: undefined, via: "unknown", commits: true }], JSON.stringify(send));
    // A letter a label may show is judged as that label's mnemonic.
    assert.deepEqual(await judged(root, { chord: "alt+z" }), [
      { name: "Zoom", via: "a possible mnemonic (the app reports no key bindings): alt+z", commits: false },
    ]);
  });

  it("alt+letter opens the menu whose title shows it; a closed menu's items take no mnemonic, an accelerator still counts", async () => {
    // KWrite: the menu bar's "Edit" is Qt's "Alt+E"; File's closed "Close All" reports its mnemonic as
    // "Alt+e" (the label's own letter), "Quit Now" an accelerator "Alt+Q" (Qt writes those upper case).
    const closed: State[] = ["enabled", "sensitive", "visible"];
    const root = frame([
      {
        role: "menu bar",
        states: showing,
        children: [
          item("File", {
            keyBindings: ["Alt+F"],
            children: [
              {
                role: "popup menu",
                states: closed,
                children: [
                  item("Close All", { keyBindings: ["Alt+e"], states: closed }),
                  item("Quit Now", { keyBindings: ["Alt+Q"], states: closed }),
                  // "&Emmet": Qt writes its mnemonic upper case, as it would an accelerator; "Edit"
                  // on screen holds alt+e, so it is no accelerator that fires (Qt: ambiguous).
                  item("Emmet", { keyBindings: ["Alt+E"], states: closed }),
                ],
              },
            ],
          }),
          item("Edit", { keyBindings: ["Alt+E"], children: [{ role: "popup menu", states: closed }] }),
        ],
      },
    ]);
    const pressed = await judged(root, { chord: "alt+e" });
    assert.deepEqual(
      pressed.map((p) => p.name),
      ["Edit"],
      JSON.stringify(pressed),
    );
    assert.equal(pressed[0]!.commits, false);
    const quit = await judged(root, { chord: "alt+q" });
    assert.ok(
      quit.some((p) => p.name === "Quit Now" && p.commits),
      JSON.stringify(quit),
    );
  });
});
