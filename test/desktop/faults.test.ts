// Nothing a dying deskhand leaves behind breaks the next call: a server SIGKILLed while it holds
// shift and the left button, or while it types Greek through borrowed keycodes, leaves its record on
// the display; the next deskhand releases what it held and gives back what it borrowed before it
// sends anything, and says so; "abc" and Greek typed afterwards arrive exactly, re-read over AT-SPI.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { openX11Hands } from "../../src/platform/x11/hands.js";
import { createContext, type ToolContext } from "../../src/tools/context.js";
import { CLI, HANG_MS, toolCaller } from "./helpers.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const TITLE = `Faults Editor ${process.pid}`;
const GREEK = "αβγδεζηθικλμνξοπρστυφχψω";

/** A `deskhand mcp` at ceiling L4, as a client starts it, whose process can be killed. */
async function server(): Promise<{ client: Client; pid: number }> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined),
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...CLI, "mcp", "--ceiling", "L4"],
    env,
    stderr: "ignore",
  });
  const client = new Client({ name: "faults", version: "0" });
  await client.connect(transport);
  return { client, pid: transport.pid! };
}

describe("a deskhand killed with input held or keys borrowed breaks no later typist", () => {
  let context: ToolContext;
  let call: ReturnType<typeof toolCaller>;
  let editor: ChildProcess;
  before(async () => {
    editor = spawn("/usr/bin/python3", ["test/fixtures/dialogs/gtk3_editor.py", TITLE], {
      stdio: "ignore",
      detached: true,
    });
    context = createContext({ refLifetime: "while-verified" });
    call = toolCaller(context);
    const deadline = Date.now() + HANG_MS;
    while (Date.now() < deadline) {
      const found = await call("find", {
        target: { kind: "title", glob: TITLE },
        role: "text",
        name: "First",
      });
      if (found.ok && found.data.matches.length === 1) return;
      await sleep(200);
    }
    throw new Error("the editor did not open");
  });
  after(async () => {
    try {
      process.kill(-editor.pid!, "SIGKILL");
    } catch {
      // Gone.
    }
    await context.close();
  });

  const field = async (name: string) => {
    const found = await call("find", { target: { kind: "title", glob: TITLE }, role: "text", name });
    assert.ok(found.ok && found.data.matches.length === 1, found.text);
    return found.data.matches[0] as { ref: string; value?: string };
  };
  /** A fresh process's hands: opening them is what releases a dead owner's leftovers. */
  const freshHands = () => openX11Hands({ display: process.env.DISPLAY });

  it("shift and the left button held by a killed server are released by the next deskhand; abc stays abc", async () => {
    const { client, pid } = await server();
    const first = await field("First");
    const found = (await client.callTool({
      name: "find",
      arguments: { target: { kind: "title", glob: TITLE }, role: "text", name: "Second" },
    })) as { structuredContent?: { matches: { bounds: { x: number; y: number } }[] } };
    const spot = found.structuredContent!.matches[0]!.bounds;
    for (const primitive of [
      { kind: "mouse_down", at: { space: "global", x: spot.x + 3, y: spot.y + 3 } },
      { kind: "key_down", key: "shift" },
    ]) {
      const held = (await client.callTool({
        name: "raw_input",
        arguments: { primitive, intent: "Hold it" },
      })) as { isError?: boolean };
      assert.notEqual(held.isError, true, JSON.stringify(held));
    }
    process.kill(pid, "SIGKILL");
    await sleep(300);
    const witness = await freshHands();
    try {
      assert.match(
        witness.recovered ?? "",
        /released the left button, released 1 held key/,
        witness.recovered,
      );
      assert.deepEqual(await witness.serverHeld(), { buttons: [], keycodes: [] }, "nothing is held now");
    } finally {
      await witness.close();
    }
    const typed = await call("type_text", { ref: first.ref, text: "abc", clear: true, intent: "Type abc" });
    assert.equal(typed.data.status, "done", typed.text);
    assert.equal((await field("First")).value, "abc");
  });

  it("Greek keycodes borrowed by a server killed mid-typing are given back; Greek typed next is exact", async () => {
    const { client, pid } = await server();
    const long = GREEK.repeat(25);
    // The server's own refs: it finds the field itself, then types; it is killed once keys are borrowed.
    const own = (await client.callTool({
      name: "find",
      arguments: { target: { kind: "title", glob: TITLE }, role: "text", name: "Second" },
    })) as { structuredContent?: { matches: { ref: string }[] } };
    void client
      .callTool({
        name: "type_text",
        arguments: { ref: own.structuredContent!.matches[0]!.ref, text: long, intent: "Type Greek" },
      })
      .catch(() => undefined);
    await sleep(1500);
    process.kill(pid, "SIGKILL");
    await sleep(300);
    const witness = await freshHands();
    try {
      assert.match(witness.recovered ?? "", /gave back \d+ borrowed keycode/, witness.recovered);
      assert.deepEqual(await witness.serverHeld(), { buttons: [], keycodes: [] });
    } finally {
      await witness.close();
    }
    const first = await field("First");
    const typed = await call("type_text", { ref: first.ref, text: GREEK, clear: true, intent: "Type Greek" });
    assert.equal(typed.data.status, "done", typed.text);
    assert.equal((await field("First")).value, GREEK);
    const abc = await call("type_text", { ref: first.ref, text: "abc", clear: true, intent: "Type abc" });
    assert.equal(abc.data.status, "done", abc.text);
    assert.equal((await field("First")).value, "abc");
  });
});

