// observe is complete for what is on screen (issue 35), on real apps: a Qt replace bar nested
// deeper than snapshot's default depth, a form under an empty widget laid over it (Qt and GTK 3), read
// anew after the pane is replaced, item views' items, and a long value whose cut is marked.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createContext, type ToolContext } from "../../src/tools/context.js";
import { findWaiting, HANG_MS, type StartedApp, startApp, toolCaller, within } from "./helpers.js";

const QT = "Observe Qt Deep";
const GTK = "Observe GTK Overlay";

describe("observe lists every visible control", () => {
  const apps: StartedApp[] = [];
  const folder = mkdtempSync(join(tmpdir(), "deskhand-observe-files-"));
  let context: ToolContext;
  let call: ReturnType<typeof toolCaller>;
  before(async () => {
    context = createContext({ refLifetime: "while-verified" });
    call = toolCaller(context);
    apps.push(startApp(["/usr/bin/python3", "test/fixtures/dialogs/qt_deep.py", QT, folder]));
    apps.push(startApp(["/usr/bin/python3", "test/fixtures/dialogs/gtk3_overlay.py", GTK]));
    // The file view fills in as its model reads the folder.
    await findWaiting(call, QT, { role: "list item", name: "file-11.txt" }, 30_000);
    await findWaiting(call, GTK, { role: "push button", name: "New list" }, 30_000);
  });
  after(async () => {
    for (const app of apps) app.kill();
    await context.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const observe = async (glob: string, extra: Record<string, unknown> = {}) => {
    const reply = await call("observe", { target: { kind: "title", glob }, ...extra });
    assert.equal(reply.error, undefined, JSON.stringify(reply.error));
    return reply.text ?? "";
  };

  it("Qt: buttons 20 widgets deep are listed, and nothing is cut by depth", async () => {
    const started = Date.now();
    const text = await observe(QT);
    assert.ok(Date.now() - started < HANG_MS, `observe took ${Date.now() - started} ms`);
    assert.match(text, /push button "Replace All"/, text);
    assert.match(text, /push button "Find All"/, text);
    assert.doesNotMatch(text, /maxDepth/, text);
    // Asked for less depth, the cut is named with the refs that read on.
    const shallow = await observe(QT, { maxDepth: 8 });
    assert.doesNotMatch(shallow, /Replace All/, shallow);
    assert.match(
      shallow,
      /# below maxDepth: snapshot \{target: \{kind: "element", ref\}\} reads s\d+:e\d+[a-z]{2}/,
      shallow,
    );
  });

  it("Qt: a long value says it was cut, by how much, and what reads the rest", async () => {
    const text = await observe(QT);
    const line = text.split("\n").find((l) => l.includes('text "Long text"'));
    assert.ok(line, text);
    // 269 characters in the field: 80 shown, the other 189 named.
    const long = "The quick brown fox jumps over the lazy dog. ".repeat(6).trim();
    assert.ok(line.includes(`= ${JSON.stringify(`${long.slice(0, 80)}…`)} (+189 chars, read_text)`), line);
  });

  for (const [toolkit, title] of [
    ["Qt", QT],
    ["GTK 3", GTK],
  ] as const) {
    it(`${toolkit}: a form under an empty overlay is listed, the overlay is not pixels only, and a new form is read anew`, async () => {
      const text = await observe(title);
      assert.match(text, /text "Full name"/, text);
      assert.match(text, /text "Email"/, text);
      assert.doesNotMatch(text, /pixels only/, text);
      const pressed = await call("act", {
        find: { target: { kind: "title", glob: title }, role: "push button", name: "New list" },
        action: { kind: "invoke" },
      });
      assert.ok(pressed.ok, JSON.stringify(pressed.error));
      let after = "";
      const deadline = Date.now() + within(5000);
      while (Date.now() < deadline && !/List name/.test(after)) after = await observe(title);
      assert.match(after, /text "List name"/, after);
      assert.match(after, /text "Members"/, after);
      assert.doesNotMatch(after, /Full name|"Email"/, after);
      assert.doesNotMatch(after, /pixels only/, after);
    });
  }

  it("Qt and GTK 3: item views list their items with items: true, whatever their counts claim", async () => {
    // Qt's file view reports one row of four columns (its model's root); it shows twelve files.
    const folded = await observe(QT);
    // Its Table interface, which would read that one row, is not offered; its count is of files.
    assert.match(
      folded,
      /list "Files" \(12 items; items: true lists them\) \[ref=s\d+:e\d+[a-z]{2}\] find,snapshot/,
      folded,
    );
    const qt = await observe(QT, { items: true });
    for (let i = 0; i < 12; i++)
      assert.match(qt, new RegExp(`list item "file-${String(i).padStart(2, "0")}\\.txt"`), qt);
    // So does the table of the same folder, which reports one row: every file's cell is listed.
    for (let i = 0; i < 12; i++)
      assert.match(qt, new RegExp(`table cell "file-${String(i).padStart(2, "0")}\\.txt"`), qt);
    // An item read past Qt's count is a real target: its ref verifies, and a click selects it.
    const ref = /list item "file-09\.txt" \[ref=(s\d+:e\d+[a-z]{2})\]/.exec(qt)?.[1];
    assert.ok(ref, qt);
    const clicked = await call("click", { ref, intent: "select file-09.txt" });
    assert.ok(clicked.ok, JSON.stringify(clicked.error));
    assert.match(await observe(QT, { items: true }), /list item "file-09\.txt" \([^)]*selected[^)]*\)/);
    // The empty list beside them, which dies when asked for a child, was never asked: the app lives.
    const listed = await call("windows", {});
    assert.ok(
      listed.data.windows.some((w: { title: string }) => w.title === QT),
      "the Qt app is alive",
    );
    const gtk = await observe(GTK, { items: true });
    for (const name of ["report.odt", "photo.jpg", "notes.txt", "budget.ods"])
      assert.match(gtk, new RegExp(`icon = "${name.replace(".", "\\.")}"`), gtk);
  });
});
