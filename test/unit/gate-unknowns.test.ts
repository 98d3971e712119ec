// The gate where its word lists end: committing verbs in many languages come from catalogs (the
// shipped table and this machine's), a command labelled in a language deskhand cannot read counts as
// committing, every label an element shows is judged, a chooser's Open and "Save As" commit nothing,
// accelerators of every form are read, and the journal keeps a secret out in every form it can take.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { bindingChords, chordText } from "../../src/platform/keys.js";
import type { RawNode } from "../../src/platform/types.js";
import { AuditJournal } from "../../src/safety/audit.js";
import { commitReason, type TargetFacts, windowQuestions } from "../../src/safety/classify.js";
import { systemVocabulary } from "../../src/safety/committing-words.js";
import { childTexts } from "../../src/tools/hands/facts.js";

const button = (name: string, extra: Partial<TargetFacts> = {}): TargetFacts => ({
  role: "push button",
  name,
  window: { role: "frame", states: [] },
  ...extra,
});
const modalDialog = (extra: Partial<NonNullable<TargetFacts["window"]>> = {}) => ({
  role: "dialog",
  states: ["modal"],
  ...extra,
});

describe("committing words in many languages, from data", () => {
  it("the shipped table reads pay, send and delete where the catalogs give the word another sense", () => {
    const inApp = (name: string, language: string) =>
      commitReason(button(name, { window: { role: "frame", language } }));
    // Hungarian "Fizetés" is salary in the catalogs; Thai จ่าย discharges a battery there.
    for (const [label, language] of [
      ["Fizetés", "hu"],
      ["Rendelés", "hu"],
      ["จ่ายเงิน", "th"],
      ["Публікація", "uk"],
      ["Δωρεά", "el"],
      ["भुगतान करें", "hi"],
      ["Bayar sekarang", "id"],
    ] as const)
      assert.ok(inApp(label, language), `${language} ${label}`);
    // Words left out of it for another language's or another sense's labels: Hebrew מסך שלם (full
    // screen) is no שלם (pay), Serbian "Beli" (white) no Malay "beli".
    for (const [label, language] of [
      ["מסך שלם", "he"],
      ["Beli", "sr"],
    ] as const)
      assert.equal(inApp(label, language), undefined, `${language} ${label}`);
  });

  it("knows sending, paying and emptying in European and Asian languages and scripts", () => {
    for (const label of [
      "Odeslat",
      "Zaplatit",
      "Vysypat koš",
      "Envoyer",
      "Payer maintenant",
      "Vider la corbeille",
      "Enviar ahora",
      "Invia",
      "Wyślij",
      "Zapłać",
      "Gönder",
      "Maksa nyt",
      "Lähetä",
      "Отправить",
      "Оплатить",
      "Очистить корзину",
      "立即发送",
      "付款",
      "送信",
      "ごみ箱を空にする",
      "보내기",
      "ส่ง",
      "ارسال",
      "भेजें",
      "Gửi",
      "Kirim",
      "Bayar",
    ]) {
      const reason = commitReason(button(label));
      assert.ok(reason && !/as harmless/.test(reason), `${label}: ${reason}`);
    }
  });

  it("says which languages it covers", () => {
    const vocabulary = systemVocabulary();
    for (const language of ["de", "fr", "cs", "ja", "zh_CN", "ru", "th", "ar", "hi"])
      assert.ok(vocabulary.languages.includes(language), language);
    assert.ok(vocabulary.languages.length >= 100, `${vocabulary.languages.length} languages`);
  });

  it("counts a command in a language it cannot read as committing, and says why", () => {
    for (const label of ["Magbayad", "Ipadala na", "Frobnicate", "ᏗᏓᏅᏍᏗ"]) {
      const reason = commitReason(button(label)) ?? "";
      assert.match(reason, /cannot read .* as harmless/, label);
    }
    // Structure still decides where it can: a cancel word, an ellipsis.
    assert.equal(commitReason(button("Magbayad…")), undefined);
    // A selection shows data, not a command: a file name in a list is no command.
    assert.equal(commitReason({ role: "list item", name: "Kiwi-4711.txt" }), undefined);
    assert.equal(commitReason({ role: "table cell", name: "Magbayad" }), undefined);
  });

  it("takes no catalog's translation that is a common English label: another language's OK is no English Normal", () => {
    for (const label of ["Normal", "Normal icons", "File", "Bold"])
      assert.equal(commitReason(button(label)), undefined, label);
  });

  it("reads a label in its app's language: one no catalog here is in reads only as English", () => {
    // "Siguiente" and "Weiter" read as harmless Spanish and German words; in an app that shows another
    // language, one this machine has no catalog of ("qaa", reserved for local use), they are unread.
    const inApp = (name: string, language: string | undefined) =>
      commitReason(button(name, { window: { role: "frame", ...(language ? { language } : {}) } }));
    for (const [label, own] of [
      ["Siguiente", "es"],
      ["Weiter", "de_AT"],
      ["Mostra elenco", "it"],
    ] as const) {
      assert.equal(inApp(label, undefined), undefined, label);
      assert.equal(inApp(label, own), undefined, label);
      assert.match(
        inApp(label, "qaa_ZZ") ?? "",
        /"qaa_ZZ", a language no catalog on this machine is in/,
        label,
      );
    }
    // In an app of another language, a word its own labels never hold is read by none of them:
    // "elenco" lists in Italian, and no Portuguese label has it; Malay "beli" buys, and is white in
    // Serbian; Malay "tempahan" (booking) only starts as "tempat" (place) does, and the shipped
    // table reads it as money leaving.
    assert.match(inApp("Mostra elenco", "pt_BR") ?? "", /cannot read "elenco" as harmless/);
    assert.match(inApp("Beli sekarang!", "ms") ?? "", /cannot read "beli" as harmless/);
    assert.match(inApp("Buat tempahan", "ms_MY") ?? "", /"tempahan": money leaves/);
    assert.equal(inApp("Beli", "sr@latin"), undefined);
    // English words (untranslated labels) still read; a committing word still commits.
    for (const label of ["Settings", "Next page", "Don't ask again"])
      assert.equal(inApp(label, "qaa_ZZ"), undefined, label);
    assert.match(inApp("Pay now", "qaa_ZZ") ?? "", /pay/i);
    // English as labels write it, not a dictionary's every word ("quoth"; Danish "Del", delete, is no "del").
    assert.match(inApp("Quoth", "qaa_ZZ") ?? "", /qaa_ZZ/);
    assert.ok(inApp("Del", "qaa_ZZ"));
  });

  it("lets harmless labels in covered languages through", () => {
    for (const label of [
      "Einstellungen",
      "Hilfe",
      "Öffnen",
      "Paramètres",
      "Настройки",
      "設定",
      "Alpha",
      "Next page",
    ])
      assert.equal(commitReason(button(label)), undefined, label);
  });
});

