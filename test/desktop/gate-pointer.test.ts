// The gate judges every pointer press by what is under it (issue 37), on real apps whose log files
// say what was pressed: a closed menu's items never stand at a point, a menu title opens its menu
// whatever it says, a button under an overlay deeper in the tree is judged, a double click presses
// twice, a drop is judged by what it lands on, and `act select` by the option it chooses.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { ToolContext } from "../../src/tools/context.js";
import {
  centre,
  type Element,
  findWaiting,
  gatedContext,
  one,
  refusedWith,
  type StartedApp,
  startApp,
  toolCaller,
  windowId,
} from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "deskhand-gate-pointer-"));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
type Call = ReturnType<typeof toolCaller>;
const intent = "Do what the test asks";

/** The lines an app's log gained since `from` lines. */
const logged = (log: string, from = 0) =>
  existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean).slice(from) : [];

/** Waits until the app logs `line` (the press took effect), or fails naming what it logged. */
async function logs(log: string, line: string): Promise<void> {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; await sleep(100))
    if (logged(log).includes(line)) return;
  assert.fail(`${line} was never logged: ${JSON.stringify(logged(log))}`);
}

const done = (result: Awaited<ReturnType<Call>>, route: string) =>
  assert.ok(
    result.ok && result.data?.status !== "refused",
    `${route}: ${result.text ?? JSON.stringify(result.error)}`,
  );

