// Semantic actions on real apps, each effect re-read from the app itself: the Swing fixture's status
// label records what the app saw; GTK states are re-read in a fresh snapshot.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { createContext, type ToolContext } from "../../src/tools/context.js";
import type { ToolName } from "../../src/tools/registry.js";
import { HANG_MS, TITLES, toolCaller } from "./helpers.js";

type Element = {
  ref: string;
  role: string;
  name: string | null;
  states: string[] | null;
  value?: string;
  description?: string;
  actions?: string[];
  bounds?: { x: number; y: number; width: number; height: number } | null;
  depth: number;
};

describe("acting on real apps", () => {
  let context: ToolContext;
  before(() => {
    context = createContext({ refLifetime: "while-verified" });
  });
  after(() => context.close());

  const call = (tool: ToolName, input: Record<string, unknown>) => toolCaller(context)(tool, input);
  const snapshot = async (glob: string): Promise<Element[]> => {
    const result = await call("snapshot", {
      target: { kind: "title", glob },
      maxDepth: 40,
      maxNodes: 2000,
      format: "json",
    });
    assert.ok(result.ok, JSON.stringify(result));
    return result.data.elements;
  };
  const pick = (elements: Element[], predicate: (e: Element) => boolean, what: string) => {
    const found = elements.find(predicate);
    assert.ok(found, `${what} is in the snapshot`);
    return found;
  };
  /** The Swing fixture's own record of the last thing it saw, re-read from the app. */
  const swingStatus = async () => {
    const status = pick(await snapshot(TITLES.swing), (e) => e.name === "Status", "the status label");
    return status.description;
  };
  const act = (ref: string, action: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    call("act", { ref, action, ...extra });

  it("Swing: toggle, set_value, select an option, select a table row, expand a tree node", async () => {
    const form = await snapshot(TITLES.swing);
    const subscribe = pick(form, (e) => e.name === "Subscribe", "Subscribe");
    const toggled = await act(subscribe.ref, { kind: "toggle" });
    assert.ok(toggled.ok, JSON.stringify(toggled));
    assert.equal(toggled.data.action_outcome, "completed");
    assert.ok(toggled.data.after.states.includes("checked"), "the receipt re-read the check box as checked");
    assert.equal(await swingStatus(), "Subscribed");

    const name = pick(form, (e) => e.role === "text" && e.name === "Name", "the Name field");
    const typed = await act(name.ref, { kind: "set_value", text: "Ada Lovelace ✓" });
    assert.ok(typed.ok, JSON.stringify(typed));
    const reread = pick(
      await snapshot(TITLES.swing),
      (e) => e.role === "text" && e.name === "Name",
      "the Name field",
    );
    assert.equal(reread.value, "Ada Lovelace ✓");

    const color = pick(form, (e) => e.role === "combo box", "the Color combo box");
    const selected = await act(color.ref, { kind: "select", option: "Blue" });
    assert.ok(selected.ok, JSON.stringify(selected));
    assert.equal(selected.data.effect, "seen", "the receipt says the option took");
    assert.equal(await swingStatus(), "Color Blue");
    // The combo box is now named "Blue": the old ref is stale, so take the new one.
    const recolored = pick(
      await snapshot(TITLES.swing),
      (e) => e.role === "combo box",
      "the Color combo box",
    );
    assert.equal(recolored.name, "Blue");
    const missing = await act(recolored.ref, { kind: "select", option: "Purple" });
    assert.equal(missing.ok, false);
    assert.equal(missing.error.code, "action_failed");
    assert.match(missing.error.message, /"Red","Green","Blue"/);

    const table = pick(form, (e) => e.role === "table", "the table");
    const row = await act(table.ref, { kind: "select", row: 150 });
    assert.ok(row.ok, JSON.stringify(row));
    assert.equal(await swingStatus(), "Selected row 151");

    const fruit = pick(form, (e) => e.name === "Fruit", "the Fruit tree node");
    const expanded = await act(fruit.ref, { kind: "expand" });
    assert.ok(expanded.ok, JSON.stringify(expanded));
    assert.equal(await swingStatus(), "Expanded Fruit");
    const tree = await snapshot(TITLES.swing);
    assert.ok(pick(tree, (e) => e.name === "Fruit", "Fruit").states?.includes("expanded"));
    assert.ok(
      tree.some((e) => e.name === "Apple"),
      "the expanded node's children are in the tree",
    );
  });

  it("refuses what an element does not support, naming what it does, and read-only fields", async () => {
    const form = await snapshot(TITLES.swing);
    const status = pick(form, (e) => e.name === "Status", "the status label");
    const refused = await act(status.ref, { kind: "set_value", text: "x" });
    assert.equal(refused.ok, false);
    assert.equal(refused.error.code, "unsupported_pattern");
    assert.ok(Array.isArray(refused.error.supported));
    const serial = pick(form, (e) => e.role === "text" && e.name === "Serial", "the read-only Serial field");
    const readOnly = await act(serial.ref, { kind: "set_value", text: "changed" });
    assert.equal(readOnly.ok, false);
    assert.equal(readOnly.error.code, "read_only");
    assert.equal(
      pick(await snapshot(TITLES.swing), (e) => e.name === "Serial" && e.role === "text", "Serial").value,
      "DH-0042",
    );
  });

  it("never improvises: toggle on a button, select past the table, read_table on a button", async () => {
    const form = await snapshot(TITLES.swing);
    const before = await swingStatus();
    const alpha = pick(form, (e) => e.role === "push button" && /^Alpha/.test(e.name ?? ""), "Alpha");
    const toggled = await act(alpha.ref, { kind: "toggle" });
    assert.equal(toggled.error?.code, "unsupported_pattern", JSON.stringify(toggled));
    assert.match(toggled.error.message, /push button .* does not support toggle.*use invoke/);
    const table = pick(form, (e) => e.role === "table", "the table");
    const past = await act(table.ref, { kind: "select", row: 999 });
    assert.equal(past.error?.code, "index_out_of_range", JSON.stringify(past));
    assert.match(past.error.message, /200 rows/);
    const notTable = await call("read_table", { ref: alpha.ref });
    assert.equal(notTable.error?.code, "unsupported_pattern", JSON.stringify(notTable));
    assert.match(notTable.error.message, /is a push button ".*", not a table/);
    for (const reply of [toggled, past, notTable])
      assert.doesNotMatch(
        JSON.stringify(reply.error),
        /org\.freedesktop|org\.a11y/,
        "no D-Bus text reaches a reply",
      );
    assert.equal(await swingStatus(), before, "nothing was pressed");
    // Selecting a radio button chooses it (UIA's SelectionItem, as the seeds' clients expect), read back.
    const radios = form.filter((e) => e.role === "radio button");
    const chosen = radios.find((e) => e.states?.includes("checked"));
    const other = radios.find((e) => !e.states?.includes("checked"));
    assert.ok(chosen && other, JSON.stringify(radios));
    const selected = await act(other.ref, { kind: "select" });
    assert.ok(selected.ok, JSON.stringify(selected.error));
    assert.equal(selected.data.effect, "seen", JSON.stringify(selected.data));
    assert.ok(selected.data.after.states.includes("checked"), JSON.stringify(selected.data.after));
    const back = await act(chosen.ref, { kind: "select" });
    assert.ok(back.ok && back.data.effect === "seen", JSON.stringify(back.data ?? back.error));
    // The app heard each choice, as a click's.
    assert.equal(await swingStatus(), `Size ${chosen.name}`);
  });

  it("a changed element is reported, never acted on", async () => {
    const form = await snapshot(TITLES.swing);
    const alpha = pick(form, (e) => e.name === "Alpha", "the Alpha button");
    const reorder = pick(form, (e) => e.name === "Reorder", "the Reorder button");
    assert.ok((await act(reorder.ref, { kind: "invoke" })).ok);
    assert.equal(await swingStatus(), "Reordered");
    const stale = await act(alpha.ref, { kind: "invoke" });
    assert.equal(stale.ok, false);
    assert.equal(stale.error.code, "stale_element");
    assert.ok(stale.error.differences.some((d: { field: string }) => d.field === "name"));
    assert.match(stale.error.next, /new snapshot/);
    assert.equal(await swingStatus(), "Reordered", "nothing was pressed");
  });

  it("an action that opens a modal dialog returns at once and reports the dialog", async () => {
    const form = await snapshot(TITLES.swing);
    const open = pick(form, (e) => e.name === "Open dialog", "the Open dialog button");
    const started = Date.now();
    const opened = await act(open.ref, { kind: "invoke" }, { waitMs: 500, view: true });
    assert.ok(Date.now() - started < HANG_MS, `returned in ${Date.now() - started} ms`);
    assert.ok(opened.ok, JSON.stringify(opened));
    assert.deepEqual(
      opened.data.windows_appeared.map((w: { title: string }) => w.title),
      ["Confirm"],
    );
    // The reply ends with the dialog as a person now sees it: its buttons, by ref, with no look after.
    const view = opened.text.slice(opened.text.indexOf("# view:"));
    assert.match(
      view,
      /^# view: window \d+ "Confirm" \([^)]*\) in front · s\d+, new to you: \d+ targets$/m,
      opened.text,
    );
    const cancelRef = /^\d+\. push button "Cancel" \[ref=(s\d+:e\d+\w*)\]/m.exec(view)?.[1];
    assert.ok(cancelRef, view);
    const closed = await act(cancelRef, { kind: "invoke" }, { waitMs: 500 });
    assert.ok(closed.ok, JSON.stringify(closed));
    assert.deepEqual(
      closed.data.windows_disappeared.map((w: { title: string }) => w.title),
      ["Confirm"],
    );
    assert.equal(await swingStatus(), "Cancelled");
  });

  it("reads rows 150–199 of the 200-row table with headers, and a text slice", async () => {
    const form = await snapshot(TITLES.swing);
    const table = pick(form, (e) => e.role === "table", "the table");
    const read = await call("read_table", { ref: table.ref, row_start: 150, row_count: 50 });
    assert.ok(read.ok, JSON.stringify(read));
    assert.deepEqual(read.data.headers, ["ID", "Item", "Quantity", "Price"]);
    assert.equal(read.data.rows, 200);
    assert.equal(read.data.cells.length, 50);
    assert.deepEqual(read.data.cells[0], { row: 150, values: ["151", "Item 151", "0", "61.50"] });
    assert.deepEqual(read.data.cells[49], { row: 199, values: ["200", "Item 200", "43", "20.87"] });
    assert.equal(read.data.unreadable_cells, 0);
    // A cell found by its text comes with its row, each value under its header: no read_table after.
    const found = await call("find", {
      target: { kind: "title", glob: TITLES.swing },
      name: "Item 151",
      search_tables: true,
    });
    assert.ok(found.ok, JSON.stringify(found.error));
    assert.deepEqual(
      found.data.matches[0]?.row,
      { ID: "151", Item: "Item 151", Quantity: "0", Price: "61.50" },
      found.text,
    );
    // Words that are a field's value, not a name: `text` finds them and says where; a find by name
    // that matched nothing lists them in the same reply, with a ref.
    const serial = await call("find", { target: { kind: "title", glob: TITLES.swing }, text: "dh-0042" });
    assert.ok(serial.ok, JSON.stringify(serial.error));
    assert.deepEqual(
      serial.data.matches.map((m: { role: string; value: string; text_in: string }) => [
        m.role,
        m.value,
        m.text_in,
      ]),
      [["text", "DH-0042", "value"]],
      serial.text,
    );
    const byName = await call("find", { target: { kind: "title", glob: TITLES.swing }, name: "DH-0042" });
    assert.equal(byName.data.total, 0, byName.text);
    assert.match(
      byName.text ?? "",
      /Its words are on this, not as a name:\n- text[^\n]* = "DH-0042"[^\n]* · found in its value \[ref=/,
    );
    const notes = pick(form, (e) => e.role === "text" && e.name === "Notes", "the Notes area");
    const slice = await call("read_text", { ref: notes.ref, start: 6, length: 4 });
    assert.ok(slice.ok, JSON.stringify(slice));
    assert.deepEqual(
      { text: slice.data.text, length: slice.data.length, cut: slice.data.cut },
      { text: "line", length: 22, cut: true },
    );
    const button = pick(form, (e) => e.name === "Reorder", "Reorder");
    const none = await call("read_text", { ref: button.ref });
    assert.equal(none.ok, false);
    assert.equal(none.error.code, "no_text");
  });

  it("every cut is disclosed: a receipt's long value, a match's value, a row cut by max_cells", async () => {
    const form = await snapshot(TITLES.swing);
    const field = pick(form, (e) => e.role === "text" && e.name === "Name", "the Name field");
    const long = `${"0123456789".repeat(501)}xy`;
    try {
      const set = await act(field.ref, { kind: "set_value", text: long });
      assert.ok(set.ok, JSON.stringify(set.error));
      assert.equal(set.data.after.value.length, 200);
      assert.equal(set.data.after.value_length, 5012);
      assert.match(set.text ?? "", /first 200 of 5012 characters: read_text reads the rest/);
      const found = await call("find", {
        target: { kind: "title", glob: TITLES.swing },
        value_contains: "789xy",
      });
      assert.ok(found.ok, JSON.stringify(found.error));
      assert.equal(found.data.matches[0].value.length, 200);
      assert.equal(found.data.matches[0].value_length, 5012);
      assert.match(found.text ?? "", /… \(5012 characters: read_text reads them\)/);
    } finally {
      await act(field.ref, { kind: "set_value", text: "" });
    }
    const table = pick(form, (e) => e.role === "table", "the table");
    const page = await call("read_table", { ref: table.ref, row_start: 12, row_count: 3, max_cells: 9 });
    assert.deepEqual(page.data.cut_row, { row: 14, cells_shown: 1, cells: 4, by: "max_cells" });
    assert.match(
      page.text ?? "",
      /row 14: only 1 of its 4 cells shown \(max_cells 9\); row_start 14 reads it again whole/,
    );
    assert.match(page.text ?? "", /186 more rows: row_start 14 continues/);
  });

  it("element_info re-reads an element and says whether it still verifies", async () => {
    const form = await snapshot(TITLES.swing);
    const open = pick(form, (e) => e.name === "Open dialog", "Open dialog");
    const info = await call("element_info", { ref: open.ref });
    assert.ok(info.ok);
    assert.equal(info.data.verified, true);
    assert.ok(info.data.actions.includes("click"));
    assert.ok(info.data.bounds.width > 0);
  });

  it("fill_form attempts every field and reports each", async () => {
    const form = await snapshot(TITLES.swing);
    const name = pick(form, (e) => e.role === "text" && e.name === "Name", "Name");
    const serial = pick(form, (e) => e.role === "text" && e.name === "Serial", "Serial");
    const notes = pick(form, (e) => e.role === "text" && e.name === "Notes", "Notes");
    const filled = await call("fill_form", {
      fields: [
        { ref: name.ref, value: "Grace" },
        { ref: serial.ref, value: "nope" },
        { ref: notes.ref, value: "Line one\nLine two" },
      ],
    });
    assert.ok(filled.ok, JSON.stringify(filled));
    assert.deepEqual(
      filled.data.fields.map((f: { set: boolean }) => f.set),
      [true, false, true],
    );
    assert.equal(filled.data.set, 2, "counted as set only where the field reads back");
    assert.equal(filled.data.fields[1].error.code, "read_only");
    const after = await snapshot(TITLES.swing);
    assert.equal(pick(after, (e) => e.role === "text" && e.name === "Name", "Name").value, "Grace");
    assert.equal(
      pick(after, (e) => e.role === "text" && e.name === "Notes", "Notes").value,
      "Line one\nLine two",
    );
    // The Java wrapper ignores a spinner's new Value: the spinner is stepped there with the arrow keys
    // (or typed, where it cannot be), and counted as set only if its value then reads 7.
    const quantity = pick(after, (e) => e.role === "spin button" && e.name === "Quantity", "Quantity");
    const spun = await call("fill_form", {
      fields: [{ ref: quantity.ref, value: 7 }],
      intent: "Set the quantity",
    });
    assert.ok(spun.ok, JSON.stringify(spun));
    const reread = await snapshot(TITLES.swing);
    const value = pick(reread, (e) => e.role === "spin button" && e.name === "Quantity", "Quantity").value;
    assert.equal(value, "7", `the spinner reads 7: ${spun.text}`);
    assert.equal(spun.data.set, 1, `counted as set, as it reads 7: ${spun.text}`);
    // A password field takes its value, but nothing can read it back: written, and said unverified.
    const password = pick(reread, (e) => e.role === "password text", "Password");
    const secret = await call("fill_form", { fields: [{ ref: password.ref, value: "s3cret-word" }] });
    assert.deepEqual(
      { set: secret.data.fields[0].set, unverifiable: secret.data.fields[0].unverifiable },
      { set: false, unverifiable: true },
      secret.text,
    );
    assert.match(
      secret.text!,
      /a password field, or a card number, key or code in a field, is never read back, so it is not verified/,
    );
    assert.ok(!secret.text!.includes("s3cret"));
    const bad = await call("fill_form", { fields: [] });
    assert.equal(bad.ok, false);
    assert.equal(bad.error.code, "invalid_params");
  });

  it("find: selectors, locators, waiting, and the three kinds of empty answer", async () => {
    const target = { kind: "title", glob: TITLES.swing };
    const byName = await call("find", { target, name: "OPEN dialog" });
    assert.ok(byName.ok, JSON.stringify(byName));
    assert.deepEqual(
      byName.data.matches.map((m: Element) => m.name),
      ["Open dialog"],
    );
    assert.equal(byName.data.searched_whole_window, false, "table cells are not searched, and it says so");
    assert.deepEqual(byName.data.cuts, ["tableRows"]);
    const byLocator = await call("find", {
      target,
      locator: "//page tab list/page tab[@name=contains('tre')] | //check box",
    });
    assert.deepEqual(
      byLocator.data.matches.map((m: Element) => m.name),
      ["Subscribe", "Tree"],
    );
    const second = await call("find", { target, role: "radio button", nth: 1 });
    assert.deepEqual(
      second.data.matches.map((m: Element) => m.name),
      ["Medium"],
    );
    assert.equal(second.data.total, 3, "the total still counts every match");
    const byValue = await call("find", { target, value_contains: "dh-00" });
    assert.deepEqual(
      byValue.data.matches.map((m: Element) => m.name),
      ["Serial"],
    );
    const none = await call("find", { target, role: "push button", name: "Launch rockets" });
    assert.equal(none.data.total, 0);
    // The answer repeats what found nothing, so the next try can be narrower rather than the same.
    assert.match(none.text ?? "", /^No match for role "push button", name "Launch rockets"\./);
    const joined = await call("find", { target, role: "push button", states: "enabled,showing" });
    const listed = await call("find", { target, role: "push button", states: ["enabled", "showing"] });
    assert.ok(joined.ok && joined.data.total > 0, "states comma-joined, as pyjab writes them");
    assert.equal(joined.data.total, listed.data.total);
    const sizes = pick(
      await snapshot(TITLES.swing),
      (e) => e.role === "panel" && e.name === "Size",
      "the Size panel",
    );
    const inPanel = await call("find", { target: { kind: "element", ref: sizes.ref }, role: "radio button" });
    assert.equal(inPanel.data.total, 3);
    assert.equal(inPanel.data.searched_whole_window, true, "a subtree without tables is searched whole");
    const started = Date.now();
    const waited = await call("find", {
      target: { kind: "title", glob: "No such*" },
      name: "OK",
      timeout_ms: 500,
    });
    assert.ok(waited.ok, "a timeout is a result");
    assert.equal(waited.data.timed_out, true);
    assert.ok(Date.now() - started >= 500);
    const bad = await call("find", { target, locator: "//push button[@name=" });
    assert.equal(bad.error.code, "invalid_params");
  });

  it("find asks GTK3 itself (Collection) and agrees with a read of the tree", async () => {
    const target = { kind: "title", glob: TITLES.gtk3 };
    const everything = { limit: 500, include_off_screen: true };
    const byCollection = await call("find", { target, role: "push button", ...everything });
    const byTree = await call("find", { target, locator: "//push button", ...everything });
    assert.equal(byCollection.data.method, "collection");
    assert.equal(byTree.data.method, "tree");
    assert.ok(byCollection.data.total > 10);
    assert.deepEqual(
      byCollection.data.matches.map((m: Element) => m.name),
      byTree.data.matches.map((m: Element) => m.name),
    );
    assert.equal(byCollection.data.searched_whole_window, true);
    // By default both leave out the same buttons off screen (a hidden popover's, the other pages').
    const shown = await call("find", { target, role: "push button", limit: 500 });
    const shownByTree = await call("find", { target, locator: "//push button", limit: 500 });
    assert.ok(shown.data.left_out.off_screen > 0);
    assert.equal(shown.data.total + shown.data.left_out.off_screen, byCollection.data.total);
    assert.deepEqual(
      shown.data.matches.map((m: Element) => m.name),
      shownByTree.data.matches.map((m: Element) => m.name),
    );
    const swing = await call("find", { target: { kind: "title", glob: TITLES.swing }, role: "push button" });
    assert.equal(swing.data.method, "tree", "Java answers Collection slower than its tree is read");
  });

  it("acting by selector refuses several matches without nth, listing them", async () => {
    const target = { kind: "title", glob: TITLES.swing };
    const many = await call("act", { find: { target, role: "radio button" }, action: { kind: "toggle" } });
    assert.equal(many.ok, false);
    assert.equal(many.error.code, "ambiguous");
    assert.deepEqual(
      many.error.candidates.map((c: Element) => c.name),
      ["Small", "Medium", "Large"],
    );
    assert.match(
      many.error.message,
      /nth 2: s\d+:e\d+[a-z]{2} radio button "Large"/,
      "the text lists them too",
    );
    const large = await call("act", {
      find: { target, role: "radio button" },
      nth: 2,
      action: { kind: "toggle" },
    });
    assert.ok(large.ok, JSON.stringify(large));
    assert.equal(await swingStatus(), "Size Large");
    const missing = await call("act", {
      find: { target, name: "Launch rockets" },
      action: { kind: "invoke" },
    });
    assert.equal(missing.error.code, "not_found");
  });

  it("wait: a window appears; an element's text changes; a timeout is a result", async () => {
    const form = await snapshot(TITLES.swing);
    const status = pick(form, (e) => e.name === "Status", "the status label");
    void status;
    const timedOut = await call("wait", { condition: { kind: "window", title: "Confirm" }, timeout_ms: 300 });
    assert.ok(timedOut.ok);
    assert.equal(timedOut.data.met, false);
    const open = pick(form, (e) => e.name === "Open dialog", "Open dialog");
    assert.ok((await act(open.ref, { kind: "invoke" }, { waitMs: 0 })).ok);
    const appeared = await call("wait", { condition: { kind: "window", title: "Conf*" }, timeout_ms: 5000 });
    assert.equal(appeared.data.met, true, JSON.stringify(appeared));
    const cancel = pick(await snapshot("Confirm"), (e) => e.name === "Cancel", "Cancel");
    assert.ok((await act(cancel.ref, { kind: "invoke" })).ok);
    const gone = await call("wait", {
      condition: { kind: "window", title: "Confirm", state: "disappears" },
      timeout_ms: 5000,
    });
    assert.equal(gone.data.met, true);
    const name = pick(await snapshot(TITLES.swing), (e) => e.role === "text" && e.name === "Name", "Name");
    const watching = call("wait", {
      condition: { kind: "text", ref: name.ref },
      timeout_ms: 5000,
      poll_ms: 50,
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await act(name.ref, { kind: "set_value", text: "changed while watched" });
    const changed = await watching;
    assert.equal(changed.data.met, true, JSON.stringify(changed));
    // The wait ends at the first change it sees: Java's wrapper may show the new text growing
    // ("chang", under load) or cleared first, never another text.
    const seen = String(changed.data.seen.now);
    assert.ok("changed while watched".startsWith(seen), seen);
    const read = await call("read_text", { ref: name.ref });
    assert.equal(read.data?.text, "changed while watched", "the whole text went in");
    const appears = await call("wait", {
      condition: {
        kind: "element",
        target: { kind: "title", glob: TITLES.swing },
        name: "Subscribe",
        state: "enabled",
      },
      timeout_ms: 1000,
    });
    assert.equal(appears.data.met, true);
  });

  it("GTK3: toggle a check box and set a spin button's value; GTK4: set an entry's text, refuse a check box", async () => {
    const gtk3 = await snapshot(TITLES.gtk3);
    const checks = gtk3.filter(
      (e) => e.role === "check box" && e.name === "checkbutton" && e.states?.includes("sensitive"),
    );
    const unchecked = pick(
      checks,
      (e) => !e.states?.includes("checked") && !e.states?.includes("indeterminate"),
      "an unchecked check box",
    );
    const index = gtk3.indexOf(unchecked);
    assert.ok((await act(unchecked.ref, { kind: "toggle" })).ok);
    assert.ok(
      (await snapshot(TITLES.gtk3))[index]!.states?.includes("checked"),
      "GTK3 re-reads it as checked",
    );
    const spin = pick(gtk3, (e) => e.role === "spin button" && e.value === "50", "the spin button at 50");
    const spinIndex = gtk3.indexOf(spin);
    const ranged = await act(spin.ref, { kind: "set_range", value: 70 });
    assert.ok(ranged.ok, JSON.stringify(ranged));
    assert.equal((await snapshot(TITLES.gtk3))[spinIndex]!.value, "70");

    const sliderQuery = {
      target: { kind: "title", glob: TITLES.gtk3 },
      role: "slider",
      states: ["enabled", "showing"],
    };
    const slid = await call("act", { find: sliderQuery, nth: 0, action: { kind: "set_range", value: 25 } });
    assert.ok(slid.ok, JSON.stringify(slid));
    const slider = await call("find", sliderQuery);
    assert.equal(slider.data.matches[0].value, "25", "GTK3 re-reads the slider at 25");

    // GTK 4.8 reports no `showing`: find infers it from what is visible and on screen.
    const target4 = { kind: "title", glob: TITLES.gtk4 };
    const showing = await call("find", {
      target: target4,
      role: "push button",
      states: ["showing"],
      limit: 500,
    });
    const all = await call("find", {
      target: target4,
      role: "push button",
      limit: 500,
      include_off_screen: true,
    });
    assert.ok(showing.ok && all.ok);
    assert.ok(showing.data.total > 0, "some GTK4 buttons are on screen");
    assert.ok(showing.data.total < all.data.total, "the hidden pages' buttons are not");
    for (const m of showing.data.matches) assert.ok(m.bounds && m.bounds.width > 0, JSON.stringify(m));
    const gtk4 = await snapshot(TITLES.gtk4);
    const entry = pick(
      gtk4,
      (e) =>
        e.role === "text" &&
        e.value === "entry" &&
        !!e.states?.includes("editable") &&
        !!e.states?.includes("sensitive"),
      "an enabled GTK4 entry",
    );
    const entryIndex = gtk4.indexOf(entry);
    assert.ok((await act(entry.ref, { kind: "set_value", text: "from deskhand" })).ok);
    assert.equal((await snapshot(TITLES.gtk4))[entryIndex]!.value, "from deskhand");
    // Left as it was: later files look for the entry by its text.
    assert.ok((await act(entry.ref, { kind: "set_value", text: "entry" })).ok);
    const check = pick(gtk4, (e) => e.role === "check box", "a GTK4 check box");
    const refused = await act(check.ref, { kind: "toggle" });
    assert.equal(refused.ok, false, "GTK 4.8 check boxes expose no actions");
    assert.equal(refused.error.code, "unsupported_pattern");
  });

  it("GTK4: a menu button's wrapper, which has no actions, is pressed through its twin: the menu opens and closes", async () => {
    const isWrapper = (elements: Element[], e: Element) => {
      const next = elements[elements.indexOf(e) + 1];
      return (
        e.role === "push button" &&
        !e.name &&
        (e.actions ?? []).length === 0 &&
        !!e.bounds &&
        e.bounds.width > 0 &&
        next?.depth === e.depth + 1 &&
        next.role === e.role &&
        !next.name
      );
    };
    const gtk4 = await snapshot(TITLES.gtk4);
    const wrapper = pick(gtk4, (e) => isWrapper(gtk4, e), "a GTK4 menu button's wrapper on screen");
    const index = gtk4.indexOf(wrapper);
    // GTK 4.8 reports `expanded` on the wrapper a little after the popover maps.
    const expandedSoon = async (want: boolean) => {
      const deadline = Date.now() + 5000;
      for (;;) {
        const states = (await snapshot(TITLES.gtk4))[index]!.states ?? [];
        if (states.includes("expanded") === want || Date.now() > deadline) return states.includes("expanded");
        await sleep(200);
      }
    };
    assert.equal(await expandedSoon(false), false, "its menu starts closed");
    // GTK 4.8 names neither the wrapper nor its twin, and reports no has-popup; its type name says
    // it is a menu button, so it opens its menu with no person (it had asked).
    const opened = await act(wrapper.ref, { kind: "invoke" });
    assert.ok(opened.ok, JSON.stringify(opened));
    assert.match(opened.data.route, /twin child/);
    assert.equal(await expandedSoon(true), true, "the menu opened");
    const closed = await act(wrapper.ref, { kind: "collapse" });
    assert.ok(closed.ok, JSON.stringify(closed));
    assert.equal(await expandedSoon(false), false, "the menu closed");
  });
});
