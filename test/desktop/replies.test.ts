// Every acting reply says what changed, truthfully (issue 35): a window a key opens a moment later,
// a dialog Enter closes with its main window's new title, a window that came after the reply (said
// at the start of the next), typing by ref that would have gone to another element (nothing typed; a
// covered field takes the accessibility focus instead of a click), and a field typed but unreadable
// ("typed, not verified", and done). One GTK 3 app for all.
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import type { ToolContext } from "../../src/tools/context.js";
import { findWaiting, gatedContext, type StartedApp, startApp, toolCaller } from "./helpers.js";

const TITLE = "Deskhand replies";

describe("acting replies on a GTK 3 app", () => {
  const dir = mkdtempSync(join(tmpdir(), "deskhand-replies-"));
  let app: StartedApp;
  let context: ToolContext;
  let call: ReturnType<typeof toolCaller>;
  /** What the app says was typed into each of its fields: "First=|Covered=|…|Keys=". */
  const typed = async () => {
    const status = (await findWaiting(call, `${TITLE}*`, { role: "label", name: "Status" }, 5000)) as {
      ref: string;
    };
    const info = await call("element_info", { ref: status.ref });
    return String(info.data?.description ?? JSON.stringify(info));
  };
  const NOTHING_TYPED = "First=|Covered=|Cover=|Refuses=|Keys=";
  const ref = async (title: string, query: Record<string, unknown>) =>
    ((await findWaiting(call, title, query, 20_000)) as { ref: string }).ref;

  before(() => {
    // Saving is the person's call; this test's person allowed it in these windows.
    context = gatedContext(dir, [
      { reason: "any", window: `${TITLE}*` },
      { reason: "any", window: "Save As" },
    ]);
    call = toolCaller(context);
    app = startApp(["/usr/bin/python3", "test/fixtures/dialogs/gtk3_replies.py", TITLE]);
  });
  after(async () => {
    app.kill();
    await context.close();
  });

  it("a key that opens a dialog a moment later names it; Enter that saves says it closed and the title changed", async () => {
    await ref(TITLE, { role: "text", name: "First" });
    const saving = await call("key", { key: "ctrl+s", window: { title: TITLE }, intent: "Open Save As" });
    assert.equal(saving.data?.status, "done", JSON.stringify(saving));
    // The app opens it 300 ms after the key, later than the plain settle the reply used to give.
    assert.match(saving.text ?? "", /^window appeared: \d+ "Save As"$/m, saving.text);
    await ref("Save As", { role: "text", name: "Name" });
    const saved = await call("key", { key: "Enter", window: { title: "Save As" }, intent: "Save" });
    assert.equal(saved.data?.status, "done", JSON.stringify(saved));
    assert.match(saved.text ?? "", /^window disappeared: \d+ "Save As"$/m, saved.text);
    assert.match(
      saved.text ?? "",
      new RegExp(`^window retitled: \\d+ "${TITLE}" → "${TITLE} — notes.txt"$`, "m"),
    );
  });

  it("a line break typed into a dialog it closes is no text lost: the reply says the dialog went", async () => {
    const saving = await call("key", {
      key: "ctrl+s",
      window: { title: `${TITLE}*` },
      intent: "Open Save As",
    });
    assert.equal(saving.data?.status, "done", JSON.stringify(saving));
    await ref("Save As", { role: "text", name: "Name" });
    const typed = await call("type_text", { text: "\n", window: { title: "Save As" }, intent: "Save" });
    assert.notEqual(typed.data?.status, "error", typed.text);
    assert.doesNotMatch(typed.text ?? "", /did not arrive/);
    assert.match(typed.text ?? "", /only line breaks were typed|the window the keys went to closed/);
    assert.match(typed.text ?? "", /^window disappeared: \d+ "Save As"$/m, typed.text);
  });

  it("a key that moves the focus says where it went", async () => {
    const first = await ref(`${TITLE}*`, { role: "text", name: "First" });
    await call("act", { ref: first, action: { kind: "focus" } });
    const tabbed = await call("key", { key: "Tab", window: { title: `${TITLE}*` }, intent: "Next field" });
    assert.equal(tabbed.data?.status, "done", JSON.stringify(tabbed));
    assert.match(
      tabbed.text ?? "",
      /^done: pressed Tab; the focus is now on text "(Covered|Cover)"/,
      tabbed.text,
    );
    const back = await call("key", { key: "shift+Tab", window: { title: `${TITLE}*` }, intent: "Back" });
    assert.match(back.text ?? "", /the focus is now on text "First"/, back.text);
  });

  it("typing by ref into a field whose centre another field covers types into that field, not the cover", async () => {
    // A click at its centre would go to "Cover" (refused, naming it: test/unit/replies.test.ts); GTK 3
    // grants the accessibility focus, so the keys go to the field named, and no click is sent.
    const covered = await ref(`${TITLE}*`, { role: "text", name: "Covered" });
    const reply = await call("type_text", { ref: covered, text: "hidden", intent: "Fill the covered field" });
    assert.equal(reply.data?.status, "done", JSON.stringify(reply));
    assert.equal(reply.data.result.focused_by, "accessibility focus", reply.text);
    assert.equal(reply.data.result.read_back, "exact", reply.text);
    assert.equal(await typed(), "First=|Covered=hidden|Cover=|Refuses=|Keys=");
    const emptied = await call("act", { ref: covered, action: { kind: "set_value", text: "" } });
    assert.ok(emptied.ok, JSON.stringify(emptied.error));
    assert.equal(await typed(), NOTHING_TYPED);
  });

  it("typing by ref into a field that cannot take the focus types nothing and says what has it", async () => {
    const refuses = await ref(`${TITLE}*`, { role: "text", name: "Refuses" });
    const reply = await call("type_text", { ref: refuses, text: "astray", intent: "Fill the field" });
    assert.equal(reply.data?.status, "refused", JSON.stringify(reply));
    assert.match(reply.text ?? "", /does not take the keyboard focus; text "\w+" has it.*nothing was typed/);
    await sleep(300);
    assert.equal(await typed(), NOTHING_TYPED);
  });

  it("fill_form into a field typed but unreadable says typed, not verified, and is done", async () => {
    const keys = await ref(`${TITLE}*`, { name: "Keys" });
    const filled = await call("fill_form", {
      fields: [{ ref: keys, value: "abc" }],
      intent: "Fill the keys",
    });
    assert.equal(filled.data?.status, "done", JSON.stringify(filled));
    assert.equal(filled.data.fields[0].set, "typed, not verified", filled.text);
    assert.match(filled.text ?? "", /typed, not verified/);
    assert.match(await typed(), /\|Keys=abc$/);
  });

  it("the view after a fill shows a button its app enables a moment later", async () => {
    const archive = await ref(`${TITLE}*`, { role: "text", name: "Archive" });
    const filled = await call("fill_form", {
      fields: [{ ref: archive, value: "bundle.zip" }],
      intent: "Name the archive",
      view: true,
    });
    assert.equal(filled.data?.status, "done", JSON.stringify(filled));
    // The app enables "Create" 120 ms after the name is set: the view is read once it settled.
    assert.match(filled.text ?? "", /^(~ )?\d+\. push button "Create" \[ref=/m, filled.text);
  });

  it("a window that comes after a reply is said at the start of the next call", async () => {
    const later = await ref(`${TITLE}*`, { role: "push button", name: "Later" });
    const clicked = await call("click", { ref: later, intent: "Open a window later" });
    assert.equal(clicked.data?.status, "done", JSON.stringify(clicked));
    assert.doesNotMatch(clicked.text ?? "", /Later Window/, "the window opens 1.5 s after the click");
    await findWaiting(call, "Later Window", { role: "label" }, 10_000);
    const first = await ref(`${TITLE}*`, { role: "text", name: "First" });
    const next = await call("act", { ref: first, action: { kind: "focus" } });
    assert.match(
      next.text ?? "",
      /^since your last action or window list: window appeared: \d+ "Later Window"$/m,
      next.text,
    );
    assert.ok(
      next.data.since_last_action.windows_appeared.some((w: { title: string }) => w.title === "Later Window"),
    );
    // Said once: the call after that has nothing to add.
    const again = await call("act", { ref: first, action: { kind: "focus" } });
    assert.doesNotMatch(again.text ?? "", /since your last action or window list/, again.text);
    // A window the agent has listed since is no news to it either.
    const opened = await call("click", { ref: later, intent: "Open a window later" });
    assert.equal(opened.data?.status, "done", JSON.stringify(opened));
    const count = async () =>
      ((await call("windows", {})).data.windows as { title: string }[]).filter(
        (w) => w.title === "Later Window",
      ).length;
    for (let deadline = Date.now() + 10_000; (await count()) < 2 && Date.now() < deadline; ) await sleep(200);
    assert.equal(await count(), 2, "a second Later Window opened");
    const listed = await call("act", { ref: first, action: { kind: "focus" } });
    assert.doesNotMatch(listed.text ?? "", /window appeared/, listed.text);
  });
});

describe("act toggle on a Qt section button", () => {
  const title = "Deskhand sections";
  let app: StartedApp;
  let context: ToolContext;
  let call: ReturnType<typeof toolCaller>;
  /** The page shown: its one label on screen. */
  const shownPage = async () => {
    const found = await call("find", { target: { kind: "title", glob: title }, role: "label", limit: 10 });
    return (found.data?.matches ?? [])
      .map((m: { name: string }) => m.name)
      .filter((name: string) => name.endsWith(" settings"));
  };
  before(() => {
    const dir = mkdtempSync(join(tmpdir(), "deskhand-sections-"));
    context = gatedContext(dir);
    call = toolCaller(context);
    app = startApp(["/usr/bin/python3", "test/fixtures/dialogs/qt_sections.py", title]);
  });
  after(async () => {
    app.kill();
    await context.close();
  });

  it("whose toggle flips only the group's checked states is pressed with a real click, and the page turns", async () => {
    const video = (
      (await findWaiting(call, title, { role: "check box", name: "Video" }, 20_000)) as { ref: string }
    ).ref;
    assert.deepEqual(await shownPage(), ["Audio settings"]);
    const toggled = await call("act", {
      ref: video,
      action: { kind: "toggle" },
      intent: "Show the video settings",
    });
    assert.equal(toggled.error, undefined, JSON.stringify(toggled.error));
    assert.match(toggled.text ?? "", /via Action\.DoAction\("Toggle"\), then a real click/, toggled.text);
    assert.match(toggled.text ?? "", /changed only the checked state of its group/);
    assert.deepEqual(await shownPage(), ["Video settings"]);
  });

  it("fill_form into two combo boxes typed but unreadable says typed, not verified, and is done; by a label, nothing is typed", async () => {
    const target = { kind: "title", glob: title };
    const combos = (await call("find", { target, role: "combo box" })).data.matches as { ref: string }[];
    assert.equal(combos.length, 2);
    const entries = async () =>
      ((await call("find", { target, role: "text" })).data.matches as { value?: string }[]).map(
        (m) => m.value,
      );
    const label = (
      (await call("find", { target, role: "label", name: "Size" })).data.matches[0] as { ref: string }
    ).ref;
    const astray = await call("fill_form", { fields: [{ ref: label, value: "astray" }] });
    assert.equal(astray.data?.status, "refused", astray.text);
    assert.match(
      astray.text ?? "",
      /did not take the keyboard focus; .* nothing was sent|cannot take the keyboard focus/,
    );
    assert.deepEqual(await entries(), ["one", "one"], "nothing was typed anywhere");
    const filled = await call("fill_form", {
      fields: [
        { ref: combos[0]!.ref, value: "large" },
        { ref: combos[1]!.ref, value: "teal" },
      ],
    });
    assert.equal(filled.data?.status, "done", filled.text);
    assert.deepEqual(
      filled.data.fields.map((f: { set: unknown }) => f.set),
      ["typed, not verified", "typed, not verified"],
    );
    assert.match(filled.text ?? "", /0 of 2 fields set and read back; 2 typed, not verified/);
    assert.deepEqual(await entries(), ["large", "teal"]);
  });
});
