// The judge's classes on a real GTK 4 window (test/fixtures/dialogs/gtk4_gate.py), judged through the
// real tools with no person to ask: what structure says is harmless passes whatever its words and
// the app's log shows it happened; what commits is refused and the log shows it never happened; a
// password and a card number typed in reach no journal line, recording or reply.
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import {
  commitsRefused,
  neverLogged,
  passed,
  refused,
  secretsKeptOut,
  TOOK_LINES,
  untilLogged,
} from "./gate-classes.js";
import { findWaiting, gatedContext, HANG_MS, type StartedApp, startApp, toolCaller } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "deskhand-gate-classes-gtk4-"));
const title = `Gate classes GTK 4 ${process.pid}`;
const log = join(dir, "gtk4.log");
const intent = "Use the window";

describe("the judge's classes on a GTK 4 window", () => {
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
    app = startApp(["/usr/bin/python3", "test/fixtures/dialogs/gtk4_gate.py", title, log]);
    await element({ role: "slider", name: "Slide to pay" });
  });
  after(async () => {
    app.kill();
    await context.close();
  });

  it("a list's row is chosen by the label inside it; a grid's icon named \"edit-delete\" opens with no person", async () => {
    const list = await element({ role: "list", name: "Categories" });
    const chosen = await call("act", {
      ref: list.ref,
      action: { kind: "select", option: "Editing" },
      intent,
    });
    passed(chosen, "select Editing");
    assert.equal(chosen.data?.effect, "seen", chosen.text);
    await untilLogged(log, "category Editing");
    // The grid's cell holding the label "edit-delete" (the judge names the cell by it): an icon's
    // name, written as a program writes names.
    const label = await element({ role: "label", name: "edit-delete" });
    type Boxed = Match & { bounds: { x: number; y: number; width: number; height: number } | null };
    const at = (label as Boxed).bounds;
    const cell = ((await all({ role: "table cell" })) as Boxed[]).find(
      (c) => c.bounds && at && c.bounds.y <= at.y && at.y < c.bounds.y + c.bounds.height,
    );
    assert.ok(cell, "the cell of edit-delete");
    const clicked = await call("click", { ref: cell.ref, intent });
    passed(clicked, "the cell edit-delete");
    await untilLogged(log, "opened edit-delete");
  });

  it("by structure, whatever the words: a tab, a sortable column, a pressed toggle, a find bar's Close, Enter in a search field, a menu button, a switch", async () => {
    // GTK 4.8 names every tab "Tab"; its label is a child. The second is "Delete".
    const tabs = await all({ role: "page tab" });
    assert.equal(tabs.length, 2, JSON.stringify(tabs));
    passed(await call("click", { ref: tabs[1]!.ref, intent }), 'the tab "Delete"');
    await untilLogged(log, "page 1");
    // A GtkColumnView's title: its label is what a person clicks.
    passed(
      await call("click", { ref: (await element({ role: "label", name: "Send" })).ref, intent }),
      "Send",
    );
    await untilLogged(log, "sorted");
    // GTK 4.8 reports a toggle as a push button; shown pressed, it is one.
    passed(
      await call("click", {
        ref: (await element({ role: "push button", name: "Pay", states: ["pressed"] })).ref,
        intent,
      }),
      'the pressed toggle "Pay"',
    );
    await untilLogged(log, "toggle False");
    // Untoggled, GTK 4.8 shows nothing that tells it from a push button "Pay": judged by its words.
    const off = await element({ role: "push button", name: "Pay" });
    refused(await call("click", { ref: off.ref, intent }), 'the untoggled "Pay"', /pay/);
    await neverLogged(log, /toggle True/, 'the untoggled "Pay"');
    const search = await element({ role: "entry" });
    passed(await call("key", { ref: search.ref, key: "Enter", intent }), "Enter in the search field");
    await untilLogged(log, "searched");
    passed(
      await call("click", { ref: (await element({ role: "push button", name: "Close" })).ref, intent }),
      "Close",
    );
    await untilLogged(log, "bar closed");
    // An icon-only menu button, which GTK 4.8 names by its type alone: it opens its menu.
    const more = await element({ role: "push button", states: ["has popup"] });
    passed(await call("click", { ref: more.ref, intent }), "the menu button");
    await untilLogged(log, "menu shown");
    passed(await call("key", { key: "Escape", intent }), "Escape");
    await untilLogged(log, "menu closed");
    // A switch whose new state GTK 4.8 reports a moment later: the reply says the state it took.
    const dark = await element({ name: "Dark mode" });
    const toggled = await call("act", { ref: dark.ref, action: { kind: "toggle" }, intent });
    passed(toggled, "the switch");
    await untilLogged(log, "switch True");
    assert.match(toggled.text ?? "", /; now checked/, toggled.text);
    // A slider's range, read with it (an agent had found 0–100 only by setting 1000 on purpose).
    const slider = await element({ role: "slider", name: "Slide to pay" });
    const info = await call("element_info", { ref: slider.ref });
    assert.match(info.text ?? "", /^range: 0–100$/m, info.text);
  });

  it("commits: a French command, an unnamed icon, symbols, Enter that activates the default, an option, a slider", async () => {
    await commitsRefused({
      call,
      log,
      intent,
      element,
      all,
      command: { label: "Envoyer la facture", word: /envoyer/i, logs: /invoice sent/ },
      rows: "Rows",
    });
  });

  it("a password and a card number reach no journal line, recording or reply; plain text stays plain", async () => {
    await secretsKeptOut({
      call,
      element,
      title,
      dir,
      kit: "gtk4",
      field: "text",
      took: (what) => untilLogged(log, TOOK_LINES[what]),
    });
  });
});
