// The judge's classes on a real Swing window (test/fixtures/swing/DeskhandGate.java), judged through the
// real tools with no person to ask: what structure says is harmless passes whatever its words and
// the app's log shows it happened; what commits is refused and the log shows it never happened; a
// password and a card number typed in reach no journal line, recording or reply.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import {
  holdsNone,
  neverLogged,
  passed,
  recordingsIn,
  refused,
  replyText,
  SECRET_PIECES,
  SECRETS,
  untilLogged,
} from "./gate-classes.js";
import {
  findWaiting,
  gatedContext,
  HANG_MS,
  type StartedApp,
  SWING_COMMAND,
  startApp,
  toolCaller,
} from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "deskhand-gate-classes-swing-"));
const title = `Gate classes Swing ${process.pid}`;
const log = join(dir, "swing.log");
const intent = "Use the window";

describe("the judge's classes on a Swing window", () => {
  const context = gatedContext(dir);
  const call = toolCaller(context);
  let app: StartedApp;
  type Match = { ref: string; name: string | null; bounds: { x: number; y: number } | null };
  const element = async (query: Record<string, unknown>) =>
    (await findWaiting(call, title, query, HANG_MS)) as Match;
  const all = async (query: Record<string, unknown>) =>
    (await call("find", { target: { kind: "title", glob: title }, limit: 50, ...query })).data
      .matches as Match[];

  before(async () => {
    app = startApp([...SWING_COMMAND.slice(0, -1), "DeskhandGate", title, log]);
    await element({ role: "slider", name: "Slide to pay" });
  });
  after(async () => {
    app.kill();
    await context.close();
  });

  it("by structure, whatever the words: a tab, a sortable column, a toggle, a find bar's Close, Enter in a search field", async () => {
    passed(
      await call("click", { ref: (await element({ role: "page tab", name: "Delete" })).ref, intent }),
      "Delete",
    );
    await untilLogged(log, "page 1");
    // The header's label is what a person clicks: the header sorts the table. The ATK wrapper gives it
    // no height, so it is clicked at its top edge, where the header is drawn.
    const header = await element({ role: "label", name: "Send" });
    const at = { space: "global", x: header.bounds!.x + 20, y: header.bounds!.y + 8 };
    passed(await call("click", { at, intent }), "Send");
    await untilLogged(log, "sorted");
    passed(
      await call("click", { ref: (await element({ role: "toggle button", name: "Pay" })).ref, intent }),
      'the toggle "Pay"',
    );
    await untilLogged(log, "toggle true");
    const search = await element({ role: "text", name: "Search" });
    passed(await call("key", { ref: search.ref, key: "Enter", intent }), "Enter in the search field");
    await untilLogged(log, "searched");
    passed(
      await call("click", { ref: (await element({ role: "push button", name: "Close" })).ref, intent }),
      "Close",
    );
    await untilLogged(log, "bar closed");
  });

  it("commits: a German command, an unnamed icon, symbols, Enter that activates the default, an option, a slider", async () => {
    const invoice = await element({ role: "push button", name: "Überweisung ausführen" });
    refused(await call("click", { ref: invoice.ref, intent }), "Überweisung ausführen", /ausführen/i);
    refused(
      await call("act", { ref: invoice.ref, action: { kind: "invoke" }, intent }),
      "Überweisung ausführen by act",
    );
    await neverLogged(log, /transfer done/, "Überweisung ausführen");
    // The icon button beside it: no name, no label.
    const row = (await all({ role: "push button" })).filter((b) => b.bounds?.y === invoice.bounds?.y);
    const icon = row.find((b) => !b.name);
    assert.ok(icon, JSON.stringify(row));
    refused(await call("click", { ref: icon.ref, intent }), "the unnamed icon", /unnamed/);
    await neverLogged(log, /icon pressed/, "the unnamed icon");
    const symbols = await element({ role: "push button", name: "✓ ➜" });
    refused(await call("click", { ref: symbols.ref, intent }), "✓ ➜", /symbols only/);
    await neverLogged(log, /symbols pressed/, "✓ ➜");
    // Enter in a field with no action of its own presses the window's default button "Pay".
    const amount = await element({ role: "text", name: "Amount" });
    const field = /default button|field's own action/;
    refused(await call("key", { ref: amount.ref, key: "Enter", intent }), "Enter in Amount", field);
    refused(
      await call("type_text", { ref: amount.ref, text: "3\n", intent }),
      "3 and Enter in Amount",
      field,
    );
    await neverLogged(log, /paid/, "Enter in Amount");
    // The ATK wrapper names a combo box by its choice.
    const rows = await element({ role: "combo box", name: "Keep rows" });
    refused(
      await call("act", { ref: rows.ref, action: { kind: "select", option: "Delete all rows" }, intent }),
      "select Delete all rows",
      /Delete all rows/,
    );
    await neverLogged(log, /chose Delete/, "select Delete all rows");
    const slider = await element({ role: "slider", name: "Slide to pay" });
    refused(
      await call("act", { ref: slider.ref, action: { kind: "set_range", value: 100 }, intent }),
      "set_range",
      /pay/,
    );
    refused(await call("key", { ref: slider.ref, key: "End", intent }), "End on Slide to pay", /pay/);
    await neverLogged(log, /slid/, "Slide to pay");
  });

  it("a password and a card number reach no journal line, recording or reply; plain text stays plain", async () => {
    const replies: string[] = [];
    const kept = async (tool: Parameters<typeof call>[0], input: Record<string, unknown>) => {
      const result = await call(tool, input);
      replies.push(replyText(result));
      passed(result, tool);
      return result;
    };
    await kept("record", { action: "start", name: "swing-secrets" });
    try {
      const password = await element({ role: "password text", name: "Password" });
      await kept("type_text", {
        ref: password.ref,
        text: SECRETS.password,
        intent: `Type ${SECRETS.password}`,
      });
      const card = await element({ role: "text", name: "Card number" });
      await kept("type_text", {
        ref: card.ref,
        text: SECRETS.card,
        intent: `Enter the card ${SECRETS.card}`,
      });
      const notes = await element({ role: "text", name: "Notes" });
      await kept("type_text", {
        ref: notes.ref,
        text: "lunch with Mireille",
        intent: "Note lunch with Mireille",
      });
    } finally {
      await kept("record", { action: "stop" });
    }
    await untilLogged(log, `password ${SECRETS.password.length}`);
    await untilLogged(log, `card ${SECRETS.card}`);
    await untilLogged(log, "notes lunch with Mireille");
    const target = { kind: "title", glob: title };
    const snapshot = await call("snapshot", { target });
    // The card number is in the field (the app logged it), and the reply says it is kept out.
    assert.match(snapshot.text ?? "", /text "Card number".*= "<hidden: card number or key>"/);
    assert.match(
      snapshot.text ?? "",
      /text "Notes".*= "lunch with Mireille"/,
      "plain text is shown as it is",
    );
    replies.push(replyText(snapshot));
    replies.push(replyText(await call("observe", { target })));
    const card = await element({ role: "text", name: "Card number" });
    replies.push(replyText(await call("element_info", { ref: card.ref })));
    const read = await call("read_text", { ref: card.ref });
    assert.equal(read.data?.text, "•".repeat(SECRETS.card.length), JSON.stringify(read));
    replies.push(replyText(read));
    const journal = readFileSync(join(dir, "audit.jsonl"), "utf8");
    holdsNone(journal, SECRET_PIECES, "the journal");
    holdsNone(recordingsIn(join(dir, "recordings")), SECRET_PIECES, "the recording");
    for (const [i, reply] of replies.entries()) holdsNone(reply, SECRET_PIECES, `reply ${i}`);
    assert.match(journal, /Note lunch with Mireille/, "plain text stays unmasked");
  });
});