describe("SIGTERM answers every call in flight", () => {
  it("a call that finishes within the drain gets its result; one that would not, an error saying so", async () => {
    // The long wait is answered by the drain (an error saying the server stops), not at its own end.
    const { client, pid } = await server();
    const long = client.callTool(
      {
        name: "wait",
        arguments: { condition: { kind: "window", title: "never-there-*" }, timeout_ms: 30_000 },
      },
      undefined,
      { timeout: 60_000 },
    ) as Promise<{
      isError?: boolean;
      structuredContent?: { error?: { message: string; stopping?: boolean } };
    }>;
    const short = client.callTool(
      {
        name: "wait",
        arguments: { condition: { kind: "window", title: "never-there-*" }, timeout_ms: 2000 },
      },
      undefined,
      { timeout: 60_000 },
    ) as Promise<{ isError?: boolean; structuredContent?: { met?: boolean } }>;
    await sleep(500);
    process.kill(pid, "SIGTERM");
    const [longAnswer, shortAnswer] = await Promise.all([long, short]);
    assert.equal(shortAnswer.isError, undefined, "the short wait ran to its own end");
    assert.equal(shortAnswer.structuredContent?.met, false);
    assert.equal(longAnswer.isError, true);
    assert.equal(longAnswer.structuredContent?.error?.stopping, true, JSON.stringify(longAnswer));
    assert.match(
      longAnswer.structuredContent!.error!.message,
      /server is stopping and wait was still running/,
    );
  });
});

describe("an app that dies while deskhand reads it ends no server", () => {
  it("gtk4-widget-factory killed at points of a full snapshot, a find and an act: every call is answered", {
    timeout: 240_000,
  }, async () => {
    const { client, pid } = await server();
    try {
      for (const [i, delay] of [40, 150, 300].entries()) {
        const title = `Faults factory ${process.pid}-${i}`;
        const app = spawn("gtk4-widget-factory", [], { stdio: "ignore", detached: true });
        let id: number | undefined;
        const deadline = Date.now() + 30_000;
        while (id === undefined && Date.now() < deadline) {
          const listed = (await client.callTool({ name: "windows", arguments: {} })) as {
            structuredContent?: { windows: { id: number; pid: number; accessible: boolean }[] };
          };
          id = listed.structuredContent?.windows.find((w) => w.pid === app.pid && w.accessible)?.id;
          if (id === undefined) await sleep(200);
        }
        assert.ok(id !== undefined, `${title} opened`);
        // A first whole read, so that the next ones ask known elements' extents early (GTK 4.8).
        await client.callTool({
          name: "snapshot",
          arguments: { target: { kind: "window", id }, format: "full", maxNodes: 5000 },
        });
        const calls = [
          client.callTool({
            name: "snapshot",
            arguments: { target: { kind: "window", id }, format: "full", maxNodes: 5000 },
          }),
          client.callTool({
            name: "find",
            arguments: { target: { kind: "window", id }, role: "push button", limit: 200 },
          }),
          client.callTool({ name: "observe", arguments: { target: { kind: "window", id } } }),
        ];
        await sleep(delay);
        process.kill(-app.pid!, "SIGKILL");
        const answers = await Promise.allSettled(calls);
        for (const answer of answers)
          assert.equal(answer.status, "fulfilled", `answered: ${JSON.stringify(answer)}`);
        const alive = (await client.callTool({ name: "ping", arguments: {} })) as { isError?: boolean };
        assert.notEqual(alive.isError, true, "the server still serves");
      }
    } finally {
      await client.close().catch(() => undefined);
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // Gone.
      }
    }
  });
});
