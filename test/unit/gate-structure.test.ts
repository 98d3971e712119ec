// The judge reads structure first: what a control is decides before its words, and a command whose
// words it cannot read as harmless asks. Labels here are variants no rule names.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { commitReason, type TargetFacts } from "../../src/safety/classify.js";

const main = { role: "frame" };
const press = (role: string, name: string, extra: Partial<TargetFacts> = {}): TargetFacts => ({
  role,
  name,
  window: main,
  ...extra,
});

describe("the judge: structure first", () => {
  it("a control that shows a view, opens something or sets a value commits nothing, whatever its words", () => {
    for (const target of [
      press("page tab", "Delete account"),
      press("page tab", `Notes: ${"remember to apply the discount before the end of the month ".repeat(4)}`),
      press("table column header", "Payment"),
      press("column header", "Submitted"),
      press("push button", "Sent", { inside: ["table column header", "table"] }),
      press("toggle button", "Paid only"),
      press("check box", "Send me the newsletter"),
      press("push button", "Pay ▾", { states: ["has popup"] }),
      press("menu item", "Save As...\tCtrl+Shift+S"),
      press("menu item", "Export\u2026\tCtrl+E"),
    ])
      assert.equal(commitReason(target), undefined, JSON.stringify(target.name));
  });

  it("a cell of a row of several columns is data: pressing or selecting it selects the row; a double click is judged", () => {
    for (const name of ["Tar archive", "Print to File", "Delete old mail", "Pay invoice 42"])
      assert.equal(commitReason(press("table cell", name, { record: true })), undefined, name);
    // The same words where the cell is an option of a one-column list, or opened by a double click.
    assert.match(commitReason(press("table cell", "Print to File")) ?? "", /print/);
    assert.match(
      commitReason(press("table cell", "Print to File", { record: true, twice: true })) ?? "",
      /print/,
    );
  });

  it("a find bar's Close hides the bar; a main window's Close may lose unsaved work", () => {
    assert.equal(commitReason(press("push button", "Close", { searchBar: true })), undefined);
    assert.match(commitReason(press("push button", "Close")) ?? "", /unsaved work/);
  });

  it("a committing word that names a thing commits nothing, in the catalogs' languages too", () => {
    for (const name of [
      "Print Preview",
      "Aperçu avant impression",
      "Anteprima di stampa",
      "Druckvorschau",
      "Close Bracket",
    ])
      assert.equal(commitReason(press("push button", name)), undefined, name);
    for (const name of ["Print Preview and Pay", "Imprimer", "Stampa"])
      assert.ok(commitReason(press("push button", name)), name);
    // A calculator's key ")" described by the group it ends (GNOME Calculator's "End Group [)]",
    // German "Block schließen [)]"): it types a bracket, and closes no window.
    assert.equal(commitReason(press("push button", ")", { description: "End Group [)]" })), undefined);
    assert.ok(commitReason(press("push button", "Close Group")), "a tab group's Close is no bracket");
  });

  it("a keypad's key is judged by its own name, never its description", () => {
    const key = (name: string, description: string, keypadKey = true) =>
      commitReason(press("push button", name, { description, keypadKey }));
    assert.equal(key("C", "Die Anzeige löschen [Escape]"), undefined);
    assert.equal(key(")", "Close the window"), undefined);
    assert.equal(key("MS", "Sauvegarde la mémoire"), undefined);
    assert.match(key("OK", "Confirm") ?? "", /"ok" commits/);
    assert.match(key("Pay", "") ?? "", /commits|money/);
    assert.match(key("C", "Die Anzeige löschen [Escape]", false) ?? "", /commits/);
  });

  it("GTK 4.8's toggle, a push button shown pressed, is a setting; held down (armed) or unpressed, a command", () => {
    assert.equal(commitReason(press("push button", "Pay", { states: ["focusable", "pressed"] })), undefined);
    assert.match(
      commitReason(press("push button", "Pay", { states: ["pressed", "armed"] })) ?? "",
      /"pay" commits/,
    );
    assert.match(commitReason(press("push button", "Pay", { states: ["focusable"] })) ?? "", /"pay" commits/);
    assert.ok(commitReason(press("push button", "Pay", { states: ["pressed"], window: { role: "alert" } })));
  });

  it("in an alert, a setting is still judged by its words", () => {
    assert.ok(commitReason(press("toggle button", "Delete everything", { window: { role: "alert" } })));
  });

  it("a command commits unless its label reads as harmless", () => {
    for (const name of ["Vrandosk now", "Kwa heri sasa", "Zzyzx", "ᏗᏓᏅᏍᏗ"])
      assert.match(commitReason(press("push button", name)) ?? "", /as harmless/, name);
    assert.match(commitReason(press("menu item", "Qapla' batlh")) ?? "", /as harmless/);
    for (const name of ["Next", "Show details", "Refresh", "Zoom in", "Open", "Settings"])
      assert.equal(commitReason(press("push button", name)), undefined, name);
    // An icon button is read by its tooltip where it shows no label.
    assert.equal(commitReason(press("push button", "", { description: "Reload this page" })), undefined);
    assert.ok(commitReason(press("push button", "", { description: "Wipe the disk" })));
  });

  it("a link or a choice commits where its words say so, and shows data otherwise", () => {
    assert.equal(commitReason(press("list item", "Müller Zzyzx.odt")), undefined);
    assert.ok(commitReason(press("list item", "Truncate all tables")));
    assert.equal(commitReason(press("link", "Read Müller's article")), undefined);
    assert.ok(commitReason(press("link", "Magbayad")));
  });

  it("a drop target commits unless its name reads as harmless, or it is a view that holds what is dropped", () => {
    const drop = (role: string, name: string) => ({ ...press(role, name), dropped: true });
    for (const target of [
      drop("icon", "Shredder"),
      drop("label", "🗑"),
      drop("icon", ""),
      drop("label", "Zzyzx"),
    ])
      assert.ok(commitReason(target), JSON.stringify(target));
    for (const target of [
      drop("label", "Documents"),
      drop("list", ""),
      drop("layered pane", ""),
      drop("label", "Drop files here"),
    ])
      assert.equal(commitReason(target), undefined, JSON.stringify(target));
  });

  it("a value set or an option chosen is judged by the control's, the list's and the option's words", () => {
    assert.ok(commitReason({ role: "slider", name: "Slide to pay", sets: { value: "100" }, window: main }));
    assert.equal(
      commitReason({ role: "slider", name: "Volume", sets: { value: "100" }, window: main }),
      undefined,
    );
    assert.ok(
      commitReason({
        role: "list item",
        name: "Truncate all tables",
        sets: { list: { role: "combo box", name: "Action" } },
      }),
    );
    assert.equal(
      commitReason({
        role: "list item",
        name: "Sort by name",
        sets: { list: { role: "combo box", name: "View" } },
      }),
      undefined,
    );
    // An option of a list named for a filter or a search is what a view shows, in any language.
    for (const [list, name, language] of [
      ["Φίλτρο", "Απεσταλμένα", "el"],
      ["Filter", "Sent", "en"],
      ["Filtern", "Gesendet", "de"],
    ])
      assert.equal(
        commitReason({
          role: "menu item",
          name,
          sets: { list: { role: "combo box", name: list } },
          window: { role: "frame", language },
        }),
        undefined,
        `${list}: ${name}`,
      );
    // A tab chosen from its list shows its page, as a click on it does.
    assert.equal(
      commitReason({ role: "page tab", name: "Delete account", sets: { list: { role: "page tab list" } } }),
      undefined,
    );
    // What is typed into a text field is data: "Delete" typed into a note commits nothing, and so
    // does the field's own name (a page's Spanish "para", read as another language's verb).
    assert.equal(
      commitReason({ role: "text", name: "Note", sets: { value: "Delete the old files" } }),
      undefined,
    );
    for (const name of ["Nota para el repartidor", "Delete reason", "Betrag zum Bezahlen"])
      assert.equal(
        commitReason({ role: "entry", name, sets: { value: "x" }, window: main }),
        undefined,
        name,
      );
  });

  it("an option's price is what choosing it costs later: choosing it, from its list or by a click, pays nothing", () => {
    const shipping = { role: "combo box", name: "Método de envío" };
    for (const name of ["Urgente (9,00 €)", "Express — $12.50", "Premium 49,00 € al mes"]) {
      assert.equal(
        commitReason({ role: "menu item", name, sets: { list: shipping }, window: main }),
        undefined,
        name,
      );
      assert.equal(
        commitReason(press("menu item", name, { inside: ["menu", "combo box"] })),
        undefined,
        name,
      );
      // The same words on a command pay.
      assert.match(commitReason(press("push button", name)) ?? "", /amount of money/, name);
    }
    // An option's committing words still commit, chosen either way.
    assert.ok(
      commitReason({ role: "menu item", name: "Pay now 9 €", sets: { list: shipping }, window: main }),
    );
    assert.ok(commitReason(press("menu item", "Truncate all tables", { inside: ["menu", "combo box"] })));
  });

  it("a button that reports itself expanded or collapsed shows or hides a section, whatever its words", () => {
    for (const states of [["collapsed"], ["expanded"], ["expandable"]])
      assert.equal(commitReason(press("push button", "Ver desglose", { states })), undefined, states.join());
    // Without the state, a word no lexicon reads still asks.
    assert.match(commitReason(press("push button", "Ver desglose")) ?? "", /desglose/);
  });

  it("a choice named as a program names things (an icon, a file) holds data; a command so named is still read", () => {
    for (const name of ["edit-delete", "user-trash-full", "delete-old.txt", "mail_send"])
      assert.equal(commitReason(press("table cell", name)), undefined, name);
    assert.ok(commitReason(press("table cell", "Delete")));
    assert.ok(commitReason(press("list item", "Delete all")));
    assert.ok(commitReason(press("push button", "edit-delete")));
    // Said with its article: "an entry", not "a entry".
    assert.match(commitReason(press("entry", "Delete")) ?? "an entry", /an entry|^$/);
  });

  it("a long label is quoted by its head and its tail, with the deciding word on its own", () => {
    const label = `${"Lorem ipsum dolor sit amet ".repeat(22)}pay now`;
    const reason = commitReason(press("push button", label)) ?? "";
    assert.match(reason, /^it presses a push button "Lorem[^"]*…[^"]*pay now" \(\d+ characters\) \("pay/);
    assert.ok(reason.indexOf('("pay') < 200, reason);
  });

  it("Save of a document never saved asks for its name (a Save As); of a named one, in a dialog, or Save All, it commits", () => {
    const inWindow = (title: string) => ({ role: "frame", title });
    for (const title of [
      "Untitled — Kate",
      "Untitled * — KWrite",
      "*Untitled 1 - Mousepad",
      "New Document (Draft) - Text Editor",
      "Unbenannt — Kate",
    ])
      for (const name of ["Save", "_Save\tCtrl+S", "&Save"])
        assert.equal(
          commitReason(press("menu item", name, { window: inWindow(title) })),
          undefined,
          `${name} in ${title}`,
        );
    for (const [name, title] of [
      ["Save", "notes.txt — Kate"],
      ["Save", "Untitled.txt — Kate"],
      ["Save", "Untitled notes — Kate"],
      ["Save All", "Untitled — Kate"],
      ["Save and send", "Untitled — Kate"],
    ] as const)
      assert.match(
        commitReason(press("menu item", name, { window: inWindow(title) })) ?? "",
        /commits/,
        `${name} in ${title}`,
      );
    // In the app's language, its toolkit's too: Save is each language's own translation of it alone.
    for (const [name, title, language, toolkit] of [
      ["Kaydet", "Adsız * — KWrite", "tr", "Qt"],
      ["Speichern", "Unbenannt — Kate", "de_DE", "Qt"],
      ["Zapisz", "Bez tytułu * — Kate", "pl", "Qt"],
      ["Enregistrer", "*Sans titre 1 - Mousepad", "fr", "GTK"],
    ] as const)
      assert.equal(
        commitReason(press("menu item", name, { window: { role: "frame", title, language, toolkit } })),
        undefined,
        `${name} in ${title}`,
      );
    for (const [name, title, language] of [
      ["Speichern", "notizen.txt — Kate", "de"],
      ["Übernehmen", "Unbenannt — Kate", "de"],
      ["Alles speichern", "Unbenannt — Kate", "de"],
    ] as const)
      assert.match(
        commitReason(
          press("menu item", name, { window: { role: "frame", title, language, toolkit: "Qt" } }),
        ) ?? "",
        /commits|Qt's own/,
        `${name} in ${title}`,
      );
    // A question titled so ("Save changes to Untitled?") is a dialog: its Save writes.
    assert.match(
      commitReason(press("push button", "Save", { window: { role: "dialog", title: "Untitled — Kate" } })) ??
        "",
      /commits/,
    );
  });

  it("a settings window's OK, Apply, Save and Close keep what was set; anything else there is judged as ever", () => {
    const dialog = (title: string, language: string) => ({
      window: { role: "dialog", title, language, holdsInput: true },
    });
    for (const [name, title, language] of [
      ["OK", "Preferenze", "it"],
      ["Applica", "Preferenze", "it"],
      ["Chiudi", "Preferenze", "it"],
      ["Übernehmen", "Einstellungen — Kate", "de"],
      ["Speichern", "Einstellungen", "de"],
      ["Apply", "Preferences - Geany", "en"],
      ["OK", "Options - LibreOffice", "en"],
      ["Close", "Terminal Preferences", "en"],
      ["Schließen", "Terminal-Einstellungen", "de"],
    ] as const)
      assert.equal(
        commitReason(press("push button", name, dialog(title, language))),
        undefined,
        `${name} in ${title}`,
      );
    for (const [name, title, language] of [
      ["Elimina profilo", "Preferenze", "it"],
      ["Reset", "Preferences", "en"],
      ["OK", "Profilo", "it"],
      ["Apply", "Export Options", "en"],
      ["Close", "Preferences of a friend", "en"],
      ["OK", "Reset Settings", "en"],
      ["OK", "Delete Preferences", "en"],
    ] as const)
      assert.match(
        commitReason(press("push button", name, dialog(title, language))) ?? "",
        /commits|closes/,
        `${name} in ${title}`,
      );
  });
});
