// Enter, a line break, Tab and space judged key by key, on real apps: typed text whose Tab moves the
// focus onto a committing button stops before the key that would press it; a single-line field's
// own activation is judged as the press it is; a text of many lines takes Enter as a line break; a
// GTK 4 dialog's Enter is judged by its buttons though GTK 4.8 reports none `showing`. What commits
// nothing passes and its effect is read back: the fields' text, the log of the app's commands.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { globMatch } from "../../src/core/glob.js";
import type { RawNode } from "../../src/platform/types.js";
import { confirmationQuestion } from "../../src/safety/gate.js";
import { createContext, type ToolContext } from "../../src/tools/context.js";
import {
  centre,
  connect,
  type Element,
  findWaiting,
  gatedContext,
  HANG_MS,
  type StartedApp,
  startApp,
  toolCaller,
  windowId,
} from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "deskhand-gate-keys-"));
type Call = ReturnType<typeof toolCaller>;
type Reply = Awaited<ReturnType<Call>>;

const refusedWith = (result: Reply, route: string, reason: RegExp) => {
  const text = result.ok
    ? result.data.status === "refused" && result.data.reason
    : result.error.code === "refused" && result.error.message;
  assert.ok(text, `${route} is refused: ${result.ok ? result.text : JSON.stringify(result.error)}`);
  assert.match(text, reason, route);
};
const done = (result: Reply, route: string) =>
  assert.equal(result.data?.status, "done", `${route}: ${result.text ?? JSON.stringify(result.error)}`);

/**
 * A window's menu bar menus as the app holds them: how many items each has (Thunar fills one only
 * as it shows) and the items on screen (an open menu's). Judging a key must change neither.
 */
async function menusOf(glob: string): Promise<{ sizes: number[]; shown: string[] }> {
  const backend = await connect();
  try {
    const window = (await backend.listWindows()).find((w) => globMatch(glob, w.title));
    assert.ok(window, `a window ${glob}`);
    const read = await backend.readWindow(window.id, {
      maxDepth: 40,
      tableRows: 0,
      walkTables: false,
      nodeCeiling: 5000,
      timeoutMs: 5000,
    });
    const sizes: number[] = [];
    const shown: string[] = [];
    const walk = (node: RawNode) => {
      if (node.role === "menu bar") sizes.push(...node.children.map((menu) => menu.children.length));
      if (node.role.endsWith("menu item") && node.states?.includes("showing")) shown.push(node.name ?? "");
      node.children.forEach(walk);
    };
    walk(read.root);
    return { sizes, shown };
  } finally {
    await backend.close();
  }
}

/** The journal's lines for an intent, parsed. */
const journaled = (intent: string) =>
  readFileSync(join(dir, "audit.jsonl"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line))
    .filter((entry) => entry.intent === intent);

/** The element a query finds in a window, waiting for the window's tree to register. */
const one = async (call: Call, title: string, query: Record<string, unknown>) =>
  (await findWaiting(call, title, query, HANG_MS)) as { ref: string };

