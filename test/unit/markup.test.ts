// Names in rich-text markup read as drawn (src/platform/markup.ts): Qt hands KCalc's keys over as
// the app wrote them, "x<sup>2</sup>", and "&radic;x" with its "&" taken as a mnemonic marker.
import assert from "node:assert/strict";
import { it } from "node:test";
import { cleanName } from "../../src/platform/atspi/reader.js";
import { plainFromMarkup } from "../../src/platform/markup.js";

it("inline tags are read, superscripts raised, entities decoded", () => {
  const cases: [string, string][] = [
    ["x<sup>2</sup>", "x²"],
    ["x<sup>y</sup>", "x^y"],
    ["x<sup>1/y</sup>", "x^(1/y)"],
    ["log<sub>10</sub>", "log₁₀"],
    ["radic;x", "√x"],
    ["&radic;x", "√x"],
    ["pi;", "π"],
    ["x&times;y", "x×y"],
    ["Tom &amp; Jerry", "Tom & Jerry"],
    ["<b>Warning</b>: disk full", "Warning: disk full"],
  ];
  for (const [name, drawn] of cases) assert.equal(plainFromMarkup(name), drawn, name);
});

it("plain names stay as written: no tag, a word that names no character, a word in a sentence", () => {
  for (const name of ["AC", "1/x", "a <b", "<none>", "Save;", "Do not; go", "Items; more"])
    assert.equal(plainFromMarkup(name), name);
});

it("only a toolkit that hands markup over has its names read so", () => {
  assert.equal(cleanName("x<sup>2</sup> ", { namesInMarkup: true }), "x²");
  assert.equal(cleanName("x<sup>2</sup>", {}), "x<sup>2</sup>");
});

it("GTK 4.8's doubled names are read once, its copy with a marked mnemonic too", () => {
  const gtk4 = { doublesNames: true };
  assert.equal(cleanName("Open Open", gtk4), "Open");
  assert.equal(cleanName("_Guardar… Guardar…", gtk4), "Guardar…");
  assert.equal(cleanName("Reempl_azar todo Reemplazar todo", gtk4), "Reemplazar todo");
  // A name with an underscore of its own, or two words that differ, stays as it is.
  assert.equal(cleanName("file_name file", gtk4), "file_name file");
  assert.equal(cleanName("_Guardar Cerrar", gtk4), "_Guardar Cerrar");
  assert.equal(cleanName("_Guardar… Guardar…", {}), "_Guardar… Guardar…");
});
