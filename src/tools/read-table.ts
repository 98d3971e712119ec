import { z } from "zod";
import { DeskhandError } from "../core/errors.js";
import { verifyRef } from "../core/verify.js";
import { columnLetters } from "../platform/cell-names.js";
import type { AccessibilityReader } from "../platform/types.js";
import { refSchema } from "./schemas.js";
import { defineTool, READ_ONLY } from "./tool.js";

/** A page of a table's rows: shared with profiles that read tables under their own names. */
export const tablePageShape = {
  row_start: z.number().int().min(0).default(0),
  row_count: z.number().int().min(1).max(1000).default(50),
  max_cells: z.number().int().min(1).max(10_000).default(500),
};

type TableRead = Awaited<ReturnType<AccessibilityReader["readTable"]>>;

/** The cells as rows of values: `?` where a cell could not be read, `-` where it has no text. */
function rowsOfCells(cells: TableRead["cells"]) {
  const rows = new Map<number, string[]>();
  let unreadable = 0;
  // Cells whose text came from their children, by column: said once a column, not per cell.
  const fromChildren = new Map<number, number[]>();
  for (const cell of cells) {
    if (cell.fromChildren)
      fromChildren.set(cell.column, [...(fromChildren.get(cell.column) ?? []), cell.row]);
    const row = rows.get(cell.row) ?? [];
    if (cell.unreadable) unreadable++;
    row[cell.column] = cell.unreadable ? "?" : cell.text === null ? "-" : cell.text;
    rows.set(cell.row, row);
  }
  return { rows, unreadable, fromChildren };
}

/** The columns and headers whose text was read from the elements inside their cells, for a person. */
function childSources(table: TableRead, fromChildren: Map<number, number[]>, rowsShown: number): string[] {
  const columnName = (column: number) => table.headers[column] ?? `column ${column}`;
  return [
    ...[...fromChildren].map(([column, rowsOf]) => {
      const all = rowsOf.length === rowsShown;
      return `${columnName(column)} (${all ? "every row shown" : `rows ${rowsOf.join(", ")}`})`;
    }),
    ...(table.headersFromChildren ?? []).map((c) => `the header of ${columnName(c)}`),
  ];
}

export const readTableTool = defineTool({
  name: "read_table",
  group: "read",
  title: "Read a table",
  description:
    "Rows of a ref's table, paged: counts, headers, a line per row. Empty cells show -, unreadable ones ?.",
  level: "L1",
  annotations: READ_ONLY,
  input: z.object({ ref: refSchema, ...tablePageShape }),
  async handler(context, input) {
    const backend = await context.backend();
    const { entry, node } = await verifyRef(backend, context.refs, input.ref);
    // A wrong ref and a stale one must not look the same: say what the element is.
    if (node.interfaces !== undefined && !node.interfaces.includes("Table"))
      throw new DeskhandError(
        "unsupported_pattern",
        `${input.ref} is a ${node.role} ${JSON.stringify(node.name ?? "")}, not a table: it has no Table interface`,
        "Pass the ref of the table itself (find role table), or read_text for text.",
      );
    const table = await backend.readTable(entry.handle, input.row_start, input.row_count, input.max_cells);
    const { rows, unreadable, fromChildren } = rowsOfCells(table.cells);
    // A wide sheet's rows end at a run of empty cells: the run is not shown.
    if (table.rowShare)
      for (const values of rows.values()) while (values.length > 0 && values.at(-1) === "") values.pop();
    // Nor are the headers of columns past the widest row shown, where none of them is named.
    const widest = Math.max(0, ...[...rows.values()].map((v) => v.length));
    const shownHeaders =
      table.rowShare && table.headers.slice(widest).every((h) => h == null)
        ? table.headers.slice(0, widest)
        : table.headers;
    const rowsRead = [...rows.keys()];
    const last = rowsRead.length ? Math.max(...rowsRead) : input.row_start - 1;
    // max_cells may stop inside a row: that row is named, with what of it is shown, and read again next.
    const lastCells = rows.get(last)?.filter((v) => v !== undefined).length ?? 0;
    const cutRow =
      !table.rowShare && table.cells.length >= input.max_cells && lastCells < table.columns
        ? { row: last, cells_shown: lastCells, cells: table.columns }
        : undefined;
    const next = cutRow ? last : last + 1;
    const data = {
      ref: input.ref,
      rows: table.rows,
      columns: table.columns,
      headers: table.headers,
      row_start: input.row_start,
      row_end: last + 1,
      cells: [...rows.entries()].map(([row, values]) => ({ row, values })),
      unreadable_cells: unreadable,
      more_rows: Math.max(0, table.rows - next),
      ...(fromChildren.size > 0
        ? { from_children: [...fromChildren].map(([column, rowsOf]) => ({ column, rows: rowsOf })) }
        : {}),
      ...(table.headersFromChildren ? { headers_from_children: table.headersFromChildren } : {}),
      ...(cutRow ? { cut_row: { ...cutRow, by: "max_cells" } } : {}),
      ...(table.rowShare
        ? { rows_end_at_empty: table.rowsEndAtEmpty, row_cells_at_most: table.rowShare }
        : {}),
    };
    const text = pageText({ table, rows, shownHeaders, input, last, next, cutRow, unreadable, fromChildren });
    return { data, text };
  },
});

