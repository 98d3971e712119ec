// The hands' twins on GNOME Shell (compositor-suite.ts), headless in deskhand's own sandbox
// (`Desktop.start({ gnome: true })`) with deskhand's Shell extension: its window list, Clutter's
// virtual pointer and keyboard, text committed or pasted, its screenshots. What only GNOME has: the
// extension's token, which keeps other callers out, and a screen scaled by 2, whose points are its
// pixels while each app draws twice its own size.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { DBusConnection } from "../../src/platform/dbus.js";
import { diagnose } from "../../src/platform/diagnostics.js";
import { launchApp } from "../../src/platform/sandbox/apps.js";
import { Desktop } from "../../src/platform/sandbox/desktop.js";
import { SHELL_NAME, SHELL_PATH, TOKEN_FILE } from "../../src/platform/wayland/gnome-extension.js";
import { GnomeShell } from "../../src/platform/wayland/gnome-shell.js";
import { windowNumber } from "../../src/platform/wayland/kwin.js";
import { createContext, type ToolContext } from "../../src/tools/context.js";
import type { ToolName } from "../../src/tools/registry.js";
import { compositorHandsSuite } from "./compositor-suite.js";

/** Whether `read` comes true within a while. */
async function until(read: () => Promise<boolean>): Promise<boolean> {
  const deadline = Date.now() + HANG_MS / 4;
  while (!(await read()) && Date.now() < deadline) await sleep(100);
  return read();
}

import { HANG_MS, toolCaller } from "./helpers.js";

compositorHandsSuite({
  name: "GNOME Shell (Wayland)",
  compositor: "GNOME Shell",
  prefix: "GNOME",
  file: "gnome",
  start: () => Desktop.start({ gnome: true }),
  async truth(env) {
    const shell = await GnomeShell.open(env, 5000);
    return {
      windows: async () => (await shell.windows()).map((w) => ({ ...w, id: windowNumber(String(w.id)) })),
      close: () => shell.close(),
    };
  },
  hands: "openGnomeHands",
  handsModule: "gnome-hands",
  more({ env }) {
    it("doctor finds the extension; a caller without its token is refused, and the token is private", async () => {
      const checks = await diagnose(env());
      const session = Object.fromEntries(
        checks.filter((c) => c.section === "session").map((c) => [c.name, `${c.status}: ${c.value}`]),
      );
      for (const name of ["extension", "GNOME Shell", "token", "screenshots", "text outside the keymap"])
        assert.match(session[name] ?? "", /^ok: /, `${name}: ${JSON.stringify(session)}`);
      const token = join(env().XDG_RUNTIME_DIR!, TOKEN_FILE);
      assert.equal(statSync(token).mode & 0o777, 0o600);
      const bus = await DBusConnection.open(env().DBUS_SESSION_BUS_ADDRESS!, { timeoutMs: 5000 });
      try {
        const denied = await bus
          .call(
            {
              destination: SHELL_NAME,
              path: SHELL_PATH,
              iface: SHELL_NAME,
              member: "Pointer",
              signature: "sdd",
              body: ["not-the-token", 10, 10],
            },
            5000,
          )
          .then(
            () => undefined,
            (error: Error) => error,
          );
        assert.match(String(denied), /Denied/, "the extension refused a caller with no token");
      } finally {
        bus.close();
      }
    });

    it("a connection made before the extension was enabled again goes on with the new token", async () => {
      const shell = await GnomeShell.open(env(), 5000);
      try {
        const token = join(env().XDG_RUNTIME_DIR!, TOKEN_FILE);
        const before = readFileSync(token, "utf8");
        const keyfile = join(env().XDG_CONFIG_HOME!, "glib-2.0", "settings", "keyfile");
        const settings = readFileSync(keyfile, "utf8");
        // The Shell watches its settings file: off, then on again, writes a new token.
        writeFileSync(keyfile, settings.replace(/enabled-extensions=.*/, "enabled-extensions=@as []"));
        assert.ok(await until(async () => !existsSync(token)), "disabled: the token file is gone");
        writeFileSync(keyfile, settings);
        assert.ok(
          await until(async () => existsSync(token) && readFileSync(token, "utf8") !== before),
          "enabled again: a new token",
        );
        assert.ok((await shell.windows()).length > 0, "the old connection lists windows with the new token");
      } finally {
        shell.close();
      }
    });
  },
});

