// The label reading (src/safety/label-reading.ts, label-lexicon.ts): words learnt from catalogs by
// what their English msgid does, read back on wordings the lexicon was not built from; letters joined
// by punctuation or written in other forms read as their words; a word seen only in committing
// labels is never read as harmless.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import gettextParser from "gettext-parser";
import { listCatalogs } from "../../src/platform/catalogs.js";
import { matchLabel } from "../../src/safety/committing-words.js";
import { baseLanguage, buildLabelLexicon } from "../../src/safety/label-lexicon.js";
import { readLabel } from "../../src/safety/label-reading.js";

const compile = (gettextParser.mo as unknown as { compile(data: unknown): Buffer }).compile;

/** Writes `<root>/<language>/LC_MESSAGES/<domain>.mo` holding these msgid → msgstr pairs. */
function catalog(
  root: string,
  language: string,
  domain: string,
  messages: Record<string, string>,
  /** Each message's msgctxt, as KDE's catalogs give one ("@action:button"). */
  context = "",
): void {
  const folder = join(root, language, "LC_MESSAGES");
  mkdirSync(folder, { recursive: true });
  const header = { msgid: "", msgstr: ["Content-Type: text/plain; charset=UTF-8\n"] };
  const translations: Record<string, { msgctxt?: string; msgid: string; msgstr: string[] }> = {};
  for (const [msgid, msgstr] of Object.entries(messages))
    translations[msgid] = { ...(context ? { msgctxt: context } : {}), msgid, msgstr: [msgstr] };
  writeFileSync(
    join(folder, `${domain}.mo`),
    compile({ charset: "utf-8", headers: {}, translations: { "": { "": header }, [context]: translations } }),
  );
}

const root = mkdtempSync(join(tmpdir(), "deskhand-label-reading-"));
after(() => rmSync(root, { recursive: true, force: true }));
// A made-up language "xx", so that nothing the machine has can read it: two apps' catalogs.
catalog(root, "xx", "mail", {
  _Delete: "_Zmaž",
  "Delete File": "Zmaž soubor",
  "Delete All": "Zmaž vše",
  "Send Message": "Pošli zprávu",
  _Send: "_Pošli",
  "Pay Invoice": "Zaplať fakturu",
  "Pay Bill": "Zaplať účet",
  "Open File": "Otevři soubor",
  "Open Folder": "Otevři složku",
  "Show Hidden": "Ukaž skryté",
  "_Show All": "_Ukaž vše",
  "New Message": "Nová zpráva",
  "Message List": "Seznam zpráv",
  _Next: "_Dál",
});
catalog(root, "xx", "viewer", {
  "Show Details": "Ukaž podrobnosti",
  "_View Details": "_Podrobnosti",
  "File Properties": "Vlastnosti souboru",
  "Zoom In": "Přibliž pohled",
  "Zoom Out": "Oddal pohled",
  "Go _Forward": "Jdi _dál",
  // What the app is doing, no command: the upgrade is not pressed, so "Počtu" learns nothing of it.
  "Calculating upgrade": "Počtu aktualizaci",
  "Calculating system upgrade": "Počtu aktualizaci systému",
  Calculate: "Počtu",
  "Upgrade Notes": "Poznámky aktualizaci",
});

// A second made-up language "yy": a verb written as two words that each stand in harmless labels,
// a verb spelled as an English word, elided articles, and a sort order whose msgid says "Order by".
catalog(root, "yy", "files", {
  _Delete: "_Nesta kardan",
  "Delete File": "Nesta kardan fil",
  "Delete All": "Nesta kardan tut",
  "Go Back": "Kardan bak",
  "Go Forward": "Kardan fore",
  "Go Up": "Kardan alto",
  "Go Home": "Kardan casa",
  "Nothing Selected": "Nesta vu",
  "Nothing Found": "Nesta trovi",
  "No Files": "Nesta fil",
  "No Results": "Nesta rezult",
  _Remove: "_Tang",
  "Remove File": "Tang fil",
  "Remove All": "Tang tut",
  "Open Folder": "Abrir elenco",
  "Open File": "Abrir fil",
  "Show List": "Mostra elenco",
  "List View": "Vista elenco",
  "Show All": "Mostra tut",
  "Zoom In": "Tangelo vista",
  "Zoom Out": "Tangelo fore",
  "_Order by Name": "Ordina per nome",
  "Order by _Date": "Ordina per data",
});

