// The judge reads structure first, on a real GTK 3 window (test/fixtures/dialogs/gtk3_structure.py):
// a tab named "Delete account", a toggle, a menu button and a find bar's Close commit nothing whatever
// their words, and are pressed with no person to ask; a command whose words no lexicon reads
// ("Vrandosk now") is refused and never reaches the app. The app's own log says what happened.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { findWaiting, gatedContext, HANG_MS, type StartedApp, startApp, toolCaller } from "./helpers.js";
import { pressEach } from "./labels-app.js";

const dir = mkdtempSync(join(tmpdir(), "deskhand-gate-structure-"));
const title = `Gate structure ${process.pid}`;
const log = join(dir, "structure.log");
const logged = () => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : []);

async function untilLogged(line: string): Promise<void> {
  const deadline = Date.now() + HANG_MS;
  while (!logged().includes(line) && Date.now() < deadline) await sleep(100);
  assert.ok(logged().includes(line), `${line} was logged: ${JSON.stringify(logged())}`);
}

describe("the judge on a GTK 3 window: structure first, fail closed on words it cannot read", () => {
  const context = gatedContext(dir);
  const call = toolCaller(context);
  let app: StartedApp;
  const ref = async (role: string, name: string) =>
    ((await findWaiting(call, title, { role, name }, HANG_MS)) as { ref: string }).ref;
  const intent = "Use the window";

  before(() => {
    app = startApp(["/usr/bin/python3", "test/fixtures/dialogs/gtk3_structure.py", title, log]);
  });
  after(async () => {
    app.kill();
    await context.close();
  });

  it("a tab, a toggle, a menu button and a find bar's Close pass, whatever their words, and take effect", async () => {
    const tab = await call("click", { ref: await ref("page tab", "Delete account"), intent });
    assert.ok(tab.ok && tab.data.status !== "refused", JSON.stringify(tab.data ?? tab.error));
    await untilLogged("page 1");
    const toggled = await call("click", { ref: await ref("toggle button", "Paid only"), intent });
    assert.ok(toggled.ok && toggled.data.status !== "refused", JSON.stringify(toggled.data ?? toggled.error));
    await untilLogged("toggle True");
    // The click's reply says what it toggled, read back from the button.
    assert.match(toggled.text ?? "", /toggle button "Paid only" since: now (checked|pressed)/, toggled.text);
    const closed = await call("click", { ref: await ref("push button", "Close"), intent });
    assert.ok(closed.ok && closed.data.status !== "refused", JSON.stringify(closed.data ?? closed.error));
    await untilLogged("bar closed");
  });

  it("an option of a list named for a filter is chosen with no person, whatever its words", async () => {
    const combo = await ref("combo box", "Filter");
    const chosen = await call("act", {
      ref: combo,
      action: { kind: "select", option: "Sent items" },
      intent,
    });
    assert.ok(chosen.ok && chosen.data.status !== "refused", JSON.stringify(chosen.data ?? chosen.error));
    await untilLogged("filter Sent items");
  });

  it('a question\'s button answers its message: under "This cannot be undone" Replace All is refused, Cancel passes', async () => {
    const open = await call("click", { ref: await ref("push button", "Replace in Files…"), intent });
    assert.ok(open.ok && open.data.status !== "refused", JSON.stringify(open.data ?? open.error));
    const inDialog = async (name: string) =>
      (
        (await findWaiting(call, "Replace in Files", { role: "push button", name }, HANG_MS)) as {
          ref: string;
        }
      ).ref;
    const replaced = await call("click", { ref: await inDialog("Replace All"), intent });
    assert.ok(!replaced.ok || replaced.data.status === "refused", JSON.stringify(replaced.data));
    assert.match(String(replaced.data?.reason), /answers a message/, replaced.data?.reason);
    const cancelled = await call("click", { ref: await inDialog("Cancel"), intent });
    assert.ok(
      cancelled.ok && cancelled.data.status !== "refused",
      JSON.stringify(cancelled.data ?? cancelled.error),
    );
    await untilLogged("replace cancelled");
    assert.ok(!logged().includes("replaced all"), "nothing was replaced");
  });

  // GNOME Calculator's keys asked by their descriptions: ")" as "Block schließen [)]" (close block),
  // its clear key as "Die Anzeige löschen" (delete the display). A key of a keypad (the ten digits
  // beside it) is judged by its own name alone; "OK" there still commits (a PIN pad's), and the same
  // "C" with no digits beside it is judged by its description.
  it("a keypad's keys pass whatever their descriptions say; its OK asks; the key alone asks", async () => {
    const digits = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"];
    const tips = { C: "Delete the display", ")": "Close the window", OK: "Confirm" };
    const env = { ...process.env, TOOLTIPS: JSON.stringify(tips) };
    const pressed = async (labels: string[]) =>
      new Map(
        (await pressEach("gtk3", labels, mkdtempSync(join(dir, "keys-")), env)).map((r) => [r.label, r]),
      );
    const keypad = await pressed(["C", ")", "OK", ...digits]);
    for (const key of ["C", ")", "7"]) {
      const r = keypad.get(key)!;
      assert.equal(r.refused, undefined, `${key} passes on the keypad: ${r.refused}`);
      assert.equal(r.pressed, true, `${key} was pressed`);
    }
    const alone = await pressed(["C", "OK"]);
    for (const r of [keypad.get("OK")!, alone.get("C")!]) {
      assert.match(r.refused ?? "", /person|confirm/i, `${r.label} asks: ${r.refused}`);
      assert.equal(r.pressed, false, `${r.label} was not pressed`);
    }
  });

  // The app finds them (Collection), and each is read alone, its children left unread on purpose:
  // that was said as a cut of the search, "elements below maxDepth", on every find by role.
  it("a find by role that the app answers says the whole scope was read", async () => {
    await ref("push button", "Refresh");
    // A notebook's tab list: found with its tabs below it, which are no part of the question.
    const found = await call("find", { target: { kind: "title", glob: title }, role: "page tab list" });
    assert.ok(found.ok && found.data.matches.length === 1, JSON.stringify(found.error ?? found.data));
    assert.match(found.text ?? "", /The whole scope was read\./, found.text);
  });

  it("a command whose words no lexicon reads is refused and never pressed; a plain one passes", async () => {
    const strange = await call("click", { ref: await ref("push button", "Vrandosk now"), intent });
    assert.ok(strange.ok && strange.data.status === "refused", JSON.stringify(strange.data ?? strange.error));
    assert.match(String(strange.data.reason), /cannot read "vrandosk" as harmless/);
    // An English verb alone that no catalog shows leading a harmless label, more often a verb than a noun.
    const vote = await call("click", { ref: await ref("push button", "Vote"), intent });
    assert.ok(vote.ok && vote.data.status === "refused", JSON.stringify(vote.data ?? vote.error));
    assert.match(String(vote.data.reason), /"vote" is an English verb no catalog/);
    const refresh = await call("click", { ref: await ref("push button", "Refresh"), intent });
    assert.ok(refresh.ok && refresh.data.status !== "refused", JSON.stringify(refresh.data ?? refresh.error));
    await untilLogged("Refresh");
    await sleep(300);
    for (const label of ["Vrandosk now", "Vote"])
      assert.ok(!logged().includes(label), `${label} not pressed: ${JSON.stringify(logged())}`);
  });

  it("an item seen in its menu is refused once the menu has closed, and never activated", async () => {
    const opened = await call("click", { ref: await ref("toggle button", "Pay"), intent });
    assert.ok(opened.ok && opened.data.status !== "refused", JSON.stringify(opened.data ?? opened.error));
    await untilLogged("menu shown");
    const card = (await findWaiting(call, title, { role: "menu item", name: "Card" }, HANG_MS)) as {
      ref: string;
      states: string[];
    };
    assert.ok(card.states.includes("showing"), `the item is on screen: ${card.states}`);
    const closed = await call("key", { key: "Escape", intent: "Close the menu" });
    assert.ok(closed.ok && closed.data.status !== "refused", JSON.stringify(closed.data ?? closed.error));
    const stale = await call("act", { ref: card.ref, action: { kind: "invoke" }, intent });
    assert.equal(stale.error?.code, "stale_element", JSON.stringify(stale.data ?? stale.error));
    assert.match(stale.error.message, /the menu has closed since/);
    await sleep(300);
    assert.ok(!logged().includes("menu item"), `never activated: ${JSON.stringify(logged())}`);
  });
});

