// `deskhand sandbox` itself, nested inside the test desktop: its own display and buses, the app wait
// with a named failure, COMMAND's exit status, and teardown of exactly what it started.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { X11Connection } from "../../src/platform/x11/connection.js";
import { CLI } from "./helpers.js";

function deskhand(args: string[], env: NodeJS.ProcessEnv = process.env) {
  return spawnSync(process.execPath, [...CLI, ...args], { encoding: "utf8", env, timeout: 120_000 });
}

/** `deskhand ARGS` without blocking this process, so that several run at once. */
function deskhandAsync(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...CLI, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("exit", (status) => resolve({ status, stdout, stderr }));
  });
}

/** Pids of live processes whose command line mentions `needle`. */
function processesMatching(needle: string): number[] {
  return readdirSync("/proc")
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        const stat = readFileSync(`/proc/${p}/stat`, "utf8");
        const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
        return state !== "Z" && readFileSync(`/proc/${p}/cmdline`, "utf8").includes(needle);
      } catch {
        return false;
      }
    })
    .map(Number);
}

function processState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
  } catch {
    return undefined;
  }
}

/** The pid and every live descendant of it, from /proc. */
function descendants(root: number): number[] {
  const parents = new Map<number, number>();
  for (const p of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, "utf8");
      parents.set(Number(p), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // Gone meanwhile.
    }
  }
  const found = [root];
  for (let i = 0; i < found.length; i++)
    for (const [pid, parent] of parents) if (parent === found[i]) found.push(pid);
  return found;
}

const alive = (pid: number) => {
  const state = processState(pid);
  return state !== undefined && state !== "Z";
};

