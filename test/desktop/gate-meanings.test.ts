// Committing by meaning on a real app: a plain GTK 3 main window, where no structural rule can help,
// whose Korean "결제" (pay) button, a "Cancel subscription" and a "Paying" need a person and are not
// pressed (the app's own log of presses), while "다음" (next) and "Next" pass and are pressed. The app's
// language, read from its process, decides what a word means (Estonian "saada" sends, Finnish "saada"
// gets), and its words are read by that language's own labels (Malay "beli" buys; Serbian "beli" is
// white), and a text as most of its language's catalogs write it (Finnish "Sulje" is Close, though
// Openbox's Exit); Vietnamese, written a syllable at a time, is read by syllable pairs. In an app whose
// language no catalog on the machine is in, another language's harmless word is unread and asks.
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { findWaiting, gatedContext, HANG_MS, settled, startApp, toolCaller } from "./helpers.js";
import { pressEach } from "./labels-app.js";

const dir = mkdtempSync(join(tmpdir(), "deskhand-gate-meanings-"));

describe("committing by meaning in a GTK 3 main window", () => {
  it("a Korean 결제 button needs a person and nothing is pressed; harmless labels pass", async () => {
    const results = await pressEach(
      "gtk3",
      ["결제", "Cancel subscription", "Paying", "다음", "Next", "Weiter"],
      dir,
    );
    const by = new Map(results.map((r) => [r.label, r]));
    for (const label of ["결제", "Cancel subscription", "Paying"]) {
      const r = by.get(label)!;
      assert.match(r.refused ?? "", /money leaves/, `${label} is refused as committing: ${r.refused}`);
      assert.equal(r.pressed, false, `${label} was not pressed`);
    }
    assert.match(by.get("결제")!.refused!, /person|confirm/i, "the refusal says a person must confirm");
    for (const label of ["다음", "Next", "Weiter"]) {
      const r = by.get(label)!;
      assert.equal(r.refused, undefined, `${label} passes: ${r.refused}`);
      assert.equal(r.pressed, true, `${label} was pressed`);
    }
  });

  it("the app's language, read from its process in C.UTF-8, decides what its words mean", async () => {
    // A container's usual locale: gettext honours LANGUAGE there, so the app shows Estonian.
    const inLanguage = (language: string) => {
      const env: NodeJS.ProcessEnv = { ...process.env, LC_ALL: "C.UTF-8", LANGUAGE: language };
      delete env.LC_MESSAGES;
      return env;
    };
    const pressed = async (language: string, labels: string[], extra: NodeJS.ProcessEnv = {}) =>
      new Map(
        (
          await pressEach("gtk3", labels, mkdtempSync(join(dir, `${language}-`)), {
            ...inLanguage(language),
            ...extra,
          })
        ).map((r) => [r.label, r]),
      );
    // Estonian "saada" sends; Finnish "saada" gets ("Saada lisätietoja": get more information). A
    // Turkish label read whole: "Yeniden Yükle" reloads, though "Yükle" alone uploads.
    const et = await pressed("et", ["Saada kiri", "Edasi"]);
    const fi = await pressed("fi", ["Saada lisätietoja"]);
    const tr = await pressed("tr", ["Yeniden Yükle", "Yükle"]);
    // A dialog's Close, as most of its language's catalogs write it, though one writes it for Exit
    // (Openbox's Finnish) or Quit (one of Turkish's): read as Close, as English's is, it closes only
    // the dialog. "Lopeta" (Finnish Quit) still asks.
    const closes = { AS_DIALOG: "1" };
    const fiDialog = await pressed("fi", ["Sulje", "Lopeta"], closes);
    const trDialog = await pressed("tr", ["Kapat"], closes);
    // Vietnamese is written a syllable at a time: "thanh toán" (pay) is "bar" and "math", "nạp tiền"
    // (top up) "load" and "money", each harmless alone. Polish "subskrypcję" inflects "subskrypcja"
    // (money leaves), Indonesian "pesanan" (order) derives from "pesan" (message): neither reads as
    // the harmless word it starts like.
    const vi = await pressed("vi", ["Thanh toán hóa đơn", "Nạp tiền", "Sắp xếp theo tên", "Trang trước"]);
    const pl = await pressed("pl", ["Wykup subskrypcję"]);
    const id = await pressed("id", ["Lihat pesanan"]);
    // Greek "συνδρομής" inflects συνδρομή (money leaves), though harmless labels hold it; Malay
    // "RM20" is an amount of money in its language's symbol for its currency. A word is read by its
    // app's own language: Malay "beli" (buy) is Serbian's white, and Malay labels never hold it;
    // "tempahan" (booking) only starts as "tempat" (place) does.
    const el = await pressed("el", ["Διακοπή συνδρομής"]);
    const ms = await pressed("ms", ["Tambah RM20", "Beli sekarang!", "Buat tempahan", "Halaman seterusnya"]);
    const sr = await pressed("sr@latin", ["Beli"]);
    for (const r of [
      et.get("Saada kiri")!,
      tr.get("Yükle")!,
      vi.get("Thanh toán hóa đơn")!,
      vi.get("Nạp tiền")!,
      pl.get("Wykup subskrypcję")!,
      id.get("Lihat pesanan")!,
      el.get("Διακοπή συνδρομής")!,
      ms.get("Tambah RM20")!,
      ms.get("Beli sekarang!")!,
      ms.get("Buat tempahan")!,
      fiDialog.get("Lopeta")!,
    ]) {
      assert.match(r.refused ?? "", /person|confirm/i, `${r.label} asks: ${r.refused}`);
      assert.equal(r.pressed, false, `${r.label} was not pressed`);
    }
    for (const r of [
      et.get("Edasi")!,
      fi.get("Saada lisätietoja")!,
      fiDialog.get("Sulje")!,
      tr.get("Yeniden Yükle")!,
      trDialog.get("Kapat")!,
      vi.get("Sắp xếp theo tên")!,
      vi.get("Trang trước")!,
      ms.get("Halaman seterusnya")!,
      sr.get("Beli")!,
    ]) {
      assert.equal(r.refused, undefined, `${r.label} passes: ${r.refused}`);
      assert.equal(r.pressed, true, `${r.label} was pressed`);
    }
  });

  // Geany's Preferences' OK asked as "ok commits": a note on its page named a command that applies.
  it("a settings dialog's OK, Apply and Close keep what was set and pass; its Delete asks; OK elsewhere asks", async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, LC_ALL: "C.UTF-8", LANGUAGE: "it", AS_DIALOG: "1" };
    delete env.LC_MESSAGES;
    const labels = ["OK", "Applica", "Chiudi", "Elimina profilo"];
    const inDialog = async (title: string) =>
      new Map(
        (
          await pressEach("gtk3", labels, mkdtempSync(join(dir, `${title}-`)), {
            ...env,
            TITLE_BEFORE: title,
          })
        ).map((r) => [r.label, r]),
      );
    const settings = await inDialog("Preferenze");
    for (const label of ["OK", "Applica", "Chiudi"]) {
      const r = settings.get(label)!;
      assert.equal(r.refused, undefined, `${label} passes in Preferenze: ${r.refused}`);
      assert.equal(r.pressed, true, `${label} was pressed`);
    }
    const other = await inDialog("Profilo");
    for (const r of [settings.get("Elimina profilo")!, other.get("OK")!, other.get("Applica")!]) {
      assert.match(r.refused ?? "", /person|confirm/i, `${r.label} asks: ${r.refused}`);
      assert.equal(r.pressed, false, `${r.label} was not pressed`);
    }
  });

  // A label is read by its app's own catalog where the app's process has it mapped: Mousepad's French
  // "cASSE INVERSÉE" is its translation of "To Opposite Case", and had asked as a French word unread.
  it("a label its app's own catalog translates is judged as its English, and does what it says", async () => {
    const folder = mkdtempSync(join(dir, "mousepad-"));
    const file = join(folder, "notes.txt");
    writeFileSync(file, "");
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      LC_ALL: "C.UTF-8",
      LANGUAGE: "fr",
      XDG_CONFIG_HOME: folder,
    };
    delete env.LC_MESSAGES;
    const app = startApp(["mousepad", file], env);
    const context = gatedContext(folder);
    const call = toolCaller(context);
    try {
      const title = "*notes.txt - Mousepad";
      const field = (await findWaiting(call, title, { role: "text" }, HANG_MS)) as { ref: string };
      const typed = await call("type_text", { ref: field.ref, text: "abc", intent: "Écrire trois lettres" });
      assert.equal(typed.data?.status, "done", typed.text ?? JSON.stringify(typed.error));
      const all = await call("key", { ref: field.ref, key: "ctrl+a", intent: "Tout sélectionner" });
      assert.equal(all.data?.status, "done", all.text ?? JSON.stringify(all.error));
      const turned = await call("act", {
        find: { target: { kind: "title", glob: title }, name: "cASSE INVERSÉE", include_off_screen: true },
        action: { kind: "invoke" },
        intent: "Inverser la casse",
      });
      assert.ok(turned.ok, JSON.stringify(turned.error));
      const text = await settled(
        async () => ((await findWaiting(call, title, { role: "text" }, HANG_MS)) as { value?: string }).value,
        (value) => value === "ABC",
        HANG_MS,
      );
      assert.equal(text, "ABC", "the case was turned");
    } finally {
      app.kill();
      await context.close();
    }
  });

  it("an app in a language no catalog here is in: only English words read, the rest asks", async () => {
    // "qaa" is reserved for local use: no catalog on any machine is in it. The app's process says so.
    const env: NodeJS.ProcessEnv = { ...process.env, LANG: "qaa_ZZ.UTF-8" };
    for (const name of ["LC_ALL", "LC_MESSAGES", "LANGUAGE"]) delete env[name];
    // A log of its own: the first app's log holds its own press of "Weiter".
    const own = mkdtempSync(join(dir, "qaa-"));
    const results = await pressEach("gtk3", ["Weiter", "Siguiente", "Next"], own, env);
    const by = new Map(results.map((r) => [r.label, r]));
    for (const label of ["Weiter", "Siguiente"]) {
      const r = by.get(label)!;
      assert.match(r.refused ?? "", /"qaa_ZZ", a language no catalog/, `${label}: ${r.refused}`);
      assert.equal(r.pressed, false, `${label} was not pressed`);
    }
    assert.equal(by.get("Next")!.refused, undefined, by.get("Next")!.refused);
    assert.equal(by.get("Next")!.pressed, true);
  });
});
