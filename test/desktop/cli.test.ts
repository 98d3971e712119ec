// The CLI: --json, --help and exit codes (0 done, 1 failed, 2 bad command line).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { CLI, cli, TITLES } from "./helpers.js";

/** A server that takes connections and reads them, and never answers: a peer too slow to answer in time. */
async function silentServer(
  where: string | { port: 0; host: string },
): Promise<{ server: Server; port?: number }> {
  const sockets: Socket[] = [];
  const server = createServer((socket) => {
    sockets.push(socket);
    socket.on("data", () => {});
    socket.on("error", () => {});
  });
  server.on("close", () => {
    for (const socket of sockets) socket.destroy();
  });
  await new Promise<void>((resolve) =>
    typeof where === "string" ? server.listen(where, resolve) : server.listen(where, resolve),
  );
  const address = server.address();
  return { server, ...(typeof address === "object" && address ? { port: address.port } : {}) };
}

describe("cli", () => {
  it("windows --json lists the apps", async () => {
    const { code, stdout } = await cli(["windows", "--json"]);
    assert.equal(code, 0);
    const titles = JSON.parse(stdout).windows.map((w: { title: string }) => w.title);
    for (const title of Object.values(TITLES)) assert.ok(titles.includes(title));
  });

  it("snapshot --title reads a window as text, and --all-pages follows the cursor", async () => {
    const { code, stdout } = await cli([
      "snapshot",
      "--title",
      "Deskhand*",
      "--max-nodes",
      "30",
      "--full",
      "--all-pages",
    ]);
    assert.equal(code, 0);
    const headers = stdout.split("\n").filter((l) => l.startsWith("# snapshot s1"));
    assert.ok(headers.length >= 3, `several pages of one snapshot: ${headers.join(" | ")}`);
    assert.match(stdout, /label "Status"/);
  });

  it("snapshot --json carries truncated_by and the limits with their ceilings", async () => {
    const { code, stdout } = await cli(["snapshot", "--title", TITLES.gtk3, "--max-depth", "2", "--json"]);
    assert.equal(code, 0);
    const data = JSON.parse(stdout);
    assert.ok(data.truncated_by.includes("maxDepth"));
    assert.equal(data.limits.inForce.maxDepth, 2);
    assert.equal(data.limits.ceilings.maxNodes, 5000);
  });

  it("find, act, read-table and wait name elements by selector, in one process each", async () => {
    const found = await cli(["find", "--title", TITLES.swing, "--role", "radio button", "--json"]);
    assert.equal(found.code, 0, found.stderr);
    assert.deepEqual(
      JSON.parse(found.stdout).matches.map((m: { name: string }) => m.name),
      ["Small", "Medium", "Large"],
    );
    const ambiguous = await cli([
      "act",
      "--title",
      TITLES.swing,
      "--role",
      "radio button",
      "--action",
      "toggle",
    ]);
    assert.equal(ambiguous.code, 1);
    assert.match(ambiguous.stderr, /3 elements match; nothing was done\n {2}--nth 0: radio button "Small"/);
    const acted = await cli([
      "act",
      "--title",
      TITLES.swing,
      "--role",
      "radio button",
      "--nth",
      "0",
      "--action",
      "toggle",
      "--json",
    ]);
    assert.equal(acted.code, 0, acted.stderr);
    assert.ok(JSON.parse(acted.stdout).after.states.includes("checked"));
    const table = await cli([
      "read-table",
      "--title",
      TITLES.swing,
      "--role",
      "table",
      "--row-start",
      "10",
      "--row-count",
      "2",
    ]);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /\| 10 \| 11 \| Item 11 \|/);
    const waited = await cli(["wait", "--window-title", "Nothing*", "--timeout-ms", "300", "--json"]);
    assert.equal(waited.code, 0, "a timeout is an answer");
    assert.equal(JSON.parse(waited.stdout).met, false);
    assert.equal((await cli(["act", "--title", TITLES.swing, "--role", "table", "--action", "fly"])).code, 2);
  });

  it("a window that is not there exits 1 with the next step", async () => {
    const { code, stderr } = await cli(["snapshot", "--title", "No such window"]);
    assert.equal(code, 1);
    // The windows open now are named, so that the next call can name one.
    assert.match(
      stderr,
      /no open window matches title "No such window"; open now: \d+ "[^\n]*\nNext: Name one of those by its id/,
    );
  });

  it("bad command lines exit 2 with usage", async () => {
    const lines = [
      ["fly"],
      ["snapshot", "--max-depth", "deep"],
      ["snapshot", "--nope"],
      ["windows", "--limit", "0"],
      ["snapshot", "--window", "1", "--focused"],
    ];
    // At once, as --help's below: each is a process of its own, most of its time Node's start.
    const replies = await Promise.all(lines.map((args) => cli(args)));
    for (const [i, { code, stderr }] of replies.entries()) {
      assert.equal(code, 2, `${lines[i]!.join(" ")}: ${stderr}`);
      assert.ok(stderr.length > 0);
    }
  });

  it("--help prints usage and exits 0", async () => {
    // At once: each is a process of its own, most of its time Node's start.
    const commands = ["windows", "snapshot", "observe", "doctor", "sandbox", "serve", "mcp"];
    const replies = await Promise.all(commands.map((command) => cli([command, "--help"])));
    for (const [i, { code, stdout }] of replies.entries()) {
      assert.equal(code, 0, commands[i]);
      assert.match(stdout, /Usage/, commands[i]);
    }
  });

  it("doctor --json reports every check, and --probe reads a window", async () => {
    const { code, stdout } = await cli(["doctor", "--probe", "--json"]);
    assert.equal(code, 0, stdout);
    const checks = JSON.parse(stdout).checks as { section: string; name: string; status: string }[];
    const names = checks.map((c) => `${c.section}/${c.name}`);
    for (const expected of [
      "display/XTEST",
      "accessibility/AT-SPI bus",
      "accessibility/registry",
      "packages/at-spi2-core",
      "toolkits/Java",
      "probe/read",
      "safety/ceiling",
      "safety/audit journal",
    ]) {
      assert.ok(names.includes(expected), expected);
    }
    assert.ok(checks.every((c) => c.status !== "fail"));
  });

  it("doctor in a fresh HOME, before any action made the journal's folder: ok, exit 0; an empty journal path fails", async () => {
    const home = mkdtempSync(join(tmpdir(), "deskhand-fresh-home-"));
    const fresh: NodeJS.ProcessEnv = { ...process.env, HOME: home };
    for (const name of ["DESKHAND_AUDIT", "XDG_STATE_HOME"]) delete fresh[name];
    const first = await cli(["doctor", "--json"], "", fresh);
    const journal = (out: string) =>
      (JSON.parse(out).checks as { section: string; name: string; status: string; value: string }[]).find(
        (c) => c.section === "safety" && c.name === "audit journal",
      );
    assert.equal(first.code, 0, first.stdout);
    assert.equal(journal(first.stdout)?.status, "ok");
    assert.match(
      journal(first.stdout)!.value,
      /\.local\/state\/deskhand\/audit\.jsonl \(the first action creates its folder\)/,
    );
    assert.ok(!existsSync(join(home, ".local", "state")), "doctor itself created nothing");
    const empty = await cli(["doctor", "--json"], "", { ...fresh, DESKHAND_AUDIT: "" });
    assert.equal(empty.code, 1);
    assert.match(journal(empty.stdout)!.value, /path is empty, so every action is refused/);
  });

  it("doctor names a broken safety config as a failure, and what it stops", async () => {
    const { code, stdout } = await cli(["doctor", "--json"], "", { ...process.env, DESKHAND_CEILING: "L9" });
    assert.equal(code, 1);
    const config = (
      JSON.parse(stdout).checks as { section: string; name: string; status: string; value: string }[]
    ).find((c) => c.section === "safety" && c.name === "config");
    assert.equal(config?.status, "fail");
    assert.match(config!.value, /DESKHAND_CEILING=L9/);
  });

  it("doctor without a desktop says what could not be measured, never zero", async () => {
    const env = { ...process.env, DISPLAY: "", DBUS_SESSION_BUS_ADDRESS: "" };
    const { spawnSync } = await import("node:child_process");
    const result = spawnSync(process.execPath, ["dist/frontends/cli/main.js", "doctor"], {
      env,
      encoding: "utf8",
    });
    assert.equal(result.status, 1);
    assert.match(result.stdout, /XTEST: UNAVAILABLE \(no display to ask\)/);
    assert.match(result.stdout, /AT-SPI bus: UNAVAILABLE \(no session bus to ask\)/);
  });

  it("doctor with an X server and a bus that never answer: UNAVAILABLE with the time waited, never FAIL, and it exits", async () => {
    const x = await silentServer({ port: 0, host: "127.0.0.1" });
    const bus = join(mkdtempSync(join(tmpdir(), "deskhand-doctor-")), "bus");
    const silentBus = await silentServer(bus);
    try {
      const env = {
        ...process.env,
        DISPLAY: `127.0.0.1:${x.port! - 6000}`,
        DBUS_SESSION_BUS_ADDRESS: `unix:path=${bus}`,
      };
      // The bound is one only a hang misses: doctor's own is about 8 s; before, it never exited.
      const result = await new Promise<{ code: number | null; signal: string | null; stdout: string }>(
        (resolve) => {
          const child = spawn(process.execPath, [...CLI, "doctor", "--probe", "--json"], {
            env,
            timeout: 120_000,
          });
          let stdout = "";
          child.stdout.on("data", (d) => {
            stdout += d;
          });
          child.on("exit", (code, signal) => resolve({ code, signal, stdout }));
        },
      );
      assert.equal(result.signal, null, "doctor exited by itself");
      const checks = JSON.parse(result.stdout).checks as {
        section: string;
        name: string;
        status: string;
        value: string;
      }[];
      const check = (section: string, name: string) =>
        checks.find((c) => c.section === section && c.name === name);
      for (const [section, name] of [
        ["display", "X server"],
        ["accessibility", "session bus"],
        ["probe", "read"],
      ] as const) {
        const found = check(section, name);
        assert.equal(found?.status, "unavailable", JSON.stringify(found));
        assert.match(found!.value, /^UNAVAILABLE \(no answer within \d+ ms/, found!.value);
      }
      assert.deepEqual(
        checks.filter(
          (c) => c.status === "fail" && ["display", "accessibility", "probe"].includes(c.section),
        ),
        [],
        "nothing slow is called a failure",
      );
    } finally {
      x.server.close();
      silentBus.server.close();
    }
  });
});