describe("typed keys on a GTK 3 main window with no default button", () => {
  const title = `Gate keys ${process.pid}`;
  const log = join(dir, "keys.log");
  let context: ToolContext;
  let call: Call;
  let app: StartedApp;
  const commands = () => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : []);
  const text = async (name: string) => {
    const field = await one(call, title, { name });
    const read = await call("read_text", { ref: field.ref });
    assert.ok(read.ok, JSON.stringify(read.error));
    return read.data.text as string;
  };
  before(async () => {
    context = gatedContext(dir);
    call = toolCaller(context);
    app = startApp(["/usr/bin/python3", "test/fixtures/dialogs/gtk3_keys.py", title, log]);
    await one(call, title, { name: "First name" });
  });
  after(async () => {
    app.kill();
    await context.close();
  });

  it('"John\\tSmith" fills two fields with no person', async () => {
    const first = await one(call, title, { name: "First name" });
    done(
      await call("type_text", { ref: first.ref, text: "John\tSmith", intent: "Fill in the name" }),
      "a Tab",
    );
    assert.equal(await text("First name"), "John");
    assert.equal(await text("Last name"), "Smith");
  });

  it("a space or line break after a Tab that reaches a committing button stops before it, saying how far it got", async () => {
    const last = await one(call, title, { name: "Last name" });
    for (const typed of ["Lee\t ", "Lee\t\n"]) {
      const result = await call("type_text", {
        ref: last.ref,
        text: typed,
        clear: true,
        intent: "Fix the name",
      });
      refusedWith(
        result,
        JSON.stringify(typed),
        /typed 4 of 5 character\(s\), up to and including the Tab.*Delete account/,
      );
      assert.equal(result.data.sent.characters, 4);
      // What went is not denied: the refusal stops the rest, it did not leave everything undone.
      assert.match(String(result.data.reason), /nothing more was sent/);
      assert.doesNotMatch(String(result.data.reason), /nothing was done/);
      assert.equal(await text("Last name"), "Lee", "the text before the Tab went in");
    }
    await sleep(300);
    assert.deepEqual(commands(), [], "Delete account was not pressed");
  });

  it("Enter in a field whose own action cannot be read needs a person; a search field's Enter searches", async () => {
    const code = await one(call, title, { name: "Code" });
    refusedWith(
      await call("type_text", { ref: code.ref, text: "GIFT-42\n", intent: "Redeem" }),
      "a line break in Code",
      /field's own action/,
    );
    refusedWith(
      await call("key", { ref: code.ref, key: "Enter", intent: "Redeem" }),
      "Enter in Code",
      /field's own action/,
    );
    const search = await one(call, title, { name: "Search" });
    done(
      await call("type_text", { ref: search.ref, text: "red cats\n", intent: "Search" }),
      "Enter in Search",
    );
    await sleep(300);
    assert.deepEqual(commands(), ["searched red cats"], "only the search ran; nothing was redeemed");
  });

  it("Enter in a text of many lines is a line break, and the text after it is judged where it lands", async () => {
    const message = await one(call, title, { name: "Message" });
    done(
      await call("type_text", { ref: message.ref, text: "Dear Ann,\nsee you soon", intent: "Write" }),
      "a line break in Message",
    );
    assert.equal(await text("Message"), "Dear Ann,\nsee you soon");
  });

  // A document typed into by its ref had its caret sent to the end first: the line an agent had gone
  // to with its keys was typed at the end of the text, and the reply said it read back exactly.
  it("text typed by ref into a text of many lines that has the focus goes in at its caret", async () => {
    const message = await one(call, title, { name: "Message" });
    done(await call("key", { key: "ctrl+Home", intent: "Go to the start", window: { title } }), "ctrl+Home");
    const typed = await call("type_text", { ref: message.ref, text: "Hello. ", intent: "Write" });
    done(typed, "typing at the caret");
    assert.match(typed.text ?? "", /at its caret \(0 of 22\)/, typed.text);
    assert.equal(await text("Message"), "Hello. Dear Ann,\nsee you soon");
  });

  it("Enter in a field whose placeholder says it searches searches, with no person", async () => {
    const query = await one(call, title, { name: "Query" });
    done(await call("type_text", { ref: query.ref, text: "red cats\n", intent: "Search" }), "Enter in Query");
    await sleep(300);
    assert.equal(commands().at(-1), "queried red cats");
  });

  it("Enter and ctrl+Enter in a composer beside Send need a person, and nothing is sent", async () => {
    const chat = await one(call, `${title} chat`, { name: "Chat" });
    refusedWith(
      await call("type_text", { ref: chat.ref, text: "hi\n", intent: "Say hi" }),
      "a line break in Chat",
      /Send|Pay/,
    );
    refusedWith(
      await call("key", { ref: chat.ref, key: "ctrl+Enter", intent: "Send it" }),
      "ctrl+Enter",
      /./,
    );
    await sleep(300);
    assert.deepEqual(
      commands().filter((c) => c.startsWith("sent")),
      [],
      "nothing was sent",
    );
  });

  it("a field that hands the focus to Pay by itself: the space after it is judged on Pay and stopped", async () => {
    const card = await one(call, `${title} chat`, { name: "Card number" });
    const result = await call("type_text", { ref: card.ref, text: "4242424242424242 ", intent: "Card" });
    refusedWith(
      result,
      "a space after 16 digits",
      /typed 16 of 17 character\(s\), then stopped before the space.*Pay/,
    );
    await sleep(300);
    assert.ok(!commands().includes("paid"), "Pay was not pressed");
    // The digits went in (16 characters); a reply never carries a card number, so they read masked.
    const read = await call("read_text", { ref: card.ref });
    assert.equal(read.data?.text, "•".repeat(16), "the digits went in, masked in the reply");
  });

  it("Down and Enter in an open combo box list choose an option, with no person", async () => {
    const colour = await one(call, title, { role: "combo box", name: "Colour" });
    done(await call("click", { ref: colour.ref, intent: "Open the list" }), "opening the list");
    const open = await call("find", {
      target: { kind: "title", glob: title },
      role: "menu item",
      states: ["showing"],
      timeout_ms: HANG_MS,
    });
    assert.ok(open.data?.matches?.length > 0, `the list opened: ${open.text}`);
    done(await call("key", { key: "Down", intent: "Next option", window: { title } }), "Down");
    const enter = await call("key", { key: "Enter", intent: "Choose it", window: { title } });
    done(enter, "Enter");
    assert.equal(enter.data.level, "L2");
    await sleep(300);
    assert.equal(commands().at(-1), "colour Green", "the option was chosen");
  });

  it("a context menu, a top-level of its own, is read as the window's: its mnemonic and its items at a point are judged", async () => {
    const notes = await one(call, title, { role: "label", name: "Notes" });
    const open = async () => {
      done(await call("click", { ref: notes.ref, button: "right", intent: "Open the menu" }), "right click");
      return (await findWaiting(
        call,
        title,
        { role: "menu item", name: "Delete all notes", states: ["showing"] },
        HANG_MS,
      )) as Element;
    };
    const item = await open();
    refusedWith(
      await call("key", { key: "d", intent: "Type a d", window: { title } }),
      "its mnemonic",
      /Delete all notes/,
    );
    refusedWith(
      await call("click", { at: centre(item), intent: "Click there", window: { title } }),
      "a click on its item",
      /Delete all notes/,
    );
    await sleep(300);
    assert.ok(!commands().includes("deleted notes"), "nothing was deleted");
    done(await call("key", { key: "Down", intent: "First item", window: { title } }), "Down");
    done(
      await call("key", { key: "Enter", intent: "Copy the link", window: { title } }),
      "Enter on Copy link",
    );
    await sleep(300);
    assert.equal(commands().at(-1), "copied link", "the harmless item was pressed");
  });
});

