// The gate's rules without a desktop: what commits in any language and behind any disguise, what
// commits nothing, which chords are dangerous, key bindings, and a journal that keeps no secret.
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { bindingChords, chordText, parseChord } from "../../src/platform/keys.js";
import { readInstalledTranslations } from "../../src/platform/translations.js";
import { AuditJournal, AuditUnwritable, type Secret } from "../../src/safety/audit.js";
import { closesWindow, dangerousChord } from "../../src/safety/chords.js";
import {
  acknowledgedMessage,
  commitReason,
  needsInputCheck,
  type TargetFacts,
  wheelChangesValue,
  windowQuestions,
} from "../../src/safety/classify.js";
import {
  buildVocabulary,
  endsInEllipsis,
  labelIs,
  matchLabel,
  normalizeLabel,
} from "../../src/safety/committing-words.js";
import { catalogPhrase, mayBePhrase } from "../../src/safety/phrases.js";
import { loadPolicy } from "../../src/safety/policy.js";

const button = (name: string, extra: Partial<TargetFacts> = {}): TargetFacts => ({
  role: "push button",
  name,
  ...extra,
});
const dialog = (extra: Partial<NonNullable<TargetFacts["window"]>> = {}) => ({
  role: "dialog",
  states: [],
  ...extra,
});

