// GNOME Shell and KWin gone mid-session, and deskhand's Shell extension disabled (issue 55), each in
// its own headless sandbox, the compositor killed while text is typed: the calls after are a
// backend_unavailable error naming it and what to do, never an internal error or a keymap's fault,
// and `doctor` fails on it. KWin killed may leave its Wayland display silent rather than refusing,
// for a moment: the session bus then says it is gone. Three more minutes of sandboxes: run with
// DESKHAND_DESKTOP_LANES=1, as KDE's and GNOME's lanes.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { diagnose } from "../../src/platform/diagnostics.js";
import { launchApp } from "../../src/platform/sandbox/apps.js";
import { Desktop } from "../../src/platform/sandbox/desktop.js";
import type { DesktopOptions } from "../../src/platform/sandbox/starting.js";
import type { ToolContext } from "../../src/tools/context.js";
import { findWaiting, gatedContext, toolCaller } from "./helpers.js";

const LANES = process.env.DESKHAND_DESKTOP_LANES === "1";
const TITLE = "Gone Typed";

/** The error said after the compositor went: named, with what to do. */
function gone(error: Record<string, unknown> | undefined, compositor: string, problem: string, what: string) {
  assert.equal(error?.code, "backend_unavailable", `${what}: ${JSON.stringify(error)}`);
  assert.equal(error?.compositor, compositor, `${what}: ${JSON.stringify(error)}`);
  assert.equal(error?.problem, problem, `${what}: ${JSON.stringify(error)}`);
  assert.doesNotMatch(String(error?.message), /keymap|report this/, what);
}

/** A sandbox of its own with the typing fixture, and a gated context on it, for one describe. */
function sandboxWithApp(prefix: string, options: DesktopOptions) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const sandbox = {} as { desktop: Desktop; context: ToolContext; call: ReturnType<typeof toolCaller> };
  before(async () => {
    sandbox.desktop = await Desktop.start(options);
    await launchApp(
      sandbox.desktop,
      `/usr/bin/python3 test/fixtures/dialogs/gtk3_typed.py '${TITLE}'`,
      60_000,
    );
    sandbox.context = gatedContext(dir, undefined, sandbox.desktop.info.env);
    sandbox.call = toolCaller(sandbox.context);
  });
  after(async () => {
    await sandbox.context?.close();
    await sandbox.desktop?.stop();
  });
  return sandbox;
}

for (const lane of [
  { name: "GNOME Shell", options: { gnome: true }, compositor: "gnome", process: "gnome-shell" },
  { name: "KWin", options: { kde: true }, compositor: "kwin", process: "kwin_wayland" },
] as const) {
  describe(`${lane.name} gone mid-session`, { skip: !LANES && "DESKHAND_DESKTOP_LANES=1 runs it" }, () => {
    const sandbox = sandboxWithApp(`deskhand-gone-${lane.compositor}-`, lane.options);

    it(`${lane.name} killed while text is typed: named as gone, and doctor fails on it`, async () => {
      const { desktop, call } = sandbox;
      const full = (await findWaiting(call, TITLE, { name: "Full" }, 30_000)) as { ref: string };
      const typing = call("type_text", { ref: full.ref, text: "x".repeat(600), intent: "Type a long name" });
      await sleep(400);
      // Its whole process group: a helper it started keeps its listening socket otherwise.
      process.kill(-desktop.info.pids[lane.process]!, "SIGKILL");
      const typed = await typing;
      // Typing may have ended before the kill reached it; the next input meets the compositor gone
      // (sent where the focus is: the app may have gone with its compositor, and its ref with it).
      const next =
        typed.ok && typed.data?.status !== "error"
          ? await call("type_text", { text: "y", intent: "Type more" })
          : typed;
      gone(next.error ?? next.data?.error, lane.compositor, "compositor_gone", `type_text: ${next.text}`);
      gone((await call("windows", {})).error, lane.compositor, "compositor_gone", "windows");
      const checks = await diagnose(desktop.info.env);
      assert.ok(
        checks.some((c) => c.section === "session" && c.status === "fail"),
        JSON.stringify(checks.filter((c) => c.section === "session")),
      );
    });
  });
}

describe("GNOME Shell's deskhand extension disabled mid-session", {
  skip: !LANES && "DESKHAND_DESKTOP_LANES=1 runs it",
}, () => {
  const sandbox = sandboxWithApp("deskhand-gone-extension-", { gnome: true });

  it("is named as the extension missing, with how to enable it; doctor fails on it", async () => {
    const { desktop, call } = sandbox;
    const windows = await call("windows", {});
    assert.ok(windows.ok, JSON.stringify(windows.error));
    // The Shell's own setting, as a person's Extensions app changes it (the sandbox's Shell keeps
    // its settings in a key file, which it watches).
    execFileSync("gsettings", ["set", "org.gnome.shell", "enabled-extensions", "[]"], {
      env: { ...desktop.info.env, GSETTINGS_BACKEND: "keyfile" },
      timeout: 30_000,
    });
    const until = Date.now() + 20_000;
    let after = await call("windows", {});
    while (after.ok && Date.now() < until) {
      await sleep(300);
      after = await call("windows", {});
    }
    gone(after.error, "gnome", "extension_missing", "windows");
    assert.match(String(after.error?.next), /gnome-extensions enable deskhand@deskhand\.dev/);
    const typed = await call("type_text", { text: "y", intent: "Type" });
    gone(typed.error ?? typed.data?.error, "gnome", "extension_missing", `type_text: ${typed.text}`);
    const checks = await diagnose(desktop.info.env);
    assert.ok(
      checks.some(
        (c) => c.section === "session" && c.status === "fail" && /extension/.test(`${c.name} ${c.value}`),
      ),
      JSON.stringify(checks.filter((c) => c.section === "session")),
    );
  });
});