describe("a line break typed into a document canvas that reports no text (AbiWord)", () => {
  const name = `notes-${process.pid}.txt`;
  let context: ToolContext;
  let call: Call;
  let app: StartedApp;
  before(async () => {
    writeFileSync(join(dir, name), "");
    context = gatedContext(dir);
    call = toolCaller(context);
    app = startApp(["abiword", join(dir, name)]);
    await one(call, name, { role: "drawing area", states: ["focused"] });
  });
  after(async () => {
    app.kill();
    await context.close();
  });

  it("passes with no person once the canvas drew the first line, and the document shows both", async () => {
    // AbiWord's page is a drawing area: no text, no caret, no multi-line state to read. The line
    // break took effect once its pixels changed and the focus stayed on it. The last line break
    // takes the caret off the second line, which it would cover for the OCR.
    // Passed with no person; sent, not verified: the page has no text to read back (the OCR below reads it).
    const twoLines = await call("type_text", {
      text: "line one\nline two\n",
      intent: "Write two lines",
      window: { title: name },
    });
    assert.equal(twoLines.data?.status, "unverified", twoLines.text ?? JSON.stringify(twoLines.error));
    const page = await one(call, `*${name}`, { role: "drawing area", states: ["focused"] });
    let lines: string[] = [];
    for (let attempt = 0; attempt < 3 && !lines.includes("line two"); attempt++) {
      await sleep(300);
      const read = await call("read_screen_text", { of: { kind: "element", ref: page.ref } });
      lines = ((read.data?.lines ?? []) as { text: string }[]).map((l) => l.text.trim());
    }
    assert.deepEqual(lines.slice(0, 2), ["line one", "line two"]);
  });
});

describe("Enter on a focused control of a Qt dialog, which presses the dialog's default instead", () => {
  const log = join(dir, "qt-default.log");
  const pressed = () => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : []);
  let context: ToolContext;
  let call: Call;
  before(() => {
    context = gatedContext(dir);
    call = toolCaller(context);
  });
  after(() => context.close());

  const dialogWith = async (label: string) => {
    const title = `Gate keys Qt ${label} ${process.pid}`;
    const app = startApp([
      "/usr/bin/python3",
      "test/fixtures/dialogs/qt_default_enter.py",
      title,
      log,
      label,
    ]);
    await one(call, title, { role: "push button", name: label });
    return { title, app };
  };

  it("a committing default is judged: Enter on a button that is not auto-default, or on a radio button, needs a person", async () => {
    const { title, app } = await dialogWith("Transfer");
    try {
      for (const name of ["Zoom", "Later"]) {
        const focused = await one(call, title, { name });
        const enter = await call("key", { ref: focused.ref, key: "Enter", intent: "Zoom in" });
        refusedWith(enter, `Enter on ${name}`, /Transfer/);
      }
      await sleep(500);
      assert.ok(!pressed().includes("Transfer"), `Transfer was not pressed: ${pressed()}`);
    } finally {
      app.kill();
    }
  });

  it("a harmless default passes, and Enter on Zoom presses it, not Zoom; an unclaimed alt+letter asks", async () => {
    const { title, app } = await dialogWith("Refresh");
    try {
      const zoom = await one(call, title, { name: "Zoom" });
      done(await call("key", { ref: zoom.ref, key: "Enter", intent: "Refresh" }), "Enter on Zoom");
      for (let i = 0; i < 20 && !pressed().includes("Refresh"); i++) await sleep(100);
      assert.ok(pressed().includes("Refresh"), `the default was pressed: ${pressed()}`);
      assert.ok(!pressed().includes("Zoom"), `Zoom was not: ${pressed()}`);
      // alt+s, which no label shows as a mnemonic: a QShortcut the tree does not show, so it asks.
      const id = await windowId(call, title);
      const send = await call("key", { key: "alt+s", intent: "Send", window: { id } });
      refusedWith(send, "alt+s", /reports no key bindings/);
      await sleep(500);
      assert.ok(!pressed().includes("Send"), `alt+s sent nothing: ${pressed()}`);
    } finally {
      app.kill();
    }
  });
});

