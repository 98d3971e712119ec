// Reading one element closely: its text in slices, and tables a page of rows at a time through the
// Table interface, never the whole table.
import { placeName } from "../cell-names.js";
import type { TableCell, TableRead, TextCaret } from "../types.js";
import { UnsupportedAction } from "../types.js";
import { type AtspiApp, isNotImplemented } from "./app.js";
import { IFACE, NULL_PATH } from "./names.js";
import { cleanName } from "./reader.js";

export async function readText(
  app: AtspiApp,
  path: string,
  start: number,
  length: number,
  timeoutMs: number,
): Promise<{ text: string; length: number } | null> {
  // Java answers a Text call on an element without the interface with a generic "Get failed":
  // ask which interfaces it has instead of reading the error.
  const [interfaces] = await app.call(path, IFACE.accessible, "GetInterfaces", timeoutMs);
  if (!(interfaces as string[]).includes(IFACE.text)) return null;
  const total = Number(await app.property(path, IFACE.text, "CharacterCount", timeoutMs));
  const from = Math.min(start, total);
  const to = Math.min(total, from + length);
  if (to <= from) return { text: "", length: total };
  const [text] = await app.call(path, IFACE.text, "GetText", timeoutMs, "ii", [from, to]);
  return { text: String(text), length: total };
}

/** Selections read at most: a text field has one, a document a few. */
const SELECTIONS_READ = 8;

/** The caret and selections of an element's text, or null when it has no Text interface. */
export async function readCaret(app: AtspiApp, path: string, timeoutMs: number): Promise<TextCaret | null> {
  const [interfaces] = await app.call(path, IFACE.accessible, "GetInterfaces", timeoutMs);
  if (!(interfaces as string[]).includes(IFACE.text)) return null;
  const [caret, length, [count]] = await Promise.all([
    app.property(path, IFACE.text, "CaretOffset", timeoutMs),
    app.property(path, IFACE.text, "CharacterCount", timeoutMs),
    app.call(path, IFACE.text, "GetNSelections", timeoutMs),
  ]);
  const ranges = await Promise.all(
    Array.from({ length: Math.min(Number(count), SELECTIONS_READ) }, (_, i) =>
      app.call(path, IFACE.text, "GetSelection", timeoutMs, "i", [i]),
    ),
  );
  const selections = ranges
    .map(([start, end]) => ({ start: Number(start), end: Number(end) }))
    .filter((r) => r.end > r.start);
  return { caret: Number(caret), length: Number(length), selections };
}

/** What a cell or header says, and whether it had to be read from its children. */
interface CellContent {
  text: string | null;
  fromChildren: boolean;
}

/** Children read for a cell's content at most: a cell is an icon and a label, or a few links. */
const CELL_CHILDREN = 8;

async function ownText(app: AtspiApp, path: string, timeoutMs: number): Promise<string | null> {
  const text = await readText(app, path, 0, 1000, timeoutMs);
  if (text !== null && text.text.trim() !== "") return text.text;
  // Cells without a Text interface (Qt) still carry their content as the accessible name.
  const name = cleanName(String(await app.property(path, IFACE.accessible, "Name", timeoutMs)), app);
  return name === "" ? null : name;
}

async function childPaths(app: AtspiApp, path: string, timeoutMs: number): Promise<string[]> {
  const count = Math.min(
    CELL_CHILDREN,
    Number(await app.property(path, IFACE.accessible, "ChildCount", timeoutMs)),
  );
  const paths: string[] = [];
  for (let i = 0; i < count; i++) {
    const [ref] = await app.call(path, IFACE.accessible, "GetChildAtIndex", timeoutMs, "i", [i]);
    const child = (ref as [string, string])[1];
    if (child !== NULL_PATH) paths.push(child);
  }
  return paths;
}

/**
 * A cell's content: its own text or name; where that is empty, its children's (GTK 3 packs an icon
 * and the file name as two child cells of one); where its text holds U+FFFC (web engines put one
 * where a child object sits, a header's sort button, a cell's link), each of those is the child's
 * own words. No U+FFFC is ever returned.
 */
async function cellContent(
  app: AtspiApp,
  path: string,
  timeoutMs: number,
  depth = 0,
  /** The cell's place name ("B1"): LibreOffice names a cell by it, which is no content of its own. */
  place?: string,
): Promise<CellContent> {
  const named = await ownText(app, path, timeoutMs);
  const own = named === place ? null : named;
  if (own !== null && !own.includes("\uFFFC")) return { text: own, fromChildren: false };
  if (depth >= 2) return { text: own?.replace(/\uFFFC/g, "").trim() || null, fromChildren: false };
  const children = await childPaths(app, path, timeoutMs).catch(() => []);
  const words: string[] = [];
  for (const child of children) {
    const content = await cellContent(app, child, timeoutMs, depth + 1).catch(() => ({ text: null }));
    if (content.text) words.push(content.text);
  }
  // A Writer table's cell holds its text in paragraphs; a Calc cell named by its place holds none.
  if (own === null)
    return {
      text: words.length > 0 ? words.join(" ") : named === null ? null : "",
      fromChildren: words.length > 0,
    };
  // Each placeholder takes the next child's words, in order; extra placeholders say nothing.
  let next = 0;
  const text = own
    .replace(/\uFFFC/g, () => words[next++] ?? "")
    .replace(/\s+/g, " ")
    .trim();
  return { text: text || null, fromChildren: true };
}

