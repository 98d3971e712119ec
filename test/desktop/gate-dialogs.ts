// The gate's real dialogs (zenity and GTK 4 in English, German and Japanese; Qt in English, Polish
// and Japanese) and every route to their committing button, shared by the X11 gate tests
// (gate.test.ts) and their Wayland twins (wayland-hands.test.ts): the same routes, the same
// refusals, whatever the session.
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { type StartedApp, startApp, type toolCaller } from "./helpers.js";

type Call = ReturnType<typeof toolCaller>;

/** An input refused by the gate: a refused reply (input tools) or a refused error (act). */
export function refused(result: Awaited<ReturnType<ReturnType<typeof toolCaller>>>, route: string): void {
  if (result.ok) assert.equal(result.data.status, "refused", `${route}: ${result.text}`);
  else assert.equal(result.error.code, "refused", `${route}: ${JSON.stringify(result.error)}`);
}

export type Dialog = StartedApp;

/** Starts a dialog in a language; its process group is killed afterwards, whatever happened. */
export const startDialog = (
  command: string[],
  language: string,
  env: NodeJS.ProcessEnv = process.env,
): Dialog => startApp(command, { ...env, LANGUAGE: language, LANG: "C.UTF-8", LC_ALL: "" });

export type Element = {
  ref: string;
  role: string;
  name: string | null;
  bounds: { x: number; y: number; width: number; height: number };
};

export interface Case {
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
// Qt's own file dialog saving into a folder of its own (an empty list to read).
const qtSave = (title: string) => [
  "/usr/bin/python3",
  "test/fixtures/dialogs/qt_question.py",
  title,
  "save",
  join(mkdtempSync(join(tmpdir(), "deskhand-qt-save-")), "saved.txt"),
];

export const CASES: Case[] = [
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
  // Qt's own Polish Save, "Zachowaj", is Keep in gettext's catalogs: read by Qt's catalog, its file
  // dialog's Save asks (it saved unasked before; a file dialog is no alert, so no structure decides).
  { kit: "qt", language: "pl", command: qtSave, commit: /^Zachowaj$/, cancel: /^Anuluj$/, cancelled: 1 },
  { kit: "qt", language: "ja", command: qt, commit: /破棄/, cancel: /キャンセル/, cancelled: 1 },
];

/**
 * Every route to the case's committing button is refused, and the dialog shows nothing was
 * answered; then Cancel (L2) passes and the dialog's exit status says it was cancelled. `call` is a
 * gated context's (no pre-approval), `env` the desktop the dialog starts in.
 */
export async function everyRouteRefused(
  call: Call,
  c: Case,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
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

  const title = `Gate ${c.kit} ${c.language}`;
  const dialog = startDialog(c.command(title), c.language, env);
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
    // A stopped app cannot answer the hit-test: the point could be anything, so it is refused. Once
    // per toolkit: it waits out the hit-test's bound, and the language changes nothing of it.
    if (c.language === "en") {
      process.kill(window.pid, "SIGSTOP");
      try {
        const blind = await call("click", { at, intent, window: win });
        refused(blind, "a click while the app is stopped");
        assert.match(blind.data.reason, /cannot tell what it would press/);
      } finally {
        process.kill(window.pid, "SIGCONT");
      }
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
}