describe("what commits", () => {
  it("reads labels through disguises: compatibility forms, mnemonics, invisibles, look-alikes", () => {
    for (const label of [
      "ＯＫ",
      "Oк",
      "Sa\u200bve",
      "Sa\u00adve",
      "_Save",
      "&Delete",
      "De&&lete it",
      "SAVE",
      "Send now",
    ])
      assert.ok(commitReason(button(label)), `${JSON.stringify(label)} commits`);
    assert.equal(normalizeLabel("削除(_D)"), "削除");
    assert.equal(normalizeLabel("いいえ(N)"), "いいえ");
    assert.equal(normalizeLabel("Tom && Jerry"), "Tom & Jerry");
    assert.equal(normalizeLabel("_Löschen Löschen"), "Löschen", "GTK 4.8 names a button twice");
  });

  it("reads letters spaced apart and words run together as the words they spell", () => {
    for (const name of ["P a y", "P a y  n o w", "S E N D", "PayNow", "deleteAccount", "D e l e t e  all"])
      assert.ok(commitReason(button(name, { window: { role: "frame" } })), name);
    assert.equal(commitReason(button("A B C", { window: { role: "frame" } })), undefined, "spells nothing");
  });

  it("a command labelled in symbols only says nothing it can read: it commits; keypad keys do not", () => {
    for (const name of ["✓", "⏻", "$", "💳", "→→", "★ ★"])
      assert.match(commitReason(button(name, { window: { role: "frame" } })) ?? "", /symbols only/, name);
    for (const name of ["+", "−", "×", "÷", "=", "%", "(", ")", "√", "±", "7", "<", ">"])
      assert.equal(commitReason(button(name, { window: { role: "frame" } })), undefined, name);
    assert.equal(
      commitReason({
        role: "push button",
        name: "☰",
        description: "Open the menu",
        window: { role: "frame" },
      }),
      undefined,
      "a description in words says what it does",
    );
    assert.equal(commitReason({ role: "list item", name: "★" }), undefined, "a list item shows data");
  });

  it("knows the words beyond the old English list, and only whole words", () => {
    for (const label of ["Move to Trash", "Proceed", "Continue", "Approve", "Revoke access", "Empty Trash"])
      assert.ok(commitReason(button(label)), label);
    for (const label of ["Okapi", "Bookmark", "Saved searches", "Alpha", "Sign in"])
      assert.equal(matchLabel(label).commits, undefined, label);
    for (const label of ["Bookmark", "Saved searches", "Alpha", "Sign in"])
      assert.equal(commitReason(button(label)), undefined, label);
  });

  it("takes other languages from catalogs", () => {
    const vocabulary = buildVocabulary(
      [
        ["_Delete", "_Löschen"],
        ["_Delete", "削除(_D)"],
        ["_Delete", "_Supprimer"],
        ["_OK", "_Aceptar"],
        ["_OK", "确定(_O)"],
        ["_Cancel", "_Abbrechen"],
      ].map(([id, text]) => {
        const found = catalogPhrase(id!, text!);
        assert.ok(found, `${id} → ${text}`);
        return { kind: found.kind, text: found.text };
      }),
    );
    for (const label of ["Löschen", "削除(D)", "Supprimer", "Aceptar", "确定"])
      assert.ok(matchLabel(label, vocabulary).commits, label);
    assert.equal(matchLabel("Abbrechen", vocabulary).commits, undefined);
    assert.ok(matchLabel("Abbrechen", vocabulary).cancels);
  });

  it("in an app whose language is known, another language's phrase does not decide its labels", () => {
    // Icelandic "Vista" saves; Italian "Vista" is a view. Zulu "Cima" deletes; Portuguese "Cima" is up.
    const vocabulary = buildVocabulary([
      { kind: "commits", text: "_Vista", language: "is" },
      { kind: "commits", text: "_Cima", language: "zu" },
      { kind: "commits", text: "_Salvar", language: "pt_BR" },
      { kind: "cancels", text: "_Hætta við", language: "is" },
    ]);
    assert.equal(matchLabel("Vista", vocabulary, "it_IT.UTF-8").commits, undefined);
    assert.equal(matchLabel("Para cima", vocabulary, "pt").commits, undefined);
    assert.equal(matchLabel("Vista", vocabulary, "is_IS").commits, "Vista", "its own language's");
    assert.equal(matchLabel("Salvar", vocabulary, "pt_PT").commits, "Salvar", "by its base language");
    assert.equal(matchLabel("Vista", vocabulary).commits, "Vista", "no language known (a web page)");
    assert.equal(matchLabel("Save now", vocabulary, "it").commits, "save", "English is read in every app");
    // The C locale: the app may load its own translations (Qt's by LANGUAGE), so every language reads.
    assert.equal(matchLabel("Vista", vocabulary, "en").commits, "Vista");
    // What commits nothing is read in every language: the filter only ever takes an alarm away.
    assert.ok(matchLabel("Hætta við", vocabulary, "de").cancels);
    assert.equal(labelIs("Hætta við", "cancels", vocabulary), true);
  });

  it("reads a text as most of its language's catalogs say, where they say it five times as often", () => {
    // Finnish "Sulje" is Close in 29 catalogs and Openbox's Exit; German "Beenden" is Quit in many.
    const close = (catalogs: number) => ({
      kind: "closes" as const,
      text: "_Sulje",
      language: "fi",
      catalogs,
    });
    const exit = { kind: "commits" as const, text: "Sulje", language: "fi", english: "exit" };
    const dialogClose = buildVocabulary([close(29), exit]);
    assert.equal(matchLabel("Sulje", dialogClose, "fi").commits, undefined);
    assert.ok(matchLabel("Sulje", dialogClose, "fi").closes);
    // Not by a bare majority: a text two meanings share as often as that still commits.
    const shared = buildVocabulary([close(4), exit]);
    assert.equal(matchLabel("Sulje", shared, "fi").commits, "Sulje");
    // Nor by another language's catalogs: Estonian's Close outvotes nothing in Finnish.
    const apart = buildVocabulary([{ ...close(29), language: "et" }, exit]);
    assert.equal(matchLabel("Sulje", apart, "fi").commits, "Sulje");
  });

  it("an answer is a whole button: inside a longer run of Chinese or Japanese it is another word's part", () => {
    // One zh catalog's OK is "一般", which is "general" in "一般大小" (normal size).
    const vocabulary = buildVocabulary([
      { kind: "commits", text: "一般", language: "zh_CN", english: "ok" },
      { kind: "commits", text: "续行", language: "ja", english: "continue" },
      { kind: "commits", text: "续行", language: "ja", english: "resume" },
      { kind: "commits", text: "删除", language: "zh_CN", english: "delete" },
    ]);
    assert.equal(matchLabel("一般", vocabulary, "zh_CN").commits, "一般", "alone, it answers");
    assert.equal(matchLabel("一般大小", vocabulary, "zh_CN").commits, undefined);
    assert.equal(matchLabel("续行处理", vocabulary, "ja").commits, "续行", "a verb too: found anywhere");
    assert.equal(matchLabel("全部删除", vocabulary, "zh_CN").commits, "删除");
  });

  it("a phrase of Thai, Lao, Khmer or Burmese matches whole words, as ICU finds them", () => {
    const vocabulary = buildVocabulary([
      { kind: "closes", text: "ปิด", language: "th", english: "close" },
      { kind: "commits", text: "ส่ง", language: "th", english: "send" },
      { kind: "commits", text: "ชำระเงิน", language: "th", english: "pay" },
    ]);
    // เปิด (open) holds the letters of ปิด (close); ปิด หน้าต่าง closes a window.
    for (const label of ["เปิดแท็บใหม่", "เปิดไฟล์"])
      assert.deepEqual(matchLabel(label, vocabulary, "th"), {}, label);
    assert.equal(matchLabel("ปิดหน้าต่าง", vocabulary, "th").closes, "ปิด");
    assert.equal(matchLabel("ส่งเลย", vocabulary, "th").commits, "ส่ง", "a word of a longer run");
    // NFKC splits the vowel AM ("ำ"); it is kept whole, or ICU finds no word in ชำระ.
    assert.equal(matchLabel("ชำระเงินตอนนี้", vocabulary, "th").commits, "ชำระเงิน");
  });

  it("reads every catalog installed on the system", (t) => {
    const read = readInstalledTranslations(
      { roots: ["/usr/share/locale"] },
      "test",
      mayBePhrase,
      (id, text) => (id === "_Delete" ? catalogPhrase(id, text)?.text : undefined),
    );
    if (read.catalogs === 0) return t.skip("no catalogs on this machine");
    const delete_ = read.picked.map((p) => p.value);
    assert.ok(delete_.includes("Löschen"), "German");
    assert.ok(
      delete_.some((d) => d.startsWith("削除")),
      "Japanese",
    );
    for (const label of ["Löschen", "削除(D)", "Supprimer"]) assert.ok(commitReason(button(label)), label);
  });

  it("counts other pressable roles, and what cannot be read", () => {
    assert.ok(commitReason({ role: "check box", name: "Delete my account", window: { role: "alert" } }));
    assert.ok(commitReason({ role: "list item", name: "Löschen" }));
    assert.ok(commitReason({ role: "icon", name: "Move to Trash" }));
    assert.equal(commitReason({ role: "label", name: "Save" }), undefined);
    assert.match(commitReason({ unreadable: "the hit-test timed out" }) ?? "", /cannot tell.*timed out/);
    assert.ok(commitReason(button("", { window: dialog() })), "an unnamed button in a dialog");
    // A command nothing names cannot be read as harmless: a toolbar icon with no name nor tooltip asks.
    assert.match(
      commitReason(button("", { window: { role: "frame" } })) ?? "",
      /unnamed push button.*cannot be read/,
    );
    assert.equal(commitReason(button("", { description: "Refresh", window: { role: "frame" } })), undefined);
  });

  it("judges by what the press does: alerts, default buttons of modal dialogs", () => {
    assert.ok(commitReason(button("Frobnicate", { window: { role: "alert" } })), "any answer to an alert");
    assert.equal(commitReason(button("Cancel", { window: { role: "alert" } })), undefined);
    const defaultModal = button("Frobnicate", {
      states: ["is default"],
      window: dialog({ states: ["modal"] }),
    });
    assert.ok(commitReason(defaultModal));
    const defaultModeless = button("Find", { states: ["is default"], window: dialog({ asks: false }) });
    assert.equal(commitReason(defaultModeless), undefined, "a find dialog's default: it has a field to fill");
    const question = button("Move", { states: ["is default"], window: dialog({ asks: true }) });
    assert.match(commitReason(question) ?? "", /default button of a dialog that asks a question/);
    const unread = button("Move", { states: ["is default"], window: dialog() });
    assert.match(commitReason(unread) ?? "", /could not be read/, "fields not read: it may only ask");
    assert.deepEqual(
      windowQuestions(unread),
      ["asks", "titled"],
      "asked of the window only where it decides",
    );
  });
});

