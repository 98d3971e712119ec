// A compositor that dies mid-session is named as such (issue 55): a headless sway of the test's own,
// read and driven through one context, is killed; the same context's next window list and input, and
// a new CLI process's, are a backend_unavailable error naming sway as gone and what to do (they were
// internal_error "if doctor is clean, report this"); `doctor` fails on its sway check and exits 1.
import assert from "node:assert/strict";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { SwayIpc, swayWindows } from "../../src/platform/wayland/sway.js";
import type { ToolContext } from "../../src/tools/context.js";
import { CLI, gatedContext, toolCaller } from "./helpers.js";

const TITLE = "Compositor Probe";

describe("sway killed mid-session", () => {
  const runtime = mkdtempSync(join(tmpdir(), "deskhand-gone-"));
  chmodSync(runtime, 0o700);
  const children: ChildProcess[] = [];
  let env: NodeJS.ProcessEnv;
  let context: ToolContext;
  let call: ReturnType<typeof toolCaller>;
  const doctor = () =>
    spawnSync(process.execPath, [...CLI, "doctor"], { env, encoding: "utf8", timeout: 60_000 });

  before(async () => {
    const config = join(runtime, "sway.config");
    writeFileSync(
      config,
      "output HEADLESS-1 resolution 1280x800 position 0 0\nxwayland disable\nfocus_follows_mouse no\n",
    );
    const base = { ...process.env, XDG_RUNTIME_DIR: runtime };
    children.push(
      spawn("unshare", ["--user", "sway", "-c", config], {
        env: { ...base, WLR_BACKENDS: "headless", WLR_LIBINPUT_NO_DEVICES: "1", WLR_RENDERER: "pixman" },
        stdio: "ignore",
        detached: true,
      }),
    );
    let socket: string | undefined;
    for (let i = 0; i < 100 && !socket; i++) {
      await sleep(100);
      const names = readdirSync(runtime);
      if (names.includes("wayland-1")) socket = names.find((n) => n.startsWith("sway-ipc."));
    }
    assert.ok(socket, `sway started (its sockets in ${runtime})`);
    env = {
      ...base,
      WAYLAND_DISPLAY: "wayland-1",
      SWAYSOCK: join(runtime, socket),
      XDG_SESSION_TYPE: "wayland",
    };
    delete env.DISPLAY;
    children.push(
      spawn("zenity", ["--entry", `--title=${TITLE}`, "--text=Name"], {
        env: { ...env, GDK_BACKEND: "wayland" },
        stdio: "ignore",
        detached: true,
      }),
    );
    const ipc = await SwayIpc.open(env.SWAYSOCK!, 2000);
    try {
      for (let i = 0; i < 100 && !swayWindows(await ipc.tree()).some((w) => w.title === TITLE); i++)
        await sleep(100);
    } finally {
      ipc.close();
    }
    context = gatedContext(runtime, undefined, env);
    call = toolCaller(context);
  });
  after(async () => {
    await context?.close();
    for (const child of children.reverse())
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // Gone already.
      }
  });

  it("before: the window list is sway's, the pointer moves, and doctor's sway check passes", async () => {
    const listed = await call("windows", {});
    assert.ok(listed.ok, JSON.stringify(listed.error));
    assert.ok(
      (listed.data.windows as { title: string }[]).some((w) => w.title === TITLE),
      listed.text,
    );
    const hovered = await call("hover", {
      at: { space: "global", x: 400, y: 300 },
      intent: "Point at the entry",
    });
    assert.equal(hovered.data?.status, "done", JSON.stringify(hovered));
    assert.match(doctor().stdout, /^ok +session · sway IPC: sway 1\.\d+: 1 window/m);
  });

  it("after a kill: the next calls say sway is gone and what to do; doctor fails on it and exits 1", async () => {
    process.kill(-children[0]!.pid!, "SIGKILL");
    // Gone once its IPC socket refuses a connection.
    for (let i = 0; ; i++) {
      const refused = await SwayIpc.open(env.SWAYSOCK!, 1000).then(
        (ipc) => {
          ipc.close();
          return false;
        },
        () => true,
      );
      if (refused) break;
      assert.ok(i < 100, "sway still answers 10 s after its kill");
      await sleep(100);
    }
    const gone = (error: Record<string, unknown> | undefined, what: string) => {
      assert.equal(error?.code, "backend_unavailable", `${what}: ${JSON.stringify(error)}`);
      assert.equal(error?.compositor, "sway", what);
      assert.equal(error?.problem, "compositor_gone", what);
      assert.match(String(error?.message), /^sway, this session's Wayland compositor, is gone: /, what);
      assert.match(String(error?.next), /sandbox start --wayland/, what);
    };
    // The same context, whose connections to sway were open.
    const listed = await call("windows", {});
    gone(listed.error, "windows");
    const typed = await call("type_text", { text: "abc", intent: "Type a name", window: { title: TITLE } });
    gone(typed.error, "type_text");
    // A new process, which connects anew.
    const cli = spawnSync(process.execPath, [...CLI, "windows"], { env, encoding: "utf8", timeout: 60_000 });
    assert.equal(cli.status, 1, cli.stderr);
    assert.match(
      cli.stderr,
      /sway, this session's Wayland compositor, is gone: its IPC socket .* refuses connections \(ECONNREFUSED\)/,
    );
    assert.doesNotMatch(cli.stderr, /report this/);
    const checked = doctor();
    assert.equal(checked.status, 1, checked.stdout);
    assert.match(
      checked.stdout,
      /^FAIL session · sway IPC: .*sway, this session's Wayland compositor, is gone/m,
      checked.stdout,
    );
  });
});