describe("every label, and what commits nothing", () => {
  it("judges the text an element shows besides its name; the strictest wins", () => {
    assert.match(commitReason(button("Show details", { shown: ["Buy now"] })) ?? "", /Buy now/);
    assert.match(commitReason(button("Cancel", { shown: ["Delete"] })) ?? "", /Delete/);
    assert.equal(commitReason(button("Show details", { shown: ["Show details"] })), undefined);
  });

  it("a menu title shows its own label, never the items of the menu it opens", () => {
    const node = (role: string, name: string, children: RawNode[] = []) =>
      ({ handle: name, role, name, children, unread: [] }) as unknown as RawNode;
    const items = [node("menu item", "Save/Restore Session"), node("check menu item", "Delete on exit")];
    for (const title of [
      node("menu item", "File", items), // Qt: the items hang under the title
      node("menu item", "File", [node("menu", "File", items)]), // GTK: under a menu
      node("push button", "Tools", [node("label", "Tools"), node("popup menu", "", items)]),
    ]) {
      const shown = childTexts(title);
      assert.ok(!shown.some((t) => /Session|Delete/.test(t)), shown.join(", "));
      assert.equal(
        commitReason({ role: title.role, name: title.name, shown, window: { role: "frame" } }),
        undefined,
      );
    }
    assert.deepEqual(childTexts(node("push button", "x", [node("label", "Buy now")])), ["Buy now"]);
  });

  it("Save As, Save a Copy and Export As open a chooser, whatever their punctuation", () => {
    for (const label of ["Save As", "Save a Copy", "Export As", "Save _As", "Speichern unter"])
      assert.equal(
        commitReason({ role: "menu item", name: label, window: { role: "frame" } }),
        undefined,
        label,
      );
  });

  it("a chooser's Open or Select only names a file; elsewhere the modal default still commits", () => {
    const open = (chooser: boolean | undefined) =>
      commitReason(button("Open", { states: ["is default"], window: modalDialog({ chooser }) }));
    assert.equal(open(true), undefined);
    assert.ok(open(false), "a modal dialog's default that is no chooser");
    assert.deepEqual(windowQuestions(button("Select", { states: ["is default"], window: modalDialog() })), [
      "chooser",
      "titled",
    ]);
    assert.equal(
      commitReason(button("Select", { states: ["is default"], window: modalDialog({ chooser: true }) })),
      undefined,
    );
    assert.ok(commitReason(button("Save", { window: modalDialog({ chooser: true }) })), "Save still saves");
  });

  it("a terminal's paste warning: its Paste runs what is pasted", () => {
    const paste = (terminalApp: boolean | undefined) =>
      commitReason(button("Paste", { window: modalDialog({ terminalApp }) }));
    assert.match(paste(true) ?? "", /paste warning/);
    assert.match(paste(undefined) ?? "", /could not be read/);
    assert.equal(paste(false), undefined);
  });

  it("what the input runs, read from the target, commits", () => {
    assert.match(commitReason({ role: "terminal", runs: "sends Enter to a terminal" }) ?? "", /terminal/);
  });
});