describe("sandbox", () => {
  it("dies with its owner: after kill -9 of sandbox run, nothing it started is alive and its folder is gone", async () => {
    const owner = spawn(
      process.execPath,
      [
        ...CLI,
        "sandbox",
        "run",
        "--app",
        "gtk3-widget-factory",
        "--",
        "sh",
        "-c",
        'echo "$XDG_RUNTIME_DIR"; exec sleep 600',
      ],
      { stdio: ["pipe", "pipe", "inherit"] },
    );
    let output = "";
    owner.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const deadline = Date.now() + 60_000;
    while (!output.includes("\n") && Date.now() < deadline) await sleep(100);
    const runtime = output.trim();
    assert.match(runtime, /deskhand-sandbox-.*\/runtime$/, "the command ran in the sandbox");
    const root = runtime.replace(/\/runtime$/, "");
    const started = descendants(owner.pid!).filter((pid) => pid !== owner.pid);
    assert.ok(
      started.length >= 6,
      `Xvfb, buses, openbox, AT-SPI, the app and the command: ${started.length}`,
    );
    owner.kill("SIGKILL");
    const gone = Date.now() + 5000;
    while ((started.some(alive) || existsSync(root)) && Date.now() < gone) await sleep(100);
    assert.deepEqual(
      started
        .filter(alive)
        .map((pid) => `${pid} ${readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ")}`),
      [],
      "every process the sandbox started is gone",
    );
    assert.equal(existsSync(root), false, "its folder is gone");
  });

  it("run gives COMMAND a private desktop with the app registered, and exits with its status", () => {
    const script =
      'test "$DISPLAY" != "$OUTER_DISPLAY" || exit 90; ' +
      'node dist/frontends/cli/main.js windows --json > "$XDG_RUNTIME_DIR/w.json" || exit 91; ' +
      'grep -q gtk3-widget-factory "$XDG_RUNTIME_DIR/w.json" || exit 92; ' +
      "exit 7";
    const result = deskhand(["sandbox", "run", "--app", "gtk3-widget-factory", "--", "sh", "-c", script], {
      ...process.env,
      OUTER_DISPLAY: process.env.DISPLAY,
    });
    assert.equal(result.status, 7, result.stderr);
  });

  it("run ends only the processes it started", () => {
    const marker = `deskhand-marker-${process.pid}`;
    // An app of the same program outside, started here: other jobs' apps come and go on their own,
    // so this one is the witness.
    const outerMarker = `deskhand-outer-${process.pid}`;
    const outer = spawn("gtk3-widget-factory", [`--name=${outerMarker}`], {
      stdio: "ignore",
      detached: true,
    });
    try {
      const result = deskhand([
        "sandbox",
        "run",
        "--app",
        `gtk3-widget-factory --name=${marker}`,
        "--",
        "true",
      ]);
      assert.equal(result.status, 0, result.stderr);
      assert.deepEqual(processesMatching(marker), [], "the sandbox's app is gone");
      assert.deepEqual(processesMatching(outerMarker), [outer.pid], "the outer app still runs");
    } finally {
      outer.kill("SIGKILL");
    }
  });

  it("an app that never registers gets a clear error naming it", () => {
    const result = deskhand([
      "sandbox",
      "run",
      "--app",
      "sleep 30",
      "--app-timeout-ms",
      "1500",
      "--",
      "true",
    ]);
    assert.equal(result.status, 1);
    assert.match(
      result.stderr,
      /app "sleep 30" did not register a window on the accessibility bus within 1500 ms/,
    );
    const died = deskhand(["sandbox", "run", "--app", "sh -c 'echo broken >&2; exit 3'", "--", "true"]);
    assert.equal(died.status, 1);
    assert.match(died.stderr, /exited \(status 3\) before it registered[\s\S]*broken/);
  });

  it("in every kind of desktop, mcp started with HOME and PATH only finds the desktop its client runs in", async () => {
    const kinds = [[], ["--wayland"], ["--kde"], ["--gnome"]];
    const runs = kinds.map(
      (kind) =>
        new Promise<{ kind: string; code: number | null; out: string }>((resolve) => {
          const title = `Stock client ${kind[0] ?? "x11"} ${process.pid}`;
          const child = spawn(
            process.execPath,
            [
              ...CLI,
              "sandbox",
              "run",
              ...kind,
              "--app",
              `zenity --entry --title='${title}'`,
              "--",
              process.execPath,
              "--import",
              "tsx",
              "test/fixtures/clients/stock-client.ts",
              CLI.at(-1)!,
            ],
            { stdio: ["ignore", "pipe", "pipe"] },
          );
          let out = "";
          child.stdout.on("data", (d) => (out += d));
          child.stderr.on("data", (d) => (out += d));
          child.on("close", (code) => resolve({ kind: kind[0] ?? "x11", code, out: `${title}\n${out}` }));
        }),
    );
    for (const { kind, code, out } of await Promise.all(runs)) {
      assert.equal(code, 0, `${kind}: ${out}`);
      const title = out.split("\n")[0]!;
      assert.ok(out.includes(`"${title}"`), `${kind}: its window listed: ${out}`);
      assert.match(
        out,
        /ok +platform · desktop: the desktop .* was found in the environment of node .*which started deskhand/,
        kind,
      );
    }
  });

  it("bad command lines exit 2", () => {
    assert.equal(deskhand(["sandbox", "run", "true"]).status, 2);
    assert.equal(deskhand(["sandbox", "fly"]).status, 2);
    assert.equal(deskhand(["sandbox", "run", "--size", "huge", "--", "true"]).status, 2);
    const scale = deskhand(["sandbox", "run", "--scale", "9", "--", "true"]);
    assert.equal(scale.status, 2);
    assert.match(scale.stderr, /--scale takes a factor from 1 to 4/);
    const dpi = deskhand(["sandbox", "run", "--wayland", "--dpi", "144", "--", "true"]);
    assert.equal(dpi.status, 2);
    assert.match(dpi.stderr, /--dpi is for X11: a Wayland output takes --scale/);
    const both = deskhand(["sandbox", "run", "--wayland", "--kde", "--", "true"]);
    assert.equal(both.status, 2);
    assert.match(both.stderr, /give one of them/);
    const screens = deskhand(["sandbox", "run", "--kde", "--monitors", "2", "--", "true"]);
    assert.equal(screens.status, 2);
    assert.match(screens.stderr, /a KDE sandbox has one screen/);
    const setup = deskhand(["setup", "fly"]);
    assert.equal(setup.status, 2);
    assert.match(setup.stderr, /setup knows kde and gnome/);
    const gnomeScaled = deskhand(["sandbox", "run", "--gnome", "--scale", "1.5", "--", "true"]);
    assert.equal(gnomeScaled.status, 2);
    assert.match(gnomeScaled.stderr, /a GNOME sandbox takes a whole scale/);
    const form = deskhand(["setup", "gnome", "--form", "gnome40"]);
    assert.equal(form.status, 2);
    assert.match(form.stderr, /--form takes gnome43 .* or esm/);
  });

  it("setup gnome writes the extension in the installed Shell's form, or the one asked for, and says what is untested", () => {
    const home = mkdtempSync(join(tmpdir(), "deskhand-setup-"));
    try {
      const env = { ...process.env, XDG_DATA_HOME: home };
      const folder = join(home, "gnome-shell/extensions/deskhand@deskhand.dev");
      const dry = deskhand(["setup", "gnome", "--dry-run", "--form", "esm"], env);
      assert.equal(dry.status, 0, dry.stderr);
      assert.match(dry.stdout, /export default class DeskhandExtension/);
      assert.match(dry.stdout, /has not run on a real GNOME Shell/);
      assert.equal(existsSync(folder), false, "a dry run writes nothing");
      const wrote = deskhand(["setup", "gnome"], env);
      assert.equal(wrote.status, 0, wrote.stderr);
      assert.match(wrote.stdout, /gnome43 form, for GNOME Shell 43/);
      assert.match(wrote.stdout, /log out and back in/);
      assert.match(readFileSync(join(folder, "extension.js"), "utf8"), /^const \{ Gio, GLib/);
      assert.deepEqual(JSON.parse(readFileSync(join(folder, "metadata.json"), "utf8"))["shell-version"], [
        "43",
        "44",
      ]);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it("--dpi sets the X server's and Xft.dpi's dots per inch, and doctor reads both", () => {
    const run = deskhand(["sandbox", "run", "--dpi", "144", "--", process.execPath, ...CLI, "doctor"]);
    assert.match(
      run.stdout,
      /display · scaling: X server 144 dpi, Xft\.dpi 144; toolkit variables here: none/,
    );
  });

  it("stop ends an app that ignores SIGTERM and its child in a session of its own, within its bound, and says so", () => {
    const name = `stubborn-${process.pid}`;
    const marker = String(4000 + (process.pid % 1000));
    const app = `/usr/bin/python3 test/fixtures/dialogs/gtk3_stubborn.py ${marker}`;
    const started = deskhand(["sandbox", "start", "--name", name, "--app", app, "--json"]);
    assert.equal(started.status, 0, started.stderr);
    const sleeping = () =>
      readdirSync("/proc")
        .filter((p) => /^\d+$/.test(p))
        .filter((p) => {
          try {
            return (
              readFileSync(`/proc/${p}/cmdline`, "utf8") === `sleep\0${marker}\0` &&
              processState(Number(p)) !== "Z"
            );
          } catch {
            return false;
          }
        });
    assert.equal(sleeping().length, 1, "the app's child runs");
    const before = Date.now();
    const stopped = deskhand(["sandbox", "stop", "--name", name]);
    const took = Date.now() - before;
    assert.equal(stopped.status, 0, stopped.stderr);
    assert.ok(took < 15_000, `stopped within its bound (${took} ms)`);
    assert.deepEqual(sleeping(), [], "the child in a session of its own was ended too");
    const files = join(tmpdir(), `deskhand-${process.getuid?.() ?? "user"}`);
    assert.deepEqual(
      readdirSync(files).filter((f) => f.includes(`sandbox-${name}`)),
      [],
    );
  });

  it("start prints the environment to export; stop ends it", () => {
    const name = `test-${process.pid}`;
    const started = deskhand(["sandbox", "start", "--name", name, "--app", "gtk3-widget-factory", "--json"]);
    assert.equal(started.status, 0, started.stderr);
    const { env, supervisorPid } = JSON.parse(started.stdout) as {
      env: Record<string, string>;
      supervisorPid: number;
    };
    try {
      assert.match(env.DISPLAY!, /^:\d+$/);
      assert.notEqual(env.DISPLAY, process.env.DISPLAY);
      assert.match(env.DBUS_SESSION_BUS_ADDRESS!, /^unix:path=/);
      const windows = deskhand(["windows", "--json"], { ...process.env, ...env });
      assert.equal(windows.status, 0, windows.stderr);
      assert.deepEqual(
        JSON.parse(windows.stdout).windows.map((w: { title: string }) => w.title),
        ["gtk3-widget-factory"],
      );
      const again = deskhand(["sandbox", "start", "--name", name]);
      assert.equal(again.status, 2, "a second start with the same name is refused");
    } finally {
      const stopped = deskhand(["sandbox", "stop", "--name", name]);
      assert.equal(stopped.status, 0, stopped.stderr);
    }
    const files = join(tmpdir(), `deskhand-${process.getuid?.() ?? "user"}`);
    assert.deepEqual(
      readdirSync(files).filter((f) => f.includes(`sandbox-${name}`)),
      [],
      "stop leaves neither the state file nor its log",
    );
    // Gone, or a zombie: the supervisor outlived its parent, and PID 1 on these machines never reaps.
    assert.ok(
      processState(supervisorPid) === undefined || processState(supervisorPid) === "Z",
      "the supervisor is gone",
    );
    // A caller whose environment already has some of the same values still gets every line: the
    // output is often saved and sourced in another shell.
    const text = deskhand(["sandbox", "start", "--name", name], {
      ...process.env,
      GSK_RENDERER: "cairo",
      XDG_SESSION_TYPE: "x11",
    });
    try {
      assert.equal(text.status, 0);
      assert.match(text.stdout, /^export DISPLAY=':\d+'$/m);
      assert.match(text.stdout, /^export GSK_RENDERER='cairo'$/m);
      assert.match(text.stdout, /^export XDG_SESSION_TYPE='x11'$/m);
      assert.match(text.stdout, /^export DBUS_SESSION_BUS_ADDRESS='unix:path=/m);
      assert.doesNotMatch(
        text.stdout,
        /^export (PATH|HOME)=/m,
        "inherited variables it does not change stay out",
      );
      assert.match(text.stdout, /^unset AT_SPI_BUS_ADDRESS$/m);
    } finally {
      assert.equal(deskhand(["sandbox", "stop", "--name", name]).status, 0);
    }
    assert.equal(deskhand(["sandbox", "stop", "--name", name]).status, 1, "stopping twice says nothing runs");
  });

  // Once in the suite; DESKHAND_SANDBOX_ROUNDS=10 for the ten rounds docs/faults.md reports.
  const rounds = Number(process.env.DESKHAND_SANDBOX_ROUNDS ?? 1);
  it(`four starts at once all come up, each with a display of its own, ${rounds} times; stop ends them`, async () => {
    for (let round = 0; round < rounds; round++) {
      const names = [0, 1, 2, 3].map((i) => `race-${process.pid}-${round}-${i}`);
      const started = await Promise.all(
        names.map((name) => deskhandAsync(["sandbox", "start", "--name", name, "--json"])),
      );
      try {
        const displays = started.map((result, i) => {
          assert.equal(result.status, 0, `round ${round}, ${names[i]}: ${result.stderr}`);
          return (JSON.parse(result.stdout) as { env: Record<string, string> }).env.DISPLAY!;
        });
        assert.equal(new Set(displays).size, 4, `four displays: ${displays.join(" ")}`);
        // Each display is a live X server, not only a line printed.
        for (const display of displays) (await X11Connection.open(display, 10_000)).close();
      } finally {
        const stopped = await Promise.all(
          names.map((name) => deskhandAsync(["sandbox", "stop", "--name", name])),
        );
        for (const [i, result] of stopped.entries())
          assert.equal(result.status, 0, `stop ${names[i]}: ${result.stderr}`);
      }
    }
  });
});
