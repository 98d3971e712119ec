// An element whose accessible name and description are 5 MB each (issue 36), in a real GTK 3 app: every
// tool that reads it answers within its bounds over MCP (text and structuredContent), NDJSON and the
// CLI's JSON, each string cut and marked with its whole length; `act` on it is refused at once and its
// journal line is bounded; and pings sent meanwhile are answered (the old server held its event loop
// for minutes).
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { REPLY_CEILING, STRING_CEILING } from "../../src/core/limits.js";
import { CLI, cli, NdjsonClient, pingsDuring, type StartedApp, startApp, within } from "./helpers.js";

const TITLE = "Deskhand huge";
// A string past the ceiling is decoded only that far, its mark naming the whole length the app sent.
const MARK = "…[cut: 5,242,880 chars]";
const DESCRIPTION_MARK = MARK;
const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

type ToolResult = {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
};

/** Every string of a value, wherever it sits. */
function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === "object") return Object.values(value).flatMap(strings);
  return [];
}

function assertBounded(value: unknown, what: string): void {
  assert.ok(bytes(value) <= REPLY_CEILING, `${what}: ${bytes(value)} bytes`);
  const longest = Math.max(0, ...strings(value).map((s) => s.length));
  assert.ok(longest <= STRING_CEILING, `${what}: a string of ${longest} characters`);
}

describe("an element named with 5 MB", () => {
  const dir = mkdtempSync(join(tmpdir(), "deskhand-bounds-"));
  const log = join(dir, "pressed.log");
  const env = {
    ...(Object.fromEntries(
      Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined),
    ) as Record<string, string>),
    DESKHAND_AUDIT: join(dir, "audit.jsonl"),
    DESKHAND_CONFIG: join(dir, "none.json"),
  };
  let app: StartedApp;
  let client: Client;
  const target = { kind: "title", glob: TITLE };

  const call = async (name: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name, arguments: args })) as ToolResult;
    // What the client took in as one line, and each channel of it.
    assert.ok(bytes(result) < 10 * 1024 * 1024, `${name}: a reply of ${bytes(result)} bytes`);
    for (const block of result.content) assertBounded(block.text.split("\n"), `${name}'s text`);
    assertBounded(result.structuredContent ?? {}, `${name}'s structuredContent`);
    return result;
  };

  const pingingDuring = (work: () => Promise<unknown>) => pingsDuring(() => client.ping(), work);
  const assertPinged = (trips: number[]) => {
    assert.ok(trips.length >= 1, "no ping answered");
    // Generous for a loaded machine: the server that matched the whole name held pings for minutes.
    assert.ok(Math.max(...trips) < within(1000), `pings: ${trips.map((t) => t.toFixed(0)).join(", ")} ms`);
  };

  let hugeRef: string;
  before(async () => {
    app = startApp(["/usr/bin/python3", "test/fixtures/dialogs/gtk3_huge.py", TITLE, log]);
    client = new Client({ name: "deskhand-bounds", version: "0" });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [...CLI, "mcp"], env }));
    const deadline = Date.now() + within(30_000);
    for (;;) {
      const found = (await client.callTool({
        name: "find",
        arguments: { target, role: "push button", name_contains: "Huge Huge", limit: 1 },
      })) as ToolResult;
      const match = (found.structuredContent?.matches as { ref: string }[] | undefined)?.[0];
      if (match) {
        hugeRef = match.ref;
        break;
      }
      if (Date.now() > deadline)
        throw new Error(`the huge button was not found: ${JSON.stringify(found).slice(0, 400)}`);
      await sleep(250);
    }
  });
  after(async () => {
    await client?.close();
    app?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it("observe, snapshot, find and element_info answer within their bounds over MCP, pings answered", async () => {
    const replies: [string, ToolResult][] = [];
    const trips = await pingingDuring(async () => {
      replies.push(["observe", await call("observe", { target, pixels: false, includeTree: true })]);
      replies.push(["snapshot", await call("snapshot", { target })]);
      replies.push(["snapshot full", await call("snapshot", { target, format: "full" })]);
      replies.push(["find", await call("find", { target, role: "push button" })]);
      replies.push(["element_info", await call("element_info", { ref: hugeRef })]);
    });
    assertPinged(trips);
    for (const [what, reply] of replies) {
      assert.ok(!reply.isError, `${what}: ${reply.content[0]?.text.slice(0, 300)}`);
      // The name came in whole from the app and was cut where it was read, marked with its length.
      const name = strings(reply.structuredContent).find((s) => s.startsWith("Huge Huge"));
      assert.ok(name?.endsWith(MARK), `${what}: ${name?.slice(-60)}`);
    }
    const info = replies.at(-1)![1].structuredContent as { description?: string };
    assert.ok(info.description?.startsWith("Said Said") && info.description.endsWith(DESCRIPTION_MARK));
  });

  it("act on it: refused at once, nothing pressed, the journal line bounded", async () => {
    let reply: ToolResult | undefined;
    const trips = await pingingDuring(async () => {
      reply = await call("act", { ref: hugeRef, action: { kind: "invoke" }, intent: "press the huge one" });
    });
    assertPinged(trips);
    assert.ok(reply?.isError, JSON.stringify(reply).slice(0, 300));
    assert.match(reply!.content[0]!.text, /label runs to 100,000 characters|label runs to 5,242,880/);
    await sleep(300);
    assert.ok(!existsSync(log) || !readFileSync(log, "utf8").includes("Huge"), "the app was pressed");
    const line = readFileSync(join(dir, "audit.jsonl"), "utf8").trim().split("\n").at(-1)!;
    assert.ok(Buffer.byteLength(line) <= REPLY_CEILING, `a journal line of ${line.length}`);
    const entry = JSON.parse(line);
    assert.equal(entry.decision, "refused");
    assert.ok(entry.target.name.endsWith(MARK), entry.target.name.slice(-60));
  });

  it("NDJSON and the CLI's JSON: bounded, the name marked", async () => {
    const ndjson = new NdjsonClient(env);
    try {
      const windows = await ndjson.request(1, "windows", {});
      const hwnd = windows.result.windows.find((w: { title: string }) => w.title === TITLE).hwnd;
      const reply = await ndjson.request(2, "snapshot", { scope: "hwnd", hwnd });
      assert.ok(reply.ok, JSON.stringify(reply).slice(0, 300));
      assertBounded(reply, "NDJSON snapshot");
      assert.ok(strings(reply).some((s) => s.startsWith("Huge Huge") && s.endsWith(MARK)));
    } finally {
      ndjson.end();
      await ndjson.exited;
    }
    const found = await cli(
      ["find", "--title", TITLE, "--role", "push button", "--name-contains", "Huge Huge", "--json"],
      undefined,
      env,
    );
    assert.equal(found.code, 0, found.stderr);
    assertBounded(JSON.parse(found.stdout), "CLI find --json");
    assert.ok(found.stdout.includes(MARK));
  });
});