describe("a question's answers", () => {
  it("an edit that answers a question whose message commits commits; its other answers are judged by their words", () => {
    const under = (name: string, messageCommits: boolean) =>
      button(name, { window: dialog({ messageCommits }) });
    assert.match(commitReason(under("Replace All", true)) ?? "", /answers a message/);
    assert.equal(commitReason(under("Replace All", false)), undefined, "an edit, under a plain message");
    for (const name of ["_Cancel", "Close", "Keep"])
      assert.ok(!/answers a message/.test(commitReason(under(name, true)) ?? ""), name);
    assert.equal(acknowledgedMessage(["Replace all 48 occurrences? This cannot be undone."], "en"), false);
  });
});

describe("what commits nothing", () => {
  it("a message's only button, OK, acknowledges it where its text commits nothing", () => {
    const ok = (window: Partial<NonNullable<TargetFacts["window"]>>) =>
      button("OK", { window: dialog(window) });
    assert.equal(commitReason(ok({ acknowledges: true })), undefined, "an information box's OK");
    assert.ok(
      commitReason(ok({ acknowledges: false })),
      "a choice, a field, a second button or a committing text",
    );
    assert.deepEqual(
      windowQuestions(ok({})),
      ["acknowledges", "titled"],
      "asked of the window only where it decides",
    );
    assert.ok(
      commitReason(ok({ role: "alert", acknowledges: true })) === undefined,
      "an alert's lone OK too",
    );
    // Only an acknowledging word: a lone "Delete" says what it does.
    assert.ok(commitReason(button("Delete", { window: dialog({ acknowledges: true }) })));
    assert.equal(acknowledgedMessage(["Quarterly figures are filed in Zanzibar."], "en_US.UTF-8"), true);
    assert.equal(acknowledgedMessage(["All 12 files will be deleted."], "en_US.UTF-8"), false);
    assert.equal(
      acknowledgedMessage(["Die Zahlung wird gesendet."], "xx_XX"),
      false,
      "a language no catalog is in",
    );
    assert.equal(acknowledgedMessage([], "en"), undefined, "no text read: asks");
    // A sentence is read by its phrases, meanings and its language's own verbs, not by the words
    // other labels commit beside: Ristretto's French "Celles-ci" (these) had made its notice ask.
    assert.equal(acknowledgedMessage(["Celles-ci ne peuvent donc être créées."], "fr"), true);
    for (const [text, language] of [
      ["Tous les fichiers seront supprimés.", "fr"],
      ["Wszystkie pliki zostaną usunięte.", "pl"],
      ["Se enviará el pedido.", "es"],
      ["Ödeme yapılacak.", "tr"],
    ] as const)
      assert.equal(acknowledgedMessage([text], language), false, text);
  });

  it("an ellipsis opens a further step", () => {
    assert.ok(endsInEllipsis("Save As…"));
    assert.ok(endsInEllipsis("Find/Replace..."));
    assert.equal(commitReason({ role: "menu item", name: "Save As…" }), undefined);
    assert.equal(commitReason({ role: "menu item", name: "Find/Replace…" }), undefined);
    assert.equal(commitReason({ role: "menu item", name: "名前を付けて保存(_A)…" }), undefined);
  });

  it("a description explains a label that already decides; it is heard only where the label says nothing", () => {
    const described = (name: string, description: string) => ({ role: "menu item", name, description });
    for (const [name, description] of [
      ["Save As…", "Save current document as another file"],
      ["Save _As", "Saves the document under a new name"],
      ["Print Preview…", "Print the document"],
    ] as const)
      assert.equal(commitReason(described(name, description)), undefined, `${name}: ${description}`);
    assert.ok(commitReason(described("Frobnicate", "Deletes every selected file")), "the label says nothing");
    assert.ok(commitReason(described("Delete", "Opens the help")), "the label commits whatever it says");
  });

  it("a check box, radio button or checked menu item sets a value, whatever its words, outside an alert", () => {
    for (const role of ["check box", "radio button", "check menu item", "radio menu item"])
      for (const name of ["Send me the newsletter", "Delete after reading", "Pay monthly", "Löschen"])
        assert.equal(commitReason({ role, name, window: { role: "frame" } }), undefined, `${role} ${name}`);
    assert.ok(commitReason({ role: "push button", name: "Send me the newsletter" }), "a button still sends");
  });

  it("close names a character in a calculator or an editor: Close Bracket is not Close", () => {
    for (const name of [
      "Close Bracket",
      "Close parenthesis",
      "Closing Quote",
      "close square brackets",
      "Close Tag",
    ])
      assert.equal(commitReason(button(name, { window: { role: "frame" } })), undefined, name);
    for (const name of ["Close", "Close Window", "Close All", "Close Brackets Panel and Delete"])
      assert.ok(commitReason(button(name, { window: { role: "frame" } })), name);
  });

  it("a committing word that names a view, a setting or a place in a stack is no command", () => {
    const main = { window: { role: "frame" } };
    for (const name of [
      "Print Preview",
      "Toggle Print _Preview",
      "Print Layout",
      "Print Ranges",
      "Sort Order",
      "Order by Date",
      "Send to Back",
      "Send Backward",
      "Sign in",
      "Tip of the Day",
    ])
      assert.equal(commitReason(button(name, main)), undefined, name);
    // What is left beside the named thing is judged; a disguised word is not taken out.
    for (const name of [
      "Print",
      "Send",
      "Order",
      "Print Preview and Pay",
      "Sign in and Send",
      "Prіnt Preview",
    ])
      assert.ok(commitReason(button(name, main)), name);
  });

  it("an edit the app's undo reverts, outside an alert", () => {
    assert.equal(commitReason(button("Replace All", { window: { role: "frame" } })), undefined);
    assert.equal(commitReason(button("Replace", { window: dialog() })), undefined);
    assert.ok(commitReason(button("Replace", { window: { role: "alert" } })), "a file-exists alert");
  });

  it("closing a dialog that holds no input; one that holds some, or may, commits", () => {
    assert.equal(commitReason(button("Close", { window: dialog({ holdsInput: false }) })), undefined);
    assert.match(
      commitReason(button("Close", { window: dialog({ holdsInput: true }) })) ?? "",
      /holding input/,
    );
    assert.match(commitReason(button("Close", { window: dialog() })) ?? "", /could not be read/);
    assert.match(commitReason(button("Close", { window: { role: "frame" } })) ?? "", /unsaved work/);
    assert.ok(needsInputCheck(button("Close", { window: dialog() })), "only a dialog's Close asks");
    assert.ok(!needsInputCheck(button("Save", { window: dialog() })));
    assert.ok(!needsInputCheck(button("Close", { window: dialog({ holdsInput: false }) })), "once known");
  });
});