interface Page {
  table: TableRead;
  rows: Map<number, string[]>;
  shownHeaders: (string | null)[];
  input: { row_start: number; max_cells: number };
  last: number;
  next: number;
  cutRow: { row: number; cells_shown: number; cells: number } | undefined;
  unreadable: number;
  fromChildren: Map<number, number[]>;
}

/**
 * Whether a row is the headers' own cells (a web table's header row is its row 0): said once, in
 * the header line, not twice.
 */
function repeatsHeaders(values: string[], headers: (string | null)[]): boolean {
  return (
    values.length === headers.length &&
    values.some((v) => v !== "" && v !== "-") &&
    values.every((v, column) => v === (headers[column] ?? "-"))
  );
}

/** A page of rows as text: the counts, a header line, a line per row, and what was cut. */
function pageText({
  table,
  rows,
  shownHeaders,
  input,
  last,
  next,
  cutRow,
  unreadable,
  fromChildren,
}: Page): string {
  // A sheet's rows and unnamed columns go by the numbers and letters a person reads beside and
  // above them (row 0 is the sheet's 1); row_start stays the index.
  const sheet = !!table.rowShare;
  const rowName = (row: number) => (sheet ? row + 1 : row);
  const shownRows = sheet
    ? `sheet rows ${rowName(input.row_start)}–${rowName(last)} shown (row_start ${input.row_start})`
    : `rows ${input.row_start}–${last} shown`;
  const lines = [
    `table ${table.rows} rows × ${table.columns} columns; ${shownRows}${unreadable ? `; ${unreadable} cells could not be read (?)` : ""}`,
    `| ${sheet ? "sheet row" : "row"} | ${shownHeaders.map((h, column) => h ?? (sheet ? columnLetters(column) : "-")).join(" | ")} |`,
    ...[...rows.entries()].map(([row, values]) =>
      !sheet && repeatsHeaders(values, shownHeaders)
        ? `| ${rowName(row)} | (the header line again: its cells are the headers) |`
        : `| ${rowName(row)} | ${values.join(" | ")} |`,
    ),
  ];
  const sources = childSources(table, fromChildren, rows.size);
  if (sources.length > 0)
    lines.push(
      `text read from the elements inside the cell (an icon and a label, buttons, links): ${sources.join("; ")}`,
    );
  if (cutRow)
    lines.push(
      `row ${cutRow.row}: only ${cutRow.cells_shown} of its ${cutRow.cells} cells shown (max_cells ${input.max_cells}); row_start ${cutRow.row} reads it again whole`,
    );
  if (table.rowShare) {
    const cut = [...rows]
      .filter(([, values]) => values.length >= table.rowShare!)
      .map(([row]) => rowName(row));
    lines.push(
      cut.length
        ? `a sheet too wide to read across: each row ends at its first ${table.rowsEndAtEmpty} empty cells, which are left out; sheet rows ${cut.join(", ")} were cut at ${table.rowShare} cells (max_cells shared among the rows): fewer rows a call read more of each`
        : `a sheet: each row ends at its first ${table.rowsEndAtEmpty} empty cells`,
    );
  }
  const more = Math.max(0, table.rows - next);
  if (more > 0)
    lines.push(
      `${more} more rows: row_start ${next} continues${sheet ? ` (sheet row ${rowName(next)})` : ""}`,
    );
  return lines.join("\n");
}
