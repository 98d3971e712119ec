// The judge's classes on a web page in Firefox (test/fixtures/web/gate.html), judged through the real
// tools with no person to ask (DESKHAND_GATE_BROWSER=chromium runs it in Chromium instead, by hand: CI
// runs Firefox only, for time): what structure says is harmless passes whatever its words and the
// page's log shows it happened; what commits is refused and the log shows it never happened; a
// password and a card number typed in reach no journal line, recording or reply.
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { passed, refused, SECRETS, secretsKeptOut } from "./gate-classes.js";
import {
  findWaiting,
  firefoxProfile,
  gatedContext,
  HANG_MS,
  type StartedApp,
  startApp,
  toolCaller,
  within,
} from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "deskhand-gate-classes-web-"));
const chromium = process.env.DESKHAND_GATE_BROWSER === "chromium";
const title = chromium ? "Deskhand Gate Classes*Chromium*" : "Deskhand Gate Classes*Firefox*";
const intent = "Use the page";

describe(`the judge's classes on a web page in ${chromium ? "Chromium" : "Firefox"}`, () => {
  const context = gatedContext(dir);
  const call = toolCaller(context);
  let app: StartedApp;
  type Match = { ref: string; name: string | null };
  const element = async (query: Record<string, unknown>) =>
    (await findWaiting(call, title, query, HANG_MS)) as Match;
  /** The page's log: what its scripts saw, one line each. */
  const logged = async () => {
    const log = await element({ name: "Log" });
    const read = await call("read_text", { ref: log.ref });
    return String(read.data?.text ?? "")
      .split("\n")
      .filter(Boolean);
  };
  const untilShown = async (line: string) => {
    const deadline = Date.now() + within(HANG_MS);
    while (!(await logged()).includes(line) && Date.now() < deadline) await sleep(150);
    assert.ok((await logged()).includes(line), `${line}: ${JSON.stringify(await logged())}`);
  };
  const neverShown = async (line: RegExp, what: string) => {
    await sleep(within(400));
    const hits = (await logged()).filter((l) => line.test(l));
    assert.deepEqual(hits, [], `${what}: the page never did it`);
  };

  before(async () => {
    const page = `file://${resolve("test/fixtures/web/gate.html")}`;
    app = startApp(
      chromium
        ? [
            "chromium",
            "--no-sandbox",
            `--user-data-dir=${mkdtempSync(join(dir, "chromium-"))}`,
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-gpu",
            "--force-renderer-accessibility",
            page,
          ]
        : ["firefox-esr", "--no-remote", "--profile", firefoxProfile(dir), page],
    );
    await element({ role: "slider", name: "Slide to pay" });
    // A browser that has just drawn its window may drop the first click into the page (seen on a
    // loaded shared desktop): the harmless "Overview" tab is clicked until the page shows it took one.
    const overview = await element({ role: "page tab", name: "Overview" });
    const tried: unknown[] = [];
    for (let tries = 0; tries < 10 && !(await logged()).includes("page 0"); tries++) {
      const clicked = await call("click", { ref: overview.ref, intent });
      tried.push(clicked.data?.status ?? clicked.error);
      await sleep(500);
    }
    assert.ok((await logged()).includes("page 0"), `the page takes clicks: ${JSON.stringify(tried)}`);
  });
  after(async () => {
    app.kill();
    await context.close();
  });

  it("by structure, whatever the words: a tab, a sortable column, a toggle, a find bar's Close, Enter in a search field or form", async () => {
    passed(
      await call("click", { ref: (await element({ role: "page tab", name: "Delete" })).ref, intent }),
      "Delete",
    );
    await untilShown("page 1");
    // A button in a column header sorts the table.
    passed(
      await call("click", { ref: (await element({ role: "push button", name: "Send" })).ref, intent }),
      "Send",
    );
    await untilShown("sorted");
    // Firefox keeps a push button's role for `aria-pressed`, and says "pressed" in an attribute: the
    // first "Pay" of the page, before the form's.
    // Chromium gives it the toggle button's role.
    const toggle = await element({ role: chromium ? "toggle button" : "push button", name: "Pay" });
    passed(await call("click", { ref: toggle.ref, intent }), 'the toggle "Pay"');
    await untilShown("toggle true");
    // Space with the focus on it (the click left it there), no ref: judged the same way.
    passed(await call("key", { key: "space", intent }), 'space on the focused toggle "Pay"');
    await untilShown("toggle false");
    // Named by its placeholder only, outside any form: Enter runs the page's search.
    const search = await element({ role: "entry", name: "Search…" });
    passed(await call("key", { ref: search.ref, key: "Enter", intent }), "Enter in the search field");
    await untilShown("searched");
    // A site's search form, one field and no button: Enter sends only the words searched for.
    const shop = await element({ role: "entry", name: "Search the shop" });
    passed(
      await call("type_text", { ref: shop.ref, text: "green tea\n", intent }),
      "green tea and Enter in the shop's search form",
    );
    await untilShown("shop searched green tea");
    // A number field with no maximum: its Value range says nothing, and set_range sets it.
    const quantity = await element({ role: "spin button", name: "Quantity" });
    passed(
      await call("act", { ref: quantity.ref, action: { kind: "set_range", value: 3 }, intent }),
      "set_range 3 on Quantity",
    );
    // Firefox's Value sets it without an input event: in Firefox it is stepped by the arrow keys,
    // which the page hears (Chromium's own route tells it).
    if (!chromium) await untilShown("quantity now 3");
    const total = await element({ role: "push button", name: "Show total" });
    passed(await call("click", { ref: total.ref, intent }), "Show total");
    await untilShown("quantity 3");
    // set_value writes its text, which Firefox's number field takes and keeps not: it is stepped.
    const four = await call("act", { ref: quantity.ref, action: { kind: "set_value", text: "4" }, intent });
    passed(four, "set_value 4 on Quantity");
    assert.equal(four.data?.effect, "seen", four.text);
    assert.match(four.text ?? "", /The value reads back as asked\./, four.text);
    if (!chromium) await untilShown("quantity now 4");
    passed(await call("click", { ref: total.ref, intent }), "Show total");
    await untilShown("quantity 4");
    // The page's Close, beside its search box (Chromium's own window has a Close too, which commits).
    const closes = (
      await call("find", {
        target: { kind: "title", glob: title },
        role: "push button",
        name: "Close",
        limit: 10,
      })
    ).data.matches as (Match & { bounds: { y: number } })[];
    const searchAt = (search as Match & { bounds: { y: number } }).bounds.y;
    const close = closes.find((c) => Math.abs(c.bounds.y - searchAt) < 30);
    assert.ok(close, JSON.stringify(closes));
    passed(await call("click", { ref: close.ref, intent }), "Close");
    await untilShown("bar closed");
  });

  it('a section in Spanish reads in Spanish: a note named with "para" is written, a price chosen, its button pressed', async () => {
    // Read with no language, "para" is another language's verb: the page's `lang` decides.
    const nota = await element({ role: "entry", name: "Nota para el repartidor" });
    const filled = await call("fill_form", {
      fields: [{ ref: nota.ref, value: "Dejar en portería" }],
      intent,
    });
    passed(filled, "fill the note");
    assert.doesNotMatch(JSON.stringify(filled.data), /refused/, "no field of it refused");
    const written = await call("element_info", { ref: nota.ref });
    assert.match(JSON.stringify(written.data), /Dejar en portería/, "the note holds what was written");
    // A shipping choice that names its price costs nothing until the order is placed.
    const envio = await element({ role: "combo box", name: "Método de envío" });
    const chosen = await call("act", {
      ref: envio.ref,
      action: { kind: "select", option: "Urgente (9,00 €)" },
      intent,
    });
    passed(chosen, "choose Urgente (9,00 €)");
    await untilShown("envío Urgente (9,00 €)");
    const hoy = await element({ role: "push button", name: "Ver lista para hoy" });
    passed(await call("click", { ref: hoy.ref, intent }), "Ver lista para hoy");
    await untilShown("lista para hoy");
    // A button that says it is collapsed shows a section: "desglose" is a word no lexicon here reads.
    const desglose = await element({ role: "push button", name: "Ver desglose" });
    passed(await call("click", { ref: desglose.ref, intent }), "Ver desglose");
    await untilShown("desglose true");
    // Greek "calculate": the catalogs hold it in "Calculating upgrade", a status, which had made it commit.
    const synolo = await element({ role: "push button", name: "Υπολογισμός συνόλου" });
    passed(await call("click", { ref: synolo.ref, intent }), "Υπολογισμός συνόλου");
    await untilShown("σύνολο 335");
  });

  it("commits: an Italian command, an unnamed button, symbols, Enter that submits the form, an option, a slider", async () => {
    const invia = await element({ role: "push button", name: "Invia il bonifico" });
    refused(await call("click", { ref: invia.ref, intent }), "Invia il bonifico", /invia/i);
    refused(
      await call("act", { ref: invia.ref, action: { kind: "invoke" }, intent }),
      "Invia il bonifico by act",
    );
    await neverShown(/transfer done/, "Invia il bonifico");
    const buttons = (
      await call("find", { target: { kind: "title", glob: title }, role: "push button", limit: 50 })
    ).data.matches as Match[];
    // The page's only unnamed button: its icon is drawn by CSS.
    const unnamed = buttons.filter((b) => !b.name);
    assert.equal(unnamed.length, 1, JSON.stringify(buttons));
    refused(await call("click", { ref: unnamed[0]!.ref, intent }), "the unnamed button", /unnamed/);
    await neverShown(/icon pressed/, "the unnamed button");
    const symbols = await element({ role: "push button", name: "✓ ➜" });
    refused(await call("click", { ref: symbols.ref, intent }), "✓ ➜", /symbols only/);
    await neverShown(/symbols pressed/, "✓ ➜");
    // Enter in a form's field submits it through its button "Pay".
    const amount = await element({ role: "entry", name: "Amount" });
    refused(await call("key", { ref: amount.ref, key: "Enter", intent }), "Enter in Amount", /Pay/);
    refused(
      await call("type_text", { ref: amount.ref, text: "3\n", intent }),
      "3 and Enter in Amount",
      /Pay/,
    );
    await neverShown(/paid/, "Enter in Amount");
    const rows = await element({ role: "list box", name: "Rows" });
    refused(
      await call("act", { ref: rows.ref, action: { kind: "select", option: "Delete all rows" }, intent }),
      "select Delete all rows",
      /Delete all rows/,
    );
    const option = await element({ role: "list item", name: "Delete all rows" });
    refused(
      await call("act", { ref: option.ref, action: { kind: "select" }, intent }),
      "select the option itself",
    );
    await neverShown(/chose/, "select Delete all rows");
    const slider = await element({ role: "slider", name: "Slide to pay" });
    refused(
      await call("act", { ref: slider.ref, action: { kind: "set_range", value: 100 }, intent }),
      "set_range",
      /pay/,
    );
    refused(await call("key", { ref: slider.ref, key: "End", intent }), "End on Slide to pay", /pay/);
    await neverShown(/slid/, "Slide to pay");
  });

  it("a password and a card number reach no journal line, recording or reply; plain text stays plain", async () => {
    await secretsKeptOut({
      call,
      element,
      title,
      dir,
      kit: "web",
      field: "entry",
      took: (what) =>
        untilShown(
          {
            password: `password ${SECRETS.password.length}`,
            card: `card ${SECRETS.card.length}`,
            notes: "notes lunch with Mireille",
          }[what],
        ),
    });
  });
});
