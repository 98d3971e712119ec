// The gate on real dialogs, in English, German and Japanese: every route to a committing button
// (act, a click by ref or point, Enter and space with and without a ref, typed "\n" and " ", focus
// then a key, the button's mnemonic, the window manager's menu, a click while the app is stopped) is
// refused without a person, and the app shows nothing happened: the dialog is still open, and when
// it is finally cancelled (an L2 press the gate lets through) its exit status says "cancelled".
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { ToolContext } from "../../src/tools/context.js";
import {
  findWaiting,
  gatedContext,
  NdjsonClient,
  type StartedApp,
  startApp,
  TITLES,
  toolCaller,
} from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "deskhand-gate-"));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const gated = () => gatedContext(dir);

/** An input refused by the gate: a refused reply (input tools) or a refused error (act). */
function refused(result: Awaited<ReturnType<ReturnType<typeof toolCaller>>>, route: string): void {
  if (result.ok) assert.equal(result.data.status, "refused", `${route}: ${result.text}`);
  else assert.equal(result.error.code, "refused", `${route}: ${JSON.stringify(result.error)}`);
}

type Dialog = StartedApp;

/** Starts a dialog in a language; its process group is killed afterwards, whatever happened. */
const startDialog = (command: string[], language: string): Dialog =>
  startApp(command, { ...process.env, LANGUAGE: language, LANG: "C.UTF-8", LC_ALL: "" });

type Element = {
  ref: string;
  role: string;
  name: string | null;
  bounds: { x: number; y: number; width: number; height: number };
};

interface Case {
  kit: string;
  language: string;
  command: (title: string) => string[];
  /** The committing button's name as the toolkit shows it, and the cancelling one's. */
  commit: RegExp;
  cancel: RegExp;
  /** The committing button's mnemonic, where the toolkit gives one. */
  mnemonic?: string;
  /** Exit status once cancelled. */
  cancelled: number;
}

const zenity = (title: string) => ["zenity", "--question", "--title", title, "--text", `${title}?`];
const gtk4 = (title: string) => [
  "/usr/bin/python3",
  "test/fixtures/dialogs/gtk4_question.py",
  title,
  "_Delete",
];
const qt = (title: string) => ["/usr/bin/python3", "test/fixtures/dialogs/qt_question.py", title, "discard"];

const CASES: Case[] = [
  {
    kit: "zenity",
    language: "en",
    command: zenity,
    commit: /^_?Yes$/,
    cancel: /^_?No$/,
    mnemonic: "alt+y",
    cancelled: 1,
  },
  {
    kit: "zenity",
    language: "de",
    command: zenity,
    commit: /^Ja$/,
    cancel: /^Nein$/,
    mnemonic: "alt+j",
    cancelled: 1,
  },
  {
    kit: "zenity",
    language: "ja",
    command: zenity,
    commit: /^はい/,
    cancel: /^いいえ/,
    mnemonic: "alt+y",
    cancelled: 1,
  },
  {
    kit: "gtk4",
    language: "en",
    command: gtk4,
    commit: /Delete/,
    cancel: /Cancel/,
    mnemonic: "alt+d",
    cancelled: 1,
  },
  {
    kit: "gtk4",
    language: "de",
    command: gtk4,
    commit: /Löschen/,
    cancel: /Abbrechen/,
    mnemonic: "alt+l",
    cancelled: 1,
  },
  {
    kit: "gtk4",
    language: "ja",
    command: gtk4,
    commit: /削除/,
    cancel: /キャンセル/,
    mnemonic: "alt+d",
    cancelled: 1,
  },
  { kit: "qt", language: "en", command: qt, commit: /Discard/, cancel: /Cancel/, cancelled: 1 },
  { kit: "qt", language: "de", command: qt, commit: /Verwerfen/, cancel: /Abbrechen/, cancelled: 1 },
  { kit: "qt", language: "ja", command: qt, commit: /破棄/, cancel: /キャンセル/, cancelled: 1 },
];

