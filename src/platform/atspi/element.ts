// Reading one element closely: its text in slices, and tables a page of rows at a time through the
// Table interface, never the whole table.
import type { TableCell, TableRead } from "../types.js";
import { UnsupportedAction } from "../types.js";
import { type AtspiApp, isNotImplemented } from "./app.js";
import { IFACE, NULL_PATH } from "./names.js";

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

async function cellText(app: AtspiApp, cellPath: string, timeoutMs: number): Promise<string | null> {
  const text = await readText(app, cellPath, 0, 1000, timeoutMs);
  if (text !== null && text.text !== "") return text.text;
  // Cells without a Text interface (Qt) still carry their content as the accessible name.
  const name = await app.property(cellPath, IFACE.accessible, "Name", timeoutMs);
  return name === "" ? null : String(name);
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
  // One header at a time: Java mints the header object per call, and concurrent calls were all
  // answered with the last column's.
  const headers: (string | null)[] = [];
  for (let column = 0; column < Math.min(columns, maxCells); column++) {
    headers.push(await columnHeader(app, path, column, timeoutMs));
  }
  const cells: Promise<TableCell>[] = [];
  const lastRow = Math.min(rows, rowStart + rowCount);
  for (let row = rowStart; row < lastRow && cells.length < maxCells; row++) {
    for (let column = 0; column < columns && cells.length < maxCells; column++) {
      cells.push(
        (async (): Promise<TableCell> => {
          try {
            const [ref] = await app.call(path, IFACE.table, "GetAccessibleAt", timeoutMs, "ii", [
              row,
              column,
            ]);
            const cellPath = (ref as [string, string])[1];
            if (cellPath === NULL_PATH) return { row, column, text: null };
            return { row, column, text: await cellText(app, cellPath, timeoutMs) };
          } catch {
            return { row, column, text: null, unreadable: true };
          }
        })(),
      );
    }
  }
  return { rows, columns, headers, cells: await Promise.all(cells) };
}

async function columnHeader(
  app: AtspiApp,
  path: string,
  column: number,
  timeoutMs: number,
): Promise<string | null> {
  try {
    const [header] = await app.call(path, IFACE.table, "GetColumnHeader", timeoutMs, "i", [column]);
    const headerPath = (header as [string, string])[1];
    if (headerPath !== NULL_PATH) {
      const text = await cellText(app, headerPath, timeoutMs);
      if (text !== null) return text;
    }
    const [description] = await app.call(path, IFACE.table, "GetColumnDescription", timeoutMs, "i", [column]);
    return description === "" ? null : String(description);
  } catch {
    return null;
  }
}
