// The Ouroboros seed replayed: `deskhand mcp --profile ouroboros` answers the calls its SKILL.md
// describes, in its own spelling (window_list, window_read, element_find, element_act), with the reply
// shapes it states, against the Swing fixture and gtk3-widget-factory.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { mcpClient, TITLES } from "./helpers.js";

type Result = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: any };

describe("the Ouroboros profile, replayed", () => {
  let client: Client;
  before(async () => {
    client = await mcpClient("ouroboros-replay", ["--profile", "ouroboros"]);
  });
  after(() => client.close());

  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as Result;
  /** A GTK fixture of test/fixtures/dialogs started under its own title, once window_list has it. */
  const fixture = async (file: string, title: string, ...rest: string[]) => {
    const app = spawn("/usr/bin/python3", [`test/fixtures/dialogs/${file}`, title, ...rest], {
      stdio: "ignore",
      detached: true,
    });
    let hwnd: number | undefined;
    for (let i = 0; i < 100 && hwnd === undefined; i++) {
      const list = (await call("window_list")).structuredContent.windows;
      hwnd = list.find((w: { title: string }) => w.title === title)?.hwnd;
      if (hwnd === undefined) await sleep(200);
    }
    assert.ok(hwnd, `the fixture's window ${title} came`);
    return { app, hwnd };
  };
  const hwndOf = async (title: string) => {
    const list = await call("window_list");
    return list.structuredContent.windows.find((w: { title: string }) => w.title === title).hwnd as number;
  };

  it("serves exactly its four tools", async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ["window_list", "window_read", "element_find", "element_act"],
    );
  });

  it("window_list: hwnd, title, class, pid, rect, foreground; limit echoed, a cut named", async () => {
    const list = await call("window_list", { limit: 1 });
    const reply = list.structuredContent;
    assert.equal(reply.windows.length, 1);
    for (const key of ["hwnd", "title", "class", "pid", "rect", "foreground"])
      assert.ok(key in reply.windows[0]);
    assert.deepEqual(reply.limit, { value: 1, ceiling: 500 });
    assert.deepEqual(reply.truncated_by, ["limit"]);
    assert.equal(reply.total_known, false);
    const whole = (await call("window_list")).structuredContent;
    assert.equal(whole.total_known, true);
    assert.ok(whole.windows.some((w: { title: string }) => w.title === TITLES.swing));
    // class is the window's class (X11's WM_CLASS), not its app's accessible name.
    const factory = whole.windows.find((w: { title: string }) => w.title === TITLES.gtk3);
    assert.equal(factory?.class, "Gtk3-widget-factory", JSON.stringify(factory));
  });

  it("window_read: elements with rect and center and a state block; limits with ceilings; cuts named", async () => {
    const hwnd = await hwndOf(TITLES.swing);
    const cut = (await call("window_read", { hwnd, max_children_per_node: 3, max_depth: 30 }))
      .structuredContent;
    assert.deepEqual(cut.limits.max_children_per_node, { value: 3, ceiling: 5000 });
    assert.ok(cut.truncated_by.includes("max_children_per_node"));
    assert.ok(cut.notes.some((n: string) => /children left out \(max_children_per_node\)/.test(n)));
    const read = (await call("window_read", { hwnd, max_depth: 30 })).structuredContent;
    assert.equal(read.hwnd, hwnd);
    // The window's own element has the window's class, as window_list gives it.
    const listed = (await call("window_list")).structuredContent.windows.find(
      (w: { hwnd: number }) => w.hwnd === hwnd,
    );
    assert.ok(listed.class, JSON.stringify(listed));
    assert.equal(read.elements[0].class, listed.class);
    assert.ok(read.elements.length > cut.elements.length);
    const check = read.elements.find((e: { role: string }) => e.role === "check box");
    assert.ok(check && typeof check.state.checked === "boolean", "a check box exposes checked");
    const label = read.elements.find((e: { role: string }) => e.role === "label");
    assert.equal(
      "checked" in label.state,
      false,
      "a label does not expose checked: the key is missing, not false",
    );
    // Keys where the element exposes the state, though not by the state's own name: Swing's combo box
    // says `collapsed` (expanded: false), its read-only field only lacks `editable` (read_only: true).
    const combo = read.elements.find((e: { role: string }) => e.role === "combo box");
    assert.equal(combo?.state.expanded, false, JSON.stringify(combo));
    const serial = read.elements.find((e: { value?: string }) => e.value === "DH-0042");
    assert.equal(serial?.state.read_only, true, JSON.stringify(serial));
    const name = read.elements.find(
      (e: { role: string; name: string }) => e.role === "text" && e.name === "Name",
    );
    assert.equal(name?.state.read_only, false, JSON.stringify(name));
    const placed = read.elements.find((e: { rect: unknown }) => e.rect);
    assert.deepEqual(Object.keys(placed.rect.center), ["x", "y"]);
    // Every cut is named in notes too: the table paged, texts cut at max_text_chars.
    assert.ok(
      read.notes.some((n: string) => /a table paged, \d+ of its \d+ rows read/.test(n)),
      read.notes,
    );
    const short = (await call("window_read", { hwnd, max_depth: 30, max_text_chars: 3 })).structuredContent;
    assert.ok(short.truncated_by.includes("max_text_chars"), JSON.stringify(short.truncated_by));
    assert.ok(
      short.notes.some((n: string) => /text cut at max_text_chars \(3\)/.test(n)),
      short.notes,
    );
    const win32 = await call("window_read", { hwnd, backend: "win32" });
    assert.equal(win32.isError, true);
  });

  it("element_find and element_act: AND selectors, two matches need nth, receipts without claims", async () => {
    const hwnd = await hwndOf(TITLES.swing);
    const found = (await call("element_find", { hwnd, role: "push button", name_contains: "pha" }))
      .structuredContent;
    assert.equal(found.total, 1);
    // The fixture's table cells are paged, not searched: the reply says the read was not whole, and why.
    assert.equal(found.searched_whole_window, false);
    assert.match(found.reason, /max_children_per_node/, "a cut in the seed's spelling");
    // A press that commits is refused in the seed's words: its own tool, no `reversible` it lacks.
    const save = await call("element_act", { hwnd, role: "push button", name: "Save", action: "invoke" });
    assert.equal(save.isError, true, JSON.stringify(save));
    assert.match(save.content[0]!.text, /needs a person's confirmation/);
    assert.doesNotMatch(save.content[0]!.text, /reversible: true|\(act\)/);
    const two = await call("element_act", { hwnd, role: "radio button", action: "toggle" });
    assert.equal(two.isError, true);
    assert.match(two.content[0]!.text, /ambiguous|candidates/);
    // select on a radio button chooses it, as the seed's SelectionItem does; read back, then put back.
    const large = (await call("element_act", { hwnd, role: "radio button", name: "Large", action: "select" }))
      .structuredContent;
    assert.equal(large.after?.state.checked, true, JSON.stringify(large));
    const medium = (
      await call("element_act", { hwnd, role: "radio button", name: "Medium", action: "select" })
    ).structuredContent;
    assert.equal(medium.after?.state.checked, true, JSON.stringify(medium));
    // The journal names the client's own tool beside deskhand's, and says no intent was given.
    const journal = readFileSync(process.env.DESKHAND_AUDIT!, "utf8").trim().split("\n");
    const last = JSON.parse(journal.at(-1)!);
    assert.equal(last.via, "element_act", JSON.stringify(last));
    assert.equal(last.intent, "(none given: an Ouroboros client)");
    const acted = (
      await call("element_act", { hwnd, role: "check box", name: "Subscribe", action: "toggle" })
    ).structuredContent;
    assert.equal(acted.action_outcome, "completed");
    assert.ok(["partial", "complete", "unavailable"].includes(acted.after_read));
    assert.equal(typeof acted.after.state.checked, "boolean");
    const waited = (
      await call("element_act", {
        hwnd,
        role: "check box",
        name: "Subscribe",
        action: "toggle",
        timeout_ms: 3000,
      })
    ).structuredContent;
    assert.ok(
      waited.stopped_before_timeout_ms < 3000,
      "the match was there: the wait stopped early, and says so",
    );
    const cleared = (
      await call("element_act", { hwnd, role: "text", name: "Name", action: "set_value", text: "" })
    ).structuredContent;
    assert.equal(cleared.after.value, "");
    const nullText = await call("element_act", {
      hwnd,
      role: "text",
      name: "Name",
      action: "set_value",
      text: null,
    });
    assert.equal(nullText.isError, true);
    const noPattern = await call("element_act", { hwnd, role: "label", name: "Status", action: "invoke" });
    assert.equal(noPattern.isError, true);
    assert.match(noPattern.content[0]!.text, /supports/);
    // What a button supports, in element_act's own words (invoke), not AT-SPI's (action:click).
    const button = await call("element_act", {
      hwnd,
      role: "push button",
      name: "Note",
      action: "set_value",
      text: "x",
    });
    assert.equal(button.isError, true);
    assert.match(button.content[0]!.text, /it supports invoke, /, button.content[0]!.text);
    // Only element_act's own verbs: a Swing text field's editor actions are not listed; a check box toggles.
    const field = await call("element_act", { hwnd, role: "text", name: "Name", action: "toggle" });
    const listed = /it supports ([^.]*)$/m.exec(field.content[0]!.text)?.[1] ?? "";
    for (const verb of listed.split(", ").filter(Boolean))
      assert.ok(
        [
          "invoke",
          "set_value",
          "toggle",
          "expand",
          "collapse",
          "select",
          "scroll_into_view",
          "focus",
        ].includes(verb),
        `${verb} in ${field.content[0]!.text}`,
      );
    assert.match(listed, /set_value/, field.content[0]!.text);
    const box = await call("element_act", {
      hwnd,
      role: "check box",
      select: { nth: 0 },
      action: "expand",
    });
    assert.match(box.content[0]!.text, /it supports [^\n]*toggle/, box.content[0]!.text);
    const gtk = await hwndOf(TITLES.gtk3);
    const none = (await call("element_find", { hwnd: gtk, name: "No such element anywhere" }))
      .structuredContent;
    assert.equal(none.total, 0);
    assert.equal(typeof none.searched_whole_window, "boolean");
    const blank = await call("element_find", { hwnd: gtk, name: "  " });
    assert.equal(blank.isError, true, "a blank selector field is rejected, not dropped");
  });

  it("long text: a 5,014-unit set_value reads back seen; receipts and candidates show 4,000 units, marked", async () => {
    const hwnd = await hwndOf(TITLES.swing);
    const long = `${"0123456789".repeat(500)}tail-ABCDE`;
    assert.equal(long.length, 5010);
    const text = `${long}WXYZ`;
    try {
      const set = (await call("element_act", { hwnd, role: "text", name: "Name", action: "set_value", text }))
        .structuredContent;
      assert.equal(set.effect, "seen", JSON.stringify(set).slice(0, 400));
      assert.equal(set.after.value.length, 4000);
      assert.equal(set.after.text_truncated, true);
      // value_contains searches the whole text: its tail is past any 4,000-unit cut.
      const found = (await call("element_find", { hwnd, value_contains: "tail-ABCDEWXYZ" }))
        .structuredContent;
      assert.equal(found.total, 1, JSON.stringify(found).slice(0, 400));
      assert.equal(found.matches[0].value.length, 4000);
      assert.equal(found.matches[0].text_truncated, true);
      // An ambiguous element_act's candidates: in the seed's shape, their text read, 4,000 units.
      const ambiguous = await call("element_act", { hwnd, role: "text", action: "focus" });
      assert.equal(ambiguous.isError, true);
      const candidates = ambiguous.structuredContent.error.candidates;
      const named = candidates.find((c: { name: string }) => c.name === "Name");
      assert.ok(named, JSON.stringify(candidates).slice(0, 400));
      assert.equal(named.value.length, 4000);
      assert.equal(named.text_truncated, true);
      assert.ok(
        "automation_id" in named && "state" in named && "rect" in named,
        JSON.stringify(named).slice(-300),
      );
      // window_read's own limit, named as the caller set it.
      const read = (await call("window_read", { hwnd, max_text_chars: 100, max_depth: 30 }))
        .structuredContent;
      assert.ok(read.truncated_by.includes("max_text_chars"), JSON.stringify(read.truncated_by));
      assert.ok(!read.truncated_by.includes("maxText"));
      const field = read.elements.find(
        (e: { name: string; role: string }) => e.name === "Name" && e.role === "text",
      );
      if (field) assert.equal(field.text_truncated, true);
      // The answer fits the relay; if it had to be cut for it, the cut says so and counts stay whole.
      assert.ok(JSON.stringify(read).length <= 100_000);
      if (read.result_size !== undefined) {
        assert.ok(read.truncated_by.includes("result_size"));
        assert.equal(read.shown, read.elements.length);
      }
    } finally {
      await call("element_act", { hwnd, role: "text", name: "Name", action: "set_value", text: "" });
    }
  });
  it("automation_id: the accessible id an app gives, in window_read, matches and receipts", async () => {
    const { app, hwnd } = await fixture("gtk3_files.py", `Ouroboros ids ${process.pid}`);
    try {
      const found = (await call("element_find", { hwnd, automation_id: "title-entry", timeout_ms: 20_000 }))
        .structuredContent;
      assert.equal(found.total, 1, JSON.stringify(found));
      assert.equal(found.matches[0].automation_id, "title-entry");
      const named = (await call("element_find", { hwnd, role: "text", name: "Details" })).structuredContent;
      assert.equal(named.matches[0]?.automation_id, "title-entry", "found by name, its id still given");
      const read = (await call("window_read", { hwnd })).structuredContent;
      assert.ok(
        read.elements.some((e: { automation_id: string | null }) => e.automation_id === "title-entry"),
      );
      const set = (
        await call("element_act", { hwnd, automation_id: "title-entry", action: "set_value", text: "Q3" })
      ).structuredContent;
      assert.equal(set.after.automation_id, "title-entry", JSON.stringify(set));
      assert.equal(set.after.value, "Q3");
    } finally {
      process.kill(-app.pid!, "SIGKILL");
    }
  });
  it("a deadline is kept whatever the app does: a stopped app gets an answer at the deadline, and nothing after", async () => {
    const dir = mkdtempSync(join(tmpdir(), "deskhand-ouroboros-hang-"));
    const log = join(dir, "structure.log");
    const { app, hwnd } = await fixture("gtk3_structure.py", `Ouroboros hang ${process.pid}`, log);
    try {
      const toggle = { hwnd, role: "toggle button", name: "Paid only" };
      assert.equal(
        (await call("element_find", { ...toggle, timeout_ms: 20_000 })).structuredContent.total,
        1,
      );
      // Stopped, the app answers nothing until it is continued, once both calls have answered.
      process.kill(app.pid!, "SIGSTOP");
      const read = (await call("window_read", { hwnd, timeout_ms: 500 })).structuredContent;
      assert.deepEqual(read.truncated_by, ["timeout_ms"], JSON.stringify(read));
      assert.equal(read.elements.length, 0);
      const acted = await call("element_act", { ...toggle, action: "toggle", timeout_ms: 100 });
      // An answer before the app was continued: after it, the toggle would have been done.
      assert.equal(acted.isError, true, JSON.stringify(acted));
      assert.equal(acted.structuredContent.error.code, "timeout");
      assert.match(acted.content[0]!.text, /nothing was done/);
      process.kill(app.pid!, "SIGCONT");
      // Time for a toggle still queued to the app to land, were one sent.
      await sleep(1500);
      const logged = existsSync(log) ? readFileSync(log, "utf8") : "";
      assert.doesNotMatch(logged, /toggle/, "the app, once continued, was not acted on");
    } finally {
      process.kill(-app.pid!, "SIGCONT");
      process.kill(-app.pid!, "SIGKILL");
    }
  });
});
