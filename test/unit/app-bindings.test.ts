// Keys an app binds outside its accessible tree, judged from what can be read without acting: GTK's
// exported menu model (org.gtk.Menus, parsed here from a reply shaped as Mousepad's), whether the
// app is a GtkApplication, menus that are empty until they open, a web page; formatting chords.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { DBusConnection } from "../../src/platform/dbus.js";
import type { FakeElement } from "../../src/platform/fake/backend.js";
import {
  checkedItems,
  type ExportedMenu,
  exportedItems,
  gtkApplicationOfPid,
} from "../../src/platform/gtk-menus.js";
import { listedShortcuts } from "../../src/platform/gtk-shortcuts.js";
import { parseChord } from "../../src/platform/keys.js";
import type { State } from "../../src/platform/roles.js";
import type { AppBindings } from "../../src/platform/types.js";
import { commitReason } from "../../src/safety/classify.js";
import { createContext } from "../../src/tools/context.js";
import { keyEffect } from "../../src/tools/hands/key-effect.js";
import { backendWithWindow } from "./fake-desktop.js";

const v = (value: unknown): [unknown, [unknown]] => [[], [value]];

/**
 * A shortcuts window as GTK apps write it (GNOME Text Editor's help-overlay.ui): sections and
 * groups around each shortcut, a gesture with no accelerator, one given only an action's name.
 */
const OVERLAY = `<?xml version="1.0" encoding="UTF-8"?>
<interface>
  <object class="GtkShortcutsWindow" id="help_overlay">
    <child>
      <object class="GtkShortcutsSection">
        <property name="section-name">shortcuts</property>
        <child>
          <object class="GtkShortcutsGroup">
            <property name="title" translatable="yes">Documents</property>
            <child>
              <object class="GtkShortcutsShortcut">
                <property name="title" translatable="yes" context="shortcut window">Save</property>
                <property name="accelerator">&lt;control&gt;s</property>
              </object>
            </child>
            <child>
              <object class="GtkShortcutsShortcut">
                <property name="accelerator">&lt;ctrl&gt;l</property>
                <property name="title" translatable="yes">Select current line</property>
              </object>
            </child>
            <child>
              <object class="GtkShortcutsShortcut">
                <property name="title" translatable="yes">Swipe back</property>
                <property name="shortcut-type">gesture-two-finger-swipe-right</property>
              </object>
            </child>
            <child>
              <object class="GtkShortcutsShortcut">
                <property name="title" translatable="yes">Print</property>
                <property name="action-name">win.print</property>
              </object>
            </child>
            <child>
              <object class="GtkShortcutsShortcut">
                <property name="accelerator">&lt;ctrl&gt;1...&lt;ctrl&gt;9</property>
                <property name="title" translatable="yes">Switch to tab</property>
              </object>
            </child>
            <child>
              <object class="GtkShortcutsShortcut">
                <property name="accelerator">&lt;ctrl&gt;F1 &lt;ctrl&gt;question</property>
                <property name="title" translatable="yes">Show help &amp; tips</property>
              </object>
            </child>
          </object>
        </child>
      </object>
    </child>
  </object>
</interface>
`;

describe("a GtkApplication found by its process (Wayland: no X property names it)", () => {
  // A session bus: Mousepad (pid 10) owns its id, a Qt app (pid 10 too) owns one without
  // org.gtk.Actions, and a name's owner left between the list and the question.
  const session = {
    async call(message: { destination: string; path: string; member: string; body?: unknown[] }) {
      const name = String(message.body?.[0]);
      const owners: Record<string, string> = { "org.xfce.mousepad": ":1.7", "org.kde.kate-10": ":1.8" };
      switch (message.member) {
        case "ListNames":
          return [["org.freedesktop.DBus", ":1.7", "org.gone.App", "org.kde.kate-10", "org.xfce.mousepad"]];
        case "GetNameOwner":
          if (!owners[name]) throw new Error("NameHasNoOwner");
          return [owners[name]];
        case "GetConnectionUnixProcessID":
          return [10];
        case "List":
          if (message.destination === ":1.7" && message.path === "/org/xfce/mousepad") return [[]];
          throw new Error("UnknownObject");
      }
      throw new Error(`unexpected ${message.member}`);
    },
  } as unknown as DBusConnection;

  it("is the owner of an application id of that pid that answers org.gtk.Actions at its path", async () => {
    assert.deepEqual(await gtkApplicationOfPid(session, 10, 1000), {
      busName: ":1.7",
      application: "/org/xfce/mousepad",
      menus: [],
    });
    assert.equal(await gtkApplicationOfPid(session, 11, 1000), undefined, "another process owns none");
  });
});

