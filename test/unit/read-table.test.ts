// read_table's page as text: a web table's header row (its row 0, the headers' own cells) is said
// once, in the header line, and not again as a row of values.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, it } from "node:test";
import type { FakeElement } from "../../src/platform/fake/backend.js";
import { callTool } from "../../src/tools/call.js";
import { toolNamed } from "../../src/tools/registry.js";
import { oneWindow } from "./fake-desktop.js";

const dir = mkdtempSync(join(tmpdir(), "deskhand-read-table-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const cell = (text: string): FakeElement => ({ role: "table cell", name: text, text });

it("a row of the headers' own cells is named as the header line, not repeated", async () => {
  // The fake backend names its columns' headers C0 and C1, as a web table's header row holds them.
  const table: FakeElement = {
    role: "table",
    name: "Prices",
    table: { rows: 3, columns: 2 },
    children: ["C0", "C1", "Tea", "3", "C0", "4"].map(cell),
    interfaces: ["Accessible", "Table"],
  };
  const { context } = oneWindow("Shop", [table], dir);
  const found = await callTool(context, toolNamed("find"), {
    target: { kind: "title", glob: "Shop" },
    role: "table",
  });
  assert.ok(found.ok);
  const ref = (found.output.data as { matches: { ref: string }[] }).matches[0]!.ref;
  const page = await callTool(context, toolNamed("read_table"), { ref });
  assert.ok(page.ok, JSON.stringify(!page.ok && page.error));
  const text = page.output.text ?? "";
  assert.match(text, /^\| row \| C0 \| C1 \|$/m, text);
  assert.match(text, /^\| 0 \| \(the header line again: its cells are the headers\) \|$/m, text);
  assert.match(text, /^\| 1 \| Tea \| 3 \|$/m, text);
  // A row holding one header's text among values is a row.
  assert.match(text, /^\| 2 \| C0 \| 4 \|$/m, text);
  // The structured rows keep every value.
  const cells = (page.output.data as { cells: { row: number; values: string[] }[] }).cells;
  assert.deepEqual(cells[0], { row: 0, values: ["C0", "C1"] });
});
