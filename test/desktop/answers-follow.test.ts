// Answers that follow the desktop (the X server replaced is display-replaced.test.ts): `wait` reads
// the text an element shows, a config edited mid-session applies at the next call of a running stdio
// and HTTP server, and a ref another deskhand process issued is refused with nothing sent. Each reads
// the effect from a GTK 3 counter whose label is named "Status" and shows "pressed N".
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { ToolContext } from "../../src/tools/context.js";
import { CLI, gatedContext, NdjsonClient, type StartedApp, startApp, toolCaller } from "./helpers.js";
import { httpClient, startHttpServer } from "./http-load.js";

const dir = mkdtempSync(join(tmpdir(), "deskhand-follow-"));
const TITLE = `Follow counter ${process.pid}`;
const target = { kind: "title", glob: TITLE };
const baseEnv = Object.fromEntries(
  Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined),
);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The counter's button and status, read in this process by a context of its own. */
function counter(context: ToolContext) {
  const call = toolCaller(context);
  const one = async (role: string, name: string) => {
    const found = await call("find", { target, role, name });
    assert.ok(found.ok && found.data.matches.length > 0, JSON.stringify(found.error ?? found.data));
    return found.data.matches[0] as { ref: string; name: string };
  };
  return {
    call,
    one,
    press: async () => {
      const pressed = await call("act", {
        ref: (await one("push button", "Count")).ref,
        action: { kind: "invoke" },
      });
      assert.ok(pressed.ok, JSON.stringify(pressed.error));
    },
    /** What the label shows now, through its Text interface. */
    status: async () => {
      const read = await call("read_text", { ref: (await one("label", "Status")).ref });
      assert.ok(read.ok, JSON.stringify(read.error));
      return read.data.text as string;
    },
  };
}