describe("an exported menu model", () => {
  it("lists its items through sections and submenus, names the groups it lacks, drops mnemonic marks", () => {
    const menus: ExportedMenu[] = [
      [
        0,
        0,
        [
          [
            ["label", v("_File")],
            [":submenu", v([1, 0])],
          ],
        ],
      ],
      [
        1,
        0,
        [
          [[":section", v([1, 1])]],
          [
            ["label", v("Open _Recent")],
            [":submenu", v([2, 0])],
          ],
        ],
      ],
      [
        1,
        1,
        [
          [
            ["label", v("_Save")],
            ["action", v("win.save")],
            ["accel", v("<Primary>s")],
          ],
          [
            ["label", v("Save__As")],
            ["action", v("win.save-as")],
          ],
        ],
      ],
    ];
    assert.deepEqual(exportedItems(menus), {
      items: [
        { label: "Save", action: "win.save", accel: "<Primary>s" },
        { label: "Save_As", action: "win.save-as" },
        { label: "Open Recent" },
        { label: "File" },
      ],
      missing: [2],
    });
  });
});

const showing: State[] = ["enabled", "sensitive", "showing", "visible", "focusable"];
const item = (name: string, keyBindings?: string[]): FakeElement => ({
  role: "menu item",
  name,
  actions: ["click"],
  interfaces: ["Accessible", "Action"],
  states: showing,
  ...(keyBindings ? { keyBindings } : {}),
});
const menu = (name: string, children: FakeElement[]): FakeElement => ({
  role: "menu",
  name,
  states: showing,
  children,
});
const editor: FakeElement = {
  role: "text",
  name: "Body",
  interfaces: ["Accessible", "Text", "EditableText"],
  states: [...showing, "editable", "focused", "multi line"],
};
const canvas: FakeElement = { role: "drawing area", states: [...showing, "focused"] };
const frame = (children: FakeElement[]): FakeElement => ({
  role: "frame",
  name: "F",
  states: showing,
  children,
});
/** A GTK 3 menu bar whose File menu reports an accelerator. */
const bar = (extra: FakeElement[] = []): FakeElement => ({
  role: "menu bar",
  states: showing,
  children: [menu("File", [item("Open…", ["o;<Alt>f:o;<Primary>o"])]), ...extra],
});

async function judged(root: FakeElement, chord: string, bindings?: AppBindings | Error) {
  const backend = backendWithWindow(root);
  if (bindings)
    Object.assign(backend, {
      appBindings: async () => {
        if (bindings instanceof Error) throw bindings;
        return bindings;
      },
    });
  const context = createContext({ refLifetime: "while-verified", connect: async () => backend });
  const effect = await keyEffect(context, { windowId: 7, chord: parseChord(chord) });
  await context.close();
  return effect.presses.map((p, i) => ({
    name: p.name ?? p.unreadable,
    via: effect.via[i],
    commits: !!commitReason(p),
  }));
}

const app = (extra: Partial<AppBindings> = {}): AppBindings => ({
  gtkApplication: false,
  items: [],
  shortcuts: [],
  partial: false,
  ...extra,
});