describe("Enter in a GTK 4 file chooser dialog, whose toolkit reports no default and no showing", () => {
  const title = `Gate keys GTK4 ${process.pid}`;
  const folder = mkdtempSync(join(dir, "gtk4-"));
  let context: ToolContext;
  let call: Call;
  let app: StartedApp;
  before(() => {
    context = gatedContext(dir);
    call = toolCaller(context);
    app = startApp(["/usr/bin/python3", "test/fixtures/dialogs/gtk4_save.py", title, folder]);
  });
  after(async () => {
    app.kill();
    await context.close();
  });

  it("is judged by the dialog's buttons: Save needs a person, and no file is written", async () => {
    const button = await one(call, title, { role: "push button", name_contains: "Save As" });
    const opened = await call("act", { ref: button.ref, action: { kind: "invoke" }, intent: "Open Save As" });
    assert.ok(opened.ok, JSON.stringify(opened.error));
    const name = await one(call, "Save As", { role: "text", value_contains: "untitled" });
    const enter = await call("key", { ref: name.ref, key: "Enter", intent: "Save" });
    refusedWith(enter, "Enter in the name field", /Save/);
    refusedWith(
      await call("type_text", { ref: name.ref, text: "\n", intent: "Save" }),
      "a line break in the name field",
      /Save/,
    );
    // The person asked is told what the press saves: the dialog's name field.
    const questions: string[] = [];
    const asking = createContext({
      refLifetime: "while-verified",
      env: {
        ...process.env,
        DESKHAND_AUDIT: join(dir, "audit.jsonl"),
        DESKHAND_CONFIG: join(dir, "none.json"),
      },
      confirm: async (request) => {
        questions.push(confirmationQuestion(request));
        return "declined";
      },
    });
    try {
      const save = await one(toolCaller(asking), "Save As", {
        role: "push button",
        name_contains: "Save",
        include_off_screen: true,
      });
      const declined = await toolCaller(asking)("act", {
        ref: save.ref,
        action: { kind: "invoke" },
        intent: "Save",
      });
      refusedWith(declined, "Save, declined", /Save/);
      assert.match(questions[0] ?? "", /in a dialog whose fields read [^"]*"untitled[^"]*"\)/, questions[0]);
    } finally {
      await asking.close();
    }
    await sleep(500);
    assert.deepEqual(readdirSync(folder), [], "nothing was saved");
  });

  it("in a question with no default and no button focused, Enter may press Delete: it needs a person", async () => {
    const question = `Gate keys GTK4 question ${process.pid}`;
    const dialog = startApp([
      "/usr/bin/python3",
      "test/fixtures/dialogs/gtk4_question.py",
      question,
      "_Delete",
      "label-focus",
    ]);
    try {
      await one(call, question, { role: "push button", name_contains: "Delete" });
      const id = await windowId(call, question);
      const enter = await call("key", { key: "Enter", intent: "Answer", window: { id } });
      refusedWith(enter, "Enter with the message focused", /Delete/);
      assert.match(enter.data.presses.via, /possible default button/, JSON.stringify(enter.data.presses));
      await sleep(500);
      assert.equal(dialog.child.exitCode, null, "the dialog is still open: nothing was answered");
    } finally {
      dialog.kill();
    }
  });
});

describe("keys in a GTK 3 file manager whose menus fill only as they open (Thunar)", () => {
  const folder = join(dir, "thunar-keys");
  const title = "thunar-keys - Thunar";
  let context: ToolContext;
  let call: Call;
  let app: StartedApp;
  const key = (chord: string, intent: string) => call("key", { key: chord, intent, window: { title } });
  /** The dialog a key opened, read back, then closed by its Cancel (which commits nothing). */
  const opened = async (reply: Reply, dialog: RegExp) => {
    done(reply, "the key");
    const titles: string[] = (reply.data.windows_appeared ?? []).map((w: { title: string }) => w.title);
    const shown = titles.find((t) => dialog.test(t));
    assert.ok(shown, `a dialog ${dialog} opened: ${JSON.stringify(reply.data)}`);
    const cancel = await one(call, shown, { role: "push button", name: "Cancel" });
    const cancelled = await call("act", { ref: cancel.ref, action: { kind: "invoke" }, intent: "Cancel" });
    assert.match(cancelled.text ?? "", /window disappeared: \d+ "/, `${shown} closed`);
  };
  before(async () => {
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "notes.txt"), "notes\n");
    context = gatedContext(dir);
    call = toolCaller(context);
    app = startApp(["thunar", folder]);
    await one(call, title, { role: "push button", name: "Home" });
    done(await key("ctrl+a", "Select the file"), "ctrl+a");
  });
  after(async () => {
    app.kill();
    await context.close();
  });

  it("passes F2, which opens its dialog; asks for ctrl+shift+n and ctrl+shift+w, which its unopened menus would name, and opens none", async () => {
    await opened(await key("F2", "Rename the file"), /^Rename "notes\.txt"$/);
    const before = await menusOf(title);
    assert.ok(before.sizes.length >= 5 && before.sizes.every((n) => n === 0), JSON.stringify(before));
    for (const chord of ["ctrl+shift+n", "ctrl+shift+w"])
      refusedWith(
        await key(chord, "Use a menu command"),
        chord,
        /binds keys that deskhand cannot read without opening its menus.*act on the menu item/,
      );
    // Said as what it may do, not as a way to a menu item that asks as well.
    refusedWith(
      await key("Delete", "Delete it"),
      "Delete",
      /no element claims Delete, and a list or view takes it itself: it may delete what is selected/,
    );
    // A search for what its menus hold finds nothing, and says why: they fill as they open.
    const sorted = await call("find", {
      target: { kind: "title", glob: title },
      role: "radio menu item",
      include_off_screen: true,
    });
    assert.equal(sorted.data?.total, 0, sorted.text);
    assert.match(sorted.text ?? "", /Its menus [^\n]*"View"[^\n]* hold no items until opened/, sorted.text);
    // Thunar fills a menu only as it shows: still empty, none was opened to judge.
    assert.deepEqual(await menusOf(title), before, "Thunar's menus were not opened");
    await sleep(500);
    assert.deepEqual(readdirSync(folder), ["notes.txt"], "nothing was created or deleted");
    const windows = await call("windows", {});
    assert.ok(windows.ok && JSON.stringify(windows.data).includes(title), "the window is still open");
  });
});