describe("answers that follow the desktop", () => {
  let context: ToolContext;
  let app: StartedApp;
  let swing: ReturnType<typeof counter>;
  before(async () => {
    app = startApp(["/usr/bin/python3", "test/fixtures/dialogs/gtk3_counter.py", TITLE]);
    context = gatedContext(dir);
    swing = counter(context);
    for (let i = 0; i < 200; i++) {
      const found = await swing.call("find", { target, role: "label", name: "Status" });
      if (found.ok && found.data.matches.length > 0) return;
      await sleep(100);
    }
    assert.fail("the counter's window did not come within 20 s");
  });
  after(async () => {
    app.kill();
    await context.close();
  });

  const count = async () => Number(/^pressed (\d+)$/.exec(await swing.status())?.[1]);
  /** Waits for the label to show `n` presses (GTK updates it once the press is handled). */
  const counted = async (n: number) => {
    for (let i = 0; i < 100 && (await count()) !== n; i++) await sleep(100);
    assert.equal(await count(), n);
  };

  it("wait for a text reads what a label shows, not its name", async () => {
    const status = await swing.one("label", "Status");
    assert.equal(status.name, "Status", "the label's name is not its text");
    const before = await count();
    assert.ok(Number.isInteger(before), await swing.status());
    const notYet = await swing.call("wait", {
      condition: { kind: "text", ref: status.ref, equals: "pressed nothing" },
      timeout_ms: 300,
    });
    assert.ok(notYet.ok, JSON.stringify(notYet.error));
    assert.equal(notYet.data.met, false);
    assert.equal(notYet.data.seen.now, `pressed ${before}`, "the text is read, not the name");

    const changed = swing.call("wait", { condition: { kind: "text", ref: status.ref }, timeout_ms: 20_000 });
    await swing.press();
    const met = await changed;
    assert.ok(met.ok, JSON.stringify(met.error));
    assert.equal(met.data.met, true, met.text);
    assert.equal(met.data.seen.now, `pressed ${before + 1}`);
    const equals = await swing.call("wait", {
      condition: { kind: "text", ref: status.ref, equals: `pressed ${before + 1}` },
      timeout_ms: 2000,
    });
    assert.equal(equals.data.met, true, equals.text);
  });

  type ToolResult = { isError?: boolean; content: { text?: string }[]; structuredContent?: any };
  /** A config edited under a running MCP client: a press allowed at L3, refused at the next call once L1. */
  async function lowerCeilingUnder(client: Client, config: string): Promise<void> {
    const call = async (name: string, args: Record<string, unknown>) =>
      (await client.callTool({ name, arguments: args })) as ToolResult;
    const found = await call("find", { target, role: "push button", name: "Count" });
    const ref = found.structuredContent.matches[0].ref as string;
    const before = await count();
    const allowed = await call("act", { ref, action: { kind: "invoke" } });
    assert.notEqual(allowed.isError, true, allowed.content[0]?.text);
    await counted(before + 1);

    writeFileSync(config, JSON.stringify({ ceiling: "L1" }));
    const refused = await call("act", { ref, action: { kind: "invoke" } });
    assert.equal(refused.isError, true, refused.content[0]?.text);
    assert.match(refused.content[0]!.text!, /ceiling/);
    const doctor = await call("doctor", {});
    assert.match(doctor.content[0]!.text!, /L1 \(set by config\)/);
    await sleep(300);
    assert.equal(await count(), before + 1, "the app shows nothing was pressed");
  }

  it("a config edited mid-session lowers the ceiling of a running stdio MCP server at its next call", async () => {
    const config = join(dir, "stdio-config.json");
    writeFileSync(config, JSON.stringify({ ceiling: "L3" }));
    const env = { ...baseEnv, DESKHAND_CONFIG: config, DESKHAND_AUDIT: join(dir, "stdio-audit.jsonl") };
    const client = new Client({ name: "follow", version: "0" });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [...CLI, "mcp"], env }));
    try {
      await lowerCeilingUnder(client, config);
    } finally {
      await client.close();
    }
  });

  it("and of a session already open over HTTP", async () => {
    const config = join(dir, "http-config.json");
    writeFileSync(config, JSON.stringify({ ceiling: "L3" }));
    const token = "follow-token-0123456789abcdef";
    const env = {
      ...baseEnv,
      DESKHAND_TOKEN: token,
      DESKHAND_CONFIG: config,
      DESKHAND_AUDIT: join(dir, "http-audit.jsonl"),
    };
    const server = await startHttpServer(env);
    try {
      const client = await httpClient(server.url, token);
      try {
        await lowerCeilingUnder(client, config);
      } finally {
        await client.close();
      }
    } finally {
      server.child.kill("SIGTERM");
      await server.exited;
    }
  });

  it("a ref another deskhand process issued, with the same snapshot number, is refused and nothing is sent", async () => {
    const env = {
      ...baseEnv,
      DESKHAND_CONFIG: join(dir, "none.json"),
      DESKHAND_AUDIT: join(dir, "nd.jsonl"),
    };
    const mine = new NdjsonClient(env);
    const theirs = new NdjsonClient(env);
    try {
      const windows = await mine.request(1, "windows");
      const hwnd = windows.result.windows.find((w: { title: string }) => w.title === TITLE).hwnd;
      const params = { scope: "hwnd", hwnd, maxDepth: 20, maxNodes: 500 };
      const [own, foreign] = await Promise.all([
        mine.request(2, "snapshot", params),
        theirs.request(1, "snapshot", params),
      ]);
      const buttonOf = (reply: Record<string, any>) =>
        reply.result.elements.find((e: { role: string; name: string }) => e.role === "push button");
      assert.equal(own.result.snapshotId, foreign.result.snapshotId, "the same snapshot number in both");
      const ownRef = buttonOf(own).ref;
      const theirRef = buttonOf(foreign).ref;
      assert.equal(ownRef.replace(/[a-z]+$/, ""), theirRef.replace(/[a-z]+$/, ""), "the same numbers");
      assert.notEqual(ownRef, theirRef, "told apart by their session's tag");
      const before = await count();

      const refused = await mine.request(3, "invoke", { ref: theirRef });
      assert.equal(refused.ok, false);
      assert.equal(refused.error.code, "unknown_ref");
      assert.match(refused.error.message, /not issued by this session/);
      await sleep(300);
      assert.equal(await count(), before, "nothing was pressed");
      // Its own ref presses.
      const pressed = await mine.request(4, "invoke", { ref: ownRef });
      assert.equal(pressed.ok, true, JSON.stringify(pressed));
      await counted(before + 1);
    } finally {
      mine.end();
      theirs.end();
      await Promise.all([mine.exited, theirs.exited]);
    }
  });
});