describe("a chord in an app that binds keys outside its tree", () => {
  it("is judged as the exported menu item whose accel it is", async () => {
    const items = [
      { label: "Publish", action: "win.publish", accel: "<Primary><Shift>p" },
      { label: "Zoom In", action: "win.zoom-in", accel: "<Primary>plus" },
    ];
    assert.deepEqual(await judged(frame([bar(), editor]), "ctrl+shift+p", app({ items })), [
      {
        name: "Publish",
        via: 'the accelerator <Primary><Shift>p of the app\'s exported menu item "Publish"',
        commits: true,
      },
    ]);
  });

  it("is judged as the command its shortcuts window lists it as: Save commits, a line selected does not, a range claims none", async () => {
    const shortcuts = listedShortcuts(OVERLAY);
    assert.deepEqual(shortcuts, [
      { accel: "<control>s", title: "Save" },
      { accel: "<ctrl>l", title: "Select current line" },
      { accel: "<ctrl>1...<ctrl>9", title: "Switch to tab" },
      { accel: "<ctrl>F1 <ctrl>question", title: "Show help & tips" },
    ]);
    const gtkApp = app({ gtkApplication: true, shortcuts });
    assert.deepEqual(await judged(frame([editor]), "ctrl+s", gtkApp), [
      { name: "Save", via: `the app's shortcuts window, which lists <control>s as "Save"`, commits: true },
    ]);
    assert.deepEqual(await judged(frame([editor]), "ctrl+l", gtkApp), [
      {
        name: "Select current line",
        via: `the app's shortcuts window, which lists <ctrl>l as "Select current line"`,
        commits: false,
      },
    ]);
    assert.equal((await judged(frame([editor]), "ctrl+?", gtkApp))[0]?.name, "Show help & tips");
    // Said as the command it is, not as a menu item nobody pressed.
    assert.match(
      commitReason({ role: "menu item", name: "Save", listedCommand: true }) ?? "",
      /^it runs the app's command "Save" \("save" commits\)$/,
    );
    // A range names no chord of its own, and an unlisted chord is still unknown in a GtkApplication.
    for (const chord of ["ctrl+3", "ctrl+shift+F7"])
      assert.equal((await judged(frame([editor]), chord, gtkApp))[0]?.via, "unknown", chord);
  });

  it("asks where nothing readable claims it: a GtkApplication, a model that fills as it opens, one that did not answer", async () => {
    for (const [bindings, why] of [
      [app({ gtkApplication: true }), /GtkApplication/],
      [app({ partial: true }), /fill only as they open/],
      [new Error("no answer"), /did not answer/],
    ] as const) {
      const [press, ...rest] = await judged(frame([bar(), editor]), "ctrl+shift+F7", bindings);
      assert.equal(press?.via, "unknown");
      assert.match(press?.name ?? "", /cannot read without opening its menus/);
      assert.match(press?.name ?? "", why);
      assert.deepEqual(rest, []);
    }
    // The same app with every binding in its tree: a chord no element claims presses nothing.
    assert.deepEqual(await judged(frame([bar(), editor]), "ctrl+shift+F7", app()), []);
  });

  it("asks where a menu of its bar is empty until it opens (Thunar), or the focus is in a web page", async () => {
    const thunar = frame([bar([menu("Go", [])]), editor]);
    assert.match((await judged(thunar, "ctrl+shift+n"))[0]?.name ?? "", /menus are empty until they open/);
    const page = frame([bar(), { role: "document web", name: "Shop", states: showing, children: [editor] }]);
    assert.match((await judged(page, "ctrl+shift+F7"))[0]?.name ?? "", /web page's own key handlers/);
  });

  it("still passes chords that never commit, and formatting chords in an editable text or where the menus name them", async () => {
    const gtkApp = app({ gtkApplication: true });
    assert.deepEqual(await judged(frame([bar(), editor]), "ctrl+c", gtkApp), []);
    for (const chord of ["ctrl+b", "ctrl+i", "ctrl+u"])
      assert.deepEqual(await judged(frame([bar(), editor]), chord, gtkApp), [], `${chord} formats the text`);
    // AbiWord's canvas is no text, and it reports no accelerators; its Format menu names Bold.
    const abiword = (items: FakeElement[]) =>
      frame([{ role: "menu bar", states: showing, children: [menu("Format", items)] }, canvas]);
    assert.deepEqual(await judged(abiword([item("Bold", ["b;<Alt>o:b;"])]), "ctrl+b"), []);
    assert.equal((await judged(abiword([item("Bold", ["b;<Alt>o:b;"])]), "ctrl+i"))[0]?.via, "unknown");
    assert.equal((await judged(abiword([item("Borders…")]), "ctrl+b"))[0]?.via, "unknown");
    // A formatting chord the app binds to something else is judged by that.
    const bound = frame([bar([menu("Mail", [item("Send", ["<Primary>b"])])]), editor]);
    assert.deepEqual(await judged(bound, "ctrl+b"), [
      { name: "Send", via: "its key binding, ctrl+b", commits: true },
    ]);
  });
});

describe("judging a key", () => {
  // Every method a judge may call: reads. A backend method outside it (an action, a caret moved,
  // a menu shown to read it) fails the test, whatever it is named.
  const READS = new Set([
    "listWindows",
    "readWindow",
    "readSubtree",
    "enrich",
    "appBindings",
    "windowUnderPointer",
    "openMenus",
    "describe",
    "readText",
    "readCaret",
    "readAttributes",
    "readTable",
    "matchCandidates",
    "cellPosition",
    "name",
    "closed",
    "close",
  ]);

  it("calls only the backend's reads, on every route a key or text takes", async () => {
    const called = new Set<string>();
    const windows = [
      frame([bar([menu("Go", [])]), editor]),
      frame([{ role: "menu bar", states: showing, children: [menu("Format", [item("Bold")])] }, canvas]),
      frame([bar(), { role: "document web", name: "Shop", states: showing, children: [editor] }]),
    ];
    for (const root of windows) {
      const backend = backendWithWindow(root);
      Object.assign(backend, { appBindings: async () => app({ gtkApplication: true, partial: true }) });
      const reading = new Proxy(backend, {
        get(target, key) {
          const value = Reflect.get(target, key, target);
          if (typeof key === "string" && typeof value === "function") called.add(key);
          return typeof value === "function" ? value.bind(target) : value;
        },
      });
      const context = createContext({ refLifetime: "while-verified", connect: async () => reading });
      for (const key of ["ctrl+b", "ctrl+shift+F7", "ctrl+shift+n", "Delete", "Enter", "space", "alt+g"])
        await keyEffect(context, { windowId: 7, chord: parseChord(key) });
      for (const text of ["abc", "a b\n"]) await keyEffect(context, { windowId: 7, text });
      await context.close();
    }
    assert.ok(called.has("readWindow") && called.has("appBindings"), [...called].join(", "));
    assert.deepEqual(
      [...called].filter((method) => !READS.has(method)),
      [],
      "judging called only reads",
    );
  });
});

describe("a menu model's toggles and radio items, checked by their actions' states", () => {
  it("a boolean state checks its item, a radio item its target; a label two items share apart is left out", () => {
    const items = exportedItems([
      [
        0,
        0,
        [
          [
            ["label", v("_Word Wrap")],
            ["action", v("app.preferences.view.word-wrap")],
          ],
          [
            ["label", v("Unix (LF)")],
            ["action", v("win.line-ending")],
            ["target", v("lf")],
          ],
          [
            ["label", v("Windows (CRLF)")],
            ["action", v("win.line-ending")],
            ["target", v("crlf")],
          ],
          [
            ["label", v("Save")],
            ["action", v("win.save")],
          ],
          [
            ["label", v("Same")],
            ["action", v("app.one")],
          ],
          [
            ["label", v("Same")],
            ["action", v("app.two")],
          ],
        ],
      ],
    ]).items;
    const states = new Map<string, unknown>([
      ["app.preferences.view.word-wrap", true],
      ["win.line-ending", "crlf"],
      ["app.one", true],
      ["app.two", false],
    ]);
    assert.deepEqual(
      [...checkedItems(items, states)],
      [
        ["Word Wrap", { checked: true, radio: false }],
        ["Unix (LF)", { checked: false, radio: true }],
        ["Windows (CRLF)", { checked: true, radio: true }],
      ],
    );
  });
});