describe("accelerators of every form", () => {
  it("reads Qt's and GTK's spellings, bare F-keys and Delete, keypad keys", () => {
    const read = (binding: string) =>
      bindingChords(binding).map((b) => `${chordText(b.chord)}${b.bare ? " bare" : ""}`);
    assert.deepEqual(read("Ctrl+Shift+Del"), ["ctrl+shift+Delete"]);
    assert.deepEqual(read("Del"), ["Delete"], "a bare Delete is an accelerator, not a mnemonic");
    assert.deepEqual(read("F8"), ["F8"]);
    assert.deepEqual(read("<Primary>Delete"), ["ctrl+Delete"]);
    assert.deepEqual(read("<Control>KP_Enter"), ["ctrl+Enter"]);
    assert.deepEqual(read("<Control>plus"), ["ctrl++"]);
    assert.deepEqual(read("Ctrl++"), ["ctrl++"]);
    assert.deepEqual(read("<Alt>Page_Up"), ["alt+PageUp"]);
    assert.deepEqual(read("<Control><Shift>BackSpace"), ["ctrl+shift+Backspace"]);
    assert.deepEqual(read("s;<Alt>f:s;<Control>s"), ["s bare", "ctrl+s"]);
  });
});

describe("the journal keeps no secret in any form", () => {
  const dir = mkdtempSync(join(tmpdir(), "deskhand-secrets-forms-"));
  const base = {
    time: "t",
    tool: "type_text",
    level: "L2" as const,
    reversible: true,
    decision: "done" as const,
    target: { role: "password text", name: "Password" },
  };
  const journal = (name: string) => {
    const path = join(dir, `${name}.jsonl`);
    return { journal: new AuditJournal(path), text: () => readFileSync(path, "utf8") };
  };

  it("matches a secret in NFC, NFD, NFKC, full-width and any case", () => {
    const secret = "Crème42";
    for (const [i, form] of [
      "Crème42",
      "Cre\u0300me42",
      "ＣＲＥ\u0300ＭＥ４２",
      "crÈme42",
      "CRÈME42",
    ].entries()) {
      const { journal: j, text } = journal(`form-${i}`);
      j.record({ ...base, intent: `type ${form} into it` }, [{ text: secret, password: true }]);
      assert.doesNotMatch(text(), /cr[eè]/i, `form ${i}: ${text()}`);
      assert.match(text(), /\[typed text\]/);
    }
  });

  it("keeps what was typed out of every later line of the session, split or not", () => {
    const { journal: j, text } = journal("session");
    const line = (intent: string, secrets: { text: string; password?: boolean }[], place?: string) =>
      j.record(
        { ...base, intent, session: "s1" },
        secrets,
        place ? { place, text: secrets[0]!.text, password: true } : undefined,
      );
    line("type the first part", [{ text: "hu", password: true }], "ref-1");
    line("type the second part", [{ text: "nt", password: true }], "ref-1");
    line("type the rest", [{ text: "er2!", password: true }], "ref-1");
    line("check that hunter2! was accepted and hunt worked", []);
    j.record({ ...base, intent: "log in with Kx7secret", session: "s1" }, [
      { text: "Kx7secret", password: true },
    ]);
    j.record({ ...base, intent: "did Kx7secret work?", session: "s1" }, []);
    const all = text();
    assert.doesNotMatch(all, /hunter|hunt|nter|Kx7secret/i, all);
    assert.match(all, /"role":"password text"/, "the role stays readable");
    // A password is kept out of every session's lines; a plain value is kept out of none.
    j.record({ ...base, intent: "Kx7secret in another session", session: "s2" }, []);
    assert.match(text(), /\[typed text\] in another session/);
    j.record({ ...base, intent: "type the monthly report", session: "s2" }, [{ text: "monthly report" }]);
    assert.match(text(), /type the monthly report/);
  });

  it("a one-character value shreds nothing: spaces and words stay", () => {
    const { journal: j, text } = journal("short");
    j.record({ ...base, intent: "press space to tick a box" }, [{ text: " " }]);
    j.record({ ...base, intent: "type a into the a field" }, [{ text: "a" }]);
    j.record({ ...base, intent: "type b into the b field" }, [{ text: "b", password: true }]);
    assert.match(text(), /press space to tick a box/);
    // Typed where no password goes, one character hides nothing by masking; a password's key is masked.
    assert.match(text(), /type a into the a field/);
    assert.match(text(), /type \[typed text\] into the \[typed text\] field/);
    assert.match(text(), /"role":"password text"/);
  });

  it("a password's pieces go wherever they stand, however it was split", () => {
    const { journal: j, text } = journal("pieces");
    j.record({ ...base, intent: "the middle is ub4do, the end dor&3" }, [
      { text: "Tr0ub4dor&3", password: true },
    ]);
    assert.doesNotMatch(text(), /ub4d|dor&3/i, text());
  });
});