describe("keys in a GTK 4 editor that reports no key bindings (GNOME Text Editor)", () => {
  const folder = join(dir, "gte");
  const title = `notes.txt (${folder}) - Text Editor`;
  let context: ToolContext;
  let call: Call;
  let app: StartedApp;
  const key = (chord: string, intent: string) => call("key", { key: chord, intent, window: { title } });
  const fields = async () => {
    const found = await call("find", { target: { kind: "title", glob: title }, role: "text" });
    assert.ok(found.ok, JSON.stringify(found.error));
    return found.data.matches.length as number;
  };
  before(async () => {
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "notes.txt"), "notes\n");
    context = gatedContext(dir);
    call = toolCaller(context);
    app = startApp(["gnome-text-editor", "--standalone", join(folder, "notes.txt")]);
    await one(call, title, { role: "text", name: "EditorSourceView" });
  });
  after(async () => {
    app.kill();
    await context.close();
  });

  it("passes ctrl+h, find and replace by convention, and its replace field appears", async () => {
    const before = await fields();
    done(await key("ctrl+h", "Find and replace"), "ctrl+h");
    let after = before;
    for (let i = 0; i < 20 && after < before + 2; i++) {
      await sleep(200);
      after = await fields();
    }
    assert.ok(after >= before + 2, `a search and a replace field appeared: ${before} then ${after}`);
    // GTK 4.8 names its buttons twice, the first copy with its mnemonic marked ("Repl_ace All
    // Replace All"): they are read as they show, and its menu button holding its own button is one.
    await one(call, title, { role: "push button", name: "Replace All" });
    const observed = await call("observe", { target: { kind: "title", glob: title } });
    const menus = (observed.text ?? "")
      .split("\n")
      .filter((l: string) => /push button "Main Menu"|push button "Menu"/.test(l));
    assert.equal(menus.length, 1, observed.text);
  });

  it("text typed into its search field, which reports no focus, is read back from the field whose text it changed", async () => {
    const typed = await call("type_text", { text: "otes", intent: "Search the notes", window: { title } });
    done(typed, "typing into the search field");
    assert.match(
      typed.text ?? "",
      /into the text "EditorSearchEntry" \(it reports no keyboard focus: found by its text, changed by the keys\)/,
    );
    assert.equal(typed.data.result.read_back, "contains", typed.text);
    const search = await one(call, title, { role: "text", name: "EditorSearchEntry" });
    const read = await call("read_text", { ref: search.ref });
    assert.equal(read.data?.text, "otes", "the search field holds what was typed");
  });

  it("still asks a person for a chord nothing says anything of", async () => {
    refusedWith(
      await key("ctrl+shift+F7", "Something"),
      "ctrl+shift+F7",
      /cannot read without opening its menus/,
    );
  });

  // Its shortcuts window (help-overlay.ui in the program's resources) says what a chord does, read
  // from the program's file: ctrl+i and ctrl+d asked before, as chords of a GtkApplication.
  it("judges a chord by the title its shortcuts window lists: Go to line passes and its field appears; Delete the current line needs a person, and the text stays", async () => {
    await key("Escape", "Close the search bar");
    const editor = await one(call, title, { role: "text", name: "EditorSourceView" });
    const text = async () => (await call("read_text", { ref: editor.ref })).data?.text;
    const before = { fields: await fields(), text: await text() };
    const refused = await key("ctrl+d", "Remove a line");
    refusedWith(refused, "ctrl+d", /runs the app's command "Delete the current line" \("delete" commits\)/);
    assert.match(refused.text ?? "", /shortcuts window, which lists <ctrl>d as "Delete the current line"/);
    assert.equal(await text(), before.text, "the document is as it was");
    done(await key("ctrl+i", "Go to a line"), "ctrl+i");
    let after = before.fields;
    for (let i = 0; i < 20 && after <= before.fields; i++) {
      await sleep(200);
      after = await fields();
    }
    assert.ok(after > before.fields, `the line number field appeared: ${before.fields} then ${after}`);
    await key("Escape", "Close the line number field");
  });

  // GTK 4.8 on X11 places a popover's elements in its main window's coordinates; the popover is an
  // X window of its own. Placed there, "Preferences" was clicked 161 points right, on the popover's
  // shadow, and the menu closed with nothing opened (popover-places.ts).
  it("an item of its main menu's popover is clicked by ref where it shows, and opens Preferences", async () => {
    const menu = await call("find", {
      target: { kind: "title", glob: title },
      role: "push button",
      name: "Menu",
      nth: 0,
    });
    assert.ok(menu.ok, JSON.stringify(menu.error));
    const opened = await call("act", { ref: menu.data.matches[0].ref, action: { kind: "invoke" } });
    assert.ok(opened.ok, JSON.stringify(opened.error));
    const item = await one(call, title, { role: "menu item", name: "Preferences" });
    // Open, the menu button holds its menu beside its own button: still one button, and the items.
    const seen = await call("observe", { target: { kind: "title", glob: title } });
    const lines = (seen.text ?? "").split("\n");
    assert.equal(lines.filter((l: string) => /push button "(Main )?Menu"/.test(l)).length, 1, seen.text);
    assert.ok(
      lines.some((l: string) => /menu item "Preferences"/.test(l)),
      seen.text,
    );
    const clicked = await call("click", { ref: item.ref, intent: "Open the preferences" });
    assert.ok(clicked.ok && clicked.data.status === "done", JSON.stringify(clicked));
    assert.match(clicked.text, /window appeared: \d+ "Preferences"/, clicked.text);
    await call("key", { key: "Escape", intent: "Close the preferences", window: { title: "Preferences" } });
  });
});

