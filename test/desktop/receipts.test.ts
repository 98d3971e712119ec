// Receipts that read true. On a real Qt app: an action that opens a modal dialog names the dialog
// (where the call is held by it, that it opened it: test/unit/receipt.test.ts), never "outcome
// unknown"; the dialog's own button closing it is reported as a window gone; an action after which
// the app exits says the app exited; a press that starts another program of its app (a plug-in)
// names the program and the window it opens later.
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { createContext, type ToolContext } from "../../src/tools/context.js";
import { findWaiting, type StartedApp, startApp, toolCaller, within } from "./helpers.js";

const TITLE = "Deskhand receipts";

/** A context whose config pre-approves `rules`, its journal and config in `dir`. */
function preapproved(dir: string, rules: Record<string, string>[]): ToolContext {
  writeFileSync(join(dir, "config.json"), JSON.stringify({ preapprove: rules }));
  return createContext({
    refLifetime: "while-verified",
    env: {
      ...process.env,
      DESKHAND_AUDIT: join(dir, "audit.jsonl"),
      DESKHAND_CONFIG: join(dir, "config.json"),
    },
  });
}

/**
 * A fixture app and a context whose config pre-approves `rules` (its journal and config in a folder
 * of its own), started before the suite's tests and ended after them.
 */
function onApp(command: string[], rules: Record<string, string>[]) {
  const dir = mkdtempSync(join(tmpdir(), "deskhand-receipts-"));
  let app: StartedApp | undefined;
  let context: ToolContext | undefined;
  let caller: ReturnType<typeof toolCaller> | undefined;
  before(() => {
    context = preapproved(dir, rules);
    caller = toolCaller(context);
    app = startApp(command);
  });
  after(async () => {
    app?.kill();
    await context?.close();
  });
  const call: ReturnType<typeof toolCaller> = (tool, input) => caller!(tool, input);
  return { call, app: () => app! };
}

describe("receipts on a Qt app", () => {
  // Leaving the app is the person's call; this test's person allowed it in this window.
  const { call, app } = onApp(
    ["/usr/bin/python3", "test/fixtures/dialogs/qt_modal.py", TITLE],
    [{ reason: "any", tool: "act", window: TITLE }],
  );

  it("an act that opens a modal dialog says it opened it; its Close is reported as the window gone", async () => {
    const settings = (await findWaiting(call, TITLE, { role: "push button", name: "Settings…" }, 20_000)) as {
      ref: string;
    };
    const opened = await call("act", {
      ref: settings.ref,
      action: { kind: "invoke" },
      intent: "Open the settings",
      timeoutMs: 1500,
      waitMs: 500,
    });
    assert.equal(opened.error, undefined, JSON.stringify(opened.error));
    // PyQt's Press returns before exec_() runs the dialog; an app whose action call runs it holds
    // the call instead, and the receipt says the dialog holds it. Either way the dialog is named.
    assert.match(
      opened.text ?? "",
      /window appeared: \d+ "Settings"|it opened window \d+ "Settings", a modal dialog: the app finishes this press only when that closes/,
    );
    assert.doesNotMatch(opened.text ?? "", /outcome unknown/);
    const close = (await findWaiting(call, "Settings", { role: "push button", name: "Close" }, 10_000)) as {
      ref: string;
    };
    const closed = await call("act", {
      ref: close.ref,
      action: { kind: "invoke" },
      intent: "Close the settings",
    });
    assert.equal(closed.error, undefined, JSON.stringify(closed.error));
    assert.ok(
      closed.data.windows_disappeared.some((w: { title: string }) => w.title === "Settings"),
      closed.text,
    );
    assert.match(closed.text ?? "", /window disappeared: \d+ "Settings"/);
  });

  it("an act after which the app exits says the app exited", async () => {
    const leave = (await findWaiting(call, TITLE, { role: "push button", name: "Leave" }, 10_000)) as {
      ref: string;
    };
    const left = await call("act", { ref: leave.ref, action: { kind: "invoke" }, intent: "Leave the app" });
    assert.equal(left.error, undefined, JSON.stringify(left.error));
    const code = await Promise.race([app().exited, sleep(within(5000)).then(() => "still running")]);
    assert.equal(code, 0, "the app really exited");
    assert.ok(left.data.app_exited, left.text);
    assert.match(left.text ?? "", /the app exited: .*has no window and no process left/);
    assert.doesNotMatch(left.text ?? "", /after_read: unavailable/);
  });
});

