// Hostile input never blocks the server: patterns built to make a matcher backtrack, locators of
// thousands of predicates and request lines of 50 MiB each get a clear answer, while pings sent every
// 50 ms on the same server keep being answered (within FROZEN_MS: how long each turn of the event loop
// takes is bench/eventloop's to measure, not a bound a loaded machine keeps).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { createContext } from "../../src/tools/context.js";
import { CLI, connect, HANG_MS, pingsDuring, startExtraSwingApp, TITLES, toolCaller } from "./helpers.js";

type ToolResult = { isError?: boolean; content: { type: string; text: string }[] };

const env = () =>
  Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));

describe("hostile input", () => {
  let client: Client;
  before(async () => {
    client = new Client({ name: "deskhand-hostile", version: "0" });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [...CLI, "mcp"], env: env() }),
    );
  });
  after(() => client.close());

  /** A tool result, or a protocol error as an isError result carrying its message. */
  const call = async (name: string, args: Record<string, unknown>): Promise<ToolResult> => {
    try {
      return (await client.callTool({ name, arguments: args })) as ToolResult;
    } catch (error) {
      return {
        isError: true,
        content: [{ type: "text", text: `protocol error: ${(error as Error).message}` }],
      };
    }
  };

  /**
   * A ping answered later than this means the server was frozen: the globs this guards against held it
   * 11 s; a loaded machine delays a turn by under a second.
   */
  const FROZEN_MS = 5000;

  const pingingDuring = (work: () => Promise<unknown>) => pingsDuring(() => client.ping(), work);

  it("globs and locators ten times the sizes that froze it: clear answers, and pings answered", async () => {
    const answers: ToolResult[] = [];
    const trips = await pingingDuring(async () => {
      const hostile = [
        // 160 stars then Z, over every title: no window, and the matcher never backtracks.
        call("snapshot", { target: { kind: "title", glob: `${"*".repeat(160)}Z` } }),
        call("find", { target: { kind: "title", glob: `${"*a".repeat(240)}Z` }, role: "push button" }),
        call("wait", { condition: { kind: "window", title: `${"*?".repeat(400)}Z` }, timeout_ms: 300 }),
        // Bad globs: a backwards range, and 100,000 characters.
        call("snapshot", { target: { kind: "title", glob: "[z-a]" } }),
        call("snapshot", { target: { kind: "title", glob: "x".repeat(100_000) } }),
        // 80,000 predicates (1.7 MB): the request line itself is over the limit, refused by its id.
        call("find", {
          target: { kind: "title", glob: TITLES.swing },
          locator: `//push button${"[@name=contains('a')]".repeat(80_000)}`,
        }),
        // The longest locator accepted, all predicates.
        call("find", {
          target: { kind: "title", glob: TITLES.swing },
          locator: `//push button${"[@name=contains('a')]".repeat(190)}`,
        }),
      ];
      answers.push(...(await Promise.all(hostile)));
    });
    assert.ok(trips.length >= 3, `${trips.length} pings`);
    assert.ok(
      Math.max(...trips) < FROZEN_MS,
      `ping round trips: ${trips.map((t) => t.toFixed(0)).join(", ")} ms`,
    );
    const texts = answers.map((a) => a.content[0]?.text ?? "");
    assert.match(texts[0]!, /no open window matches title/);
    assert.match(texts[1]!, /no open window matches title/);
    assert.match(texts[2]!, /"met":\s*false|not met|timed out|timeout/i);
    assert.match(texts[3]!, /range z-a runs backwards at position 1/);
    assert.ok(answers[3]!.isError && answers[4]!.isError && answers[5]!.isError);
    assert.match(texts[4]!, /target.glob: Too big: expected string to have <=1024 characters/);
    assert.match(texts[5]!, /protocol error: .*bytes; requests are at most 1048576/);
    for (const text of [texts[4]!, texts[5]!])
      assert.ok(text.length < 600, `a short answer, not an echo: ${text.length} characters`);
    assert.ok(!answers[6]!.isError, texts[6]);
  });

  it("the largest reads, three at once, keep pings answered and still answer in full", async () => {
    const answers: ToolResult[] = [];
    // The whole desktop is read and laid out; a page of it is answered. A page of thousands of
    // elements would also block this test's own client while it parses the reply, which a ping's
    // round trip would count against the server.
    const whole = { format: "full", maxNodes: 300, maxDepth: 60, walkTables: true };
    const trips = await pingingDuring(async () => {
      answers.push(
        ...(await Promise.all([
          call("snapshot", { target: { kind: "desktop" }, ...whole }),
          call("find", { target: { kind: "title", glob: TITLES.gtk4 }, locator: "//*", limit: 500 }),
          call("observe", { target: { kind: "title", glob: TITLES.gtk3 } }),
        ])),
      );
    });
    for (const answer of answers) assert.ok(!answer.isError, answer.content[0]?.text.slice(0, 300));
    // The desktop holds three apps' windows: well over a thousand elements read and laid out.
    const counts = (
      answers[0] as ToolResult & { structuredContent: { counts: { read: number; inScope: number } } }
    ).structuredContent.counts;
    assert.ok(counts.read > 1000 && counts.inScope > 1000, JSON.stringify(counts));
    assert.ok(trips.length >= 3, `${trips.length} pings`);
    // Its own work keeps the loop turning: pings are answered all along (how quickly each turn ends is
    // measured by bench/eventloop; here the CPUs are shared with the apps and other work).
    const shown = `ping round trips: ${trips.map((t) => t.toFixed(0)).join(", ")} ms`;
    assert.ok(Math.max(...trips) < FROZEN_MS, shown);
  });

  it("a 50 MiB line to deskhand mcp gets an error reply, and the next request its answer", async () => {
    const server = spawn(process.execPath, [...CLI, "mcp"], {
      env: env(),
      stdio: ["pipe", "pipe", "inherit"],
    });
    const replies: string[] = [];
    let buffered = "";
    server.stdout.on("data", (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      replies.push(...lines.filter(Boolean));
    });
    const exited = new Promise<number | null>((resolve) => server.on("exit", (code) => resolve(code)));
    const chunk = Buffer.alloc(1 << 20, 0x61);
    for (let i = 0; i < 50; i++) {
      if (!server.stdin.write(chunk)) await new Promise((resolve) => server.stdin.once("drain", resolve));
    }
    server.stdin.write("\n");
    server.stdin.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 7, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } } })}\n`,
    );
    const deadline = Date.now() + HANG_MS;
    while (replies.length < 2 && Date.now() < deadline) await sleep(50);
    const [refusal, answer] = replies.map((r) => JSON.parse(r));
    assert.equal(refusal.id, null);
    assert.equal(refusal.error.code, -32600);
    assert.match(refusal.error.message, /52428800 bytes; requests are at most 1048576/);
    assert.equal(answer.id, 7);
    assert.ok(answer.result?.serverInfo, JSON.stringify(answer));
    server.stdin.end();
    assert.equal(await exited, 0, "it ends when its input ends, with status 0");
  });

  it("400 concurrent requests: a registered app is never called unregistered; busy says timeout", async () => {
    const target = { kind: "title", glob: TITLES.gtk3 };
    const results = await Promise.all(
      Array.from({ length: 400 }, (_, i) =>
        i % 2 === 0
          ? call("snapshot", { target, maxDepth: 2 })
          : call("find", { target, role: "push button" }),
      ),
    );
    const texts = results.map((r) => r.content[0]?.text ?? "");
    const unregistered = texts.filter((t) => /not registered|has no accessible tree/.test(t));
    assert.deepEqual(
      unregistered.slice(0, 3),
      [],
      `${unregistered.length} of 400 called the app unregistered`,
    );
    for (const [i, r] of results.entries())
      if (r.isError) assert.match(texts[i]!, /did not answer|timeout/, texts[i]);
    assert.ok(results.filter((r) => !r.isError).length > 300, "most are answered");
  });

  it("a stopped app: act, type_text and click by ref say it is not answering, in time, not that it is gone", async () => {
    const backend = await connect();
    const extra = await startExtraSwingApp(backend);
    const context = createContext({ refLifetime: "while-verified" });
    const local = toolCaller(context);
    try {
      const target = { kind: "window", id: extra.windowId };
      const button = (await local("find", { target, role: "push button", name: "Alpha" })).data.matches[0];
      const field = (await local("find", { target, role: "text", name: "Name" })).data.matches[0];
      assert.ok(button && field, "the extra fixture's button and field are found");
      process.kill(extra.pid, "SIGSTOP");
      const attempts = [
        () => local("act", { ref: button.ref, action: { kind: "invoke" } }),
        () => local("type_text", { ref: field.ref, text: "x", intent: "Type into a stopped app" }),
        () => local("click", { ref: button.ref, intent: "Click in a stopped app" }),
      ];
      for (const attempt of attempts) {
        const started = Date.now();
        const result = await attempt();
        const took = Date.now() - started;
        assert.equal(result.ok, false, JSON.stringify(result.data));
        assert.equal(result.error.code, "timeout", JSON.stringify(result.error));
        assert.match(result.error.message, /did not answer within \d+ ms: it is busy or hung/);
        assert.doesNotMatch(result.error.next, /new snapshot\.?$/);
        assert.ok(took < HANG_MS, `answered in ${took} ms`);
      }
    } finally {
      process.kill(extra.pid, "SIGCONT");
      extra.kill();
      await context.close();
      await backend.close();
    }
  });
});
