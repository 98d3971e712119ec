// A LibreOffice Writer document's table reads as its cells' words: Writer names each cell by its
// place ("A1") and keeps the words in paragraphs inside it, so read_table reads the paragraphs and a
// snapshot shows them. The document is a flat ODF fixture, opened by a Writer of its own profile.
import assert from "node:assert/strict";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createContext, type ToolContext } from "../../src/tools/context.js";
import { gatedContext, HANG_MS, type StartedApp, startApp, toolCaller, windowId } from "./helpers.js";

describe("a Writer document's table", () => {
  const dir = mkdtempSync(join(tmpdir(), "deskhand-writer-"));
  const file = join(dir, `stock-${process.pid}.fodt`);
  const title = `stock-${process.pid}.fodt - LibreOffice Writer`;
  let context: ToolContext;
  let call: ReturnType<typeof toolCaller>;
  let app: StartedApp;
  before(() => {
    copyFileSync("test/fixtures/office/stock.fodt", file);
    context = createContext({ refLifetime: "while-verified" });
    call = toolCaller(context);
    // A profile of its own: another LibreOffice on the desktop (the Calc suite's) is not handed the file.
    app = startApp([
      "soffice",
      `-env:UserInstallation=file://${join(dir, "profile")}`,
      "--writer",
      "--norestore",
      "--nologo",
      file,
    ]);
  });
  after(async () => {
    app.kill();
    await context.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("read_table gives each cell's words, and a snapshot shows them", { timeout: HANG_MS * 4 }, async () => {
    const id = await windowId(call, title);
    const found = await call("find", { target: { kind: "window", id }, role: "table", timeout_ms: HANG_MS });
    assert.equal(found.data?.total, 1, found.text ?? JSON.stringify(found.error));
    const ref = found.data.matches[0].ref;
    const table = await call("read_table", { ref });
    assert.ok(table.ok, JSON.stringify(table.error));
    const rows = (table.data.cells as { values: string[] }[]).map((r) => r.values.join(" | "));
    assert.deepEqual(rows, ["Item | Price | Count", "Apple | 1.20 | 14", "Pear | 0.95 | 3"], table.text);
    const read = await call("snapshot", { target: { kind: "element", ref }, format: "full" });
    assert.match(read.text ?? "", /table cell "B2" \[ref=[^\]]+\]\n\s+- paragraph \[ref=[^\]]+\] = "1\.20"/);
    // Asked by another role and wording, nothing is pressed; the reply names Writer's toolbar toggle
    // "Find and Replace" by the name's longest word, with a ref that resolves to it.
    const missed = await call("act", {
      action: { kind: "invoke" },
      find: { target: { kind: "window", id }, role: "push button", name: "Find & Replace" },
      intent: "Open Find and Replace",
    });
    assert.equal(missed.error?.code, "not_found", JSON.stringify(missed));
    const near = missed.error.near?.find((m: { name?: string }) => m.name === "Find and Replace");
    assert.ok(near, `the toggle is named near: ${missed.error.message}`);
    const info = await call("element_info", { ref: near.ref });
    assert.equal(info.data?.role, "toggle button", info.text);
    assert.ok(!(info.data?.states ?? []).includes("pressed"), `nothing was pressed: ${info.text}`);
  });

  it("a text typed with a trailing line break reads back in its paragraph, not as lost", {
    timeout: HANG_MS * 2,
  }, async () => {
    const window = { title };
    const end = await call("key", { key: "ctrl+End", intent: "Go to the end", window });
    assert.equal(end.data?.status, "done", end.text ?? JSON.stringify(end.error));
    // The break leaves the focus in a new, empty paragraph: the text is in the one before it.
    const typed = await call("type_text", { text: "\nChecked by Ada\n", intent: "Sign the list", window });
    assert.equal(typed.data?.status, "done", typed.text ?? JSON.stringify(typed.error));
    assert.doesNotMatch(typed.text ?? "", /did not arrive/);
    const found = await call("find", {
      target: { kind: "title", glob: title },
      role: "paragraph",
      text: "Checked by Ada",
    });
    assert.equal(found.data?.total, 1, found.text);
    // The document has no text of its own (its paragraphs hold it): read_text reads them, a line each.
    const [document] = (await call("find", { target: { kind: "title", glob: title }, role: "document text" }))
      .data.matches;
    const read = await call("read_text", { ref: document.ref });
    assert.ok(read.ok, JSON.stringify(read.error));
    assert.match(read.text ?? "", /read from the \d+ paragraphs and headings inside it/, read.text);
    assert.match(read.text ?? "", /^Checked by Ada$/m, read.text);
  });

  // A first run's Writer of its own profile takes about 25 s to start: CI's 20 minutes leave it to
  // the whole run with DESKHAND_DESKTOP_LANES=1, as KDE's and GNOME's lanes; key-effect's unit case
  // holds the rule in every run.
  const lanes = process.env.DESKHAND_DESKTOP_LANES === "1";
  const firstRun = { timeout: HANG_MS * 4, skip: !lanes && "DESKHAND_DESKTOP_LANES=1 runs it" };
  it(
    "a line break typed into a first run's new document is a new paragraph, with no person",
    firstRun,
    async () => {
      // A first run's Writer shows an info bar beside the page ("You are running version … for the first
      // time") whose close button has no name: it had been taken for a composer's send arrow beside the
      // text. Its own profile, its own process. Gated, with no one to ask: a question would refuse it.
      const first = startApp([
        "soffice",
        `-env:UserInstallation=file://${join(dir, "first-run")}`,
        "--writer",
      ]);
      const gated = gatedContext(dir);
      try {
        const untitled = "Untitled*LibreOffice Writer";
        const bar = await call("find", {
          target: { kind: "title", glob: untitled },
          text: "for the first time",
          timeout_ms: HANG_MS,
        });
        assert.equal(bar.data?.total, 1, `the first run's info bar shows: ${bar.text}`);
        await call("key", { key: "Escape", intent: "Close the tip", window: { title: "Tip of the Day*" } });
        const typed = await toolCaller(gated)("type_text", {
          text: "Stock notes\nTaken on Monday",
          intent: "Write two lines",
          window: { title: untitled },
        });
        assert.equal(typed.data?.status, "done", typed.text ?? JSON.stringify(typed.error));
        for (const line of ["Stock notes", "Taken on Monday"]) {
          const target = { kind: "title", glob: untitled };
          const found = await call("find", { target, role: "paragraph", text: line });
          assert.equal(found.data?.total, 1, `a paragraph reads ${JSON.stringify(line)}: ${found.text}`);
        }
      } finally {
        first.kill();
        await gated.close();
      }
    },
  );
});
