// LibreOffice Calc: a drag between two verified cells, typing across cells in one call, and the
// sheet read back as what is in it. LibreOffice shows its menu bar when the
// pointer first enters its window, moving the sheet 25 px between the pointer's arrival and the
// press: the drag must re-read both cells once the pointer is at the start and press at their new
// centres, or it would select the block one row up. This file sorts before contract.test.ts, so it
// runs on a window the pointer has not yet entered; it runs in the Calc sandbox only.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createContext, type ToolContext } from "../../src/tools/context.js";
import { toolCaller, windowId } from "../desktop/helpers.js";
import { tableCells } from "./cells.js";
import { PROFILES } from "./profiles.js";

const toolkit = process.env.DESKHAND_TOOLKIT ?? "";
const profile = PROFILES.calc!;

describe("LibreOffice Calc cells: a drag, and typing across them", {
  skip: toolkit === "calc" ? false : "LibreOffice only: runs in the Calc sandbox",
}, () => {
  let context: ToolContext;
  let call: ReturnType<typeof toolCaller>;
  before(async () => {
    context = createContext({ refLifetime: "while-verified" });
    call = toolCaller(context);
    await new Promise((resolve) => setTimeout(resolve, profile.settleMs ?? 0));
  });
  after(() => context.close());

  const cells = () => tableCells(call, profile.title);

  it("selects exactly B2:D4, pressing where the cells are once the pointer is there", async () => {
    const before = await cells();
    const from = before.find((c) => c.name === "B2")!;
    const to = before.find((c) => c.name === "D4")!;
    const dragged = await call("drag", {
      from: { ref: from.ref },
      to: { ref: to.ref },
      intent: "Select B2 to D4 by dragging",
    });
    assert.equal(dragged.data?.status, "done", dragged.text ?? JSON.stringify(dragged.error));
    // The menu bar appeared as the pointer arrived: both ends were re-read and moved down.
    assert.ok(dragged.data.start_moved, `the start moved when the pointer reached it: ${dragged.text}`);
    assert.ok(dragged.data.moved, "the drop moved with it");
    assert.equal(dragged.data.start_moved.to.y - dragged.data.start_moved.from.y, 25);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const selected = (await cells())
      .filter((c) => c.states?.includes("selected"))
      .map((c) => c.name)
      .sort();
    assert.deepEqual(selected, ["B2", "B3", "B4", "C2", "C3", "C4", "D2", "D3", "D4"]);
    // Back to one current cell, A1, for the contract suite's own selection test.
    const home = await call("key", {
      key: "ctrl+Home",
      window: { title: profile.title },
      intent: "Drop the selection",
    });
    assert.equal(home.data?.status, "done");
  });

  /** The first three cells of a row, as read_table reads them. */
  const row = async (n: number): Promise<string[]> => {
    const [table] = (await call("find", { target: { kind: "title", glob: profile.title }, ...profile.table }))
      .data.matches;
    const read = await call("read_table", { ref: table.ref, row_start: n, row_count: 1, max_cells: 3 });
    assert.ok(read.ok, JSON.stringify(read.error));
    return read.data.cells[0].values;
  };
  const key = (chord: string, intent: string) =>
    call("key", { key: chord, intent, window: { title: profile.title } });

  it("moves from cell to cell on Tab and line breaks, the table keeping the focus, and asks nothing", async () => {
    // Calc keeps the focus on its table: each Tab and line break is judged once the focus has stayed
    // there, rather than waiting for a move the tree never shows.
    const typed = await call("type_text", {
      text: "7\n8\t9\n",
      intent: "Fill two rows",
      window: { title: profile.title },
    });
    assert.equal(typed.data?.status, "done", typed.text ?? JSON.stringify(typed.error));
    // Read back from the cells, by the rows the sheet's cursor says the lines went to.
    assert.equal(typed.data.result.read_back, "exact", typed.text);
    assert.match(typed.text ?? "", /cells, which read as typed: A1 7 \| A2 8, B2 9/, typed.text);
    assert.equal((await row(0))[0], "7");
    assert.deepEqual((await row(1)).slice(0, 2), ["8", "9"]);
    // The sheet's 16,384 columns read as what is in them: each row up to its run of empty cells,
    // no cell named by its place ("B1") as if that were its content, no header line of nothing.
    const [table] = (await call("find", { target: { kind: "title", glob: profile.title }, ...profile.table }))
      .data.matches;
    const page = await call("read_table", { ref: table.ref, row_count: 3 });
    assert.ok(page.ok, JSON.stringify(page.error));
    assert.deepEqual(
      page.data.cells.map((c: { values: string[] }) => c.values),
      [["7"], ["8", "9"], []],
      page.text,
    );
    assert.ok((page.text ?? "").length < 400, `a short page: ${page.text}`);
    // Its header line as wide as the widest row, not the 32 columns read, in the sheet's letters.
    assert.match(page.text ?? "", /^\| sheet row \| A \| B \|$/m, page.text);
    // Its rows by the numbers beside them: row_start 0 is the sheet's row 1.
    assert.match(page.text ?? "", /sheet rows 1–3 shown \(row_start 0\)/, page.text);
    assert.match(page.text ?? "", /^\| 1 \| 7 \|$/m, page.text);
    assert.match(page.text ?? "", /^\| 2 \| 8 \| 9 \|$/m, page.text);
    // A snapshot and find show a cell's content beside its place-name.
    const snap = await call("snapshot", { target: { kind: "title", glob: profile.title }, tableRows: 3 });
    assert.match(snap.text ?? "", /table cell "A1" \[ref=[^\]]+\][^\n]*= "7"/, snap.text);
    const found = await call("find", {
      target: { kind: "title", glob: profile.title },
      role: "table cell",
      name: "B2",
      search_tables: true,
    });
    assert.match(found.text ?? "", /table cell "B2" = "9"/, found.text);
    // Undone, for the contract suite's cells.
    for (let i = 0; i < 3; i++) assert.equal((await key("ctrl+z", "Undo")).data?.status, "done");
    assert.notEqual((await row(0))[0], "7", "undone");
    assert.equal((await key("ctrl+Home", "Back to A1")).data?.status, "done");
  });

  it("typed by the table's ref, the cells the text went to are read back", async () => {
    const [table] = (await call("find", { target: { kind: "title", glob: profile.title }, ...profile.table }))
      .data.matches;
    // The reply had said "typed, not verified" where every value was in its cell. A number whose key
    // goes again arrives whole: the cells' editor takes keys as a field does, in one burst.
    const typed = await call("type_text", { ref: table.ref, text: "1000\n2500\n", intent: "Fill A1 and A2" });
    assert.equal(typed.data?.status, "done", typed.text ?? JSON.stringify(typed.error));
    assert.match(typed.text ?? "", /cells, which read as typed: A1 1000 \| A2 2500/, typed.text);
    assert.equal((await row(0))[0], "1000");
    assert.equal((await row(1))[0], "2500");
    for (let i = 0; i < 2; i++) assert.equal((await key("ctrl+z", "Undo")).data?.status, "done");
    assert.notEqual((await row(0))[0], "1000", "undone");
    assert.equal((await key("ctrl+Home", "Back to A1")).data?.status, "done");
  });

  it("act select on a cell selects that cell, not its row's first one, and reads it back", async () => {
    const cell = async (name: string) => {
      const found = await call("find", {
        target: { kind: "title", glob: profile.title },
        role: "table cell",
        name,
        search_tables: true,
      });
      assert.equal(found.data?.total, 1, found.text);
      return found.data.matches[0] as { ref: string };
    };
    const c3 = await cell("C3");
    const selected = await call("act", { ref: c3.ref, action: { kind: "select" }, intent: "Select C3" });
    assert.equal(selected.data?.status ?? "done", "done", selected.text ?? JSON.stringify(selected.error));
    assert.match(selected.text ?? "", /The cell reads selected afterwards\./, selected.text);
    assert.doesNotMatch(selected.text ?? "", /AddRowSelection|row's first cell/, selected.text);
    // Before, the row's first cell was chosen (A3), which was C3 only in column A.
    const a3 = await call("element_info", { ref: (await cell("A3")).ref });
    assert.doesNotMatch(JSON.stringify(a3.data?.states ?? a3.data), /"selected"/, a3.text);
    const c3Now = await call("element_info", { ref: (await cell("C3")).ref });
    assert.match(c3Now.text ?? "", /\bselected\b/, c3Now.text);
    assert.equal((await key("ctrl+Home", "Back to A1")).data?.status, "done");
  });

  it("Enter in the Name Box moves the cell cursor, with no person", async () => {
    // LibreOffice names its Name Box nowhere: it is the single-line field holding a cell reference
    // in a spreadsheet's window, and its Enter only moves the view.
    const target = { kind: "title", glob: profile.title };
    const [box] = (await call("find", { target, role: "text", value_contains: "A1" })).data.matches;
    const typed = await call("type_text", { ref: box.ref, text: "C5\n", clear: true, intent: "Go to C5" });
    assert.equal(typed.data?.status, "done", typed.text ?? JSON.stringify(typed.error));
    const current = await call("find", {
      target,
      role: "table cell",
      states: ["focused"],
      search_tables: true,
    });
    assert.deepEqual(
      current.data?.matches?.map((m: { name: string }) => m.name),
      ["C5"],
      current.text,
    );
    assert.equal((await key("ctrl+Home", "Back to A1")).data?.status, "done");
  });

  it("acts on a menu item by find, one menu bar, and the Sort dialog's combo boxes chosen from their lists", async () => {
    const target = { kind: "title", glob: profile.title };
    const opened = await call("act", {
      find: { target, role: "menu item", name: "Sort..." },
      action: { kind: "invoke" },
      intent: "Open the Sort dialog",
    });
    assert.ok(opened.ok, JSON.stringify(opened.error));
    const dialog = await windowId(call, "Sort");
    // Its menu bar's own copy, of no height, is not on screen: one "Data" menu.
    const menus = await call("find", { target, role: "menu", name: "Data" });
    assert.equal(menus.data?.total, 1, menus.text);
    // Each sort key's combo box is drawn by LibreOffice as an unnamed toggle button beside a hidden
    // combo box: it reads as a combo box labelled "Column", chosen from its list with nothing to
    // confirm, and the dialog answers (the next key opens once this one is set).
    const inDialog = { kind: "window", id: dialog };
    const combos = await call("find", { target: inDialog, role: "combo box", label: "Column" });
    assert.equal(combos.data?.total, 3, combos.text);
    assert.match(combos.text ?? "", /combo box ~"Column"/);
    const thirdSensitive = async () =>
      /^states: .*\bsensitive\b/m.test(
        (await call("element_info", { ref: combos.data.matches[2].ref })).text ?? "",
      );
    assert.equal(await thirdSensitive(), false, "the third key waits for the second");
    // Read alone (a snapshot of its ref), it is the same combo box, its value unread.
    const alone = await call("snapshot", { target: { kind: "element", ref: combos.data.matches[0].ref } });
    assert.match(alone.text ?? "", /^- combo box\b/m, alone.text);
    const chose = await call("act", {
      ref: combos.data.matches[1].ref,
      action: { kind: "select", option: "A" },
      intent: "Sort by column A second",
    });
    assert.ok(chose.ok, JSON.stringify(chose.error));
    assert.match(chose.text ?? "", /The option reads selected afterwards/, chose.text);
    assert.match(chose.text ?? "", /it shows "A" \(read from its list/, chose.text);
    assert.equal(await thirdSensitive(), true, "the dialog took the second key");
    // Its value is drawn, never in the tree while the list is closed: a search by value says it could
    // not read them, rather than that nothing matched.
    const byValue = await call("find", { target: inDialog, role: "combo box", value_contains: "A" });
    assert.ok(byValue.data.unreadable_candidates.length >= 2, byValue.text);
    const missing = await call("act", {
      ref: combos.data.matches[0].ref,
      action: { kind: "select", option: "No such column" },
      intent: "Sort by a column that is not there",
    });
    assert.match(
      missing.error?.message ?? "",
      /shows no option named "No such column", so it was closed again/,
    );
    const cancel = await call("act", {
      find: { target: { kind: "window", id: dialog }, role: "push button", name: "Cancel" },
      action: { kind: "invoke" },
      intent: "Close it",
    });
    assert.ok(cancel.ok, JSON.stringify(cancel.error));
    assert.match(cancel.text ?? "", /window disappeared: \d+ "Sort"/);
  });
});
