// A label read by its app's own catalog (src/safety/app-catalog.ts): where the app's process has
// its gettext catalog mapped, every label that is a translation there is judged as the English msgid
// its authors wrote; a label the catalog lacks is read in its own language, as ever.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import gettextParser from "gettext-parser";
import { englishOf } from "../../src/safety/app-catalog.js";
import { commitReason, type TargetFacts, untitledDocument } from "../../src/safety/classify.js";

const compile = (gettextParser.mo as unknown as { compile(data: unknown): Buffer }).compile;
const dir = mkdtempSync(join(tmpdir(), "deskhand-app-catalog-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/** GNOME Calculator's German catalog, as much of it as these cases need. */
const catalog = join(dir, "gnome-calculator.mo");
const messages: Record<string, string> = {
  "End Group [)]": "Block schließen [)]",
  "Clear Display [Escape]": "Die Anzeige löschen [Escape]",
  "_Delete History": "Verlauf _löschen",
  "Send Result": "Ergebnis senden",
  Keep: "Behalten",
  Save: "Behalten",
};
/** Writes a catalog of these msgid → msgstr pairs. */
function writeCatalog(path: string, pairs: Record<string, string>): void {
  const translations: Record<string, { msgid: string; msgstr: string[] }> = {
    "": { msgid: "", msgstr: ["Content-Type: text/plain; charset=UTF-8\n"] },
  };
  for (const [msgid, msgstr] of Object.entries(pairs)) translations[msgid] = { msgid, msgstr: [msgstr] };
  writeFileSync(path, compile({ charset: "utf-8", headers: {}, translations: { "": translations } }));
}
writeCatalog(catalog, messages);
// Pluma in pt_BR maps pt's catalog too: a label of either is its own.
const fallback = join(dir, "pluma-pt.mo");
const brazilian = join(dir, "pluma-pt_BR.mo");
writeCatalog(fallback, { "Replace _All": "Substituir _tudo" });
writeCatalog(brazilian, {
  "Replace _All": "Substituir _todos",
  "Save _As": "Salvar _como",
  _Save: "_Salvar",
  "Unsaved Document %d": "Documento não-salvo %d",
});

const press = (description: string | undefined, name?: string): TargetFacts => ({
  role: "push button",
  ...(name !== undefined ? { name } : {}),
  ...(description ? { description } : {}),
  window: { role: "frame", language: "de", catalogs: [catalog] },
});

describe("a label read by its app's own catalog", () => {
  it("finds a label's English msgids, its mnemonic and bound key out", () => {
    assert.deepEqual(englishOf([catalog], "Block schließen [)]"), ["End Group"]);
    assert.deepEqual(englishOf([catalog], "Verlauf löschen"), ["Delete History"]);
    assert.deepEqual(englishOf([catalog], "Behalten")?.sort(), ["Keep", "Save"]);
    assert.equal(englishOf([catalog], "Block öffnen"), undefined);
  });

  it("reads every catalog the app maps, its language's and the one it falls back to", () => {
    const pluma = [fallback, brazilian];
    assert.deepEqual(englishOf(pluma, "Substituir todos"), ["Replace All"]);
    assert.deepEqual(englishOf(pluma, "Substituir tudo"), ["Replace All"]);
    const replaceAll: TargetFacts = {
      role: "push button",
      name: "Substituir todos",
      window: { role: "dialog", language: "pt_BR", catalogs: pluma, title: "Substituir" },
    };
    assert.equal(commitReason(replaceAll), undefined);
    const onlyFallback = { ...replaceAll, window: { ...replaceAll.window!, catalogs: [fallback] } };
    assert.match(commitReason(onlyFallback) ?? "", /"substituir"/, "read in Portuguese without pt_BR's");
  });

  it("reads a title its app made from its own words and a number: a document never saved", () => {
    const pluma = [fallback, brazilian];
    assert.equal(untitledDocument("*Documento não-salvo 1 - Pluma", pluma), true);
    assert.equal(untitledDocument("Documento não-salvo 12 - Pluma", pluma), true);
    assert.equal(untitledDocument("*Documento não-salvo 1 - Pluma"), false, "no catalog: words unread");
    assert.equal(untitledDocument("*relatório.txt - Pluma", pluma), false);
    const save = (title: string): TargetFacts => ({
      role: "menu item",
      name: "Salvar",
      window: { role: "frame", language: "pt_BR", catalogs: pluma, title },
    });
    assert.equal(commitReason(save("*Documento não-salvo 1 - Pluma")), undefined, "it asks for a name first");
    assert.match(commitReason(save("*relatório.txt - Pluma")) ?? "", /"save" commits/);
  });

  it("judges the English: a harmless key passes, a committing one commits, the strictest of several stands", () => {
    assert.equal(commitReason(press("Die Anzeige löschen [Escape]")), undefined);
    assert.equal(commitReason(press("Block schließen [)]", ")")), undefined, "the name is no translation");
    assert.match(
      commitReason(press("Verlauf löschen")) ?? "",
      /a push button "Delete History" \("Verlauf löschen" in its app's own words\) \("delete" commits\)/,
    );
    assert.match(commitReason(press("Ergebnis senden")) ?? "", /commits/);
    assert.match(commitReason(press("Behalten")) ?? "", /"save" commits/, "Keep and Save: Save stands");
  });

  it("reads a label the catalog lacks in its own language, and without a catalog, as ever", () => {
    assert.match(commitReason(press("Anzeige löschen")) ?? "", /commits/, "no translation: German löschen");
    const { catalogs: _, ...window } = press("Die Anzeige löschen [Escape]").window!;
    assert.match(
      commitReason({ ...press("Die Anzeige löschen [Escape]"), window }) ?? "",
      /commits/,
      "no catalog: German löschen",
    );
  });
});
