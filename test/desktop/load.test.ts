// On a busy machine: two processes loading CPU and disk (scripts/load.mjs) and the keymap changing
// all the while (which makes openbox reload its key bindings and every GTK app its keymap, as two
// typists borrowing keycodes do). Window activation is confirmed by the window manager's own answer,
// not a fixed wait; a click and typing still read back exact; a window whose modal dialog is open is
// refused with the dialog named, since the window manager gives the focus to the dialog.

import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
// @ts-expect-error: a plain ES module script, with no types of its own.
import { startLoad } from "../../scripts/load.mjs";
import { X11Connection } from "../../src/platform/x11/connection.js";
import { Keymap } from "../../src/platform/x11/keymap.js";
import type { ToolContext } from "../../src/tools/context.js";
import type { ToolName } from "../../src/tools/registry.js";
import { findWaiting, gatedContext, startApp, TITLES, toolCaller, within } from "./helpers.js";

/** Remaps one spare keycode back and forth every CHURN_MS until stopped, then gives it back empty. */
const CHURN_MS = Number(process.env.CHURN_MS ?? 250);
/** Keymap changes sent at once, as fast as the X server takes them. */
const BURST = Number(process.env.BURST ?? 20);
async function churnKeymap(): Promise<{ changes: () => number; stop: () => Promise<void> }> {
  const x = await X11Connection.open(process.env.DISPLAY!, 2000);
  const keymap = await Keymap.load(x);
  // The highest spare keycode: deskhand's typists borrow from the lowest first.
  const keycode = keymap.spareKeycodes().at(-1);
  assert.ok(keycode, "a spare keycode to change");
  let changes = 0;
  let running = true;
  const loop = (async () => {
    const GREEK_ALPHA = 0x7e1;
    const GREEK_BETA = 0x7e2;
    while (running) {
      await keymap.assign(x, [{ keycode, keysym: changes % 2 ? GREEK_BETA : GREEK_ALPHA }]);
      changes++;
      await sleep(CHURN_MS);
    }
    await keymap.clear(x, [keycode]);
    x.close();
  })();
  return {
    changes: () => changes,
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined || Date.now() > deadline) return value;
    await sleep(150);
  }
}