// Thai, written without spaces between words: ICU's dictionary finds them, in learning and reading.
catalog(root, "th", "files", {
  _Delete: "_ลบ",
  "Delete File": "ลบไฟล์",
  "Delete All": "ลบทั้งหมด",
  "Open File": "เปิดไฟล์",
  "Open Folder": "เปิดโฟลเดอร์",
  "Show All": "แสดงทั้งหมด",
  "Show Files": "แสดงไฟล์",
  "Show Folder": "แสดงโฟลเดอร์",
  "Open All": "เปิดทั้งหมด",
});

// Two more made-up languages that write one word: in "zz" it sends, and moves a window to a
// workspace (a list of twelve numbered labels, which count as one); in "ww" it shows things.
catalog(root, "zz", "mail", {
  _Send: "_Sadu",
  "Send Email": "Sadu posta",
  "Send _Now": "Sadu nun",
  "Move window left": "Sadu fenestro maldekstren",
  "Move window right": "Sadu fenestro dekstren",
  ...Object.fromEntries(
    Array.from({ length: 12 }, (_, i) => [
      `Move window to workspace ${i + 1}`,
      `Sadu fenestro al spaco ${i + 1}`,
    ]),
  ),
});
// British English writes it sending too: English is read by its own rules, not as a language's own verbs.
catalog(root, "en_GB", "mail", {
  "Send Email": "Sadu posta",
  "Send _Now": "Sadu nun",
  "Move window": "Sadu fenestro",
});
catalog(root, "ww", "viewer", {
  "Show Details": "Sadu detaloj",
  "Show All": "Sadu cxion",
  "Show Files": "Sadu dosierojn",
  "Show Hidden": "Sadu kasxitajn",
  "Show Folder": "Sadu dosierujon",
});

describe("words learnt from catalogs", () => {
  const lexicon = buildLabelLexicon({ roots: [root] });
  const read = (label: string) => readLabel(label, { lexicon, englishOnly: true });

  it("a verb the committing msgids share commits, in a wording no catalog has", () => {
    for (const label of ["Zmaž zprávu", "Pošli podrobnosti", "Zaplať vše"]) {
      const reading = read(label);
      assert.equal(reading.harmless, false, label);
      assert.ok(reading.commits, `${label}: ${JSON.stringify(reading)}`);
    }
  });

  it("the words of harmless labels (two or more) read as harmless, in new combinations", () => {
    for (const label of ["Otevři podrobnosti", "Ukaž dál", "Dál"])
      assert.deepEqual(read(label), { commits: undefined, unknown: [], harmless: true }, label);
  });

  it('a status ("Calculating upgrade") teaches its words nothing of what its object would commit', () => {
    assert.equal(read("Počtu").harmless, true);
  });

  it("a mnemonic inside a word leaves it one word, as the toolkit draws it", () => {
    // "Tang_elo" shows as "Tangelo", whose labels zoom: "tang", which removes, is not in it.
    assert.deepEqual(read("Tang_elo vista"), { commits: undefined, unknown: [], harmless: true });
    assert.equal(read("Tang_elo").harmless, true);
    assert.equal(read("zmaž_soubor").commits?.word, "zmaž", "an underscore between words is still a space");
  });

  it("a word seen only in committing labels is not read as harmless", () => {
    // "fakturu" stands only beside "Zaplať": it is no harmless word, though a catalog holds it.
    const reading = read("Fakturu");
    assert.equal(reading.harmless, false);
    assert.deepEqual(reading.unknown, ["fakturu"]);
  });

  it("an inflection no catalog shows is not read as harmless, nor is a language with no catalog", () => {
    for (const label of ["Zaplaťte", "Zmažte soubor", "Magbayad ngayon"])
      assert.equal(read(label).harmless, false, label);
    // The inflection shares the committing verb's stem: that is why it asks.
    assert.equal(read("Zaplaťte").commits?.word, "zaplaťte");
    assert.equal(read("Magbayad ngayon").commits, undefined, "an unknown language is only unread");
  });

  it("words written without spaces (Thai) are learnt and read one by one, in new combinations", () => {
    for (const label of ["เปิดโฟลเดอร์ทั้งหมด", "แสดงไฟล์ทั้งหมด"])
      assert.deepEqual(read(label), { commits: undefined, unknown: [], harmless: true }, label);
    assert.equal(read("ลบโฟลเดอร์").commits?.word, "ลบ");
  });

  it("a lexicon built without a catalog does not know its words", () => {
    const without = buildLabelLexicon(
      { roots: [root] },
      { keep: (_language, domain) => domain !== "viewer" },
    );
    assert.equal(readLabel("Ukaž podrobnosti", { lexicon, englishOnly: true }).harmless, true);
    assert.deepEqual(readLabel("Ukaž podrobnosti", { lexicon: without, englishOnly: true }).unknown, [
      "podrobnosti",
    ]);
  });
});

