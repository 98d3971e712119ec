// Closing a window is judged by what it holds (src/tools/hands/closing.ts), by `window close` and by
// the window manager's alt+F4 alike: an information window closes with no person, and is gone, and
// so does a dialog holding only a choice (its close is its Cancel); one with text in its field is
// refused, and stays. Read back from the window list.
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { ToolContext } from "../../src/tools/context.js";
import {
  findWaiting,
  gatedContext,
  HANG_MS,
  refusedWith,
  type StartedApp,
  settled,
  startApp,
  toolCaller,
} from "./helpers.js";

describe("closing a window, judged by what it holds", () => {
  const dir = mkdtempSync(join(tmpdir(), "deskhand-closing-"));
  const info = `Closing info ${process.pid}`;
  const entry = `Closing entry ${process.pid}`;
  const scale = `Closing scale ${process.pid}`;
  const apps: StartedApp[] = [];
  let context: ToolContext;
  let call: ReturnType<typeof toolCaller>;
  /** Whether a window of this title is listed, once it is as `open` says or 5 s passed. */
  const listed = (title: string, open: boolean) =>
    settled(
      async () =>
        ((await call("windows", {})).data.windows as { title: string }[]).some((w) => w.title === title),
      (shown) => shown === open,
      5000,
    );
  /** Presses the OK of the window so titled, found as it comes. */
  const pressOK = async (title: string, intent: string) => {
    const found = await findWaiting(call, title, { role: "push button", name: "OK" }, HANG_MS);
    return call("act", { ref: (found as { ref: string }).ref, action: { kind: "invoke" }, intent });
  };

  before(async () => {
    context = gatedContext(dir);
    call = toolCaller(context);
    apps.push(startApp(["zenity", "--info", "--title", info, "--text", "The report is ready."]));
    apps.push(startApp(["zenity", "--entry", "--title", entry, "--text", "Name", "--entry-text", "draft"]));
    await findWaiting(call, info, { role: "push button" }, HANG_MS);
    apps.push(startApp(["zenity", "--scale", "--title", scale, "--text", "Volume", "--value", "30"]));
    await findWaiting(call, entry, { role: "text" }, HANG_MS);
    await findWaiting(call, scale, { role: "slider" }, HANG_MS);
  });
  after(async () => {
    for (const app of apps) app.kill();
    await context.close();
  });

  it("a window with text in its field: alt+F4 and window close both ask, and it stays", async () => {
    const key = await call("key", { key: "alt+F4", window: { title: entry }, intent: "Close it" });
    assert.equal(key.data?.status, "refused", key.text);
    assert.match(key.data.reason, /holds text/, key.text);
    const closed = await call("window", { action: "close", window: { title: entry }, intent: "Close it" });
    assert.equal(closed.data?.status, "refused", closed.text);
    assert.ok(await listed(entry, true), "the entry window stays");
  });

  it("a message's only button, OK: pressed with no person where its text commits nothing, else asked", async () => {
    const told = `Closing told ${process.pid}`;
    const warned = `Closing warned ${process.pid}`;
    const tell = startApp([
      "zenity",
      "--info",
      "--title",
      told,
      "--text",
      "Quarterly figures are filed in Zanzibar.",
    ]);
    const warn = startApp([
      "zenity",
      "--warning",
      "--title",
      warned,
      "--text",
      "All 12 files will be deleted.",
    ]);
    apps.push(tell, warn);
    const pressed = await pressOK(told, "Acknowledge it");
    assert.ok(pressed.ok && pressed.data.status !== "refused", pressed.text ?? JSON.stringify(pressed.error));
    assert.equal(await listed(told, false), false, "the message is gone");
    const asked = await pressOK(warned, "Acknowledge it");
    refusedWith(asked, "OK under a text that deletes", /OK/);
    assert.ok(await listed(warned, true), "the warning stays");
    // zenity says which button ended it: OK, 0.
    assert.equal(await tell.exited, 0);
  });

  it("a message whose check box only says not to show it again: its OK passes; one whose check box deletes asks", async () => {
    // Ristretto's notice: a warning, "Ne plus afficher ce message", and Valider.
    const plain = `Notice plain ${process.pid}`;
    const deleting = `Notice deleting ${process.pid}`;
    const notice = (title: string, check: string) =>
      startApp([
        "/usr/bin/python3",
        "test/fixtures/dialogs/gtk3_notice.py",
        title,
        "The thumbnail service is not running.",
        check,
      ]);
    const told = notice(plain, "Do not show this message again");
    const warned = notice(deleting, "Also delete the thumbnails");
    apps.push(told, warned);
    const pressed = await pressOK(plain, "Dismiss");
    assert.ok(pressed.ok && pressed.data.status !== "refused", pressed.text ?? JSON.stringify(pressed.error));
    assert.equal(await told.exited, 0, "OK answered it");
    const asked = await pressOK(deleting, "Dismiss");
    refusedWith(asked, "OK beside a check box that deletes", /OK/);
    assert.ok(await listed(deleting, true), "the notice stays");
  });

  it("a dialog holding only a choice: its close is its Cancel, with no person, and it is gone", async () => {
    const closed = await call("window", { action: "close", window: { title: scale }, intent: "Not now" });
    assert.equal(closed.data?.status, "done", closed.text ?? JSON.stringify(closed.error));
    assert.equal(await listed(scale, false), false, "the dialog is gone");
  });

  it("a preferences dialog of spin buttons and combo boxes: a choice reads back by its list, and it closes with no person", async () => {
    // Mousepad's preferences (GTK 3) name each combo box by its model's id ("none") and hold the
    // chosen item in its Selection, read as its value ("None"); its spin buttons hold numbers,
    // which are choices, not typed text.
    const title = "Mousepad Preferences";
    apps.push(startApp(["mousepad", "--preferences"]));
    const scheme = (await findWaiting(call, title, { role: "combo box", text: "None" }, HANG_MS)) as {
      ref: string;
    };
    await findWaiting(call, title, { role: "spin button" }, HANG_MS);
    // A check box not checked says so, as the app reports it ("Show line numbers" is off here).
    const seen = await call("observe", { target: { kind: "title", glob: title } });
    const boxes = (seen.text ?? "").split("\n").filter((l: string) => /^\d+\. check box /.test(l));
    assert.ok(boxes.length > 0, seen.text);
    for (const line of boxes) assert.match(line, /[(\s](unchecked|checked)[,)]/, line);
    const chosen = await call("act", {
      ref: scheme.ref,
      action: { kind: "select", option: "Cobalt" },
      intent: "Choose a colour scheme",
    });
    assert.equal(chosen.data?.effect, "seen", chosen.text ?? JSON.stringify(chosen.error));
    assert.equal(chosen.data?.after?.value, "Cobalt", chosen.text);
    const closed = await call("window", { action: "close", window: { title }, intent: "Done" });
    assert.equal(closed.data?.status, "done", closed.text ?? JSON.stringify(closed.error));
    assert.equal(await listed(title, false), false, "the preferences are gone");
  });

  it("an information window: closed with no person, and gone", async () => {
    const closed = await call("window", { action: "close", window: { title: info }, intent: "Done reading" });
    assert.equal(closed.data?.status, "done", closed.text ?? JSON.stringify(closed.error));
    assert.equal(await listed(info, false), false, "the information window is gone");
  });
});
