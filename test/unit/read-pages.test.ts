// read_table and read_text pages: a web table's header row (its row 0, the headers' own cells) is said
// once, in the header line; a document whose paragraphs hold its text is read from them.
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

/** A window holding one element, and a ref to it found by its role. */
async function alone(title: string, element: FakeElement) {
  const { context } = oneWindow(title, [element], dir);
  const found = await callTool(context, toolNamed("find"), {
    target: { kind: "title", glob: title },
    role: element.role,
  });
  assert.ok(found.ok);
  return { context, ref: (found.output.data as { matches: { ref: string }[] }).matches[0]!.ref };
}

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
  const { context, ref } = await alone("Shop", table);
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

it("read_text reads a document with no text of its own from its paragraphs, a line each", async () => {
  const paragraph = (text: string): FakeElement => ({
    role: "paragraph",
    text,
    interfaces: ["Accessible", "Component", "Text"],
  });
  const document: FakeElement = {
    role: "document text",
    name: "Untitled 1",
    children: [paragraph("Quarterly summary"), paragraph("These cover the first quarter.")],
  };
  const { context, ref } = await alone("Writer", document);
  const read = await callTool(context, toolNamed("read_text"), { ref, start: 0, length: 20 });
  assert.ok(read.ok, JSON.stringify(!read.ok && read.error));
  assert.equal(
    read.output.text,
    "48 characters in all; characters 0–20 (cut: ask for another start or length for the rest); it has no text of its own: read from the 2 paragraphs and headings inside it, a line each\nQuarterly summary\nTh",
  );
});