describe("words in context", () => {
  const lexicon = buildLabelLexicon({ roots: [root] });
  const read = (label: string, language?: string) =>
    readLabel(label, { lexicon, englishOnly: true, language });

  it("a verb written as two words commits, though each word alone reads as harmless", () => {
    assert.equal(read("Nesta kardan rezult").commits?.word, "nesta kardan");
    for (const label of ["Kardan fil", "Nesta fil", "Kardan nesta"]) {
      // Every word is read, and none commits by the pair, nor as yy's own verb: the pair explains
      // the committing labels each stands in, and each stands in more harmless ones ("Kardan bak").
      assert.deepEqual(read(label).unknown, [], label);
      assert.equal(read(label).harmless, true, label);
      assert.equal(read(label, "yy").harmless, true, label);
    }
  });

  it("a word spelled as an English word is its own language's in a label of that language", () => {
    // "Tang" alone is English, read by the English rules; beside "elenco" it is this language's verb.
    assert.equal(read("Tang elenco").commits?.word, "tang");
    assert.equal(read("Tang").harmless, true);
  });

  it("a command named for its doer does what the doer does", () => {
    for (const label of ["Remover", "Shredder", "Sender of invoices"]) assert.ok(read(label).commits, label);
    for (const label of ["Viewer", "Folder", "Editor"]) assert.equal(read(label).harmless, true, label);
  });

  it("a verb that commits by what it acts on changes only a look with a document's things", () => {
    for (const label of [
      "Format Cells",
      "Clear Direct Formatting",
      "Reset Zoom",
      "Drop Caps",
      "Format Cells…",
    ])
      assert.equal(read(label).harmless, true, label);
    // With anything else, or another committing word between, it commits as before.
    for (const label of [
      "Format Disk",
      "Format",
      "Clear Cells",
      "Clear History",
      "Drop Table",
      "Format and Send Cells",
    ])
      assert.ok(read(label).commits, label);
  });

  it("a participle negated by un is an English word; un before a verb, which undoes it, is not", () => {
    assert.equal(read("Unordered List").harmless, true);
    assert.deepEqual(read("Unpublish").unknown, ["unpublish"]);
  });

  it("an elided article leaves its word to be read", () => {
    assert.equal(read("Mostra l'elenco").harmless, true);
    assert.equal(read("Tang l'elenco").commits?.word, "tang");
  });

  it("in the app's language, a word its own catalogs show committing commits, whatever others write", () => {
    // "sadu" alone explains three of zz's labels committing against three harmless ones (its twelve
    // numbered workspaces one label): zz's verb, though ww's harmless labels outnumber it overall.
    assert.equal(readLabel("Sadu", { lexicon, language: "zz" }).commits?.word, "sadu");
    assert.equal(readLabel("Sadu", { lexicon, language: "zz_ZZ.UTF-8" }).commits?.word, "sadu");
    assert.equal(readLabel("Sadu", { lexicon, language: "ww" }).harmless, true);
    // With no language (a web page), it may be zz's: it asks, and says why.
    assert.equal(
      readLabel("Sadu", { lexicon }).commits?.what,
      "a language's catalogs show it in labels that commit",
    );
    assert.equal(
      readLabel("Sadu", { lexicon, language: "en_GB" }).harmless,
      true,
      "English has no own verbs",
    );
  });

  it("a msgid that names a sort order teaches no committing word", () => {
    assert.deepEqual(read("Ordina per nome"), { commits: undefined, unknown: [], harmless: true });
  });
});

