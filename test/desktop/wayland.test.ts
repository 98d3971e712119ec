// The first piece of deskhand on Wayland (issue 28), on a real headless sway: sway started as the
// notes measured it (pixman, headless, under `unshare --user` since sway refuses root), a GTK 3 app
// on it; deskhand reads sway's windows over its IPC and drives focus and the scratchpad, read back
// from sway; `doctor` in that session says it is Wayland, reaches sway, and names what is not built.
import assert from "node:assert/strict";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { SwayIpc, swayWindows } from "../../src/platform/wayland/sway.js";
import { CLI, SWING_COMMAND } from "./helpers.js";

const TITLE = "Wayland Probe";

describe("a headless sway session", () => {
  const runtime = mkdtempSync(join(tmpdir(), "deskhand-wayland-"));
  chmodSync(runtime, 0o700);
  const children: ChildProcess[] = [];
  let env: NodeJS.ProcessEnv;
  let ipc: SwayIpc;

  before(async () => {
    const config = join(runtime, "sway.config");
    writeFileSync(
      config,
      "output HEADLESS-1 resolution 1280x800 position 0 0\nxwayland disable\nfocus_follows_mouse no\ndefault_border normal 2\n",
    );
    const base = { ...process.env, XDG_RUNTIME_DIR: runtime };
    const sway = spawn("unshare", ["--user", "sway", "-c", config], {
      env: { ...base, WLR_BACKENDS: "headless", WLR_LIBINPUT_NO_DEVICES: "1", WLR_RENDERER: "pixman" },
      stdio: "ignore",
      detached: true,
    });
    children.push(sway);
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
    const app = spawn("zenity", ["--entry", `--title=${TITLE}`, "--text=Name"], {
      env: { ...env, GDK_BACKEND: "wayland" },
      stdio: "ignore",
      detached: true,
    });
    children.push(app);
    ipc = await SwayIpc.open(env.SWAYSOCK!, 2000);
    // A new window is in sway's tree before its first layout: wait until its rectangle reads the
    // same twice, 100 ms apart (seen on CI: a window at y=0 before sway placed it).
    let last = "";
    for (let i = 0; i < 100; i++) {
      const window = swayWindows(await ipc.tree()).find((w) => w.title === TITLE);
      const now = window ? JSON.stringify(window.rect) : "";
      if (now && now === last) break;
      last = now;
      await sleep(100);
    }
  });
  after(() => {
    ipc?.close();
    for (const child of children.reverse())
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // Gone already.
      }
  });

  const probe = async () => swayWindows(await ipc.tree()).find((w) => w.title === TITLE);

  it("lists the app's window with its pid and a place on the screen", async () => {
    const window = await probe();
    assert.ok(window, JSON.stringify(swayWindows(await ipc.tree())));
    assert.equal(window.pid, children[1]!.pid);
    assert.ok(window.rect.width > 50 && window.rect.height > 50, JSON.stringify(window.rect));
    assert.ok(window.rect.y >= 20, "below sway's title bar");
    assert.equal(window.visible, true);
  });

  it("hides it to the scratchpad and shows it again, each read back from sway", async () => {
    const window = (await probe())!;
    await ipc.command(`[con_id=${window.id}] move scratchpad`);
    assert.equal((await probe())?.visible, false, "hidden");
    await ipc.command(`[con_id=${window.id}] scratchpad show`);
    await ipc.command(`[con_id=${window.id}] focus`);
    const shown = await probe();
    assert.equal(shown?.visible, true, "shown");
    assert.equal(shown?.focused, true, "and focused");
    await assert.rejects(ipc.command("[con_id=999999] focus"), /sway refused/);
  });

  it("doctor says the session is Wayland, reaches sway, and names what is not built there", () => {
    const doctor = spawnSync(process.execPath, [...CLI, "doctor"], {
      env,
      encoding: "utf8",
      timeout: 60_000,
    });
    const out = doctor.stdout;
    assert.match(out, /session · session: Wayland \(WAYLAND_DISPLAY=wayland-1\)/, out);
    assert.match(out, /session · sway IPC: sway 1\.\d+: 1 window \("Wayland Probe"\)/, out);
    assert.match(out, /session · pointer: deskhand's own virtual pointer \(zwlr_virtual_pointer_v1\)/, out);
    assert.match(out, /session · keyboard: deskhand's own virtual keyboard \(zwp_virtual_keyboard_v1/, out);
    assert.match(
      out,
      /session · screenshots: deskhand's own screencopy \(zwlr_screencopy_v1\); grim for a region/,
      out,
    );
  });
});

describe("deskhand sandbox --wayland", () => {
  /** `deskhand sandbox run --wayland --app APP -- sh -c SCRIPT`: its output. */
  const inWayland = (app: string, script: string, extra: string[] = []) =>
    spawnSync(
      process.execPath,
      [
        ...CLI,
        "sandbox",
        "run",
        "--wayland",
        ...extra,
        "--app-timeout-ms",
        "60000",
        "--app",
        app,
        "--",
        "sh",
        "-c",
        script,
      ],
      { encoding: "utf8", timeout: 180_000 },
    );
  const cli = `${process.execPath} ${CLI.join(" ")}`;

  it("a GTK 3 app on sway: its window from sway, its tree over AT-SPI, a value set and read back, a real click", () => {
    const shot = join(mkdtempSync(join(tmpdir(), "deskhand-wayland-shot-")), "window.png");
    const run = inWayland(
      `zenity --entry --title='${TITLE}' --text=Name`,
      [
        `echo "WAYLAND_DISPLAY=$WAYLAND_DISPLAY DISPLAY=\${DISPLAY:-none} GDK_BACKEND=$GDK_BACKEND"`,
        `${cli} windows`,
        `${cli} act --title '${TITLE}' --role text --action set_value --value 'Zoë ✓ on Wayland'`,
        `${cli} find --title '${TITLE}' --role text --json`,
        `${cli} screenshot --title '${TITLE}' --out ${shot}; echo "screenshot exit $?"`,
        `${cli} type --text 'typed' --title '${TITLE}' --role text --intent 'Try the keyboard'; echo "type exit $?"`,
        `${cli} click --title '${TITLE}' --role 'push button' --name Cancel --intent 'Cancel with the real pointer'; echo "click exit $?"`,
        "sleep 1",
        `${cli} windows`,
      ].join("; "),
    );
    const out = run.stdout + run.stderr;
    assert.equal(run.status, 0, out);
    assert.match(out, /WAYLAND_DISPLAY=wayland-\d+ DISPLAY=none GDK_BACKEND=wayland/, out);
    // The window list is sway's: its con_id, the app's pid, its place.
    assert.match(
      out,
      new RegExp(`^- \\d+ "${TITLE}" app=zenity pid=\\d+ \\d+x\\d+@\\d+,\\d+ \\(focused\\)$`, "m"),
      out,
    );
    // The value was set through EditableText and reads back from the app.
    assert.match(out, /"value":"Zoë ✓ on Wayland"/, out);
    // Element bounds are global: the window's origin is added to GTK's window-relative extents.
    const bounds = /"bounds":\{"x":(\d+),"y":(\d+)/.exec(out);
    assert.ok(bounds && Number(bounds[2]) > 25, `below sway's title bar: ${out}`);
    // Pixels from deskhand's own screencopy: a PNG of the window, not a blank one.
    assert.match(out, /screenshot exit 0/, out);
    assert.ok(statSync(shot).size > 3000, `a picture of the dialog (${statSync(shot).size} bytes)`);
    // deskhand's own virtual keyboard typed after the value set, as the field reads back.
    assert.match(out, /type exit 0/, out);
    assert.match(
      out,
      /done: typed 5 character\(s\) at the end of its text on [^;]+; the field reads back exactly as it should/,
      out,
    );
    // The pointer is real: Cancel was clicked where AT-SPI and sway put it, and the dialog went.
    assert.match(out, /done: left click at \(\d+, \d+\) on push button "Cancel"/, out);
    assert.match(out, /window disappeared: \d+ "Wayland Probe"/, out);
    assert.match(out, /No top-level windows are open\./, out);
  });

  it("--xwayland: an X11 app (Java Swing) beside, placed where sway shows it, clicked and typed into, Unicode too", () => {
    const status = `${cli} snapshot --title 'Deskhand Fixture' --json --full --max-depth 40 --max-nodes 2000 | node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>console.log('STATUS', JSON.parse(s).elements.find(e=>e.name==='Status').description))"`;
    const run = inWayland(
      SWING_COMMAND.join(" "),
      [
        `echo "DISPLAY=\${DISPLAY:-none} XDG_SESSION_TYPE=$XDG_SESSION_TYPE"`,
        `${cli} click --title 'Deskhand Fixture' --role 'push button' --name-contains Alpha --intent 'Press Alpha'`,
        "sleep 1",
        status,
        // Moved after it opened: the shift is measured again at every listing.
        `swaymsg '[title="Deskhand Fixture"] floating enable, move position 150 120' >/dev/null`,
        "sleep 1",
        `${cli} click --title 'Deskhand Fixture' --role 'push button' --name-contains Beta --intent 'Press Beta'`,
        "sleep 1",
        status,
        `${cli} type --title 'Deskhand Fixture' --role text --name Name --text 'plain words' --clear --intent 'Type a name'`,
        `${cli} type --title 'Deskhand Fixture' --role text --name Name --text 'Zoë 日本 ✓' --clear --intent 'Type a name'; echo "unicode exit $?"`,
        `${cli} find --title 'Deskhand Fixture' --role text --name Name --json`,
        // Killed while it types there: the next key for an X11 app gives back what it left first.
        `${cli} type --title 'Deskhand Fixture' --role text --name Name --text "$(printf 'é✓日本ßøæ %.0s' $(seq 1000))" --clear --intent 'Type a long line' & typing=$!`,
        // It is killed once its record on XWayland's root window ([host, pid, start, buttons, keys…,
        // borrowed…], each list count-prefixed) shows keycodes it borrowed.
        `for i in $(seq 300); do xprop -root _DESKHAND_INPUT_OWNERS | grep -Eq ", $typing, [0-9]+, [0-9]+, 0, [1-9]" && break; sleep 0.05; done; kill -9 $typing`,
        "sleep 0.5",
        `${cli} type --title 'Deskhand Fixture' --role text --name Name --text 'after' --clear --intent 'Type a name'`,
      ].join("; "),
      ["--xwayland"],
    );
    const out = run.stdout + run.stderr;
    assert.equal(run.status, 0, out);
    assert.match(out, /DISPLAY=:\d+ XDG_SESSION_TYPE=wayland/, out);
    // Java's own idea of its place is stale under XWayland: shifted to sway's, the real click lands.
    assert.match(out, /done: left click at \(\d+, \d+\) on push button "Alpha/, out);
    assert.match(out, /STATUS Pressed Alpha/, out);
    assert.match(out, /STATUS Pressed Beta/, out);
    assert.match(
      out,
      /done: typed 11 character\(s\) after clearing on [^;]+; the field reads back exactly as it should/,
      out,
    );
    // A swapped Wayland keymap does not reach an X11 app there: XTEST on XWayland's display types it.
    assert.match(
      out,
      /done: typed 8 character\(s\) after clearing on [^;]+; the field reads back exactly as it should/,
      out,
    );
    assert.match(out, /unicode exit 0/, out);
    assert.match(out, /"value":"Zoë 日本 ✓"/, out);
    assert.match(
      out,
      /deskhand: on :\d+: .*gave back \d+ borrowed keycode\(s\), left by deskhand process \d+, which is gone/,
      out,
    );
    assert.match(
      out,
      /done: typed 5 character\(s\) after clearing on [^;]+; the field reads back exactly as it should/,
      out,
    );
  });
});
