// A LibreOffice Writer document's table reads as its cells' words: Writer names each cell by its
// place ("A1") and keeps the words in paragraphs inside it, so read_table reads the paragraphs and a
// snapshot shows them. The document is a flat ODF fixture, opened by a Writer of its own profile.
import assert from "node:assert/strict";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createContext, type ToolContext } from "../../src/tools/context.js";
import { HANG_MS, type StartedApp, startApp, toolCaller, windowId } from "./helpers.js";

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
  });
});