// Judging a chord only reads: it once showed every menu to read it, which put a footnote into an
// AbiWord document and swallowed the space typed next in AbiWord and mousepad.
describe("a chord judged in a word processor (AbiWord) and an editor (mousepad) leaves them as they were", () => {
  const abw = join(dir, `letter-${process.pid}.abw`);
  const txt = join(dir, `notes-${process.pid}.txt`);
  // Either title, edited ("*letter.abw") or not.
  const abiword = `*letter-${process.pid}.abw`;
  const mousepad = `*notes-${process.pid}.txt - Mousepad`;
  let context: ToolContext;
  let saver: ToolContext;
  let call: Call;
  const apps: StartedApp[] = [];
  // AbiWord's page is a drawing area with no text to read back: its typing is sent, not verified
  // (its saved file says what arrived); mousepad's text view reads back.
  const typed = async (title: string, text: string) => {
    const result = await call("type_text", { text, intent: "Write the note", window: { title } });
    if (title !== abiword) return done(result, JSON.stringify(text));
    assert.equal(result.data?.status, "unverified", result.text ?? JSON.stringify(result.error));
  };
  const key = (title: string, chord: string, intent: string) =>
    call("key", { key: chord, intent, window: { title } });
  /** The letter as AbiWord saves it (its canvas has no text to read): the body's text and markup. */
  const saved = async () => {
    const before = readFileSync(abw, "utf8");
    done(
      await toolCaller(saver)("key", { key: "ctrl+s", intent: "Save", window: { title: abiword } }),
      "save",
    );
    for (let i = 0; i < 50 && readFileSync(abw, "utf8") === before; i++) await sleep(100);
    const body = /<section[^>]*>([\s\S]*)<\/section>/.exec(readFileSync(abw, "utf8"))?.[1] ?? "";
    return { text: body.replace(/<[^>]+>/g, "").trim(), body };
  };
  before(async () => {
    writeFileSync(
      abw,
      '<?xml version="1.0" encoding="UTF-8"?>\n<abiword xmlns="http://www.abisource.com/awml.dtd" fileformat="1.1">\n<section><p></p></section>\n</abiword>\n',
    );
    writeFileSync(txt, "");
    mkdirSync(join(dir, "saver"), { recursive: true });
    context = gatedContext(dir);
    // Saving is the person's call; this test's person allowed it in the letter's window.
    saver = gatedContext(join(dir, "saver"), [{ reason: "any", window: abiword }]);
    call = toolCaller(context);
    apps.push(startApp(["abiword", abw]), startApp(["mousepad", txt]));
    await findWaiting(call, abiword, { role: "menu", name: "Format" }, HANG_MS);
    await findWaiting(call, mousepad, { role: "text" }, HANG_MS);
  });
  after(async () => {
    for (const app of apps) app.kill();
    await context.close();
    await saver.close();
  });

  it("AbiWord: ctrl+b and ctrl+e pass and set bold and centre, and what is typed next follows; an unread chord is refused and changes nothing", async () => {
    const menus = await menusOf(abiword);
    assert.deepEqual(menus.shown, [], "no menu is open");
    await typed(abiword, "abc");
    done(await key(abiword, "ctrl+b", "Make it bold"), "ctrl+b");
    assert.deepEqual(await menusOf(abiword), menus, "no menu was opened or filled to judge it");
    await typed(abiword, " xyz");
    // Its Format > Align menu holds Left, Center and Right: ctrl+e centres, as that menu says.
    done(await key(abiword, "ctrl+e", "Centre the paragraph"), "ctrl+e");
    const first = await saved();
    assert.equal(first.text, "abc xyz", first.body);
    assert.match(first.body, /font-weight:bold[^>]*>\s?xyz/, "bold, as the same key from xdotool sets it");
    assert.match(first.body, /text-align:center/, "the paragraph is centred");
    assert.doesNotMatch(first.body, /<foot/, "no footnote was inserted");
    const attempt = journaled("Make it bold").find((e) => e.phase === "attempt");
    assert.ok(attempt && !("menus_shown" in attempt.target), JSON.stringify(attempt));
    // ctrl+shift+F7 is in none of AbiWord's menus, and AbiWord reports no accelerators.
    refusedWith(
      await key(abiword, "ctrl+shift+F7", "Try a shortcut"),
      "ctrl+shift+F7",
      /reports no key bindings/,
    );
    assert.deepEqual(await menusOf(abiword), menus, "no menu was opened to judge the refused chord");
    // ctrl+s is its File menu's Save by convention: judged as that press (the letter is titled, so
    // it commits), not as a chord nothing can read.
    refusedWith(
      await key(abiword, "ctrl+s", "Save the letter"),
      "ctrl+s",
      /menu item "Save" \("save" commits\)/,
    );
    await typed(abiword, " q");
    assert.equal((await saved()).text, "abc xyz q", "the space typed after the refusal landed");
    // act expand opens a menu title, whose press is its only action ("Click"), and shows its items.
    const format = (await findWaiting(call, abiword, { role: "menu", name: "Format" }, HANG_MS)) as {
      ref: string;
    };
    const expanded = await call("act", { ref: format.ref, action: { kind: "expand" } });
    assert.ok(expanded.ok, JSON.stringify(expanded.error));
    assert.ok((await menusOf(abiword)).shown.length > 0, "the Format menu shows");
    done(await key(abiword, "Escape", "Close the menu"), "Escape");
  });

  it("mousepad: the space typed after a chord passed and one refused lands where the caret was", async () => {
    const menus = await menusOf(mousepad);
    const field = (await findWaiting(call, mousepad, { role: "text" }, HANG_MS)) as { ref: string };
    await typed(mousepad, "abc");
    done(await key(mousepad, "ctrl+b", "Make it bold"), "ctrl+b");
    refusedWith(
      await key(mousepad, "ctrl+shift+F7", "Try a shortcut"),
      "ctrl+shift+F7",
      /cannot read without opening its menus \(a GtkApplication/,
    );
    await typed(mousepad, " xyz");
    // Its menu model, read over the session bus (org.gtk.Menus): labels and actions, no accel.
    const backend = await connect();
    const window = (await backend.listWindows()).find((w) => globMatch(mousepad, w.title));
    const bindings = await backend.appBindings(window!.id).finally(() => backend.close());
    assert.equal(bindings?.gtkApplication, true);
    assert.ok(bindings?.partial, "Open Recent fills only as it opens");
    const save = bindings?.items.find((item) => item.label === "Save As...");
    assert.deepEqual(save, { label: "Save As...", action: "win.file.save-as" }, JSON.stringify(bindings));
    const read = await call("read_text", { ref: field.ref });
    assert.equal(read.data?.text, "abc xyz", read.text);
    assert.deepEqual(await menusOf(mousepad), menus, "no menu was opened to judge");
  });

  it("mousepad: its find bar's Enter and Close (a tool bar's, beside a field named nothing) pass with no person", async () => {
    done(await key(mousepad, "ctrl+f", "Find"), "ctrl+f");
    const options = { role: "check box", name: "Match case" };
    const shown = async () => {
      const found = await call("find", { target: { kind: "title", glob: mousepad }, ...options });
      return found.ok ? found.data.matches.length : -1;
    };
    await findWaiting(call, mousepad, options, HANG_MS);
    assert.equal(await shown(), 1, "the find bar is shown");
    // A search with no match turns the field's frame and text red (GTK's "error" style), which only
    // its pixels show; Enter in it searches again, with no person, and changes nothing.
    const missing = await call("type_text", { text: "zzqq", intent: "Search", window: { title: mousepad } });
    assert.match(String(missing.data?.result.field_colours), /frame or text turned red/, missing.text);
    done(await key(mousepad, "Enter", "Find the next one"), "Enter in the find bar");
    assert.equal(await shown(), 1, "the find bar is still shown");
    const close = (await findWaiting(call, mousepad, { role: "push button", name: "Close" }, HANG_MS)) as {
      ref: string;
    };
    // Passed with no person (the app's bar says whether it took effect, below).
    const closed = await call("act", {
      ref: close.ref,
      action: { kind: "invoke" },
      intent: "Close the find bar",
    });
    assert.ok(closed.ok && closed.data.status !== "refused", closed.text ?? JSON.stringify(closed.error));
    for (let i = 0; i < 30 && (await shown()) !== 0; i++) await sleep(100);
    assert.equal(await shown(), 0, "the find bar is gone");
    const text = await call("read_text", {
      ref: ((await findWaiting(call, mousepad, { role: "text" }, HANG_MS)) as { ref: string }).ref,
    });
    assert.equal(text.data?.text, "abc xyz", "the document is still there, as it was");
  });

  // Its menus are built from the model it exports (GMenuModel): their tree shows a toggle as a plain
  // menu item, with no checked state. Its action's state, on the session bus, says it: the item
  // reads as the check menu item it shows, found by that role.
  it("mousepad: a menu's toggle from its exported model (Word Wrap) reads checked or not, and its press says it flipped", async () => {
    const menus = await menusOf(mousepad);
    const wrap = async () => {
      const found = await call("find", {
        target: { kind: "title", glob: mousepad },
        role: "check menu item",
        name: "Word Wrap",
        include_off_screen: true,
      });
      assert.equal(found.data?.matches?.length, 1, found.text);
      return found.data.matches[0] as { ref: string; states: string[] };
    };
    // The app's own answer, asked with GLib's tool rather than deskhand: its action's state,
    // "((true, signature '', [<false>]),)".
    const backend = await connect();
    const window = (await backend.listWindows().finally(() => backend.close())).find((w) =>
      globMatch(mousepad, w.title),
    )!;
    const property = (name: string) =>
      /"(.*)"/.exec(execFileSync("xprop", ["-id", String(window.id), name], { encoding: "utf8" }))![1]!;
    const describe = ["--object-path", property("_GTK_APPLICATION_OBJECT_PATH"), "--method"];
    const wrapping = () =>
      /\[<true>\]/.test(
        execFileSync(
          "gdbus",
          ["call", "--session", "--dest", property("_GTK_UNIQUE_BUS_NAME"), ...describe].concat([
            "org.gtk.Actions.Describe",
            "preferences.view.word-wrap",
          ]),
          { encoding: "utf8" },
        ),
      );
    const before = await wrap();
    assert.ok(before.states.includes("checkable"), JSON.stringify(before));
    assert.equal(before.states.includes("checked"), wrapping(), JSON.stringify(before));
    const pressed = await call("act", {
      ref: before.ref,
      action: { kind: "invoke" },
      intent: "Wrap long lines",
    });
    assert.ok(pressed.ok, JSON.stringify(pressed.error));
    const now = wrapping();
    assert.notEqual(now, before.states.includes("checked"), "the app's word wrap flipped");
    assert.match(pressed.text ?? "", now ? /; now checked/ : /; no longer checked/, pressed.text);
    assert.equal(pressed.data?.effect, "seen", pressed.text);
    assert.equal((await wrap()).states.includes("checked"), now);
    assert.deepEqual(await menusOf(mousepad), menus, "no menu was opened to read it");
  });
});