describe("the gate's pointer cases on a GTK 3 window", () => {
  const title = `Gate pointer ${process.pid}`;
  const log = join(dir, "gtk3.log");
  let context: ToolContext;
  let call: Call;
  let app: StartedApp;
  let id: number;
  const find = (query: Record<string, unknown>) => one(call, title, query);
  const valueNow = async (query: Record<string, unknown>) =>
    ((await find(query)) as Element & { value?: string }).value;
  before(async () => {
    context = gatedContext(dir);
    call = toolCaller(context);
    app = startApp(["/usr/bin/python3", "test/fixtures/dialogs/gtk3_pointer.py", title, log]);
    id = await windowId(call, title);
  });
  after(async () => {
    app.kill();
    await context.close();
  });

  it("a closed menu's items never stand at a point: a click where they were presses the button there", async () => {
    const edit = await find({ role: "menu", name: "Edit" });
    done(await call("click", { at: centre(edit), intent, window: { id } }), "the menu title");
    const showing = { role: "menu item", name: "Delete All", states: ["showing"] };
    const item = (await findWaiting(call, title, showing, 10_000)) as Element;
    const alpha = await find({ role: "push button", name: "Alpha" });
    const point = centre(alpha);
    const holds = (e: Element) =>
      point.x >= e.bounds.x &&
      point.x < e.bounds.x + e.bounds.width &&
      point.y >= e.bounds.y &&
      point.y < e.bounds.y + e.bounds.height;
    const open = await call("find", { target: { kind: "title", glob: title }, role: "menu item", limit: 5 });
    const over = open.data.matches.filter(holds);
    assert.ok(over.length > 0, `the open menu lies over Alpha (${JSON.stringify(open.data.matches)})`);
    assert.ok(item.bounds.width > 0);
    done(await call("key", { key: "Escape", intent, window: { id } }), "Escape");
    done(
      await call("click", { at: point, intent, window: { id } }),
      "a click where the closed menu's items were",
    );
    await logs(log, "Alpha");
    assert.ok(!logged(log).includes("Delete All"), JSON.stringify(logged(log)));
  });

  it("a button under an overlay deeper in the tree is judged: the click is refused and nothing is deleted", async () => {
    const hint = await find({ role: "label", name: "Drop files here to attach them" });
    const before = logged(log).length;
    refusedWith(
      await call("click", { at: centre(hint), intent, window: { id } }),
      "a click on the hint",
      /Delete/,
    );
    await sleep(300);
    assert.deepEqual(logged(log, before), []);
  });

  it("a double click presses twice: refused on a button whose first press shows another; once, it shows it", async () => {
    const ask = await find({ role: "push button", name: "Remove…" });
    const before = logged(log).length;
    refusedWith(
      await call("click", { at: centre(ask), count: 2, intent, window: { id } }),
      "a double click on Remove…",
      /twice/,
    );
    refusedWith(await call("click", { ref: ask.ref, count: 2, intent }), "a double click by ref", /twice/);
    await sleep(300);
    assert.deepEqual(logged(log, before), [], "nothing was removed");
    done(await call("click", { ref: ask.ref, intent }), "one click on Remove…");
    await findWaiting(call, title, { role: "push button", name: "Remove", states: ["showing"] }, 10_000);
    assert.deepEqual(logged(log, before), [], "the first press only asks");
  });

  it("act select chooses an option as a press: one that sends is refused, a plain one is selected", async () => {
    const send = await find({ role: "list item", name: "Send report" });
    const notes = await find({ role: "list item", name: "notes.txt" });
    const before = logged(log).length;
    refusedWith(
      await call("act", { ref: send.ref, action: { kind: "select" }, intent }),
      "select Send report",
      /Send report/,
    );
    await sleep(300);
    assert.deepEqual(logged(log, before), [], "nothing was sent");
    done(await call("act", { ref: notes.ref, action: { kind: "select" }, intent }), "select notes.txt");
    await logs(log, "selected notes.txt");
    assert.ok(!logged(log).includes("sent report"));
  });

  it("a click on a row's label by its ref presses the row: refused where the row sends, nothing selected", async () => {
    const label = await find({ role: "label", name: "Send report" });
    const before = logged(log).length;
    refusedWith(
      await call("click", { ref: label.ref, intent }),
      "a click on the label of the row Send report",
      /list item "Send report"/,
    );
    await sleep(300);
    assert.deepEqual(logged(log, before), [], "nothing was sent");
  });

  it("a double click on a row whose selection reveals a command there is judged by that command", async () => {
    const draft = await find({ role: "list item", name: "draft.txt" });
    const before = logged(log).length;
    refusedWith(
      await call("click", { at: centre(draft), count: 2, intent, window: { id } }),
      "a double click on draft.txt",
      /Delete draft/,
    );
    await sleep(300);
    assert.deepEqual(logged(log, before), [], "nothing was selected or deleted");
  });

  it("a double click on a list's row opens it: judged by its label, a file opens without a person", async () => {
    const notes = await find({ role: "list item", name: "notes.txt" });
    done(
      await call("click", { at: centre(notes), count: 2, intent, window: { id } }),
      "double click notes.txt",
    );
    await logs(log, "opened notes.txt");
  });

  it("a drop is judged by what it lands on: into Trash, a bin, a shredder or onto Print it is refused, into Documents it moves", async () => {
    const file = await find({ role: "label", name: "report.odt" });
    const before = logged(log).length;
    for (const [query, why] of [
      [{ role: "label", name: "Trash" }, /Trash/],
      [{ role: "push button", name: "Print" }, /Print/],
      // A bin named by a symbol (what it does cannot be read), a shredder by its icon alone (GTK
      // names it by the icon's own description, "Delete").
      [{ role: "label", name: "🗑" }, /🗑/],
      [{ role: "icon" }, /icon/],
    ] as const) {
      const place = await find(query);
      refusedWith(
        await call("drag", { from: { at: centre(file) }, to: { at: centre(place) }, intent, window: { id } }),
        `a drop onto ${JSON.stringify(query)}`,
        why,
      );
    }
    await sleep(300);
    assert.deepEqual(logged(log, before), [], "nothing was deleted, printed, binned or shredded");
    const documents = await find({ role: "label", name: "Documents" });
    done(
      await call("drag", {
        from: { at: centre(file) },
        to: { at: centre(documents) },
        intent,
        window: { id },
      }),
      "a drop into Documents",
    );
    await logs(log, "moved report.odt to Documents");
  });

  it("a value set or an option chosen is judged by its words: to pay or truncate is refused, unchanged", async () => {
    const tables = await find({ role: "combo box" });
    const before = logged(log).length;
    refusedWith(
      await call("act", {
        ref: tables.ref,
        action: { kind: "select", option: "Truncate all tables" },
        intent,
      }),
      "act select Truncate all tables",
      /Truncate all tables/,
    );
    // The wheel down over it would choose the next option, the same one.
    refusedWith(
      await call("wheel", { at: centre(tables), direction: "down", notches: 1, intent, window: { id } }),
      "the wheel over the combo box",
      /Truncate all tables/,
    );
    const pay = await find({ role: "slider", name: "Slide to pay" });
    refusedWith(
      await call("act", { ref: pay.ref, action: { kind: "set_range", value: 100 }, intent }),
      "set_range on Slide to pay",
      /pay/,
    );
    await sleep(300);
    assert.deepEqual(logged(log, before), [], "nothing was paid or truncated");
    assert.equal(await valueNow({ role: "slider", name: "Slide to pay" }), "0", "the slider stayed");
    // The key route: End on the focused slider sets it to its end, judged by the slider's words.
    refusedWith(await call("key", { key: "End", ref: pay.ref, intent }), "End on Slide to pay", /pay/);
    await sleep(300);
    assert.equal(await valueNow({ role: "slider", name: "Slide to pay" }), "0", "End did not slide it");
    assert.equal((await find({ role: "combo box" })).name, tables.name, "the option stayed");
    done(
      await call("act", { ref: tables.ref, action: { kind: "select", option: "Large" }, intent }),
      "act select Large",
    );
    await logs(log, "chose Large");
    const volume = await find({ role: "slider", name: "Volume" });
    done(await call("act", { ref: volume.ref, action: { kind: "set_range", value: 40 }, intent }), "Volume");
    await logs(log, "volume 40");
    assert.equal(await valueNow({ role: "slider", name: "Volume" }), "40", "the volume was set");
  });

  it("fill_form chooses a GTK 3 combo box's option, though it reports no value; one it lacks is said, nothing typed into it", async () => {
    const tables = await find({ role: "combo box" });
    const before = logged(log).length;
    const missing = await call("fill_form", { fields: [{ ref: tables.ref, value: "Extra large" }], intent });
    assert.equal(missing.data.fields[0].set, false, missing.text);
    assert.match(missing.text ?? "", /no option named "Extra large"; the options are \["Keep",/);
    // Keys typed into it would have opened its list and marked an option there.
    const shown = await call("find", {
      target: { kind: "title", glob: title },
      role: "menu item",
      name: "Keep",
      states: ["showing"],
    });
    assert.equal(shown.data.matches.length, 0, "no list is left open");
    const kept = await call("fill_form", { fields: [{ ref: tables.ref, value: "Keep" }], intent });
    assert.deepEqual(
      { set: kept.data.fields[0].set, route: kept.data.fields[0].route },
      { set: true, route: "accessibility" },
      kept.text,
    );
    await logs(log, "chose Keep");
    assert.deepEqual(logged(log, before), ["chose Keep"]);
  });
});

describe("a Qt menu title opens its menu, whatever it says", () => {
  const title = `Gate menus ${process.pid}`;
  const log = join(dir, "qt.log");
  let context: ToolContext;
  let call: Call;
  let app: StartedApp;
  let id: number;
  before(async () => {
    context = gatedContext(dir);
    call = toolCaller(context);
    app = startApp(["/usr/bin/python3", "test/fixtures/dialogs/qt_menus.py", title, log]);
    id = await windowId(call, title);
  });
  after(async () => {
    app.kill();
    await context.close();
  });

  it("a click on the title ☰, and act invoke on it, open its menu; a menu bar's own action that sends is refused", async () => {
    const menu = await one(call, title, { role: "menu item", name: "☰" });
    const shown = { role: "menu item", name: "Delete all", states: ["showing"] };
    done(await call("click", { at: centre(menu), intent, window: { id } }), "a click on ☰");
    await findWaiting(call, title, shown, 10_000);
    done(await call("key", { key: "Escape", intent, window: { id } }), "Escape");
    done(await call("act", { ref: menu.ref, action: { kind: "invoke" }, intent }), "act invoke on ☰");
    await findWaiting(call, title, shown, 10_000);
    done(await call("key", { key: "Escape", intent, window: { id } }), "Escape");
    const send = await one(call, title, { role: "menu item", name: "Send" });
    refusedWith(await call("click", { at: centre(send), intent, window: { id } }), "Send", /Send/);
    refusedWith(await call("act", { ref: send.ref, action: { kind: "invoke" }, intent }), "act Send", /Send/);
    await sleep(300);
    assert.deepEqual(logged(log), [], "nothing was deleted or sent");
  });

  it("a context menu Qt leaves out of the tree: its letters and a click in it cannot be judged, so they ask", async () => {
    const notes = (await one(call, title, { role: "label", name: "Notes" })) as Element;
    const at = centre(notes);
    done(await call("click", { at, button: "right", intent, window: { id } }), "a right click");
    // The menu opens at the pointer, below and right of it; its first item is there.
    const inMenu = { space: "global", x: at.x + 30, y: at.y + 12 };
    for (let tries = 0; ; tries++) {
      const clicked = await call("click", { at: inMenu, intent, window: { id } });
      if (!clicked.ok && clicked.error.code === "refused") {
        assert.match(clicked.error.message, /leaves out of its accessible tree/);
        break;
      }
      if (clicked.ok && clicked.data.status === "refused") {
        assert.match(clicked.data.reason, /leaves out of its accessible tree/);
        break;
      }
      assert.ok(tries < 20, `a click in the open menu was let through: ${clicked.text}`);
      await sleep(250);
    }
    refusedWith(await call("key", { key: "d", intent, window: { id } }), "its mnemonic", /accessible tree/);
    done(await call("key", { key: "Escape", intent, window: { id } }), "Escape closes it");
    await sleep(300);
    assert.deepEqual(logged(log), [], "nothing was deleted or copied");
  });
});
