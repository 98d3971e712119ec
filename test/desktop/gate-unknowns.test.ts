// The gate where its word lists end, on real apps: a plain GTK 3 and Qt 5 main window whose buttons
// commit in several languages and scripts (and one in a language deskhand has no vocabulary for),
// menus whose accelerators take other forms than ctrl+letter, and Qt's, which are not reported; a
// VTE terminal that runs what it is given; a drag that starts on a committing button; and what
// commits nothing passing without a person (harmless labels, "Save As", a chooser's Select). Each
// effect is read from the app: its log of presses, a file it deletes, its exit status.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { ToolContext } from "../../src/tools/context.js";
import {
  centre,
  gatedContext,
  HANG_MS,
  one,
  refusedWith,
  type StartedApp,
  startApp,
  toolCaller,
  windowId,
} from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "deskhand-gate-unknowns-"));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const gated = () => gatedContext(dir);
type App = StartedApp;
const start = (command: string[]) => startApp(command);

type Call = ReturnType<typeof toolCaller>;

const COMMITTING = ["Odeslat", "Zapłać", "Vider la corbeille", "立即发送", "ส่ง", "Maksa nyt"];
const HARMLESS = ["Einstellungen", "Hilfe", "設定"];

for (const kit of ["gtk3", "qt"] as const) {
  describe(`the gate on a plain ${kit} main window with labels in many languages`, () => {
    const title = `Gate languages ${kit} ${process.pid}`;
    const log = join(dir, `${kit}.log`);
    const victim = join(dir, `${kit}.victim`);
    let context: ToolContext;
    let call: Call;
    let app: App;
    let id: number;
    const presses = () => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : []);
    before(async () => {
      writeFileSync(victim, "precious");
      context = gated();
      call = toolCaller(context);
      app = start(["/usr/bin/python3", `test/fixtures/dialogs/${kit}_buttons.py`, title, log, victim]);
      id = await windowId(call, title);
    });
    after(async () => {
      app.kill();
      await context.close();
    });

    it("no route presses a committing label in another language or script; harmless ones pass", async () => {
      const intent = "Press the button";
      for (const label of COMMITTING) {
        const button = await one(call, title, { role: "push button", name: label });
        refusedWith(
          await call("act", { ref: button.ref, action: { kind: "invoke" }, intent }),
          `${label}: act`,
          /commits/,
        );
        refusedWith(await call("click", { ref: button.ref, intent }), `${label}: click by ref`);
        refusedWith(
          await call("click", { at: centre(button), intent, window: { id } }),
          `${label}: click by point`,
        );
      }
      const unknown = await one(call, title, { role: "push button", name: "Magbayad" });
      refusedWith(
        await call("act", { ref: unknown.ref, action: { kind: "invoke" }, intent }),
        "a label in a language deskhand has no vocabulary for",
        /cannot read "magbayad" as harmless/,
      );
      await sleep(300);
      assert.deepEqual(presses(), [], "nothing committing was pressed");
      for (const label of HARMLESS) {
        const button = await one(call, title, { role: "push button", name: label });
        const done = await call("act", { ref: button.ref, action: { kind: "invoke" }, intent });
        assert.ok(done.ok, `${label}: ${JSON.stringify(done.error)}`);
      }
      await sleep(300);
      assert.deepEqual(presses(), HARMLESS, "the harmless presses took effect");
    });

    it("menu shortcuts of other forms are judged; where none is reported, a chord counts as committing", async () => {
      const before = presses().length;
      const chords =
        kit === "gtk3" ? ["F8", "ctrl+shift+Delete"] : ["ctrl+shift+d", "F8", "ctrl+Backspace", "Delete"];
      // Qt's Delete reaches its shortcut from a button; in a text field it would edit the text.
      if (kit === "qt") {
        const alpha = await one(call, title, { role: "push button", name: "Alpha" });
        assert.ok((await call("act", { ref: alpha.ref, action: { kind: "focus" }, intent: "Focus it" })).ok);
      }
      for (const key of chords) {
        const pressed = await call("key", { key, intent: "Press the shortcut", window: { id } });
        refusedWith(
          pressed,
          key,
          kit === "qt" ? /Wipe data|Erase everything|Purge|Remove line/ : /Wipe Data|Empty Trash/,
        );
      }
      await sleep(300);
      assert.ok(existsSync(victim), "the data the shortcuts wipe is still there");
      const copied = await call("key", { key: "ctrl+c", intent: "Copy", window: { id } });
      assert.equal(copied.data.status, "done", `copying never commits: ${copied.text}`);
      if (kit === "gtk3") {
        // A reported accelerator on a harmless item, and "Save As" without an ellipsis, pass.
        const reload = await call("key", { key: "F5", intent: "Reload", window: { id } });
        assert.equal(reload.data.status, "done", reload.text);
        const saveAs = await one(call, title, {
          role: "menu item",
          name: "Save As",
          include_off_screen: true,
        });
        const asked = await call("act", {
          ref: saveAs.ref,
          action: { kind: "invoke" },
          intent: "Save a copy",
        });
        assert.ok(asked.ok, JSON.stringify(asked.error));
        await sleep(300);
        assert.deepEqual(presses().slice(before), ["Reload", "Save As"]);
      } else assert.equal(presses().length, before);
    });

    if (kit === "qt")
      it("Qt's menu shortcuts are read: F2 and ctrl+shift+n pass as the harmless items they are", async () => {
        const before = presses().length;
        const started = Date.now();
        const renamed = await call("key", { key: "F2", intent: "Rename the file", window: { id } });
        // The time a key takes to judge and send, with the menu items' key bindings read.
        console.log(`# key F2 on a Qt window, judged and sent: ${Date.now() - started} ms`);
        assert.equal(renamed.data.status, "done", renamed.text);
        assert.equal(renamed.data.level, "L2");
        // The effect: the rename dialog opened (and is closed again, an L2 Escape).
        const dialog = await windowId(call, "Rename");
        const cancelled = await call("key", { key: "Escape", intent: "Close it", window: { id: dialog } });
        assert.equal(cancelled.data.status, "done", cancelled.text);
        const folder = await call("key", { key: "ctrl+shift+n", intent: "Make a folder", window: { id } });
        assert.equal(folder.data.status, "done", folder.text);
        await sleep(300);
        assert.deepEqual(presses().slice(before), ["Rename…", "New Folder"]);
      });

    if (kit === "qt")
      it("a letter in an open Qt menu is judged as the item it presses", async () => {
        const menu = await one(call, title, { role: "menu item", name: "Data" });
        const opened = await call("act", {
          ref: menu.ref,
          action: { kind: "invoke" },
          intent: "Open the menu",
        });
        assert.ok(opened.ok, JSON.stringify(opened.error));
        // The menu is open once its items are on screen (find leaves out what is not).
        const deadline = Date.now() + HANG_MS;
        const onScreen = async () =>
          (
            await call("find", {
              target: { kind: "title", glob: title },
              role: "menu item",
              name: "Wipe data",
            })
          ).data?.matches?.length === 1;
        while (!(await onScreen())) {
          assert.ok(Date.now() < deadline, "the Data menu opened");
          await sleep(150);
        }
        const before = presses().length;
        // Qt reports no mnemonic for an item with a shortcut: any item whose label holds the letter.
        for (const key of ["w", "alt+w"]) {
          const typed = await call("key", { key, intent: "Type a letter", window: { id } });
          refusedWith(typed, `${key} in the open menu`, /Wipe data/);
        }
        refusedWith(
          await call("type_text", { text: "w", intent: "Type a letter", window: { id } }),
          "w typed into the open menu",
          /Wipe data/,
        );
        const closed = await call("key", { key: "Escape", intent: "Close the menu", window: { id } });
        assert.equal(closed.data.status, "done", closed.text);
        await sleep(300);
        assert.equal(presses().length, before, "nothing was pressed");
        assert.ok(existsSync(victim), "nothing was wiped");
      });

    if (kit === "gtk3")
      it("a drag that starts on a committing button is judged at its start", async () => {
        const button = await one(call, title, { role: "push button", name: "Delete everything" });
        const drop = await one(call, title, { role: "label", name: "Drop here" });
        const dragged = await call("drag", {
          from: { at: centre(button) },
          to: { at: centre(drop) },
          intent: "Move it",
          window: { id },
        });
        refusedWith(dragged, "a drag from Delete everything", /Delete everything/);
        await sleep(300);
        assert.ok(!presses().includes("Delete everything") && existsSync(victim), "nothing was deleted");
        const harmless = await call("drag", {
          from: { at: { ...centre(drop), x: centre(drop).x - 40 } },
          to: { at: centre(drop) },
          intent: "Drag over the label",
          window: { id },
        });
        assert.equal(harmless.data.status, "done", harmless.text);
      });
  });
}