describe("hands on GNOME Shell on a screen scaled by 2", () => {
  const dir = mkdtempSync(join(tmpdir(), "deskhand-gnome-scaled-"));
  const log = join(dir, "qt.log");
  const EDITOR = "Scaled Editor";
  let desktop: Desktop;
  let context: ToolContext;
  before(async () => {
    desktop = await Desktop.start({ gnome: true, scale: 2, width: 2560, height: 2048 });
    await launchApp(
      desktop,
      `/usr/bin/python3 test/fixtures/dialogs/qt_buttons.py 'Scaled Qt' ${log} ${join(dir, "v")}`,
      60_000,
    );
    await launchApp(desktop, `/usr/bin/python3 test/fixtures/dialogs/gtk3_editor.py '${EDITOR}'`, 60_000);
    context = createContext({
      refLifetime: "while-verified",
      env: {
        ...desktop.info.env,
        DESKHAND_AUDIT: join(dir, "audit.jsonl"),
        DESKHAND_CONFIG: join(dir, "none.json"),
      },
    });
  });
  after(async () => {
    await context?.close();
    await desktop?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const call = (tool: ToolName, input: Record<string, unknown>) => toolCaller(context)(tool, input);
  const first = async (title: string, query: Record<string, unknown>) => {
    const found = await call("find", { target: { kind: "title", glob: title }, ...query });
    assert.ok(found.data?.matches?.[0], `${JSON.stringify(query)} in ${title}: ${found.text}`);
    return found.data.matches[0];
  };

  it("the Shell's points are the screen's pixels; Qt and GTK 3 drawn twice their size are clicked where they are", async () => {
    const shot = await call("screenshot", {
      of: { kind: "window", window: { title: "Scaled Qt" } },
      max_width: 4000,
    });
    assert.ok(shot.ok, JSON.stringify(shot.error));
    assert.equal(shot.data.width, shot.data.image_space.region.width, "one pixel per point");
    const alpha = await first("Scaled Qt", { role: "push button", name: "Alpha" });
    const clicked = await call("click", { ref: alpha.ref, intent: "Press Alpha" });
    assert.equal(clicked.data.status, "done", clicked.text);
    assert.ok(
      await until(async () => existsSync(log) && /Alpha/.test(readFileSync(log, "utf8"))),
      "Qt logged it",
    );

    await call("window", { action: "focus", window: { title: EDITOR }, intent: "Work in the editor" });
    const replace = await first(EDITOR, { role: "push button", name: "Replace All" });
    assert.ok(replace.bounds.width > 100, `drawn twice its size: ${JSON.stringify(replace.bounds)}`);
    const pressed = await call("click", { ref: replace.ref, intent: "Replace all" });
    assert.equal(pressed.data.status, "done", pressed.text);
    const document = async () => (await first(EDITOR, { role: "text", name: "Document" })).value;
    assert.ok(await until(async () => (await document()) === "dog and dog and dog"), await document());
  });

  it("a menu's item on the scaled screen is placed in its popup and activated by a real click", async () => {
    const file = await first(EDITOR, { role: "menu", name: "File" });
    assert.equal((await call("click", { ref: file.ref, intent: "Open the File menu" })).data.status, "done");
    const item = await first(EDITOR, { role: "menu item", name: "Search…" });
    const clicked = await call("click", { ref: item.ref, intent: "Open the search to look" });
    assert.equal(clicked.data.status, "done", clicked.text);
    const windows = async () =>
      ((await call("windows", {})).data.windows as { title: string }[]).map((w) => w.title);
    assert.ok(await until(async () => (await windows()).includes("Search")), JSON.stringify(await windows()));
  });
});
