// A spreadsheet's names for its places, as a person reads them beside and above the cells: column
// letters (0 is A, 25 Z, 26 AA) and "B1" for row 0, column 1. LibreOffice names each cell so,
// whatever it holds: the name is no content.

/** A sheet's column letters: 0 is A, 25 Z, 26 AA. */
export function columnLetters(column: number): string {
  let letters = "";
  for (let n = column + 1; n > 0; n = Math.floor((n - 1) / 26))
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/** The spreadsheet name of a cell's place: column letters and row number ("B1", "AA12"). */
export function placeName(row: number, column: number): string {
  return `${columnLetters(column)}${row + 1}`;
}