describe("the gate on real dialogs", () => {
  let context: ToolContext;
  const call = (tool: string, input: Record<string, unknown>) => toolCaller(context)(tool, input);
  before(() => {
    context = gated();
  });
  after(async () => context.close());

  const windowOf = async (title: string, timeoutMs = 20_000) => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const result = await call("windows", {});
      const found = result.data?.windows?.find(
        (w: { title: string; accessible: boolean }) => w.title === title && w.accessible !== false,
      );
      if (found) return found as { id: number; pid: number };
      await sleep(150);
    }
    throw new Error(`no readable window titled ${title}`);
  };
  const buttons = async (title: string): Promise<Element[]> => {
    const result = await call("find", {
      target: { kind: "title", glob: title },
      role: "push button",
      limit: 20,
    });
    assert.ok(result.ok, JSON.stringify(result.error));
    return result.data.matches;
  };

  for (const c of CASES) {
    it(`${c.kit} in ${c.language}: no route presses the committing button; Cancel passes`, async () => {
      const title = `Gate ${c.kit} ${c.language}`;
      const dialog = startDialog(c.command(title), c.language);
      try {
        const window = await windowOf(title);
        const all = await buttons(title);
        const commit = all.find((b) => c.commit.test(b.name ?? ""));
        const cancel = all.find((b) => c.cancel.test(b.name ?? ""));
        assert.ok(commit && cancel, `both buttons in ${JSON.stringify(all.map((b) => b.name))}`);
        const at = {
          space: "global",
          x: Math.round(commit.bounds.x + commit.bounds.width / 2),
          y: Math.round(commit.bounds.y + commit.bounds.height / 2),
        };
        const win = { id: window.id };
        const intent = "Answer the dialog";
        refused(await call("act", { ref: commit.ref, action: { kind: "invoke" }, intent }), "act invoke");
        refused(await call("click", { ref: commit.ref, intent }), "click by ref");
        refused(await call("click", { at, intent, window: win }), "click by point");
        const enter = await call("key", { key: "Enter", intent, window: win });
        refused(enter, "Enter");
        assert.match(enter.data.presses.via, /focused|default/, "Enter is judged by what it reaches");
        refused(await call("key", { key: "space", ref: commit.ref, intent }), "space with a ref");
        const focused = await call("act", { ref: commit.ref, action: { kind: "focus" }, intent: "Focus it" });
        // GTK 4.8 has no GrabFocus; its dialog's committing button has the focus from the start.
        if (c.kit !== "gtk4") assert.ok(focused.ok, `act focus is L2: ${JSON.stringify(focused.error)}`);
        refused(await call("key", { key: "space", intent, window: win }), "focus, then space");
        refused(await call("key", { key: "Enter", intent, window: win }), "focus, then Enter");
        refused(await call("type_text", { text: "\n", intent, window: win }), 'type "\\n"');
        refused(await call("type_text", { text: " ", intent, window: win }), 'type " "');
        refused(await call("key", { key: "alt+space", intent, window: win }), "the window menu");
        if (c.mnemonic) {
          const mnemonic = await call("key", { key: c.mnemonic, intent, window: win });
          refused(mnemonic, "the mnemonic");
          assert.match(mnemonic.data.presses.via, /key binding/, "found through the button's key binding");
        }
        // A stopped app cannot answer the hit-test: the point could be anything, so it is refused.
        process.kill(window.pid, "SIGSTOP");
        try {
          const blind = await call("click", { at, intent, window: win });
          refused(blind, "a click while the app is stopped");
          assert.match(blind.data.reason, /cannot tell what it would press/);
        } finally {
          process.kill(window.pid, "SIGCONT");
        }
        await sleep(500);
        assert.equal(dialog.child.exitCode, null, "the dialog is still open: nothing was answered");

        const cancelled = await call("act", {
          ref: cancel.ref,
          action: { kind: "invoke" },
          intent: "Cancel it",
        });
        assert.ok(cancelled.ok, `Cancel is L2: ${JSON.stringify(cancelled.error)}`);
        const code = await Promise.race([dialog.exited, sleep(5000).then(() => "still open")]);
        assert.equal(code, c.cancelled, "the dialog says it was cancelled, not committed");
      } finally {
        dialog.kill();
      }
    });
  }
});

describe("the gate lets through what commits nothing", () => {
  let context: ToolContext;
  before(() => {
    context = gated();
  });
  after(async () => context.close());

  it("Enter on a zenity question whose answer ends in an ellipsis presses it, with no person", async () => {
    const title = "Gate zenity further step";
    const dialog = startDialog(
      ["zenity", "--question", "--title", title, "--ok-label", "Details…", "--text", "More?"],
      "en",
    );
    try {
      const call = toolCaller(context);
      const deadline = Date.now() + 20_000;
      let id: number | undefined;
      while (id === undefined && Date.now() < deadline) {
        const windows = (await call("windows", {})).data.windows as { id: number; title: string }[];
        id = windows.find((w) => w.title === title)?.id;
        if (id === undefined) await sleep(150);
      }
      assert.ok(id !== undefined, "the dialog opened");
      const pressed = await call("key", { key: "Enter", intent: "Ask for the details", window: { id } });
      assert.equal(pressed.data.status, "done", pressed.text);
      assert.equal(pressed.data.level, "L2");
      const code = await Promise.race([dialog.exited, sleep(5000).then(() => "still open")]);
      assert.equal(code, 0, "zenity says its OK button was pressed");
    } finally {
      dialog.kill();
    }
  });
});