describe("the vocabulary's cache", () => {
  // In a process of its own: the vocabulary is built once per process. It prints what a judge sees.
  const judge = (cacheDir: string) => {
    const script = `
      import { systemVocabulary, matchLabel, unknownWords } from "./src/safety/committing-words.ts";
      const v = systemVocabulary();
      const labels = ["Odeslat", "Zaplatit fakturu", "Magbayad", "_Löschen", "Ｏｋ", "Frobnicate", "発送", "Save As…"];
      console.log(JSON.stringify({
        phrases: v.phrases.length, languages: v.languages, words: v.words.size,
        judged: labels.map((l) => [matchLabel(l), unknownWords(l)]),
      }));`;
    const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      encoding: "utf8",
      env: { ...process.env, DESKHAND_CACHE_DIR: cacheDir },
    });
    assert.equal(run.status, 0, run.stderr);
    return JSON.parse(run.stdout);
  };

  it("gives the same phrases, words and judgements from a warm cache as from a cold one", () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "deskhand-vocabulary-"));
    // Files an older deskhand left: the newest two stay beside the new one, the rest go.
    for (let i = 1; i <= 4; i++) {
      const old = join(cacheDir, `phrases-${String(i).padStart(16, "0")}.json`);
      writeFileSync(old, "[]");
      utimesSync(old, 1_000_000 + i, 1_000_000 + i);
    }
    const cold = judge(cacheDir);
    assert.deepEqual(
      readdirSync(cacheDir)
        .filter((f) => /^phrases-0+\d\.json$/.test(f))
        .sort(),
      ["phrases-0000000000000003.json", "phrases-0000000000000004.json"],
    );
    for (const f of readdirSync(cacheDir)) if (/^phrases-0+\d\.json$/.test(f)) rmSync(join(cacheDir, f));
    const written = readdirSync(cacheDir);
    assert.ok(
      written.some((f) => /^phrases-[0-9a-f]{16}\.json$/.test(f)),
      written.join(", "),
    );
    assert.ok(
      written.some((f) => /^translations-[0-9a-f]{16}\.json$/.test(f)),
      written.join(", "),
    );
    assert.ok(cold.phrases > 10_000, `${cold.phrases} phrases`);
    assert.deepEqual(judge(cacheDir), cold);
    // A damaged cache is read again from the sources, not trusted.
    for (const file of written) writeFileSync(join(cacheDir, file), "{not json");
    assert.deepEqual(judge(cacheDir), cold);
  });
});
