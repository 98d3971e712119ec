// A modal dialog opened by an accessibility action stays usable: a GTK 3 menu item whose handler runs
// a file chooser with gtk_dialog_run (a nested main loop inside the action's D-Bus handler) is
// invoked through `act`, and the dialog is read, typed into, confirmed (the file is written) and
// cancelled, each effect read back from the app or the disk.

import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createContext, type ToolContext } from "../../src/tools/context.js";
import type { ToolName } from "../../src/tools/registry.js";
import { HANG_MS, toolCaller, within } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "deskhand-modal-"));
const folder = mkdtempSync(join(tmpdir(), "deskhand-saved-"));
const TITLE = `GTK3 Saver ${process.pid}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A context whose person has approved saving in the Save As dialog (a committing press), and the
 * fixture app under test, killed with its process group afterwards.
 */
function withSaver(fixture: string, title: string) {
  const state: { app?: ChildProcess; context?: ToolContext } = {};
  before(() => {
    const config = join(dir, `${fixture}.json`);
    writeFileSync(config, JSON.stringify({ preapprove: [{ reason: "any", window: "Save As" }] }));
    state.context = createContext({
      refLifetime: "while-verified",
      env: { ...process.env, DESKHAND_AUDIT: join(dir, "audit.jsonl"), DESKHAND_CONFIG: config },
    });
    state.app = spawn("/usr/bin/python3", [`test/fixtures/dialogs/${fixture}.py`, title, folder], {
      stdio: "ignore",
      detached: true,
    });
  });
  after(async () => {
    await state.context?.close();
    try {
      process.kill(-state.app!.pid!, "SIGKILL");
    } catch {
      // Gone already.
    }
  });
  return (tool: ToolName, input: Record<string, unknown>) => toolCaller(state.context!)(tool, input);
}

describe("a modal dialog opened by act", () => {
  const call = withSaver("gtk3_save", TITLE);

  const find = async (title: string, query: Record<string, unknown>) => {
    const deadline = Date.now() + within(20_000);
    for (;;) {
      const result = await call("find", {
        target: { kind: "title", glob: title },
        limit: 20,
        include_off_screen: true,
        ...query,
      });
      if (result.ok && result.data.matches.length > 0)
        return result.data.matches as { ref: string; value?: string; name: string }[];
      if (Date.now() > deadline)
        throw new Error(`${JSON.stringify(query)} in ${title}: ${JSON.stringify(result)}`);
      await sleep(150);
    }
  };
  const status = async () => (await find(TITLE, { name: "Status" }))[0]!;
  const statusText = async () => {
    const result = await call("element_info", { ref: (await status()).ref });
    return result.data.description as string;
  };
  const openSaveAs = async () => {
    const [item] = await find(TITLE, { role: "menu item", name: "Save As…" });
    const started = Date.now();
    const opened = await call("act", {
      ref: item!.ref,
      action: { kind: "invoke" },
      intent: "Open Save As",
      waitMs: 500,
    });
    assert.ok(opened.ok, JSON.stringify(opened.error));
    assert.ok(Date.now() - started < HANG_MS, `act returned in ${Date.now() - started} ms`);
    assert.equal(opened.data.action_outcome, "completed");
    assert.notEqual(opened.data.after_read, "unavailable", "the menu item is still readable");
  };

  it("opens the dialog, reads it, types a name and saves: the file is on disk", async () => {
    await openSaveAs();
    const [name] = await find("Save As", { role: "text", value_contains: "untitled" });
    const started = Date.now();
    const typed = await call("type_text", {
      ref: name!.ref,
      text: "report.txt",
      clear: true,
      intent: "Name the file",
    });
    assert.equal(typed.data.status, "done", typed.text);
    assert.ok(Date.now() - started < HANG_MS, "the dialog answers while it is open");
    assert.equal(typed.data.result.after.value, "report.txt");
    const [save] = await find("Save As", { role: "push button", name: "Save" });
    const saved = await call("act", {
      ref: save!.ref,
      action: { kind: "invoke" },
      intent: "Save the report",
    });
    assert.ok(saved.ok, JSON.stringify(saved.error));
    const path = join(folder, "report.txt");
    const deadline = Date.now() + HANG_MS;
    while (!existsSync(path) && Date.now() < deadline) await sleep(100);
    assert.equal(readFileSync(path, "utf8"), "the document");
    assert.equal(await statusText(), `Saved ${path}`);
  });

  it("opens it again and cancels: nothing more is written, and the app still reads fast", async () => {
    await openSaveAs();
    const [cancel] = await find("Save As", { role: "push button", name: "Cancel" });
    const cancelled = await call("act", { ref: cancel!.ref, action: { kind: "invoke" }, intent: "Cancel" });
    assert.ok(cancelled.ok, JSON.stringify(cancelled.error));
    await sleep(300);
    assert.equal(await statusText(), "Save As cancelled");
    assert.ok(!existsSync(join(folder, "untitled.txt")), "nothing else was saved");
    const started = Date.now();
    const snap = await call("snapshot", { target: { kind: "title", glob: TITLE } });
    assert.ok(snap.ok);
    assert.ok(Date.now() - started < HANG_MS, `the main window reads in ${Date.now() - started} ms`);
  });
});

describe("a GTK 4 file dialog", () => {
  const title = `GTK4 Saver ${process.pid}`;
  const call = withSaver("gtk4_save", title);

  it("is paired with its window (its top-level says filler), read, named and confirmed: the file is on disk", async () => {
    const find = async (glob: string, query: Record<string, unknown>) => {
      const deadline = Date.now() + within(20_000);
      for (;;) {
        const result = await call("find", {
          target: { kind: "title", glob },
          limit: 20,
          include_off_screen: true,
          ...query,
        });
        if (result.ok && result.data.matches.length > 0) return result.data.matches[0] as { ref: string };
        if (Date.now() > deadline)
          throw new Error(`${JSON.stringify(query)} in ${glob}: ${JSON.stringify(result)}`);
        await sleep(150);
      }
    };
    const button = await find(title, { role: "push button", name_contains: "Save As" });
    assert.ok(
      (await call("act", { ref: button.ref, action: { kind: "invoke" }, intent: "Open Save As" })).ok,
    );
    let windows: { title: string; accessible: boolean }[] = [];
    for (const deadline = Date.now() + HANG_MS; Date.now() < deadline; await sleep(150)) {
      windows = (await call("windows", {})).data.windows;
      // Its tree registers after its window maps: later still on a loaded machine.
      if (windows.some((w) => w.title === "Save As" && w.accessible)) break;
    }
    const dialog = windows.find((w) => w.title === "Save As");
    assert.ok(dialog?.accessible, `the dialog has a tree: ${JSON.stringify(windows)}`);
    const name = await find("Save As", { role: "text", value_contains: "untitled" });
    const typed = await call("type_text", {
      ref: name.ref,
      text: "gtk4.txt",
      clear: true,
      intent: "Name the file",
    });
    assert.equal(typed.data.status, "done", typed.text);
    const save = await find("Save As", { role: "push button", name_contains: "Save" });
    const saved = await call("act", { ref: save.ref, action: { kind: "invoke" }, intent: "Save" });
    assert.ok(saved.ok, JSON.stringify(saved.error));
    const path = join(folder, "gtk4.txt");
    const deadline = Date.now() + HANG_MS;
    while (!existsSync(path) && Date.now() < deadline) await sleep(100);
    assert.equal(readFileSync(path, "utf8"), "the document");
  });
});