describe("the gate on an editor: what commits nothing passes, accelerators are judged", () => {
  let context: ToolContext;
  let editor: Dialog;
  const TITLE = `Gate Editor ${process.pid}`;
  const call = (tool: string, input: Record<string, unknown>) => toolCaller(context)(tool, input);
  before(() => {
    context = gated();
    editor = startDialog(["/usr/bin/python3", "test/fixtures/dialogs/gtk3_editor.py", TITLE], "en");
  });
  after(async () => {
    editor.kill();
    await context.close();
  });

  const element = (title: string, query: Record<string, unknown>) =>
    findWaiting(call, title, query, 20_000) as Promise<{ ref: string; value?: string; description?: string }>;
  const status = async () => {
    const result = await call("snapshot", {
      target: { kind: "title", glob: TITLE },
      format: "json",
      maxDepth: 30,
    });
    return result.data.elements.find((e: { name: string }) => e.name === "Status").description as string;
  };
  const invoke = async (title: string, query: Record<string, unknown>) => {
    const { ref } = await element(title, query);
    return call("act", { ref, action: { kind: "invoke" }, intent: "Do the next step of the task" });
  };

  it("Save As…, Find/Replace… and Replace All pass at L2 with no person, and take effect", async () => {
    for (const [name, effect] of [
      ["Save As…", "Save As asked"],
      ["Find/Replace…", "Find/Replace asked"],
    ] as const) {
      const done = await invoke(TITLE, { role: "menu item", name });
      assert.ok(done.ok, `${name}: ${JSON.stringify(done.error)}`);
      assert.equal(await status(), effect);
    }
    const replaceAll = await element(TITLE, { role: "push button", name: "Replace All" });
    const clicked = await call("click", { ref: replaceAll.ref, intent: "Replace every cat with dog" });
    assert.equal(clicked.data.status, "done", clicked.text);
    assert.equal(clicked.data.level, "L2", "an edit the app's undo reverts");
    assert.equal(await status(), "Replaced 3");
    assert.equal((await element(TITLE, { name: "Document" })).value, "dog and dog and dog");
  });

  it("a modeless search dialog's Close passes, with or without its search text typed", async () => {
    assert.ok((await invoke(TITLE, { role: "menu item", name: "Search…" })).ok);
    assert.equal(await status(), "Search open");
    const field = await element("Search", { role: "text", name: "Search for" });
    const typed = await call("act", {
      ref: field.ref,
      action: { kind: "set_value", text: "cats" },
      intent: "Search",
    });
    assert.ok(typed.ok);
    // What was typed to search is no work of a person's: closing loses nothing.
    const closed = await invoke("Search", { role: "push button", name: "Close" });
    assert.ok(closed.ok, JSON.stringify(closed.error));
    assert.equal(await status(), "Search closed");
  });

  it("ctrl+s is judged as the Save menu item it is bound to, like pressing Save", async () => {
    const before = await status();
    const window = await call("windows", {});
    const id = window.data.windows.find((w: { title: string }) => w.title === TITLE).id;
    const chord = await call("key", { key: "ctrl+s", intent: "Save", window: { id } });
    assert.equal(chord.data.status, "refused", chord.text);
    assert.match(chord.data.presses.via, /key binding.*<(Primary|Control)>s/);
    const menu = await invoke(TITLE, { role: "menu item", name: "Save" });
    assert.equal(menu.error?.code, "refused");
    await sleep(300);
    assert.equal(await status(), before, "nothing was saved");
  });

  it("two deskhand servers typing scripts outside the keymap into two fields at once get every character right", async () => {
    const greek = "αβγδεζηθικλμνξοπρστυφχψωΑΒΓΔΕΖΗΘ";
    const cyrillic = "абвгдежзийклмнопрстуфхцчшщъыьэюя";
    await element(TITLE, { name: "First" });
    const clients = [new NdjsonClient(), new NdjsonClient()];
    try {
      const window = (await call("windows", {})).data.windows.find(
        (w: { title: string }) => w.title === TITLE,
      );
      const refs = await Promise.all(
        clients.map(async (client, i) => {
          const snap = await client.request(`s${i}`, "snapshot", {
            scope: "hwnd",
            hwnd: window.id,
            maxDepth: 30,
          });
          return snap.result.elements.find((e: { name: string }) => e.name === (i === 0 ? "First" : "Second"))
            .ref;
        }),
      );
      const runs = Number(process.env.DESKHAND_TYPIST_RUNS ?? 10);
      for (let run = 0; run < runs; run++) {
        const replies = await Promise.all(
          clients.map((client, i) =>
            client.request(`t${run}-${i}`, "type_text", {
              ref: refs[i],
              text: i === 0 ? greek : cyrillic,
              clear: true,
              intent: "Type the text",
            }),
          ),
        );
        for (const reply of replies) assert.ok(reply.ok, JSON.stringify(reply));
        const [first, second] = [
          await element(TITLE, { name: "First" }),
          await element(TITLE, { name: "Second" }),
        ];
        assert.equal(first.value, greek, `run ${run}: the Greek field`);
        assert.equal(second.value, cyrillic, `run ${run}: the Cyrillic field`);
      }
    } finally {
      for (const client of clients) client.end();
      await Promise.all(clients.map((c) => c.exited));
    }
  });
});