// Labels in context of their whole and of the messages around them, in a root of their own.
const contextRoot = mkdtempSync(join(tmpdir(), "deskhand-label-units-"));
after(() => rmSync(contextRoot, { recursive: true, force: true }));
// "tt": "Yükle" uploads and installs; "Yeniden Yükle", seen whole in two harmless labels, reloads.
catalog(contextRoot, "tt", "files", {
  _Upload: "_Yükle",
  "Upload File": "Dosya Yükle",
  _Install: "_Yükle",
  Reload: "Yeniden Yükle",
  _Reload: "_Yeniden Yükle",
  Redo: "Yeniden Yap",
  Retry: "Yeniden Dene",
  "Open File": "Dosya Aç",
  "Show File": "Dosya Göster",
});
// "vv": "Skriv ut" prints; its particle "ut" zooms out as well.
catalog(contextRoot, "vv", "viewer", {
  _Print: "Skriv _ut",
  "Print File": "Skriv ut fil",
  "Print All": "Skriv ut alla",
  "Write Note": "Skriv notis",
  "Write Text": "Skriv text",
  "Zoom Out": "Zooma ut",
  "Zoom _Out": "Zooma _ut",
  "Zoom In": "Zooma in",
  "Zoom _In": "Zooma _in",
  "Show All": "Visa alla",
  "Show File": "Visa fil",
});
// "ii": "Padam" (off) is a whole harmless label once: a translator's whim to the counts of all, a
// word of its own language's. "Batalkan" (cancel) and "tersembunyi" (of three words) are once too.
// "Perkecil" (zoom out) and "Lenyap" (hide) are too, but messages say more of them.
catalog(contextRoot, "ii", "power", {
  Off: "Padam",
  Cancel: "Batalkan",
  "Show Hidden Files": "Tampilkan berkas tersembunyi",
  Hints: "Saranhaha",
  "Open File": "Buka berkas",
  "Open Folder": "Buka map",
  "Zoom Out": "Perkecil",
  Hide: "Lenyap",
});
// Messages that are no labels (a msgid a label's would start with a capital).
catalog(contextRoot, "ii", "messages", {
  "zoom out of the page": "perkecil halaman",
  "zoom out further": "perkecil lagi",
  "zoom out to fit the window": "perkecil agar muat",
  "hide the panel": "lenyap panel",
  "hide everything": "lenyap semua",
  "delete the file and hide it": "lenyap dan hapus berkas",
});
// "cc": "Cancella" deletes lines and words, and is a whole harmless label twice (a blank page).
catalog(contextRoot, "cc", "editor", {
  "Delete Line": "Cancella riga",
  "Delete Word": "Cancella parola",
  "Delete All": "Cancella tutto",
  Blank: "Cancella",
  "Blank Page": "Cancella",
  "Next Line": "Riga seguente",
  "Next Word": "Parola seguente",
  "Show All": "Mostra tutto",
});
// "ff": "mandar" sends in two labels, and moves windows in three; its messages say it sends.
catalog(contextRoot, "ff", "mail", {
  _Send: "_Mandar",
  "Send Email": "Mandar posta",
  "Window to Next Desktop": "Mandar fenestra avanti",
  "Window to Previous Desktop": "Mandar fenestra retro",
  "Window to Desktop": "Mandar fenestra",
  "Show Email": "Monstrar posta",
  "Show All": "Monstrar toto",
});
catalog(contextRoot, "ff", "messages", {
  "Could not send the message": "Non se pote mandar le message",
  "Sending mail failed": "Mandar posta falliva",
  "The message was sent": "Le message esseva mandate",
});

