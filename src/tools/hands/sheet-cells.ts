// Text typed across a spreadsheet's cells (Tab to the next cell, a line break to the next row), read
// back from the cells themselves: the sheet's cursor, as its Name Box shows it, says where typing
// ended, and the rows above it are where the lines went.
import { placeName } from "../../platform/cell-names.js";
import { roleSet } from "../../platform/roles.js";
import type { RawNode } from "../../platform/types.js";
import type { ToolContext } from "../context.js";
import type { WindowRead } from "./window-read.js";

/** A spreadsheet's cell or range reference ("B7", "$A$1:C3", "Sheet1.A1"), as a Name Box holds one. */
export const CELL_REFERENCE =
  /^(?:[\p{L}\p{N}_ ]+[.!])?\$?[A-Z]{1,3}\$?\d{1,7}(?::\$?[A-Z]{1,3}\$?\d{1,7})?$/u;
export const SPREADSHEETS = roleSet("document spreadsheet");
// One cell, its column letters and row number: the cursor.
const ONE_CELL = /^(?:[\p{L}\p{N}_ ]+[.!])?\$?([A-Z]{1,3})\$?(\d{1,7})$/u;
const FIELDS = roleSet("text", "entry", "combo box");
// Enough fields to reach a Name Box among a sheet window's few; each is one short text read.
const FIELDS_READ = 12;
// A row of a sheet read to its first values: wide enough for a pasted row of many columns.
const ROW_CELLS = 64;

/** Column letters to an index: A is 0, Z 25, AA 26. */
function columnIndex(letters: string): number {
  return [...letters].reduce((n, c) => n * 26 + (c.charCodeAt(0) - 64), 0) - 1;
}

/** The sheet's cursor (zero-based), from the single-line field in the window that holds one cell's reference. */
async function sheetCursor(
  context: ToolContext,
  read: WindowRead,
): Promise<{ row: number; column: number } | undefined> {
  if (!read.nodes.some((n) => SPREADSHEETS.has(n.role))) return undefined;
  const backend = await context.backend();
  const fields = read.nodes
    .filter((n) => FIELDS.has(n.role) && !n.states?.includes("multi line"))
    .slice(0, FIELDS_READ);
  for (const field of fields) {
    const text = await backend.readText(field.handle, 0, 40).catch(() => null);
    const cell = ONE_CELL.exec(text?.text.trim() ?? "");
    if (cell) return { row: Number(cell[2]) - 1, column: columnIndex(cell[1]!) };
  }
  return undefined;
}

/**
 * Where a row's values hold a typed line's cells side by side (a formula shows its result): the
 * column of the first, or -1. The column the cursor says typing started in is tried first: the same
 * values may stand further left ("3.5" typed in D1 beside an older 3.5 in A1).
 */
function lineAt(values: string[], cells: string[], started: number): number {
  const same = (value: string | undefined, typed: string) =>
    typed.startsWith("=") ? value !== undefined && value !== "" : value === typed;
  const holds = (start: number) => cells.every((typed, i) => same(values[start + i], typed));
  if (started >= 0 && holds(started)) return started;
  return values.findIndex((_, start) => holds(start));
}

/**
 * A row's cells that hold something, by their names ("B5 25.75"), a formula typed there beside its
 * result: those typed into where the line was found, else all of them.
 */
function rowShown(values: string[], row: number, typed: string[], at: number): string {
  const cells = values.flatMap((value, column) => {
    if (value === "" || (at >= 0 && (column < at || column >= at + typed.length))) return [];
    const formula = at >= 0 ? typed[column - at] : undefined;
    const from = formula?.startsWith("=") ? ` (from ${formula})` : "";
    return [`${placeName(row, column)} ${value}${from}`];
  });
  return cells.join(", ") || `row ${row + 1} empty`;
}

export type CellsReadBack = {
  read_back: "exact" | "differs";
  read_back_differs?: string;
  /** The cells of the rows typed into, by their names: "A1 7 | A2 8, B2 9". */
  read_back_cells: string;
};

/**
 * The rows a text typed into a sheet went to, read back: undefined where the cursor or the rows
 * cannot be read (the reply then says read_table reads them).
 */
export async function cellsTyped(
  context: ToolContext,
  read: WindowRead,
  table: Pick<RawNode, "handle">,
  text: string,
): Promise<CellsReadBack | undefined> {
  const cursor = await sheetCursor(context, read);
  if (!cursor) return undefined;
  const lines = text.replace(/[\r\n]+$/, "").split(/\r\n|\n|\r/);
  const breaks = (text.match(/\r\n|\n|\r/g) ?? []).length;
  const first = cursor.row - breaks;
  if (first < 0) return undefined;
  const backend = await context.backend();
  const rows = await backend
    .readTable(table.handle, first, lines.length, ROW_CELLS * lines.length)
    .catch(() => undefined);
  if (!rows) return undefined;
  const values = lines.map((_, i) => {
    const row: string[] = [];
    for (const cell of rows.cells.filter((c) => c.row === first + i)) row[cell.column] = cell.text ?? "";
    return Array.from(row, (v) => v ?? "");
  });
  const typed = lines.map((line) => line.split("\t"));
  // A line break takes the cursor back to the column the line started in; without one it stays in
  // the last line's last cell.
  const ended = /[\r\n]$/.test(text);
  const started = ended ? cursor.column : cursor.column - (typed.at(-1)!.length - 1);
  const at = typed.map((cells, i) => lineAt(values[i]!, cells, started));
  const shown = values.map((row, i) => rowShown(row, first + i, typed[i]!, at[i]!)).join(" | ");
  const wrong = at.findIndex((column) => column < 0);
  return wrong < 0
    ? { read_back: "exact", read_back_cells: shown }
    : {
        read_back: "differs",
        read_back_differs: `row ${first + wrong + 1} does not hold ${JSON.stringify(lines[wrong])} side by side`,
        read_back_cells: shown,
      };
}
