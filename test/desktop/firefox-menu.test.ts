// A key sent while Firefox's Edit menu is open (issue 55). The gate reads the open menu's items' key
// bindings to judge a key, and Action.GetActions on "Redo" or "Cut" ended Firefox: Gecko hands out its
// action strings from one buffer it rewrites, so the reply held freed memory, which libdbus refused
// as not UTF-8 and aborted (5 times of 5; Escape from xdotool, which reads nothing, 0 of 6). The reply
// then said "done: pressed Escape" beside Firefox's crash reporter. Here the menu is opened with the
// real keyboard (alt+e), Escape goes through the `key` tool, and Firefox itself answers: its process
// lives, its window is listed and read, its Edit menu is closed, and the reply's changes say so.
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import type { Hands } from "../../src/platform/hands.js";
import { parseChord } from "../../src/platform/keys.js";
import { openX11Hands } from "../../src/platform/x11/hands.js";
import {
  firefoxProfile,
  gatedContext,
  HANG_MS,
  type StartedApp,
  startApp,
  toolCaller,
  windowId,
  within,
} from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "deskhand-firefox-menu-"));
const title = "Deskhand Web Form — Mozilla Firefox";
const intent = "Close the Edit menu";

describe("Escape while Firefox's Edit menu is open", () => {
  const context = gatedContext(dir);
  const call = toolCaller(context);
  let app: StartedApp;
  let hands: Hands;
  let window: number;
  let exitedWith: number | undefined;

  /** The Edit menu of the menu bar, as Firefox reports it now. */
  const editMenu = async () => {
    const found = await call("find", {
      target: { kind: "window", id: window },
      role: "menu",
      name: "Edit",
      include_off_screen: true,
      limit: 2,
    });
    assert.ok(
      found.ok && found.data.matches.length === 1,
      `the Edit menu: ${found.text ?? found.error?.message}`,
    );
    return found.data.matches[0] as { ref: string; states: string[] | null };
  };
  /** Popup menu windows the X server shows (override-redirect, typed as a popup menu). */
  const popups = async () => (await (await context.backend()).openMenus?.()) ?? [];
  const until = async (what: string, check: () => Promise<boolean>) => {
    const deadline = Date.now() + within(HANG_MS);
    while (!(await check())) {
      assert.ok(Date.now() < deadline, what);
      await sleep(150);
    }
  };

  before(async () => {
    app = startApp([
      "firefox-esr",
      "--no-remote",
      "--profile",
      firefoxProfile(dir),
      `file://${resolve("test/fixtures/web/form.html")}`,
    ]);
    app.exited.then((code) => {
      exitedWith = code;
    });
    hands = await openX11Hands({ display: process.env.DISPLAY });
    window = await windowId(call, title);
  });
  after(async () => {
    app.kill();
    await hands.close();
    await context.close();
  });

  it("closes the menu, and Firefox lives on: its process, its window, and a reply that says what changed", async () => {
    // A person's keys open the menu: the window in front, then alt+e (the menu bar shows for it).
    await until("the Edit menu opens", async () => {
      if ((await hands.activeWindow()) !== window) await hands.activate(window);
      if ((await editMenu()).states?.includes("expanded")) return true;
      await hands.chord(parseChord("alt+e"), 1);
      await sleep(300);
      return (await editMenu()).states?.includes("expanded") ?? false;
    });
    assert.ok((await popups()).length > 0, "the X server shows the menu's popup window");
    // Its items are on screen: what the gate reads to judge the key.
    const items = await call("find", {
      target: { kind: "window", id: window },
      role: "menu item",
      limit: 40,
    });
    const names = (items.data?.matches ?? []).map((m: { name: string | null }) => m.name);
    assert.ok(
      names.includes("Redo") && names.includes("Cut"),
      `the open menu's items: ${JSON.stringify(names)}`,
    );

    const pressed = await call("key", { key: "Escape", intent, include_changes: true });
    assert.equal(pressed.data?.status, "done", pressed.text ?? JSON.stringify(pressed.error));
    // The reply: Escape pressed, no window came or went (before: "window appeared: … Firefox Crash
    // Reporter"), and the Edit menu's changes as read after the key.
    assert.match(pressed.text!, /^done: pressed Escape/);
    assert.doesNotMatch(pressed.text!, /window (appeared|disappeared)|Crash Reporter/);
    assert.deepEqual(pressed.data.windows_appeared ?? [], []);
    assert.deepEqual(pressed.data.windows_disappeared ?? [], []);
    assert.equal(pressed.data.front, undefined, "the window in front is still Firefox's");
    // Firefox drops "expanded" as the popup closes ("+collapsed" too, for a moment).
    assert.match(pressed.text!, /menu "Edit" \[ref=[^\]]+\] states [^\n]*-expanded/);

    // Firefox answers for itself: the process is alive (a crash ends it at once, well within this
    // wait), its window is listed and read, and the menu reads closed.
    await sleep(within(500));
    assert.equal(exitedWith, undefined, `Firefox exited (${exitedWith}) after the key`);
    process.kill(app.child.pid!, 0);
    const windows = (await call("windows", {})).data.windows as {
      id: number;
      title: string;
      app: string | null;
    }[];
    assert.ok(
      windows.some((w) => w.id === window && w.title === title),
      `Firefox's window is listed: ${JSON.stringify(windows)}`,
    );
    assert.ok(!windows.some((w) => /crash ?reporter/i.test(`${w.app} ${w.title}`)), JSON.stringify(windows));
    // Firefox keeps its menu bar shown, "Edit" still active in it, with the popup closed: the menu
    // reports no "expanded" (its "collapsed" of the reply's read is gone again a moment later).
    const menu = await editMenu();
    assert.ok(!menu.states?.includes("expanded"), `the Edit menu is closed: ${JSON.stringify(menu.states)}`);
    // The X server agrees: no popup menu window is mapped any more. (Firefox's tree keeps its closed
    // menu's items `showing`, so the tree alone cannot say it.)
    assert.deepEqual(await popups(), [], "the X server shows no popup menu");
  });
});