describe("the judge on a Qt 5 window: a tab, a checkable button and a menu item carrying its shortcut", () => {
  const qtTitle = `Gate structure Qt ${process.pid}`;
  const qtLog = join(dir, "structure-qt.log");
  const qtLogged = () => (existsSync(qtLog) ? readFileSync(qtLog, "utf8").split("\n").filter(Boolean) : []);
  const context = gatedContext(dir);
  const call = toolCaller(context);
  let app: StartedApp;
  const intent = "Use the window";
  const element = async (query: Record<string, unknown>) =>
    (await findWaiting(call, qtTitle, query, HANG_MS)) as { ref: string; name: string };

  before(() => {
    app = startApp(["/usr/bin/python3", "test/fixtures/dialogs/qt_structure.py", qtTitle, qtLog]);
  });
  after(async () => {
    app.kill();
    await context.close();
  });

  it("each passes and takes effect; the command no lexicon reads is refused", async () => {
    const until = async (line: string) => {
      const deadline = Date.now() + HANG_MS;
      while (!qtLogged().includes(line) && Date.now() < deadline) await sleep(100);
      assert.ok(qtLogged().includes(line), `${line}: ${JSON.stringify(qtLogged())}`);
    };
    const tab = await call("click", {
      ref: (await element({ role: "page tab", name: "Delete account" })).ref,
      intent,
    });
    assert.ok(tab.ok && tab.data.status !== "refused", JSON.stringify(tab.data ?? tab.error));
    await until("page 1");
    const paid = await call("click", {
      ref: (await element({ role: "check box", name: "Paid only" })).ref,
      intent,
    });
    assert.ok(paid.ok && paid.data.status !== "refused", JSON.stringify(paid.data ?? paid.error));
    await until("toggle True");
    const saveAs = await element({ role: "menu item", name_contains: "Save As" });
    // Qt names the item by its text and its shortcut after a tab: the ellipsis is not the name's end.
    assert.match(saveAs.name, /^Save As\.\.\.\tCtrl\+Shift\+S$/);
    const saved = await call("act", { ref: saveAs.ref, action: { kind: "invoke" }, intent });
    assert.ok(
      saved.ok && saved.data.status !== "refused",
      `${JSON.stringify(saveAs.name)}: ${JSON.stringify(saved.data ?? saved.error)}`,
    );
    await until("save as");
    const strange = await call("click", {
      ref: (await element({ role: "push button", name: "Vrandosk now" })).ref,
      intent,
    });
    assert.ok(strange.ok && strange.data.status === "refused", JSON.stringify(strange.data ?? strange.error));
    await sleep(300);
    assert.ok(!qtLogged().includes("Vrandosk now"), JSON.stringify(qtLogged()));
  });

  // Qt 5 gives a list view's rows a Table and no Selection, and will not unselect a list's only
  // row: the old row stayed selected beside the new one (Kate's settings pages). Its
  // tabs say they are not selectable, and were offered select all the same, then refused.
  it("a list's row is chosen through its Table and the old row let go; a tab not selectable is not offered select", async () => {
    await element({ role: "list item", name: "Editing" });
    const seen = await call("observe", { target: { kind: "title", glob: qtTitle } });
    const line = (what: string) => (seen.text ?? "").split("\n").find((l: string) => l.includes(what)) ?? "";
    assert.doesNotMatch(line('page tab "Overview"'), /\bselect\b/, seen.text);
    assert.match(line('list item "Editing"'), /\bselect\b/, seen.text);
    const ref = (await element({ role: "list item", name: "Editing" })).ref;
    const chosen = await call("act", { ref, action: { kind: "select" }, intent });
    assert.ok(chosen.ok, JSON.stringify(chosen.error));
    assert.match(chosen.text, /RemoveRowSelection\(0\) again[\s\S]*Selected rows now: 1\./, chosen.text);
    const deadline = Date.now() + HANG_MS;
    while (qtLogged().at(-1) !== "selected Editing" && Date.now() < deadline) await sleep(100);
    assert.equal(qtLogged().at(-1), "selected Editing", JSON.stringify(qtLogged()));
    const rows = await call("find", { target: { kind: "title", glob: qtTitle }, role: "list item" });
    const selected = rows.data.matches.filter((m: { states?: string[] }) => m.states?.includes("selected"));
    assert.deepEqual(
      selected.map((m: { name: string }) => m.name),
      ["Editing"],
      "only the row asked for is selected",
    );
  });

  // FeatherPad's replace panel is a frame docked inside its main window: its title bar's Close was
  // refused as closing "a window that may hold unsaved work", the panel taken for the window.
  it("a docked find panel's Close passes, and hides the panel", async () => {
    const editor = `${qtTitle} editor`;
    const panelClose = (await findWaiting(call, editor, { role: "push button", name: "Close" }, HANG_MS)) as {
      ref: string;
    };
    const closed = await call("click", { ref: panelClose.ref, intent: "Close the replace panel" });
    assert.ok(closed.ok && closed.data.status === "done", JSON.stringify(closed.data ?? closed.error));
    const deadline = Date.now() + HANG_MS;
    while (!qtLogged().includes("panel shown False") && Date.now() < deadline) await sleep(100);
    assert.ok(qtLogged().includes("panel shown False"), JSON.stringify(qtLogged()));
  });

  // Kate's settings page closed by its Close was refused as "closes a window that may hold unsaved
  // work", with its Save disabled: nothing was unsaved.
  it("a Close beside a disabled Save passes; once a change enables Save, it asks", async () => {
    const close = async () =>
      call("click", { ref: (await element({ role: "push button", name: "Close" })).ref, intent });
    const first = await close();
    assert.ok(first.ok && first.data.status === "done", JSON.stringify(first.data ?? first.error));
    const deadline = Date.now() + HANG_MS;
    while (!qtLogged().includes("settings closed") && Date.now() < deadline) await sleep(100);
    assert.ok(qtLogged().includes("settings closed"), JSON.stringify(qtLogged()));
    const wrap = await call("click", {
      ref: (await element({ role: "check box", name: "Word wrap" })).ref,
      intent,
    });
    assert.ok(wrap.ok && wrap.data.status === "done", JSON.stringify(wrap.data ?? wrap.error));
    const enabled = await findWaiting(
      call,
      qtTitle,
      { role: "push button", name: "Save", states: ["enabled"] },
      HANG_MS,
    );
    assert.ok(enabled, "the change enabled Save");
    const second = await close();
    assert.ok(second.ok && second.data.status === "refused", JSON.stringify(second.data ?? second.error));
    assert.match(String(second.data.reason), /may hold unsaved work/);
    assert.equal(qtLogged().filter((l) => l === "settings closed").length, 1, "the refused Close never ran");
  });
});
