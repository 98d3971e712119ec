// The NDJSON envelope and error codes, against the fake desktop: every code this methods can
// produce, and the stream rules (order, over-long lines, bad bytes, end of input).
import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { describe, it } from "node:test";
import { serve } from "../../src/frontends/ndjson/server.js";
import { FakeBackend } from "../../src/platform/fake/backend.js";
import { createContext } from "../../src/tools/context.js";
import { fakeDesktop } from "./fake-desktop.js";

type Response = {
  id: string | number | null;
  ok: boolean;
  result?: Record<string, unknown>;
  error?: { code: string; message: string; reason?: string };
};

async function exchange(lines: (string | Buffer)[], maxLineBytes?: number): Promise<Response[]> {
  const input = new PassThrough();
  const output = new PassThrough();
  const context = createContext({
    refLifetime: "latest-snapshot",
    connect: async () => new FakeBackend(fakeDesktop()),
  });
  let text = "";
  output.on("data", (chunk) => {
    text += chunk;
  });
  const done = serve({ input, output, context, ...(maxLineBytes ? { maxLineBytes } : {}) });
  // "<tag>" stands for this session's ref tag, which each session draws anew.
  for (const line of lines)
    input.write(typeof line === "string" ? line.replaceAll("<tag>", context.refs.tag) : line);
  input.end();
  await done;
  return text
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Response);
}

