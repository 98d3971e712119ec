// The gate on real dialogs, in English, German and Japanese: every route to a committing button
// (act, a click by ref or point, Enter and space with and without a ref, typed "\n" and " ", focus
// then a key, the button's mnemonic, the window manager's menu, a click while the app is stopped) is
// refused without a person, and the app shows nothing happened: the dialog is still open, and when
// it is finally cancelled (an L2 press the gate lets through) its exit status says "cancelled".
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createContext, type ToolContext } from "../../src/tools/context.js";
import { toolCaller } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "deskhand-gate-"));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Dialog {
  child: ChildProcess;
  exited: Promise<number>;
  kill(): void;
}

/** Starts a dialog in a language; its process group is killed afterwards, whatever happened. */
function startDialog(command: string[], language: string): Dialog {
  const child = spawn(command[0]!, command.slice(1), {
    stdio: "ignore",
    detached: true,
    env: { ...process.env, LANGUAGE: language, LANG: "C.UTF-8", LC_ALL: "" },
  });
  const exited = new Promise<number>((resolve) => child.on("exit", (code) => resolve(code ?? -1)));
  return {
    child,
    exited,
    kill: () => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // Already gone.
      }
    },
  };
}

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
    context = createContext({
      refLifetime: "while-verified",
      env: {
        ...process.env,
        DESKHAND_AUDIT: join(dir, "audit.jsonl"),
        DESKHAND_CONFIG: join(dir, "none.json"),
      },
    });
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
  const refused = (result: Awaited<ReturnType<ReturnType<typeof toolCaller>>>, route: string) => {
    if (result.ok) assert.equal(result.data.status, "refused", `${route}: ${result.text}`);
    else assert.equal(result.error.code, "refused", `${route}: ${JSON.stringify(result.error)}`);
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