describe("labels in context: whole labels and messages", () => {
  const lexicon = buildLabelLexicon({ roots: [contextRoot] });
  const read = (label: string, language?: string) =>
    readLabel(label, { lexicon, englishOnly: true, language });

  it("a short label the catalogs show whole as harmless reads so, though a word of it commits", () => {
    assert.equal(read("Yükle").commits?.word, "yükle");
    assert.equal(read("Dosya Yükle").harmless, false);
    assert.equal(read("Yeniden Yükle").harmless, true, JSON.stringify(read("Yeniden Yükle")));
    assert.equal(read("Yeniden _Yükle", "tt").harmless, true);
    assert.equal(read("Dosya Yeniden Yükle").harmless, true, "inside a longer label too");
  });

  it("a unit of two words reads as harmless though one of its words commits beside others", () => {
    // "ut" stands in "Skriv ut" (print) as much as in "Zooma ut": seen whole, "Zooma ut" zooms.
    assert.equal(read("Zooma ut", "vv").harmless, true, JSON.stringify(read("Zooma ut", "vv")));
    assert.equal(read("Zooma ut").harmless, true);
    assert.equal(read("Skriv ut brev", "vv").harmless, false);
  });

  it("a word alone that commits in other labels is no unit, however often it stands alone harmless", () => {
    assert.equal(lexicon.commits.has("cancella"), true);
    assert.equal(read("Cancella").commits?.word, "cancella", JSON.stringify(read("Cancella")));
    assert.equal(read("Cancella", "cc").harmless, false);
  });

  it("a word seen in one harmless label reads as harmless in every language only where three messages say so, none committing", () => {
    // Indonesian "Padam" (off) is Malay's delete: once is a translator's whim, but to Indonesian.
    assert.deepEqual(read("Padam").unknown, ["padam"]);
    assert.equal(read("Padam", "ii").harmless, true, "a short label's word, in its own language");
    assert.deepEqual(read("Padam", "cc").unknown, ["padam"]);
    // A cancel's word is many languages' delete; a word of a long label is not aligned by it.
    assert.deepEqual(read("Batalkan", "ii").unknown, ["batalkan"]);
    assert.deepEqual(read("Tersembunyi", "ii").unknown, ["tersembunyi"]);
    // Seen once, a word vouches for itself, not for another that shares its stem.
    assert.equal(read("Saranhaha", "ii").harmless, true);
    assert.deepEqual(read("Saranhidi", "ii").unknown, ["saranhidi"]);
    assert.equal(read("Perkecil", "ii").harmless, true, JSON.stringify(read("Perkecil", "ii")));
    // One of its messages says delete: it stays unread.
    assert.deepEqual(read("Lenyap", "ii").unknown, ["lenyap"]);
  });

  it("a word its language's messages show sending commits, though harmless labels outnumber its committing ones", () => {
    assert.equal(read("Mandar directo").commits?.word, "mandar", JSON.stringify(read("Mandar directo")));
    assert.equal(lexicon.commits.has("mandar"), true);
    // Without the messages it is ff's own verb only: it commits where the language is ff or unknown.
    const withoutMessages = buildLabelLexicon(
      { roots: [contextRoot] },
      { keep: (_language, domain) => domain !== "messages" },
    );
    assert.equal(withoutMessages.commits.has("mandar"), false);
    assert.ok(readLabel("Mandar directo", { lexicon: withoutMessages, language: "ff" }).commits);
  });
});