describe("ndjson protocol", () => {
  it("runs steps with `run` (deskhand's addition); a run that stops keeps what it did in error.run", async () => {
    const target = { kind: "title", glob: "Fake Fixture" };
    const set = (text: string) => ({
      tool: "act",
      find: { target, role: "text", name: "Name" },
      args: { action: { kind: "set_value", text } },
    });
    const [done, stopped] = await exchange([
      `${JSON.stringify({ id: 1, method: "run", params: { steps: [set("Ada"), { tool: "find", args: { target, role: "text", value_contains: "Ada" } }] } })}\n`,
      `${JSON.stringify({ id: 2, method: "run", params: { steps: [set("Grace"), { ...set("x"), element: { role: "text", name: "Email" } }] } })}\n`,
    ]);
    assert.equal(done!.ok, true, JSON.stringify(done));
    assert.equal(done!.result!.done, 2);
    assert.equal(stopped!.ok, false);
    assert.equal(stopped!.error!.code, "input_failed");
    const run = (stopped!.error as { run?: { done: number; stopped: { reason: string } } }).run;
    assert.equal(run?.done, 1, JSON.stringify(stopped));
    assert.equal(run?.stopped.reason, "differs");
  });

  it("answers each method, one line per request, in order", async () => {
    const responses = await exchange([
      '{"id":1,"method":"ping"}\n',
      '{"id":"w","method":"windows","params":{"maxNodes":2}}\n',
      '{"id":3,"method":"snapshot","params":{"scope":"hwnd","hwnd":1,"maxNodes":3}}\n',
      '{"id":4,"method":"observe","params":{"scope":"foreground"}}\n',
    ]);
    assert.deepEqual(
      responses.map((r) => r.id),
      [1, "w", 3, 4],
    );
    assert.ok(responses.every((r) => r.ok));
    assert.deepEqual(responses[0]!.result!.methods, [
      "ping",
      "windows",
      "snapshot",
      "observe",
      "invoke",
      "set_value",
      "set_range",
      "focus",
      "toggle",
      "select",
      "expand",
      "collapse",
      "scroll_into_view",
      "scroll",
      "click",
      "type_text",
      "key",
      "focus_window",
      "run",
      "record",
      "shutdown",
    ]);
    assert.equal(responses[1]!.result!.truncated, true);
    assert.equal((responses[1]!.result!.windows as { hwnd: number }[])[0]!.hwnd, 1);
    assert.equal(responses[2]!.result!.snapshotId, "s1");
    assert.deepEqual(responses[2]!.result!.truncated_by, ["maxNodes"]);
    const targets = responses[3]!.result!.targets as { ref: string; label: string; actions: string[] }[];
    assert.ok(targets.some((t) => t.label.startsWith('push button "Open dialog" [ref=s2:')));
  });

  it("serves every other tool of the registry by its own name, its input as params", async () => {
    const responses = await exchange([
      '{"id":1,"method":"find","params":{"target":{"kind":"window","id":1},"role":"push button","name":"Open dialog"}}\n',
      '{"id":2,"method":"fly"}\n',
    ]);
    const found = responses[0]!.result as { matches: { name: string }[] } | undefined;
    assert.deepEqual(
      found?.matches.map((m) => m.name),
      ["Open dialog"],
      JSON.stringify(responses[0]),
    );
    const unknown = responses[1]!.error as { code: string; tools?: string[] };
    assert.equal(unknown.code, "unknown_method");
    assert.ok(unknown.tools?.includes("find_text"), JSON.stringify(unknown));
  });

  it("gives every malformed line its protocol error code", async () => {
    const responses = await exchange([
      "not json\n",
      "[1,2]\n",
      '{"id":{"x":1},"method":"ping"}\n',
      '{"id":5}\n',
      '{"id":6,"method":"fly"}\n',
      '{"id":7,"method":"windows","params":{"maxNodes":"ten"}}\n',
      '{"id":8,"method":"snapshot","params":{"scope":"process"}}\n',
      '{"id":9,"method":"snapshot","params":"x"}\n',
      Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a]),
      '{"id":10,"method":"snapshot","params":{"scope":"hwnd","hwnd":999}}\n',
      '{"id":11,"method":"windows","params":{"bogus":1}}\n',
    ]);
    assert.deepEqual(
      responses.map((r) => [r.id, r.error?.code]),
      [
        [null, "invalid_request"],
        [null, "invalid_request"],
        [null, "invalid_request"],
        [5, "invalid_request"],
        [6, "unknown_method"],
        [7, "invalid_params"],
        [8, "invalid_params"],
        [9, "invalid_params"],
        [null, "invalid_request"],
        [10, "invalid_params"],
        [11, "invalid_params"],
      ],
    );
    assert.match(responses[8]!.error!.message, /UTF-8/);
    assert.equal(responses[9]!.error!.reason, "window_not_found");
  });

  it("answers unknown_ref for a ref from an earlier snapshot, and reads the latest one's", async () => {
    const responses = await exchange([
      '{"id":1,"method":"snapshot","params":{"scope":"hwnd","hwnd":2}}\n',
      '{"id":2,"method":"snapshot","params":{"scope":"hwnd","hwnd":2}}\n',
      '{"id":3,"method":"snapshot","params":{"ref":"s1:e2<tag>"}}\n',
      '{"id":4,"method":"snapshot","params":{"ref":"s2:e2<tag>"}}\n',
    ]);
    assert.equal(responses[2]!.error?.code, "unknown_ref");
    assert.match(responses[2]!.error!.message, /replaced/);
    assert.equal(responses[3]!.ok, true);
  });

  it("refuses an over-long line without reading it into memory, then carries on", async () => {
    const responses = await exchange(
      [`{"id":1,"method":"ping","pad":"${"x".repeat(5000)}"}\n`, '{"id":2,"method":"ping"}\n'],
      1024,
    );
    assert.equal(responses[0]!.error?.code, "invalid_request");
    assert.match(responses[0]!.error!.message, /at most 1024/);
    assert.equal(responses[1]!.ok, true);
  });

  it("stops after shutdown, answering it and nothing after", async () => {
    const responses = await exchange(['{"id":1,"method":"shutdown"}\n{"id":2,"method":"ping"}\n']);
    assert.deepEqual(responses, [{ id: 1, ok: true, result: { shuttingDown: true } }]);
  });

  it("continues a snapshot with its cursor", async () => {
    const responses = await exchange([
      '{"id":1,"method":"snapshot","params":{"scope":"hwnd","hwnd":1,"maxNodes":2}}\n',
      '{"id":2,"method":"snapshot","params":{"continue":"s1@2"}}\n',
    ]);
    assert.equal(responses[1]!.result!.snapshotId, "s1");
    assert.match((responses[1]!.result!.elements as { ref: string }[])[0]!.ref, /^s1:e3[a-z]{2}$/);
  });
});
