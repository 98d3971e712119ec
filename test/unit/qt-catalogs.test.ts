// Qt's .qm catalogs, read bounded (src/platform/qt-catalogs.ts), and a Qt app's standard buttons read
// by them (src/safety/toolkit-buttons.ts): a label that is Qt's own committing button commits, in
// that toolkit and language only; a reject button, or a label it may share with one, never does.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { it } from "node:test";
import { qtButtonCatalogs, readQtCatalog } from "../../src/platform/qt-catalogs.js";
import { committingPhrase, readLabel } from "../../src/safety/label-reading.js";

const MAGIC = Buffer.from("3cb86418caef9c95cd211cbf60a1bddd", "hex");
const field = (tag: number, bytes: Buffer) => {
  const head = Buffer.alloc(5);
  head[0] = tag;
  head.writeUInt32BE(bytes.length, 1);
  return Buffer.concat([head, bytes]);
};
const utf16be = (text: string) => Buffer.from(text, "utf16le").swap16();
/** A .qm file as lrelease writes one: the messages block, each record's fields then Tag_End. */
const qm = (messages: { context: string; source: string; translation: string | null }[]) =>
  Buffer.concat([
    MAGIC,
    field(
      0x69,
      Buffer.concat(
        messages.map((m) =>
          Buffer.concat([
            m.translation === null
              ? Buffer.from([3, 0xff, 0xff, 0xff, 0xff])
              : field(3, utf16be(m.translation)),
            Buffer.from([5, 0, 0, 0, 0]),
            field(6, Buffer.from(m.source)),
            field(7, Buffer.from(m.context)),
            field(8, Buffer.from("")),
            Buffer.from([1]),
          ]),
        ),
      ),
    ),
  ]);

const dir = mkdtempSync(join(tmpdir(), "deskhand-qm-"));
const write = (name: string, bytes: Buffer) => {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
};

it("reads each message's context, source and translation, and skips one with no translation", () => {
  const path = write(
    "a.qm",
    qm([
      { context: "QPlatformTheme", source: "Save", translation: "Zachowaj" },
      { context: "QPlatformTheme", source: "Help", translation: null },
      { context: "QFileDialog", source: "&Open", translation: "&Otwórz ✓" },
    ]),
  );
  assert.deepEqual(readQtCatalog(path), [
    { context: "QPlatformTheme", source: "Save", translations: ["Zachowaj"] },
    { context: "QFileDialog", source: "&Open", translations: ["&Otwórz ✓"] },
  ]);
});

it("a damaged file gives what was read before the damage; another file, nothing", () => {
  const whole = qm([
    { context: "QPlatformTheme", source: "Save", translation: "Zachowaj" },
    { context: "QPlatformTheme", source: "Cancel", translation: "Anuluj" },
  ]);
  const cut = write("cut.qm", whole.subarray(0, whole.length - 12));
  assert.deepEqual(
    readQtCatalog(cut).map((m) => m.source),
    ["Save"],
  );
  const badTag = Buffer.from(whole);
  badTag[MAGIC.length + 5] = 0x42;
  assert.deepEqual(readQtCatalog(write("tag.qm", badTag)), []);
  assert.deepEqual(readQtCatalog(write("text.qm", Buffer.from("not a catalog"))), []);
  assert.deepEqual(readQtCatalog(join(dir, "missing.qm")), []);
});

it("finds a language's catalogs by its most specific name, in Qt's folders and KDE's", () => {
  const qt = join(dir, "qt");
  const kde = join(dir, "locale");
  mkdirSync(qt);
  mkdirSync(join(kde, "pt_BR", "LC_MESSAGES"), { recursive: true });
  mkdirSync(join(kde, "pt", "LC_MESSAGES"), { recursive: true });
  for (const name of ["qtbase_pt_BR.qm", "qtbase_pt.qm", "qtbase_pl.qm"]) writeFileSync(join(qt, name), "");
  writeFileSync(join(kde, "pt", "LC_MESSAGES", "kwidgetsaddons5_qt.qm"), "");
  const folders = { qt: [qt], kde };
  assert.deepEqual(qtButtonCatalogs("pt_BR.UTF-8", folders), [
    join(qt, "qtbase_pt_BR.qm"),
    join(kde, "pt", "LC_MESSAGES", "kwidgetsaddons5_qt.qm"),
  ]);
  assert.deepEqual(qtButtonCatalogs("pl_PL", folders), [join(qt, "qtbase_pl.qm")]);
  assert.deepEqual(qtButtonCatalogs("xx", folders), []);
});

// The machine's own Qt catalogs (qttranslations5-l10n, which the installer names).
it("a Qt app's own Save, Yes and Discard commit in its language; Cancel and what only asks do not", () => {
  const qt = (language: string, label: string) => committingPhrase(label, { language, toolkit: "Qt" });
  assert.match(qt("pl_PL", "Zachowaj")?.what ?? "", /Qt's own translation of "Save"/);
  assert.equal(readLabel("Zachowaj", { language: "pl", toolkit: "Qt" }).harmless, false);
  assert.match(qt("pl", "&Zachowaj")?.what ?? "", /"Save"/, "with its mnemonic");
  assert.match(qt("de", "Ja")?.what ?? "", /"Yes"/);
  assert.match(qt("ko", "모두 예(A)")?.what ?? "", /"Yes to All"/, "a mnemonic in brackets");
  // Cancel and Abort are both "Abbrechen" in German: reject buttons, so nothing is added.
  assert.equal(qt("de", "Abbrechen"), undefined);
  assert.equal(qt("pl", "Anuluj"), undefined);
  assert.equal(qt("pl", "Zachowaj jako"), undefined, "Save As only opens a chooser");
  // Keep, in another toolkit, and a label Qt's buttons do not hold whole.
  assert.equal(readLabel("Zachowaj", { language: "pl", toolkit: "GTK" }).harmless, true);
  assert.equal(qt("pl", "Zachowaj układ"), undefined);
  assert.equal(qt("en", "Keep"), undefined);
});
