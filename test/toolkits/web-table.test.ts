// The web fixture's table in Firefox and Chromium, read the way a person reads it: header cells that
// hold sort buttons read as the buttons' names, cells that hold links as the links' names, and no
// U+FFFC reaches a reply; find searches the cells and names each match's row and column; the header
// button found there is pressed; a <select> takes an option, by act and by fill_form, and the receipt
// and find show the value (and in Chromium, the page hears the change).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { createContext, type ToolContext } from "../../src/tools/context.js";
import { toolCaller } from "../desktop/helpers.js";
import { PROFILES, webStatus } from "./profiles.js";

const toolkit = process.env.DESKHAND_TOOLKIT ?? "";
const web = toolkit === "firefox" || toolkit === "chromium";

describe("a web table and a select, read and acted on", { skip: web ? false : "web engines only" }, () => {
  const profile = PROFILES[toolkit]!;
  const target = { kind: "title", glob: profile?.title ?? "" };
  let context: ToolContext;
  let call: ReturnType<typeof toolCaller>;
  before(async () => {
    context = createContext({ refLifetime: "while-verified" });
    call = toolCaller(context);
    await sleep(profile.settleMs ?? 0);
  });
  after(() => context.close());

  const status = () => webStatus(call, target);

  it("read_table takes header buttons' and cell links' names, and no U+FFFC reaches the reply", async () => {
    const found = await call("find", { target, role: "table", name: "Stock", include_off_screen: true });
    assert.equal(found.data?.total, 1, found.text);
    const table = await call("read_table", { ref: found.data.matches[0].ref });
    assert.ok(table.ok, JSON.stringify(table.error));
    const everything = `${table.text}\n${JSON.stringify(table.data)}`;
    assert.ok(!everything.includes("\uFFFC"), everything);
    assert.deepEqual(table.data.headers, ["Item", "Price (EUR)", "Stock"]);
    assert.ok(table.data.headers_from_children.includes(1), JSON.stringify(table.data));
    const rows = (table.data.cells as { values: string[] }[]).map((r) => r.values.join(" | "));
    for (const row of ["Apple | 1.20 | 14", "Pear | 0.95 | 3", "Quince | 2.40 | 0"])
      assert.ok(rows.includes(row), `${row} in ${JSON.stringify(rows)}`);
    assert.match(table.text!, /text read from the elements inside the cell/);
    // The header row, the page's row 0, is said once: in the header line.
    const headerLines = table.text!.split("\n").filter((line) => /Item \| Price \(EUR\) \| Stock/.test(line));
    assert.equal(headerLines.length, 1, table.text);
  });

  it("find searches table cells: a header's sort button and a cell's link, with row and column", async () => {
    const price = await call("find", { target, role: "push button", name_contains: "Price" });
    assert.equal(price.data?.total, 1, price.text);
    assert.deepEqual(price.data.matches[0].cell, { row: 0, column: 1 });
    assert.match(price.text!, /push button "Price \(EUR\)".* \[ref=\S+\] \(table row 0, column 1\)/);
    const pear = await call("find", { target, role: "link", name: "Pear" });
    assert.equal(pear.data?.total, 1, pear.text);
    assert.equal(pear.data.matches[0].cell.column, 0);
    const pressed = await call("act", { ref: price.data.matches[0].ref, action: { kind: "invoke" } });
    assert.ok(pressed.ok, JSON.stringify(pressed.error));
    let text = "";
    for (let i = 0; i < 20 && !/Sorted by price/.test(text); i++) {
      text = await status();
      if (!/Sorted by price/.test(text)) await sleep(150);
    }
    assert.match(text, /Sorted by price/);
  });

  it("a <select> takes an option by accessibility, and the receipt shows the value it now has", async () => {
    const combo = await call("find", { target, role: "combo box", name: "Color" });
    const ref = combo.data.matches[0].ref;
    const chosen = await call("act", { ref, action: { kind: "select", option: "Blue" } });
    assert.ok(chosen.ok, JSON.stringify(chosen.error));
    assert.equal(chosen.data.effect, "seen", chosen.text);
    assert.equal(chosen.data.after.value, "Blue", chosen.text);
    // Chromium's route (the option's own "select" action) gives the page its change event; Firefox
    // selects through Selection and the page hears nothing (the ledger says so).
    if (toolkit === "chromium") {
      assert.match(chosen.data.route, /DoAction\("select"\) on the option/);
      let text = "";
      for (let i = 0; i < 20 && !/Color Blue/.test(text); i++) {
        text = await status();
        if (!/Color Blue/.test(text)) await sleep(150);
      }
      assert.match(text, /Color Blue/);
    }
    const info = await call("element_info", { ref });
    assert.equal(info.data?.value ?? info.data?.element?.value, "Blue", info.text);
  });

  it("fill_form chooses a <select>'s option by its text, read back; find shows the option it holds", async () => {
    const filled = await call("fill_form", {
      target,
      fields: [{ label: "Color", value: "Green" }],
      intent: "Choose a colour",
    });
    assert.ok(filled.ok, JSON.stringify(filled.error));
    assert.equal(filled.data.fields[0].set, true, filled.text);
    assert.equal(filled.data.fields[0].route, "accessibility", filled.text);
    // Re-read from the app: the select holds it (Firefox's value is its list's selected item, which
    // an answer by the app itself, without the list, had left out).
    const combo = await call("find", { target, role: "combo box", name: "Color" });
    assert.equal(combo.data.matches[0].value, "Green", combo.text);
    if (toolkit === "chromium") {
      let text = "";
      for (let i = 0; i < 20 && !/Color Green/.test(text); i++) {
        text = await status();
        if (!/Color Green/.test(text)) await sleep(150);
      }
      assert.match(text, /Color Green/, "the page heard the change");
    }
  });

  it("a page's buttons offer a press, not a text to set; its field a text where it takes one; a name's echo is no value", async () => {
    const observed = await call("observe", { target });
    const line = (start: string) =>
      observed.data.targets.find((t: { label: string }) => t.label.startsWith(start));
    // Firefox gives EditableText to every button of a page: setting it there does nothing.
    const greet = line('push button "Show greeting"');
    assert.ok(greet, observed.text);
    assert.ok(greet.actions.includes("invoke") && !greet.actions.includes("set_value"), greet.label);
    // Chromium's inputs have no EditableText at all (its profile says so): its field offers none.
    const name = line('entry "Name"');
    assert.equal(name?.actions.includes("set_value"), !profile.setValueRefused, name?.label ?? observed.text);
    const found = await call("find", { target, role: "push button", name: "Show greeting" });
    assert.match(found.text ?? "", /^- push button "Show greeting" \[ref=/m, found.text);
  });

  it("an alert whose words are in child paragraphs reads with them, in find and in a snapshot", async () => {
    const greet = await call("find", { target, role: "push button", name: "Show greeting" });
    const pressed = await call("act", { ref: greet.data.matches[0].ref, action: { kind: "invoke" } });
    assert.ok(pressed.ok, JSON.stringify(pressed.error));
    await sleep(500);
    // Firefox maps ARIA's alert to AT-SPI's alert, Chromium to notification (as Core-AAM says for
    // ATK). Its words, in its children, are what value_contains searches.
    const role = toolkit === "chromium" ? "notification" : "alert";
    const found = await call("find", {
      target,
      role,
      value_contains: "sent to the",
      include_off_screen: true,
    });
    assert.equal(found.data?.total, 1, found.text);
    const notice = found.data.matches[0];
    assert.equal(notice?.value, "Greeting sent to the page", found.text);
    assert.match(
      found.text ?? "",
      new RegExp(`^- ${role} = "Greeting sent to the page"`, "m"),
      "no empty name",
    );
    const read = await call("snapshot", { target: { kind: "element", ref: notice.ref } });
    assert.match(read.text ?? "", new RegExp(`- ${role} \\[ref=[^\\]]+\\] = "Greeting sent to the page"`));
  });
});