describe("the gate on the Swing fixture's modal dialog and menu", () => {
  let context: ToolContext;
  const call = (tool: string, input: Record<string, unknown>) => toolCaller(context)(tool, input);
  before(() => {
    context = gated();
  });
  after(async () => context.close());

  // A dialog the app opens takes its time to appear on a busy machine: its elements are waited for.
  const one = (title: string, query: Record<string, unknown>) =>
    findWaiting(call, title, query, 10_000) as Promise<Element>;
  const status = async () => {
    const result = await call("snapshot", {
      target: { kind: "title", glob: TITLES.swing },
      format: "json",
      maxDepth: 40,
      maxNodes: 2000,
    });
    return result.data.elements.find((e: { name: string }) => e.name === "Status").description as string;
  };
  const windowId = async (title: string) =>
    (await call("windows", {})).data.windows.find((w: { title: string }) => w.title === title).id as number;

  it("ctrl+s, which the Java wrapper does not report, counts as committing", async () => {
    const before = await status();
    const saved = await call("key", {
      key: "ctrl+s",
      intent: "Save",
      window: { id: await windowId(TITLES.swing) },
    });
    refused(saved, "ctrl+s");
    assert.match(saved.data.reason, /reports no key bindings/, saved.text);
    await sleep(300);
    assert.equal(await status(), before, "nothing was saved");
  });

  it("no route presses the modal dialog's OK; Cancel passes", async () => {
    const open = await one(TITLES.swing, { role: "push button", name: "Open dialog" });
    const opened = await call("act", {
      ref: open.ref,
      action: { kind: "invoke" },
      intent: "Open it",
      waitMs: 500,
    });
    assert.ok(opened.ok, JSON.stringify(opened.error));
    const ok = await one("Confirm", { role: "push button", name: "OK" });
    const cancel = await one("Confirm", { role: "push button", name: "Cancel" });
    const win = { id: await windowId("Confirm") };
    const at = {
      space: "global",
      x: Math.round(ok.bounds.x + ok.bounds.width / 2),
      y: Math.round(ok.bounds.y + ok.bounds.height / 2),
    };
    const intent = "Answer the dialog";
    refused(await call("act", { ref: ok.ref, action: { kind: "invoke" }, intent }), "act invoke");
    refused(await call("click", { ref: ok.ref, intent }), "click by ref");
    refused(await call("click", { at, intent, window: win }), "click by point");
    refused(await call("key", { key: "space", ref: ok.ref, intent }), "space with a ref");
    assert.ok((await call("act", { ref: ok.ref, action: { kind: "focus" }, intent: "Focus it" })).ok);
    refused(await call("key", { key: "space", intent, window: win }), "focus, then space");
    refused(await call("key", { key: "Enter", intent, window: win }), "focus, then Enter");
    refused(await call("type_text", { text: " ", intent, window: win }), 'type " "');
    refused(await call("type_text", { text: "\n", intent, window: win }), 'type "\\n"');
    refused(await call("key", { key: "alt+space", intent, window: win }), "the window menu");
    await sleep(300);
    assert.equal(await status(), "Dialog open", "the dialog was not answered");
    const cancelled = await call("act", {
      ref: cancel.ref,
      action: { kind: "invoke" },
      intent: "Cancel",
      waitMs: 300,
    });
    assert.ok(cancelled.ok, JSON.stringify(cancelled.error));
    assert.equal(await status(), "Cancelled");
  });
});