describe("what an input changed, on a GTK 3 editor", () => {
  const title = "Deskhand marks";
  // Saving is the person's call; this test's person allowed it in these windows.
  const { call } = onApp(
    ["/usr/bin/python3", "test/fixtures/dialogs/gtk3_editor.py", title, "--marks"],
    [
      { reason: "any", window: `${title}*` },
      { reason: "any", window: "Search" },
    ],
  );

  it("type_text and key ctrl+s say the title changed; act and click say a dialog came and went", async () => {
    const doc = (await findWaiting(call, title, { role: "text", name: "Document" }, 20_000)) as {
      ref: string;
    };
    const typed = await call("type_text", { ref: doc.ref, text: " and more", intent: "Add to the document" });
    assert.equal(typed.data.status, "done", typed.text);
    assert.match(
      typed.text ?? "",
      new RegExp(`window retitled: \\d+ "${title}" → "${title} \\*"`),
      typed.text,
    );
    // Without a ref the text goes to the focused element, which the reply names and reads back.
    const more = await call("type_text", {
      text: " again",
      window: { title: `${title} *` },
      intent: "Add more to the document",
    });
    assert.equal(more.data.status, "done", more.text);
    assert.match(
      more.text ?? "",
      /typed 6 character\(s\) into the focused text "Document" of window "[^"]+"; it reads back containing it/,
      more.text,
    );
    assert.match(more.data.result.typed_into.value, /and more again/);
    const saved = await call("key", {
      key: "ctrl+s",
      window: { title: `${title} *` },
      intent: "Save the document",
    });
    assert.equal(saved.data.status, "done", saved.text);
    assert.match(
      saved.text ?? "",
      new RegExp(`window retitled: \\d+ "${title} \\*" → "${title}"`),
      saved.text,
    );
    assert.match(saved.text ?? "", /\ngate: L3, pre-approved by/, saved.text);

    const search = (await findWaiting(call, title, { role: "menu item", name: "Search…" }, 10_000)) as {
      ref: string;
    };
    const opened = await call("act", {
      ref: search.ref,
      action: { kind: "invoke" },
      intent: "Open the search",
      waitMs: 500,
    });
    assert.equal(opened.error, undefined, JSON.stringify(opened.error));
    assert.match(opened.text ?? "", /window appeared: \d+ "Search"/, opened.text);
    const close = (await findWaiting(call, "Search", { role: "push button", name: "Close" }, 10_000)) as {
      ref: string;
    };
    const clicked = await call("click", { ref: close.ref, intent: "Close the search" });
    assert.equal(clicked.data.status, "done", clicked.text);
    assert.match(clicked.text ?? "", /window disappeared: \d+ "Search"/, clicked.text);
    assert.ok(clicked.data.windows_disappeared.some((w: { title: string }) => w.title === "Search"));
  });
});

describe("a press that starts another program of its app, on a GTK 3 window", () => {
  const title = "Deskhand plug-in host";
  const { call } = onApp(["/usr/bin/python3", "test/fixtures/dialogs/gtk3_plugin_host.py", title], []);

  it("names the window the program opens a second and a half later, and the program", async () => {
    const sharpen = (await findWaiting(call, title, { role: "push button", name: "Sharpen…" }, 20_000)) as {
      ref: string;
    };
    // Its window comes 1.5 s after the press, past the settle any press is given: waited for only
    // because a program of another script started below the app's process.
    const ran = await call("act", { ref: sharpen.ref, action: { kind: "invoke" }, intent: "Sharpen" });
    assert.equal(ran.error, undefined, JSON.stringify(ran.error));
    assert.match(ran.text ?? "", /window appeared: \d+ "Sharpen options"/, ran.text);
    assert.match(ran.text ?? "", /started: gtk3_plugin\.py \(pid \d+\), its window \d+/, ran.text);
    const [program] = ran.data.programs_started;
    assert.deepEqual(program.windows, [ran.data.windows_appeared[0].id]);
    const cancel = (await findWaiting(
      call,
      "Sharpen options",
      { role: "push button", name: "Cancel" },
      10_000,
    )) as {
      ref: string;
    };
    const closed = await call("click", { ref: cancel.ref, intent: "Close the options" });
    assert.equal(closed.data.status, "done", closed.text);
    assert.match(closed.text ?? "", /window disappeared: \d+ "Sharpen options"/, closed.text);
    assert.doesNotMatch(closed.text ?? "", /started:/, "a press that starts nothing says nothing of it");
  });
});