describe("the gate on a VTE terminal: what it is given runs", () => {
  const title = `Gate terminal ${process.pid}`;
  const folder = mkdtempSync(join(dir, "term-"));
  const victim = join(folder, "victim");
  let context: ToolContext;
  let call: Call;
  let app: App;
  let id: number;
  before(async () => {
    writeFileSync(victim, "precious");
    context = gated();
    call = toolCaller(context);
    app = start(["/usr/bin/python3", "test/fixtures/dialogs/vte_terminal.py", title, folder]);
    id = await windowId(call, title);
  });
  after(async () => {
    app.kill();
    await context.close();
  });

  it("a line break, Enter, a paste and a shell's own keys are refused; plain typing passes", async () => {
    const terminal = await one(call, title, { role: "terminal" });
    const intent = "Run a command";
    const window = { id };
    for (const text of ["rm victim\n", "rm victim\r"])
      refusedWith(await call("type_text", { text, intent, window }), JSON.stringify(text), /terminal/);
    refusedWith(
      await call("type_text", { text: "rm victim\n", ref: terminal.ref, intent }),
      "typed into its ref",
    );
    const typed = await call("type_text", { text: "rm victim", intent: "Type the command", window });
    assert.equal(typed.data.status, "done", typed.text);
    for (const key of ["Enter", "ctrl+j", "ctrl+m", "ctrl+shift+v", "shift+Insert", "ctrl+d", "ctrl+c"])
      refusedWith(await call("key", { key, intent, window }), key, /terminal/);
    refusedWith(await call("click", { ref: terminal.ref, button: "middle", intent }), "a middle click");
    refusedWith(
      await call("click", { at: centre(terminal), button: "middle", intent, window }),
      "a middle click at a point",
    );
    const erased = await call("key", { key: "Backspace", intent: "Fix a typo", window });
    assert.equal(erased.data.status, "done", `Backspace edits the command line: ${erased.text}`);
    await sleep(500);
    assert.ok(existsSync(victim), "no command ran");
    const shown = await call("read_text", { ref: terminal.ref });
    assert.match(shown.data?.text ?? shown.text ?? "", /rm victi/, "the typed command waits on the line");
  });
});

