// A GTK 3 file list and a find-and-replace form, as a file manager and an editor's dialog have them:
// the Name column packs an icon and the file name into one cell; selecting a row replaces the
// selection unless asked to add; the form's two entries have no name and no relation, their labels
// sit to their left but come after them in the tree; a check box column's cells are named by its
// header. Every effect is re-read from the app.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import type { AtspiBackend } from "../../src/platform/atspi/backend.js";
import { createContext, type ToolContext } from "../../src/tools/context.js";
import { connect, findWaiting, HANG_MS, startApp, toolCaller } from "./helpers.js";

const TITLE = "Files Fixture";
const target = { kind: "title", glob: TITLE };

describe("tables and forms read like a person reads them (GTK 3)", () => {
  let backend: AtspiBackend;
  let context: ToolContext;
  let app: ChildProcess;
  let call: ReturnType<typeof toolCaller>;
  before(async () => {
    backend = await connect();
    app = spawn("/usr/bin/python3", ["test/fixtures/dialogs/gtk3_files.py", TITLE], {
      stdio: "ignore",
      detached: true,
    });
    for (let i = 0; i < 100; i++) {
      if ((await backend.listWindows()).some((w) => w.title === TITLE && w.accessible)) break;
      await sleep(200);
    }
    context = createContext({ refLifetime: "while-verified" });
    call = toolCaller(context);
  });
  after(async () => {
    try {
      process.kill(-app.pid!, "SIGKILL");
    } catch {
      // Already gone.
    }
    await context.close();
    await backend.close();
  });

  const ref = async (query: Record<string, unknown>) => {
    const found = await call("find", { target, ...query });
    assert.equal(found.data?.total, 1, found.text ?? JSON.stringify(found.error));
    return found.data.matches[0].ref as string;
  };
  /** What the Selection label says: its text, read from the app. */
  const selection = async () =>
    (await call("read_text", { ref: await ref({ role: "label", name: "Selection" }) })).data.text;

  it("read_table reads an icon + text cell from its children, and says so", async () => {
    const table = await call("read_table", { ref: await ref({ role: "table", name: "Files" }) });
    assert.ok(table.ok, JSON.stringify(table.error));
    assert.deepEqual(table.data.headers, ["Name", "Size", "Type", "Shared"]);
    const names = (table.data.cells as { values: string[] }[]).map((r) => r.values[0]);
    assert.deepEqual(names, [
      "draft-notes.txt",
      "holiday.png",
      "Projects",
      "budget-2026.csv",
      "backup.tar.gz",
    ]);
    assert.deepEqual(table.data.from_children, [{ column: 0, rows: [0, 1, 2, 3, 4] }]);
    assert.match(table.text!, /\| 0 \| draft-notes\.txt \| 7 bytes \| plain text document \|/);
    assert.match(table.text!, /text read from the elements inside the cell .*: Name \(every row shown\)/);
  });

  it("a snapshot names an unnamed cell by its column's header, and says a table read whole is not cut", async () => {
    const whole = await call("snapshot", { target });
    assert.ok(whole.ok, JSON.stringify(whole.error));
    const lines = whole.text!.split("\n");
    const shared = lines.filter((l) => /- table cell ~"Shared" \[ref=/.test(l));
    assert.equal(shared.length, 5, whole.text);
    assert.equal(
      shared.filter((l) => /\(checked\)/.test(l)).length,
      1,
      "Projects is shared, read from the app",
    );
    assert.ok(!whole.data.truncated_by?.includes("tableRows"), JSON.stringify(whole.data.truncated_by));
    assert.doesNotMatch(whole.text!, /table 5×4/);
    const paged = await call("snapshot", { target, tableRows: 2 });
    assert.ok(paged.data.truncated_by.includes("tableRows"), JSON.stringify(paged.data.truncated_by));
    assert.match(paged.text!, /… table 5×4, first 2 rows shown/);
  });

  it("a check box cell (GTK 3's toggle renderer, a table cell by its role) is offered toggle, and toggles its own row", async () => {
    // zenity's check list: its first column's cells toggle; a table cell by its role.
    const title = `Spesa ${process.pid}`;
    const list = startApp([
      "zenity",
      "--list",
      "--checklist",
      "--title",
      title,
      "--column",
      "Sì",
      "--column",
      "Articolo",
      "FALSE",
      "Mele",
      "TRUE",
      "Pere",
      "FALSE",
      "Uva",
    ]);
    try {
      await findWaiting(call, title, { role: "table cell", name: "Uva", search_tables: true }, HANG_MS);
      // The check boxes, in row order: the unnamed cells (the names are the other column's).
      type Cell = { ref: string; name: string | null; states: string[] };
      const boxes = async () =>
        (
          (
            await call("find", {
              target: { kind: "title", glob: title },
              role: "table cell",
              search_tables: true,
            })
          ).data.matches as Cell[]
        ).filter((c) => !c.name);
      const seen = await call("observe", { target: { kind: "title", glob: title }, items: true });
      assert.match(seen.text!, /table cell ~"Sì" · "Uva" .*toggle/, seen.text);
      const before = await boxes();
      assert.equal(before.length, 3, JSON.stringify(before));
      const uva = before[2]!;
      const ticked = await call("act", { ref: uva.ref, action: { kind: "toggle" }, intent: "Buy grapes" });
      assert.ok(ticked.ok, JSON.stringify(ticked.error));
      const now = await boxes();
      assert.deepEqual(
        now.map((c) => c.states.includes("checked")),
        [false, true, true],
        "Uva's own box ticked, the others as they were",
      );
    } finally {
      list.kill();
    }
  });

  it("a scroll with nothing to scroll says so, and claims nothing (a GTK 3 bar at 0 of 0–0)", async () => {
    const table = await ref({ role: "table", name: "Files" });
    const down = await call("act", { ref: table, action: { kind: "scroll", vertical: "small_increment" } });
    assert.ok(down.ok, JSON.stringify(down.error));
    assert.equal(down.data.effect, "not_seen", JSON.stringify(down.data));
    assert.match(
      down.data.detail,
      /nothing scrolled: the vertical scroll bar is already at its end \(0 of 0–0\)/,
    );
  });

  it("find reaches into the table's cells with no other match, and names row and column", async () => {
    const found = await call("find", { target, name: "budget-2026.csv" });
    assert.equal(found.data.total, 1, found.text);
    assert.deepEqual(found.data.matches[0].cell, { row: 3, column: 0 });
    assert.match(found.text!, /table cell "budget-2026\.csv" \[ref=\S+\] \(table row 3, column 0\)/);
  });

  it("select {row} replaces the selection; mode add adds; the receipt lists the rows re-read", async () => {
    const table = await ref({ role: "table", name: "Files" });
    const select = (action: Record<string, unknown>) =>
      call("act", { ref: table, action: { kind: "select", ...action } });
    await select({ row: 0 });
    const replaced = await select({ row: 1 });
    assert.deepEqual(replaced.data.selection, { rows: [1], total: 1 }, replaced.text);
    assert.equal(replaced.data.effect, "seen");
    assert.match(replaced.text!, /Selected rows now: 1\./);
    assert.equal(await selection(), "Selected: holiday.png");
    const added = await select({ row: 3, mode: "add" });
    assert.deepEqual(added.data.selection, { rows: [1, 3], total: 2 }, added.text);
    assert.equal(await selection(), "Selected: holiday.png, budget-2026.csv");
    const again = await select({ row: 2 });
    assert.deepEqual(again.data.selection, { rows: [2], total: 1 }, again.text);
    assert.equal(await selection(), "Selected: Projects");
    const wrong = await call("act", { ref: table, action: { kind: "select", option: "x", mode: "add" } });
    assert.equal(wrong.error?.code, "invalid_params");
  });

  it("select on a cell selects its row, read back from the app (GTK 3's SelectChild on a cell selects nothing)", async () => {
    const cell = await ref({ role: "table cell", name: "Tar archive", search_tables: true });
    const chosen = await call("act", { ref: cell, action: { kind: "select" } });
    assert.ok(chosen.ok, JSON.stringify(chosen.error));
    assert.match(chosen.data.route, /Table\.AddRowSelection\(4\)/);
    assert.equal(chosen.data.effect, "seen", JSON.stringify(chosen.data));
    assert.equal(await selection(), "Selected: backup.tar.gz");
  });

  it("a field named after something else takes the key beside it too: find {label} and fill_form reach it", async () => {
    const field = await call("find", { target, label: "Title" });
    assert.equal(field.data.total, 1, field.text);
    assert.equal(field.data.matches[0].name, "Details", "the app's own name stays its name");
    assert.equal(field.data.matches[0].inferred_label, "Title");
    assert.match(field.text!, /- text "Details" ~"Title"/);
    const filled = await call("fill_form", { target, fields: [{ label: "Title", value: "Quarterly" }] });
    assert.ok(filled.ok, JSON.stringify(filled.error));
    const again = await call("find", { target, role: "text", name: "Details" });
    assert.equal(again.data.matches[0].value, "Quarterly", again.text);
  });

  it("unnamed fields take the label beside them, marked inferred; find and fill_form use it", async () => {
    const snapshot = await call("snapshot", { target });
    assert.match(snapshot.text!, /- text ~"Search for" \[ref=\S+\]/);
    assert.match(snapshot.text!, /- text ~"Replace with" \[ref=\S+\]/);
    // The label sits left of its field, on its line: check the pairing by where they are.
    for (const label of ["Search for", "Replace with"]) {
      const field = await call("find", { target, label });
      assert.equal(field.data.total, 1, field.text);
      assert.equal(field.data.matches[0].inferred_label, label);
      assert.equal(field.data.matches[0].name, "", "never presented as the app's own name");
      const shown = await call("find", { target, role: "label", name: label });
      const [f, l] = [field.data.matches[0].bounds, shown.data.matches[0].bounds];
      assert.ok(
        l.x + l.width <= f.x && Math.abs(l.y + l.height / 2 - (f.y + f.height / 2)) < f.height,
        `${label}: ${JSON.stringify({ f, l })}`,
      );
    }
    const filled = await call("fill_form", {
      target,
      fields: [
        { label: "Search for", value: "cat" },
        { label: "Replace with", value: "dog" },
        { label: "Nothing here", value: "x" },
      ],
      intent: "Fill the replace form by its labels",
    });
    assert.equal(filled.data.set, 2, filled.text);
    assert.match(filled.text!, /label "Nothing here": not set — not_found/);
    await call("act", {
      ref: await ref({ role: "push button", name: "Replace All" }),
      action: { kind: "invoke" },
    });
    let text = "";
    for (let i = 0; i < 20 && !text.includes("dog"); i++) {
      text = (await call("read_text", { ref: await ref({ role: "text", name: "Document" }) })).data.text;
      if (!text.includes("dog")) await sleep(100);
    }
    assert.equal(text, "the dog sat on the dog mat");
  });
});