describe("on a busy machine: CPU and disk load beside, the keymap changing all the while", () => {
  const dir = mkdtempSync(join(tmpdir(), "deskhand-load-"));
  let context: ToolContext;
  let stopLoad: () => void;
  let churn: Awaited<ReturnType<typeof churnKeymap>>;
  const call = (tool: ToolName, input: Record<string, unknown>) => toolCaller(context)(tool, input);
  before(async () => {
    context = gatedContext(dir);
    // Bounded in time, whatever happens to this test: the workers stop by themselves after 3 min.
    stopLoad = startLoad({ seconds: 180, workers: 2 });
    churn = await churnKeymap();
  });
  after(async () => {
    stopLoad();
    await churn.stop();
    await context.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const windowId = async (title: string) => {
    const listed = await call("windows", {});
    const found = listed.data.windows.find((w: { title: string }) => w.title === title);
    assert.ok(found, `a window titled ${title}`);
    return found.id as number;
  };

  it("window focus among three apps is confirmed every time, read back from the window manager", async () => {
    const ids = await Promise.all([TITLES.gtk3, TITLES.gtk4, TITLES.swing].map(windowId));
    const x = await X11Connection.open(process.env.DISPLAY!, 2000);
    try {
      const active = await x.atom("_NET_ACTIVE_WINDOW");
      assert.ok(active);
      // Each app twice: the load beside slows the other lane's tests as well as these.
      for (let round = 0; round < 6; round++) {
        const id = ids[round % ids.length]!;
        const focused = await call("window", { action: "focus", window: { id }, intent: "Bring it forward" });
        assert.equal(focused.data.result?.focus, "is now in front", `round ${round}: ${focused.text}`);
        assert.equal((await x.cardinals(x.root, "_NET_ACTIVE_WINDOW"))?.[0], id, `round ${round}`);
      }
    } finally {
      x.close();
    }
    assert.ok(churn.changes() > 5, `the keymap changed ${churn.changes()} times meanwhile`);
  });

  it("a window manager dozens of keymap changes behind is waited for: the focus is confirmed, not guessed", async () => {
    // openbox reloads its key bindings for each change: a burst leaves it seconds behind, longer than
    // any fixed wait would be, yet it does catch up and then activates the window.
    const x = await X11Connection.open(process.env.DISPLAY!, 2000);
    try {
      const keymap = await Keymap.load(x);
      const keycode = keymap.spareKeycodes().at(-2)!;
      const ids = await Promise.all([TITLES.gtk3, TITLES.gtk4].map(windowId));
      for (const [round, id] of ids.entries()) {
        for (let i = 0; i < BURST; i++) await keymap.assign(x, [{ keycode, keysym: 0x7e1 + (i % 2) }]);
        await keymap.clear(x, [keycode]);
        const started = Date.now();
        const focused = await call("window", { action: "focus", window: { id }, intent: "Bring it forward" });
        const took = Date.now() - started;
        assert.equal(
          focused.data.result?.focus,
          "is now in front",
          `round ${round}, ${took} ms: ${focused.text}`,
        );
        assert.equal((await x.cardinals(x.root, "_NET_ACTIVE_WINDOW"))?.[0], id);
        process.stdout.write(`# the window manager answered after ${took} ms\n`);
      }
    } finally {
      x.close();
    }
  });

  it("a click into a field and typing there read back exact, each time in another app first", async () => {
    for (let round = 0; round < 3; round++) {
      // Another window in front first, so every round activates the field's window again.
      await call("window", { action: "focus", window: { title: TITLES.gtk4 }, intent: "Away" });
      const name = (await findWaiting(call, TITLES.swing, { role: "text", name: "Name" }, 20_000)) as {
        ref: string;
      };
      const text = `busy ${round}`;
      const typed = await call("type_text", { ref: name.ref, text, clear: true, intent: "Fill the name" });
      assert.equal(typed.data.status, "done", typed.text);
      const reread = (await findWaiting(call, TITLES.swing, { role: "text", name: "Name" }, 20_000)) as {
        value?: string;
      };
      assert.equal(reread.value, text, `round ${round}`);
    }
    // Each time the field's window was brought forward, the journal says so, as `window focus` would.
    const raised = readFileSync(join(dir, "audit.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { tool: string; outcome?: { part_of?: string; focus?: string } })
      .filter((e) => e.tool === "window.focus" && e.outcome?.part_of === "type_text");
    assert.ok(raised.length >= 3, `${raised.length} activations journaled`);
    assert.ok(raised.every((e) => e.outcome?.focus === "is now in front"));
  });

  it("a window whose modal dialog is open: refused, naming the dialog the window manager put in front", async () => {
    const title = `Busy Saver ${process.pid}`;
    const saver = startApp(["/usr/bin/python3", "test/fixtures/dialogs/gtk3_save.py", title, dir]);
    try {
      const item = (await findWaiting(call, title, { role: "menu item", name: "Save As…" }, 30_000)) as {
        ref: string;
      };
      const opened = await call("act", { ref: item.ref, action: { kind: "invoke" }, intent: "Open Save As" });
      assert.ok(opened.ok, JSON.stringify(opened.error));
      await findWaiting(call, "Save As", { role: "push button", name: "Cancel" }, 30_000);
      // The app shows the dialog before the window manager, behind on its work, has managed it.
      const dialog = await until(async () => {
        const listed = await call("windows", {});
        return listed.data.windows.find(
          (w: { title: string; focused?: boolean }) => w.title === "Save As" && w.focused,
        );
      }, within(30_000));
      assert.ok(dialog, "the window manager put the dialog in front");
      const refused = await call("key", { key: "Tab", intent: "Move on", window: { title } });
      assert.equal(refused.data.status, "refused", refused.text);
      assert.match(
        refused.data.reason,
        /is not in front after asking the window manager; window \d+ \("Save As"\) is/,
      );
      assert.equal(refused.data.in_front?.title, "Save As");
    } finally {
      saver.kill();
    }
  });
});