describe("a pair that commits as a verb", () => {
  it("explains its labels: its particle is no verb of its own, but a word that commits alone stays one", () => {
    const pairs = mkdtempSync(join(tmpdir(), "deskhand-pairs-"));
    try {
      // "pv": "skrev ut" prints; "ut" (out) stands in more harmless labels than committing ones.
      // "gi bo" removes, and "bo" alone does too, though it stands in more harmless labels.
      catalog(pairs, "pv", "viewer", {
        Print: "Skrev ut",
        "Print File": "Skrev ut fil",
        "Print All": "Skrev ut alt",
        "Write Note": "Skrev notat",
        "Written By": "Skrev av",
        "Zoom Out": "Zoomi ut",
        "Zoom Out Fully": "Zoomi helt ut",
        "Fold Out": "Brett ut",
        "Expand All": "Brett ut alt",
        "Step Out": "Stig ut",
        _Remove: "_Bo",
        "Remove File": "Gi bo fil",
        "Remove All": "Gi bo alt",
        "Show Hint": "Gi hint",
        "Show Tip": "Gi tips",
        Skip: "Bo qua",
        "Skip All": "Bo qua alt",
        "Skip File": "Bo qua fil",
        "Skip Step": "Bo stig",
        "Skip Folder": "Bo mappe",
      });
      const lexicon = buildLabelLexicon({ roots: [pairs] });
      const read = (label: string) => readLabel(label, { lexicon, englishOnly: true, language: "pv" });
      for (const label of ["Zoomi ut", "Brett ut"]) assert.equal(read(label).harmless, true, label);
      assert.equal(lexicon.pairs.has("skrev ut"), true);
      assert.equal(read("Skrev ut").harmless, false);
      assert.equal(read("Bo").commits?.word, "bo", JSON.stringify(read("Bo")));
    } finally {
      rmSync(pairs, { recursive: true, force: true });
    }
  });
});

describe("labels with a context", () => {
  it("are read by their msgid: a long msgctxt before it leaves a label a label", () => {
    const kde = mkdtempSync(join(tmpdir(), "deskhand-context-"));
    try {
      const context = "@action:button collapses every node of the tree view beside it";
      catalog(kde, "kx", "plasma", { Collapse: "Svinout", "Zoom Out": "Oddálit" }, context);
      catalog(kde, "kx", "widgets", { Collapse: "Svinout" }, "@action:inmenu");
      // A context that names a key, not a command: no label.
      catalog(kde, "kx", "keys", { Del: "Fjern" }, "keyboard-key-name");
      const lexicon = buildLabelLexicon({ roots: [kde] });
      assert.equal(readLabel("Svinout", { lexicon, language: "kx" }).harmless, true);
      assert.deepEqual(readLabel("Fjern", { lexicon, language: "kx" }).unknown, ["fjern"]);
      assert.equal(lexicon.leads.has("collapse"), true, "its English leads a harmless label");
    } finally {
      rmSync(kde, { recursive: true, force: true });
    }
  });
});

describe("one language under two codes", () => {
  it("is one language: its two folders' labels are counted together", () => {
    assert.equal(baseLanguage("hye"), "hy");
    assert.equal(baseLanguage("mo"), "ro");
    assert.equal(baseLanguage("pt_BR"), "pt");
    assert.equal(baseLanguage("sr@latin"), "sr");
    const twoCodes = mkdtempSync(join(tmpdir(), "deskhand-two-codes-"));
    try {
      // "Brelk" stands in one harmless label under each code: once alone is a translator's whim,
      // twice in one language is a word of it.
      catalog(twoCodes, "hy", "viewer", { "Show File Details": "Brelk mondo dosto", Open: "Tavo" });
      catalog(twoCodes, "hye", "files", { "Show All Files": "Brelk dosto tavo" });
      const pooled = buildLabelLexicon({ roots: [twoCodes] });
      assert.deepEqual(readLabel("Brelk", { lexicon: pooled, language: "hye" }), {
        commits: undefined,
        unknown: [],
        harmless: true,
      });
      const apart = buildLabelLexicon({ roots: [twoCodes] }, { keep: (language) => language !== "hye" });
      assert.deepEqual(readLabel("Brelk", { lexicon: apart, language: "hy" }).unknown, ["brelk"]);
    } finally {
      rmSync(twoCodes, { recursive: true, force: true });
    }
  });
});