describe("keys and the wheel", () => {
  it("finds the chords in a key binding, skipping menu paths", () => {
    const chords = bindingChords("s;<Alt>f:s;<Control>s").map(
      (b) => `${chordText(b.chord)}${b.bare ? " bare" : ""}`,
    );
    assert.deepEqual(chords, ["s bare", "ctrl+s"]);
    assert.deepEqual(
      bindingChords("<Alt>d").map((b) => chordText(b.chord)),
      ["alt+d"],
    );
    assert.deepEqual(
      bindingChords("ctrl shift S").map((b) => chordText(b.chord)),
      ["ctrl+shift+s"],
    );
  });

  it("names the chords that reach the window manager or close things", () => {
    for (const chord of ["alt+space", "ctrl+F4", "ctrl+w", "super+e", "ctrl+alt+F3"])
      assert.ok(dangerousChord(parseChord(chord)), chord);
    // The window manager's close is judged by what the window holds (closing.ts), as `window close` is.
    for (const chord of ["alt+F4", "shift+alt+F4"]) {
      assert.equal(dangerousChord(parseChord(chord)), undefined, chord);
      assert.ok(closesWindow(parseChord(chord)), chord);
    }
    for (const chord of ["ctrl+c", "alt+f", "F5", "space"])
      assert.equal(dangerousChord(parseChord(chord)), undefined);
  });

  it("the wheel changes a value only over value-bearing roles", () => {
    assert.ok(wheelChangesValue("slider"));
    assert.ok(wheelChangesValue("spin button"));
    assert.equal(wheelChangesValue("scroll pane"), false);
  });
});

