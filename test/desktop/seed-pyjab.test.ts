// The pyjab-mcp seed replayed: `deskhand mcp --profile pyjab` answers the calls its document describes,
// in its own spelling (java_list_windows, java_attach_window, java_snapshot, java_find, java_click...),
// against the Swing fixture; each effect is re-read from the app.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { mcpClient, startSwingFixture, TITLES } from "./helpers.js";

type Result = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: any };

describe("the pyjab profile, replayed", () => {
  let client: Client;
  before(async () => {
    client = await mcpClient("pyjab-replay", ["--profile", "pyjab"]);
  });
  after(() => client.close());

  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as Result;
  const text = (r: Result) => r.content[0]?.text ?? "";

  it("lists Java windows only, binds a session, and reads in rings with handles", async () => {
    const listed = await call("java_list_windows");
    const titles = listed.structuredContent.windows.map((w: { title: string }) => w.title);
    assert.ok(titles.includes(TITLES.swing));
    assert.ok(!titles.includes(TITLES.gtk3), "a GTK window is not a Java window");
    const gtk = await call("java_attach_window", { title: TITLES.gtk3 });
    assert.equal(gtk.isError, true);
    assert.match(text(gtk), /not Java/);
    const nothing = await call("java_attach_window", {});
    assert.equal(nothing.isError, true);
    assert.match(text(nothing), /give a title .* or an hwnd/);
    const bound = await call("java_attach_window", { title: "Deskhand Fix*" });
    const session = bound.structuredContent.session_id;
    assert.match(session, /^session-\d+$/);
    const ring = await call("java_snapshot", {
      session_id: session,
      depth: 2,
      only_interactive: false,
      fields: ["states", "depth"],
    });
    assert.match(text(ring), /\[e:s\d+:e\d+[a-z]{2}\]/);
    assert.match(text(ring), /depth=1/);
    const unknown = await call("java_snapshot", { session_id: "session-999" });
    assert.equal(unknown.isError, true);
    assert.match(text(unknown), /live sessions: session-/);
  });

  it("the first snapshot the seed recommends (depth 2, interactive only) shows the controls, at their true depth", async () => {
    const session = (await call("java_attach_window", { title: TITLES.swing })).structuredContent.session_id;
    const first = await call("java_snapshot", { session_id: session, fields: ["depth"] });
    const lines = text(first).split("\n");
    const buttons = lines.filter((l) => /^\s*push button /.test(l));
    // The menus, the tool bar's buttons and the tabs: the window's controls, not its frame alone.
    assert.ok(
      buttons.length >= 2 && lines.length >= 10,
      `the controls are in the first ring: ${text(first)}`,
    );
    assert.ok(
      lines.some((l) => /^\s*page tab "Form"/.test(l)),
      text(first),
    );
    // depth= is the element's depth in the window's tree, as java_element_info says.
    const alpha = /\[(e:s\d+:e\d+[a-z]{2})\] depth=(\d+)/.exec(buttons[0]!)!;
    const info = await call("java_element_info", { session_id: session, handle: alpha[1] });
    assert.equal(info.structuredContent.depth, Number(alpha[2]), `${buttons[0]} vs ${text(info)}`);
    // A shallower read says what it left below, and how to see it.
    const shallow = await call("java_snapshot", { session_id: session, depth: 0 });
    assert.match(
      text(shallow),
      /\(\d+ more elements? below depth 0: raise depth to see them\)/,
      text(shallow),
    );
    assert.ok(shallow.structuredContent.truncated_by.includes("maxDepth"));
    // The fixture's table shows its first rows: the cut names the tool that reads them all.
    const deep = await call("java_snapshot", { session_id: session, depth: 40, max_nodes: 5000 });
    assert.ok(deep.structuredContent.truncated_by.includes("tableRows"), text(deep).slice(-400));
    assert.match(text(deep), /cut by tableRows: .*java_read_table/);
  });

  it("finds with exactly one selector, acts, and verifies; a handle of another session is refused", async () => {
    const session = (await call("java_attach_window", { title: TITLES.swing })).structuredContent.session_id;
    const two = await call("java_find", { session_id: session, name: "Alpha", role: "push button" });
    assert.equal(two.isError, true);
    // name is exact, case and all: "note" is not the button "Note" (which other tests never rename).
    const exact = await call("java_find", { session_id: session, name: "Note" });
    assert.equal(exact.structuredContent.total, 1, text(exact));
    const folded = await call("java_find", { session_id: session, name: "note" });
    assert.equal(folded.structuredContent.total, 0, text(folded));
    const none = await call("java_find", { session_id: session, name: "Launch rockets" });
    assert.match(text(none), /^Nothing matched name="Launch rockets"/);
    const states = await call("java_find", { session_id: session, states: "enabled,showing" });
    assert.ok(states.structuredContent.total > 0, "states comma-joined");
    const xpath = await call("java_find", {
      session_id: session,
      xpath: "//push button[@name=contains('Note')]",
    });
    const note = xpath.structuredContent.matches[0];
    assert.equal(note.locator, "//push button[@name='Note']");
    const clicked = await call("java_click", { session_id: session, handle: note.handle });
    assert.ok(!clicked.isError, text(clicked));
    const status = (await call("java_find", { session_id: session, name: "Status" })).structuredContent
      .matches[0];
    const info = await call("java_element_info", { session_id: session, handle: status.handle });
    assert.ok(info.structuredContent.depth > 0);
    assert.equal(info.structuredContent.locator, "//label[@name='Status']");
    await sleep(200);
    assert.match(info.structuredContent.description ?? "", /Note (added|removed)/);
    // description is exact too, case and all.
    const described = info.structuredContent.description as string;
    const byDescription = await call("java_find", { session_id: session, description: described });
    assert.ok(byDescription.structuredContent.total >= 1, text(byDescription));
    const shouted = await call("java_find", { session_id: session, description: described.toUpperCase() });
    assert.equal(shouted.structuredContent.total, 0, text(shouted));
    // Put the note back as it was.
    await call("java_click", { session_id: session, handle: note.handle });
    const field = (
      await call("java_find", { session_id: session, name: "Name" })
    ).structuredContent.matches.find((m: { role: string }) => m.role === "text");
    const typed = await call("java_type_text", { session_id: session, handle: field.handle, value: "pyjab" });
    assert.ok(!typed.isError, text(typed));
    const read = await call("java_read_text", { session_id: session, handle: field.handle });
    assert.equal(read.structuredContent.text, "pyjab");
    // The reply spells the field as this client's tools take it: its handle, not deskhand's ref.
    assert.ok(text(typed).startsWith(`${field.handle}:`), text(typed));
    // A spinner's number, either way: its value is set (stepped with arrows where Java ignores it), read back.
    const spinner = (
      await call("java_find", { session_id: session, xpath: "//spin button[@name='Quantity']" })
    ).structuredContent.matches[0];
    const quantity = Number(
      (await call("java_element_info", { session_id: session, handle: spinner.handle })).structuredContent
        .value,
    );
    for (const [value, simulate] of [
      [quantity + 2, false],
      [quantity, true],
    ] as const) {
      const set = await call("java_type_text", {
        session_id: session,
        handle: spinner.handle,
        value: String(value),
        simulate,
      });
      assert.ok(!set.isError, text(set));
      const now = (await call("java_element_info", { session_id: session, handle: spinner.handle }))
        .structuredContent;
      assert.equal(Number(now.value), value, JSON.stringify(now));
    }
    // Without simulate no real key goes out: " " on the push button sets nothing and presses nothing.
    const before = (await call("java_element_info", { session_id: session, handle: status.handle }))
      .structuredContent.description;
    const space = await call("java_type_text", { session_id: session, handle: note.handle, value: " " });
    assert.match(text(space), /not set/, text(space));
    await sleep(300);
    const after = (await call("java_element_info", { session_id: session, handle: status.handle }))
      .structuredContent.description;
    assert.equal(after, before, "the button was not pressed");
    const notTable = await call("java_read_table", { session_id: session, handle: note.handle });
    assert.match(text(notTable), /is a push button "Note", not a table/);
    const other = (await call("java_attach_window", { title: TITLES.swing })).structuredContent.session_id;
    const foreign = await call("java_read_text", { session_id: other, handle: field.handle });
    assert.equal(foreign.isError, true);
    assert.match(text(foreign), /was not handed out by session/);
  });

  it("send_keys after focus, with the reminder; a wait that times out is a result", async () => {
    const session = (await call("java_attach_window", { title: TITLES.swing })).structuredContent.session_id;
    const front = await call("java_focus_window", { session_id: session });
    assert.equal(front.structuredContent.status, "done", text(front));
    assert.match(text(front), /in front|is not|cannot say/);
    const keys = await call("java_send_keys", { session_id: session, keys: "End" });
    assert.match(text(keys), /effect is not seen by this call/);
    const waited = await call("java_wait", {
      session_id: session,
      window_title: "No such window*",
      timeout: 0.3,
    });
    assert.ok(!waited.isError);
    assert.equal(waited.structuredContent.met, false);
    // Java windows only: the GTK fixture's title is there, and does not meet it; the Swing one's does.
    const gtk = await call("java_wait", { session_id: session, window_title: TITLES.gtk3, timeout: 0.3 });
    assert.equal(gtk.structuredContent.met, false, text(gtk));
    const swing = await call("java_wait", { session_id: session, window_title: TITLES.swing, timeout: 2 });
    assert.equal(swing.structuredContent.met, true, text(swing));
  });

  it("java_fill_form without simulate never types: a push button given a space is not pressed", async () => {
    const session = (await call("java_attach_window", { title: TITLES.swing })).structuredContent.session_id;
    const one = async (name: string) =>
      (await call("java_find", { session_id: session, name })).structuredContent.matches[0];
    // "Note" keeps its name (other tests reorder Alpha and Beta, renaming them).
    const beta = await one("Note");
    const label = await one("Status");
    assert.ok(beta && label, "the fixture's Note button and status label");
    const status = async () =>
      (await call("java_read_text", { session_id: session, handle: label.handle })).structuredContent.text;
    const before = await status();
    const filled = await call("java_fill_form", {
      session_id: session,
      fields: [{ handle: beta.handle, value: " " }],
    });
    // Nothing went through real input: no typing was even tried, and the line says what would.
    const field = filled.structuredContent.fields[0];
    assert.equal(field.set, false, text(filled));
    assert.doesNotMatch(field.line, /typed/, `no typed fallback: ${text(filled)}`);
    // Real keys would press the button, not set it: simulate=True is not offered as the way.
    assert.doesNotMatch(field.line, /try simulate=True/, text(filled));
    assert.match(field.line, /keys would press it/, text(filled));
    assert.ok(!filled.isError, "a field that fails is a result, not a failed call");
    await sleep(300);
    assert.equal(await status(), before, `Note was not pressed: ${text(filled)}`);
  });

  it("java_fill_form attempts every field: an unknown handle is one line, and the field after it is set", async () => {
    const session = (await call("java_attach_window", { title: TITLES.swing })).structuredContent.session_id;
    const name = (
      await call("java_find", { session_id: session, name: "Name" })
    ).structuredContent.matches.find((m: { role: string }) => m.role === "text");
    const filled = await call("java_fill_form", {
      session_id: session,
      fields: [
        { handle: "e:s999:e1", value: "lost" },
        { handle: name.handle, value: "every field" },
      ],
    });
    assert.ok(!filled.isError, text(filled));
    assert.deepEqual(
      filled.structuredContent.fields.map((f: { set: boolean }) => f.set),
      [false, true],
      text(filled),
    );
    assert.match(text(filled), /^e:s999:e1: not set: this handle was not handed out by session/m);
    assert.match(text(filled), /1 of 2 fields set$/);
    const read = await call("java_read_text", { session_id: session, handle: name.handle });
    assert.equal(read.structuredContent.text, "every field");
    // is_error only for an unknown session (or an empty list, a malformed entry).
    const unknown = await call("java_fill_form", {
      session_id: "session-999",
      fields: [{ handle: name.handle, value: "x" }],
    });
    assert.equal(unknown.isError, true);
  });
  it("a picture without a caption; element_info on an element that changed is an error", async () => {
    const session = (await call("java_attach_window", { title: TITLES.swing })).structuredContent.session_id;
    const shot = await call("java_screenshot", { session_id: session });
    assert.deepEqual(
      shot.content.map((c) => c.type),
      ["image"],
    );
    // The combo box is named after its choice: once another is chosen, its handle names another element.
    const combo = (await call("java_find", { session_id: session, role: "combo box" })).structuredContent
      .matches[0];
    const first = combo.name;
    const other = first === "Green" ? "Red" : "Green";
    const chose = await call("java_select", { session_id: session, handle: combo.handle, option: other });
    assert.ok(!chose.isError, text(chose));
    const info = await call("java_element_info", { session_id: session, handle: combo.handle });
    assert.equal(info.isError, true, text(info));
    assert.match(text(info), /no longer the element that was found|is gone/);
    // It says what changed: the name, from the first choice to the other.
    assert.match(text(info), new RegExp(`name: was "${first}", now "${other}"`), text(info));
    // Unnamed buttons (a spinner's arrows) share the locator //push button: they get none, the total says how many.
    const buttons = (await call("java_find", { session_id: session, role: "push button", max_results: 100 }))
      .structuredContent;
    const unnamed = buttons.matches.filter((m: { name: string | null }) => !m.name);
    assert.ok(unnamed.length > 1, JSON.stringify(buttons.matches));
    assert.ok(
      unnamed.every((m: { locator: string | null }) => m.locator === null),
      JSON.stringify(unnamed),
    );
    assert.equal(typeof buttons.total, "number");
    // element_info gives such a button no locator either: //push button names them all.
    const arrow = await call("java_element_info", { session_id: session, handle: unnamed[0].handle });
    assert.equal(arrow.structuredContent.locator, null, text(arrow));
    // A row chosen in the Swing table: read back as selected, or said to be beyond telling, never refuted
    // on the word of a wrapper that reports no selection at all.
    const table = (await call("java_find", { session_id: session, role: "table" })).structuredContent
      .matches[0];
    const row = await call("java_select", { session_id: session, handle: table.handle, row: 3 });
    assert.ok(!row.isError, text(row));
    assert.doesNotMatch(text(row), /not what was asked/, text(row));
    assert.match(text(row), /cannot be told from here|Selected rows now: 3\./, text(row));
    // Put it back as it was.
    const again = (await call("java_find", { session_id: session, role: "combo box" })).structuredContent
      .matches[0];
    await call("java_select", { session_id: session, handle: again.handle, option: first });
  });

  it("a cell the JVM cannot make reads ?, counted, not - (a cell with no text)", async () => {
    // Its renderer throws for row 1, column 1: the bridge gets no object for a place the table has.
    const title = `Deskhand broken table ${process.pid}`;
    const app = startSwingFixture("DeskhandBrokenTable", [title]);
    try {
      let session: string | undefined;
      for (let i = 0; i < 100 && !session; i++) {
        const bound = await call("java_attach_window", { title });
        session = bound.isError ? undefined : bound.structuredContent.session_id;
        if (!session) await sleep(300);
      }
      assert.ok(session, `${title} attached`);
      const [table] = (await call("java_find", { session_id: session, role: "table" })).structuredContent
        .matches;
      const read = await call("java_read_table", { session_id: session, handle: table.handle });
      assert.ok(!read.isError, text(read));
      assert.match(text(read), /1 cells could not be read \(\?\)/, text(read));
      assert.match(text(read), /^\| 1 \| 1,0 \| \? \|$/m, text(read));
      assert.match(text(read), /^\| 2 \| 2,0 \| 2,1 \|$/m, "the cells around it read");
    } finally {
      app.kill();
    }
  });
});