describe("words read by their parts", () => {
  const parts = mkdtempSync(join(tmpdir(), "deskhand-parts-"));
  after(() => rmSync(parts, { recursive: true, force: true }));
  // Vietnamese is written a syllable at a time (made-up syllables here); "xx" is not.
  for (const language of ["vi", "xx"])
    catalog(parts, language, "viewer", {
      "Show Details": "Ba ko ti",
      "Show All": "Ba ko ra",
      "Open File": "Ti mo",
      "Open Folder": "Ra mo",
      View: "Ti",
      Zoom: "Ra",
      "Go Back": "Pesan",
      "Go Forward": "Pesan lu",
      "Next Page": "Tavolina",
      "Previous Page": "Tavolino",
      "Last Page": "Tavolina mo",
      "First Page": "Tavolino mo",
      "Subscription Details": "Ti συνδρομής",
      "Subscription Settings": "Ra συνδρομής",
    });
  const lexicon = buildLabelLexicon({ roots: [parts] });
  const harmlessAlone = (word: string) => lexicon.harmless.has(word);

  it("a language written a syllable at a time reads syllables side by side only as a pair its catalogs hold", () => {
    const vi = (label: string) => readLabel(label, { lexicon, language: "vi" });
    // Each syllable alone is harmless; side by side they are a word no catalog holds (as "thanh
    // toán", pay, is "bar" and "math").
    assert.equal(vi("Ti ra").harmless, false);
    assert.deepEqual(vi("Ti ra").unknown, ["ti ra"]);
    // A known pair, and a syllable beside it alone: a word of one syllable.
    assert.deepEqual(vi("Ba ko ti"), { commits: undefined, unknown: [], harmless: true });
    assert.deepEqual(vi("Ra ba ko"), { commits: undefined, unknown: [], harmless: true });
    // A language written a word at a time reads each word.
    assert.equal(readLabel("Ti ra", { lexicon, language: "xx" }).harmless, true);
  });

  it("a command that names an amount of money pays it, whatever its words", () => {
    for (const [label, amount] of [
      ["Ti €49", "€49"],
      ["Ba ko 49.000 ₫", "49.000 ₫"],
      ["Ti 20 PLN", "20 PLN"],
    ] as const)
      assert.deepEqual(readLabel(label, { lexicon, language: "xx" }).commits, {
        word: amount,
        what: "money leaves (it names an amount of money)",
        amount: true,
      });
    // A currency's symbol of letters, as the app's language writes it (CLDR's, through Intl).
    assert.equal(readLabel("Ti RM50", { lexicon, language: "ms" }).commits?.word, "RM50");
    assert.equal(readLabel("Ti 20 lei", { lexicon, language: "ro" }).commits?.word, "20 lei");
    // One letter is no currency here: a key's or a page's name ("F5", "P 2").
    for (const label of ["Ti F5", "Ti P 2"])
      assert.equal(readLabel(label, { lexicon, language: "en" }).commits, undefined, label);
    // A currency's code that is an English word names no amount ("ALL", Albania's lek); nor does a percentage.
    for (const label of ["Ti ALL 3", "Ti 150%"])
      assert.equal(readLabel(label, { lexicon, language: "xx" }).commits, undefined, label);
  });

  it("a word is read by its stem where a harmless word inflects it, not where one is the stem itself", () => {
    const xx = (label: string) => readLabel(label, { lexicon, language: "xx" });
    assert.equal(xx("Tavolinu").harmless, true, "tavolina and tavolino share its stem");
    // "pesanan" (order) derives from "pesan" (message): the harmless word is its stem, whole.
    assert.deepEqual(xx("Pesanan").unknown, ["pesanan"]);
    // An inflection of a word whose meaning commits reads as that word: "subskrypcję" (subskrypcja),
    // and so does one harmless labels hold ("συνδρομής", of συνδρομή: a subscription's details).
    assert.deepEqual(xx("Subskrypcję").commits, { word: "subskrypcję", what: "money leaves" });
    assert.equal(harmlessAlone("συνδρομής"), true);
    assert.deepEqual(xx("Ba ko συνδρομής").commits, { word: "συνδρομής", what: "money leaves" });
  });
});