describe("the journal keeps no secret", () => {
  const dir = mkdtempSync(join(tmpdir(), "deskhand-secrets-"));
  const base = {
    time: "t",
    tool: "fill_form",
    level: "L2" as const,
    reversible: true,
    decision: "done" as const,
  };

  it("leaves out every password of the call, in any case and form, and its runs", () => {
    const cases: { secrets: Secret[]; intent: string; target?: string; absent: RegExp }[] = [
      {
        secrets: [{ text: "Hx9pass", password: true }],
        intent: "log in as alice with password Hx9pass",
        absent: /Hx9pass/i,
      },
      { secrets: [{ text: "Hx9pass", password: true }], intent: "the code is hx9PASS", absent: /hx9pass/i },
      {
        secrets: [{ text: "secret words\n", password: true }],
        intent: "type 'secret words' then Enter",
        absent: /secret words/i,
      },
      {
        secrets: [{ text: "  padded value  ", password: true }],
        intent: "put padded value in",
        absent: /padded value/i,
      },
      {
        // A plain value ("alice") is no secret: it stays.
        secrets: [{ text: "alice" }, { text: "Hx9pass", password: true }],
        intent: "log in as alice",
        target: "the field said Hx9p",
        absent: /Hx9p|\[typed text\] in/i,
      },
      { secrets: [{ text: "Tr0ub4dor&3", password: true }], intent: "the middle is ub4do", absent: /ub4d/i },
    ];
    for (const [i, c] of cases.entries()) {
      const path = join(dir, `case-${i}.jsonl`);
      new AuditJournal(path).record(
        { ...base, intent: c.intent, target: c.target ? { name: c.target } : null },
        c.secrets,
      );
      const text = readFileSync(path, "utf8");
      assert.doesNotMatch(text, c.absent, `case ${i}: ${text}`);
      assert.match(text, /\[typed text\]/, `case ${i} says where`);
    }
  });

  it("never follows a symlink, and refuses a journal others can read", () => {
    const target = join(dir, "elsewhere.txt");
    writeFileSync(target, "");
    const link = join(dir, "link.jsonl");
    symlinkSync(target, link);
    assert.throws(
      () => new AuditJournal(link).ensureWritable(),
      (e: Error) => {
        assert.ok(e instanceof AuditUnwritable);
        assert.match(e.message, /symbolic link/);
        return true;
      },
    );
    assert.equal(readFileSync(target, "utf8"), "", "nothing reached the link's target");
    const open = join(dir, "open.jsonl");
    writeFileSync(open, "");
    chmodSync(open, 0o644);
    assert.throws(() => new AuditJournal(open).ensureWritable(), /others can read.*644.*chmod 600/);
    const mine = join(dir, "mine.jsonl");
    new AuditJournal(mine).ensureWritable();
    new AuditJournal("/dev/null").ensureWritable(); // a person's explicit choice to keep none
  });

  it("a config that exists but cannot be read stops deskhand, naming the file", () => {
    const configDir = join(dir, "config-is-a-dir");
    mkdirSync(configDir);
    assert.throws(
      () => loadPolicy({ DESKHAND_CONFIG: configDir }),
      (e: Error) => {
        assert.match(e.message, new RegExp(`${configDir}.*cannot be read`));
        return true;
      },
    );
    assert.equal(loadPolicy({ DESKHAND_CONFIG: join(dir, "absent.json") }).ceilingSource, "default");
  });
});