describe("a chooser's Select, and a window with no accessible tree", () => {
  let context: ToolContext;
  let call: Call;
  before(() => {
    context = gated();
    call = toolCaller(context);
  });
  after(async () => context.close());

  it("a folder chooser's Select only names a folder: it passes with no person, by Enter and by press", async () => {
    const title = `Gate chooser ${process.pid}`;
    const app = start(["/usr/bin/python3", "test/fixtures/dialogs/gtk3_chooser.py", title, dir]);
    try {
      await windowId(call, title);
      const select = await one(call, title, { role: "push button", name_contains: "Select" });
      const done = await call("act", {
        ref: select.ref,
        action: { kind: "invoke" },
        intent: "Pick the folder",
      });
      assert.ok(done.ok, JSON.stringify(done.error));
      const code = await Promise.race([app.exited, sleep(5000).then(() => "still open")]);
      assert.equal(code, 0, "the chooser says a folder was selected");
    } finally {
      app.kill();
    }
  });

  it("a press in a window with no accessible tree is refused, naming the rule that would allow it there", async () => {
    const title = `Gate no tree ${process.pid}`;
    const app = start(["xmessage", "-title", title, "-buttons", "Delete:0,Keep:1", "Really?"]);
    try {
      const deadline = Date.now() + HANG_MS;
      let window: { id: number; x: number; y: number; width: number; height: number } | undefined;
      while (!window && Date.now() < deadline) {
        const windows = (await call("windows", {})).data.windows as {
          id: number;
          title: string;
          rect: { x: number; y: number; width: number; height: number } | null;
        }[];
        const found = windows.find((w) => w.title === title && w.rect);
        if (found) window = { id: found.id, ...found.rect! };
        else await sleep(150);
      }
      assert.ok(window, "xmessage opened");
      const at = { space: "global", x: window.x + 20, y: window.y + window.height - 12 };
      const clicked = await call("click", { at, intent: "Answer it", window: { id: window.id } });
      refusedWith(clicked, "a click in a window with no tree", /cannot tell what it would press/);
      assert.match(clicked.data.reason, new RegExp(`"window":"Gate no tree ${process.pid}"`));
      assert.match(clicked.data.reason, /"tool":"click"/);
      await sleep(300);
      assert.equal(app.child.exitCode, null, "xmessage was not answered");
    } finally {
      app.kill();
    }
  });
});