describe("an English label's words", () => {
  it("a word no English list holds is not read by another language's stem", () => {
    const stems = mkdtempSync(join(tmpdir(), "deskhand-english-stems-"));
    try {
      catalog(stems, "qq", "player", {
        "Autoplay Videos": "Autoplay videa",
        "Autoplay Music": "Autoplay hudba",
        "Show Videos": "Ukaz videa",
      });
      const lexicon = buildLabelLexicon({ roots: [stems] });
      // "Autopay" shares the stem of qq's "autoplay": in an English label it is read by nothing.
      assert.deepEqual(readLabel("Autopay my bills", { lexicon }).unknown, ["autopay"]);
      assert.deepEqual(readLabel("Autopay", { lexicon, language: "en" }).unknown, ["autopay"]);
      // English words joined are read as them, unless one commits ("submitform").
      assert.equal(readLabel("togglebutton", { lexicon }).harmless, true);
      assert.deepEqual(readLabel("submitform", { lexicon }).unknown, ["submitform"]);
      // In an app in qq, the word is qq's, read by its stems.
      assert.equal(readLabel("Autopay", { lexicon, language: "qq" }).harmless, true);
    } finally {
      rmSync(stems, { recursive: true, force: true });
    }
  });
});

describe("letters as a person reads them", () => {
  it("letters joined by punctuation, or written in other forms, read as the committing word", () => {
    for (const label of [
      "P.a.y",
      "D-E-L-E-T-E",
      "S·e·n·d",
      "Pay-now",
      "pay_now",
      "ＰＡＹ ＮＯＷ",
      "ᴘᴀʏ ɴᴏᴡ",
      "𝐃𝐞𝐥𝐞𝐭𝐞",
      "🅿🅰🆈",
      "Ⓢⓔⓝⓓ",
      "Рау now",
    ]) {
      const reading = readLabel(label);
      assert.equal(reading.harmless, false, label);
      assert.match(
        reading.commits?.word ?? "",
        /^(pay|delete|send)/i,
        `${label}: ${JSON.stringify(reading)}`,
      );
    }
  });

  it("another language's own word is no look-alike of a phrase in another script", () => {
    // Italian "Vai" (go) is spelt like Greek "Ναι" (yes) by skeleton; it says "go up".
    assert.equal(matchLabel("Vai in su").commits, undefined);
    assert.equal(matchLabel("Oк").commits, "ok", "a Cyrillic к inside OK still matches");
  });
});

describe("the machine's catalogs", () => {
  const installed = listCatalogs(["/usr/share/locale"]).length > 0;

  it("a committing verb beside words the gate knows is not harmless, in wordings no catalog has", (t) => {
    if (!installed) return t.skip("no catalogs on this machine");
    for (const label of [
      "Zaplaťte teď",
      "Überweisung jetzt ausführen",
      "Jetzt überweisen",
      "Betaal nu",
      "Payez maintenant",
      "Оплатите сейчас",
    ])
      assert.equal(readLabel(label).harmless, false, label);
    // An English verb outside the chosen senses asks where no catalog shows it leading a harmless
    // label: with what it acts on, or alone where it is more often a verb than a noun.
    for (const label of [
      "Settle invoice",
      "Disburse the funds",
      "Wire the money",
      "Tell a friend",
      "Settle",
      "Vote",
      "Claim",
    ]) {
      const reading = readLabel(label);
      assert.equal(reading.harmless, false, label);
      assert.ok(reading.commits ?? reading.unreadVerb, `${label}: ${JSON.stringify(reading)}`);
    }
    // Alone, a word more often a noun is read as one ("Twin", "Flag"), and catalogs' own leads pass.
    for (const label of ["Twin", "Flag", "Show details", "Open file", "Address Book", "Go back", "Read more"])
      assert.equal(readLabel(label).harmless, true, label);
  });

  it("ordinary labels read as harmless", (t) => {
    if (!installed) return t.skip("no catalogs on this machine");
    for (const label of [
      "Next",
      "Zoom In",
      "Einstellungen",
      "Suivant",
      "Afficher les détails",
      "設定",
      "Hello",
    ])
      assert.equal(readLabel(label).harmless, true, `${label}: ${JSON.stringify(readLabel(label))}`);
  });
});