export async function readTable(
  app: AtspiApp,
  path: string,
  rowStart: number,
  rowCount: number,
  maxCells: number,
  timeoutMs: number,
): Promise<TableRead> {
  let rows: number;
  let columns: number;
  try {
    [rows, columns] = (
      await Promise.all([
        app.property(path, IFACE.table, "NRows", timeoutMs),
        app.property(path, IFACE.table, "NColumns", timeoutMs),
      ])
    ).map(Number) as [number, number];
  } catch (error) {
    // GTK and Java answer a Table property on a non-table with "Failed" or "UnknownProperty".
    if (isNotImplemented(error) || (error instanceof Error && /Error\.Failed/.test(error.message)))
      throw new UnsupportedAction("the element has no Table interface: it is not a table", []);
    throw error;
  }
  const wide = columns > WIDE_COLUMNS;
  const lastRow = Math.min(rows, rowStart + rowCount);
  const read = (row: number, column: number) => tableCell(app, path, row, column, timeoutMs);
  let cells: TableCell[];
  let rowShare: number | undefined;
  if (!wide) {
    const places: [number, number][] = [];
    for (let row = rowStart; row < lastRow && places.length < maxCells; row++)
      for (let column = 0; column < columns && places.length < maxCells; column++) places.push([row, column]);
    cells = await Promise.all(places.map(([row, column]) => read(row, column)));
  } else {
    // A wide sheet's rows are read side by side, each a run of cells at a time, ending at a run with
    // nothing in it, within an even share of max_cells.
    const wanted = Math.max(0, lastRow - rowStart);
    const share = Math.max(Math.min(EMPTY_RUN, maxCells), Math.floor(maxCells / Math.max(1, wanted)));
    const rowsRead = Math.min(wanted, Math.floor(maxCells / share));
    rowShare = share;
    const readRow = async (row: number): Promise<TableCell[]> => {
      const found: TableCell[] = [];
      for (let column = 0; column < Math.min(columns, share); column += EMPTY_RUN) {
        const end = Math.min(columns, share, column + EMPTY_RUN);
        const run = await Promise.all(Array.from({ length: end - column }, (_, i) => read(row, column + i)));
        found.push(...run);
        if (run.every((cell) => !cell.text)) break;
      }
      return found;
    };
    cells = (await Promise.all(Array.from({ length: rowsRead }, (_, i) => readRow(rowStart + i)))).flat();
  }
  const shownColumns =
    cells.length > 0
      ? Math.max(...cells.map((cell) => cell.column + 1))
      : Math.min(columns, wide ? EMPTY_RUN : maxCells);
  // One header at a time: Java mints the header object per call, and concurrent calls were all
  // answered with the last column's.
  const headers: (string | null)[] = [];
  const headersFromChildren: number[] = [];
  for (let column = 0; column < shownColumns; column++) {
    const header = await columnHeader(app, path, column, timeoutMs);
    headers.push(header.text);
    if (header.fromChildren) headersFromChildren.push(column);
  }
  return {
    rows,
    columns,
    headers,
    ...(headersFromChildren.length > 0 ? { headersFromChildren } : {}),
    cells,
    ...(rowShare ? { rowsEndAtEmpty: EMPTY_RUN, rowShare } : {}),
  };
}

/** Wider than this, a table is a sheet read a run of cells at a time (LibreOffice Calc: 16,384). */
const WIDE_COLUMNS = 256;
/** A run of this many empty cells ends a wide sheet's row. */
const EMPTY_RUN = 16;

async function tableCell(
  app: AtspiApp,
  path: string,
  row: number,
  column: number,
  timeoutMs: number,
): Promise<TableCell> {
  try {
    const [ref] = await app.call(path, IFACE.table, "GetAccessibleAt", timeoutMs, "ii", [row, column]);
    const cellPath = (ref as [string, string])[1];
    // No cell at a place inside the table's counts: a web table's short row has none there; a Java
    // table has a cell at every place, so there the JVM could not make it (its renderer threw): a
    // cell not read, not one with no text.
    if (cellPath === NULL_PATH)
      return { row, column, text: null, ...(app.isJava ? { unreadable: true } : {}) };
    const content = await cellContent(app, cellPath, timeoutMs, 0, placeName(row, column));
    return { row, column, text: content.text, ...(content.fromChildren ? { fromChildren: true } : {}) };
  } catch {
    return { row, column, text: null, unreadable: true };
  }
}

async function columnHeader(
  app: AtspiApp,
  path: string,
  column: number,
  timeoutMs: number,
): Promise<CellContent> {
  try {
    const [header] = await app.call(path, IFACE.table, "GetColumnHeader", timeoutMs, "i", [column]);
    const headerPath = (header as [string, string])[1];
    if (headerPath !== NULL_PATH) {
      const content = await cellContent(app, headerPath, timeoutMs);
      if (content.text !== null) return content;
    }
    const [description] = await app.call(path, IFACE.table, "GetColumnDescription", timeoutMs, "i", [column]);
    return {
      text:
        description === ""
          ? null
          : String(description)
              .replace(/\uFFFC/g, "")
              .trim() || null,
      fromChildren: false,
    };
  } catch {
    return { text: null, fromChildren: false };
  }
}
