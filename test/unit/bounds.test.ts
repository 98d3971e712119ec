// Every reply within its bounds, in every channel (issue 36): an element named with 5 MB, read by every
// tool that reads it, answers with each string cut and marked and the reply within REPLY_CEILING in
// MCP's text and structuredContent, an NDJSON line and the CLI's JSON; the gate refuses it at once,
// and its journal line is bounded. On the fake backend, which cuts nothing as it reads: the bound at
// the reply holds by itself.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { boundText, boundValue, cutString, REPLY_CEILING, STRING_CEILING } from "../../src/core/limits.js";
import { mcpResult } from "../../src/frontends/mcp/server.js";
import { type ProtocolError, protocolResult } from "../../src/frontends/ndjson/protocol.js";
import type { FakeElement } from "../../src/platform/fake/backend.js";
import type { State } from "../../src/platform/roles.js";
import { AuditJournal } from "../../src/safety/audit.js";
import { type CallResult, callTool } from "../../src/tools/call.js";
import { type ToolName, toolNamed } from "../../src/tools/registry.js";
import { fakeContext } from "./fake-desktop.js";

const dir = mkdtempSync(join(tmpdir(), "deskhand-bounds-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const HUGE = 5 * 1024 * 1024;
const huge = (letter: string) => `${letter} `.repeat(HUGE / 2);
const MARK = `…[cut: ${HUGE.toLocaleString("en-US")} chars]`;
const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

const rect = { x: 0, y: 0, width: 800, height: 600 };
const shown: State[] = ["enabled", "sensitive", "showing", "visible"];
const at = (y: number) => ({ x: 10, y, width: 200, height: 20 });
const children: FakeElement[] = [
  {
    role: "push button",
    name: huge("a"),
    description: huge("d"),
    states: [...shown, "focusable"],
    actions: ["click"],
    interfaces: ["Accessible", "Component", "Action"],
    bounds: at(10),
  },
  {
    role: "text",
    name: "Body",
    text: huge("t"),
    states: [...shown, "editable"],
    interfaces: ["Accessible", "Component", "Text", "EditableText"],
    bounds: at(40),
  },
  // Each within the string bound, together far over the reply's: the reply cuts them shorter.
  ...Array.from(
    { length: 80 },
    (_, i): FakeElement => ({
      role: "push button",
      name: `${i} ${"n".repeat(60_000)}`,
      states: shown,
      actions: ["click"],
      interfaces: ["Accessible", "Component", "Action"],
      bounds: at(70 + i),
    }),
  ),
];
const window = { id: 9, title: "Huge", pid: 19, app: "fake", rect, focused: true };
const { context } = fakeContext({
  windows: [{ ...window, root: { role: "frame", name: "Huge", bounds: rect, children } }],
  hands: { windows: [{ id: 9, rect }], active: 9 },
  dir,
});
const target = { kind: "title", glob: "Huge" };

/** Every string of a value, wherever it sits. */
function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === "object") return Object.values(value).flatMap(strings);
  return [];
}

/** What `deskhand serve` writes for the result: its data, or the error it throws. */
function ndjsonReply(result: CallResult): unknown {
  try {
    return { ok: true, result: protocolResult(result) };
  } catch (error) {
    const { code, message, extra } = error as ProtocolError;
    return { ok: false, error: { code, message, ...extra } };
  }
}

/** The reply in each channel within its bounds, and its strings each within the string bound. */
function assertBounded(result: CallResult, what: string): void {
  const mcp = mcpResult(result);
  assert.ok(bytes(mcp.structuredContent) <= REPLY_CEILING, `${what}: MCP structuredContent`);
  for (const block of mcp.content)
    if (block.type === "text") assert.ok(bytes(block.text) <= REPLY_CEILING, `${what}: MCP text`);
  // What an MCP SDK client reads as one line (10 MiB), what NDJSON and the CLI write.
  assert.ok(bytes({ jsonrpc: "2.0", id: 1, result: mcp }) < 10 * 1024 * 1024, `${what}: MCP line`);
  assert.ok(bytes(ndjsonReply(result)) <= 2 * REPLY_CEILING, `${what}: NDJSON line`);
  const cli = result.ok ? result.output.data : { ok: false, error: result.error.toJSON() };
  assert.ok(bytes(cli) <= REPLY_CEILING, `${what}: CLI --json`);
  const longest = Math.max(...strings(mcp.structuredContent).map((s) => s.length));
  assert.ok(longest <= STRING_CEILING, `${what}: a string of ${longest} characters`);
}

async function call(tool: ToolName, input: Record<string, unknown>): Promise<CallResult> {
  return callTool(context, toolNamed(tool), input);
}

describe("replies within their bounds", () => {
  it("cutString keeps the first characters and names the whole length", () => {
    assert.equal(cutString("a".repeat(40), 20), "aaaa…[cut: 40 chars]");
    assert.equal(cutString("abc", 3), "abc");
    // Never half a surrogate pair.
    assert.equal(cutString(`${"x".repeat(4)}😀${"y".repeat(40)}`, 21), "xxxx…[cut: 46 chars]");
    // Cut again, shorter: the first whole length stays.
    const once = cutString("z".repeat(5_000_000));
    assert.equal(once.length, STRING_CEILING);
    assert.match(cutString(once, 1000), /^z{977}…\[cut: 5,000,000 chars\]$/);
  });

  it("boundValue leaves a value within its bounds as it is, the same object", () => {
    const value = { a: ["x", 1, null, { b: true }], c: "y".repeat(1000) };
    assert.equal(boundValue(value).value, value);
    assert.equal(boundValue(value).cut, undefined);
  });

  it("boundValue cuts strings, then lists, until the whole fits; the JSON size it counts is exact", () => {
    const value = { list: Array.from({ length: 1000 }, (_, i) => ({ i, s: "é".repeat(500) })) };
    const { value: cut, cut: said } = boundValue(value, 200_000);
    assert.ok(bytes(cut) <= 200_000, `${bytes(cut)}`);
    assert.ok(said && said.strings > 0 && said.stringBound < 500, JSON.stringify(said));
    const whole = boundValue({ s: "x".repeat(STRING_CEILING + 5) });
    assert.equal(whole.cut?.strings, 1);
    assert.equal(whole.value.s.length, STRING_CEILING);
    assert.ok(whole.value.s.endsWith("x…[cut: 100,005 chars]"), whole.value.s.slice(-40));
    const many = boundValue({ list: Array.from({ length: 100_000 }, (_, i) => i) }, 10_000);
    assert.ok(bytes(many.value) <= 10_000);
    assert.equal(many.cut?.lists?.[0]?.path, "list");
    assert.equal(many.cut?.lists?.[0]?.of, 100_000);
  });

  it("boundText cuts over-long lines, then the whole", () => {
    const { text, cut } = boundText(`head\n${"z".repeat(STRING_CEILING + 1)}\ntail`);
    assert.ok(cut);
    assert.match(text, /^head\nz+…\[cut: 100,001 chars\]\ntail$/);
    assert.equal(text.length, STRING_CEILING + 10);
    assert.ok(bytes(boundText(`${"w".repeat(99)}\n`.repeat(50_000)).text) <= REPLY_CEILING);
  });

  it("observe, snapshot, find, element_info and read_text on an element named with 5 MB", async () => {
    const results: [string, CallResult][] = [];
    results.push(["observe", await call("observe", { target, pixels: false })]);
    results.push([
      "observe with its tree",
      await call("observe", { target, pixels: false, includeTree: true }),
    ]);
    results.push(["snapshot", await call("snapshot", { target, maxNodes: 500 })]);
    results.push(["snapshot full", await call("snapshot", { target, maxNodes: 500, format: "full" })]);
    const found = await call("find", { target, role: "push button", limit: 200 });
    results.push(["find", found]);
    assert.ok(found.ok);
    const matches = (found.output.data as { matches: { ref: string; name: string }[] }).matches;
    const big = matches.find((m) => m.name.startsWith("a a a"))!;
    assert.ok(big.name.endsWith(MARK), big.name.slice(-80));
    const body = await call("find", { target, role: "text", limit: 1 });
    const bodyRef = (body.ok && (body.output.data as { matches: { ref: string }[] }).matches[0]!.ref)!;
    results.push(["element_info", await call("element_info", { ref: big.ref })]);
    const text = await call("read_text", { ref: bodyRef, length: 100_000 });
    results.push(["read_text", text]);
    assert.ok(text.ok);
    assert.equal((text.output.data as { text: string }).text, "t ".repeat(50_000));
    for (const [what, result] of results) {
      assert.ok(result.ok, `${what}: ${!result.ok && result.error.message.slice(0, 200)}`);
      assertBounded(result, what);
    }
    // Each says it was cut, in its data and its text, where something was.
    const [, observe] = results[0]!;
    assert.ok(observe.ok);
    assert.ok(observe.output.data.reply_cut, "observe's data names the cut");
    assert.match(observe.output.text, /cut to fit the reply's bounds: \d+ string\(s\) cut/);
  });

  it("act on it: the gate refuses at once, the refusal and its journal line within bounds", async () => {
    const found = await call("find", { target, role: "push button", limit: 1 });
    assert.ok(found.ok);
    const ref = (found.output.data as { matches: { ref: string }[] }).matches[0]!.ref;
    let longestGap = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      longestGap = Math.max(longestGap, performance.now() - last);
      last = performance.now();
    }, 5);
    const started = performance.now();
    const acted = await call("act", { ref, action: { kind: "invoke" }, intent: "press the big one" });
    const took = performance.now() - started;
    clearInterval(timer);
    assert.equal(acted.outcome, "refused");
    assert.ok(!acted.ok);
    assert.match(acted.error.message, /label runs to 5,242,880 characters/);
    assertBounded(acted, "act");
    // The old gate matched the whole name: minutes. A loaded machine holds this one easily.
    assert.ok(took < 10_000, `act took ${took} ms`);
    assert.ok(longestGap < 1_000, `the event loop was held ${longestGap} ms`);
    const lines = readFileSync(join(dir, "audit.jsonl"), "utf8").trim().split("\n");
    const line = lines.at(-1)!;
    assert.ok(Buffer.byteLength(line) <= REPLY_CEILING, `journal line of ${line.length}`);
    const entry = JSON.parse(line);
    assert.equal(entry.decision, "refused");
    assert.ok(entry.target.name.endsWith(MARK), entry.target.name.slice(-60));
  });

  it("the journal finds a long password's pieces in a long line in one pass", () => {
    const journal = new AuditJournal(join(dir, "secrets.jsonl"));
    // 2,000 characters no word of which is letters only, repeated through a line of 100,000: the
    // old search asked every run of the line whether the password held it, and grew each run by one
    // (line × password × run: minutes).
    const password = Array.from({ length: 2000 }, (_, i) =>
      String.fromCharCode(0x21 + ((i * 7919) % 90)),
    ).join("");
    const started = performance.now();
    journal.record(
      {
        time: new Date(0).toISOString(),
        tool: "type_text",
        level: "L2",
        intent: "log in",
        reversible: true,
        target: { role: "text", name: `${password.slice(500)}${password.repeat(49)}` },
        decision: "done",
      },
      [{ text: password, password: true }],
    );
    const took = performance.now() - started;
    assert.ok(took < 10_000, `${took} ms`);
    const entry = JSON.parse(readFileSync(join(dir, "secrets.jsonl"), "utf8").trim());
    assert.equal(entry.target.name, "[typed text]");
  });
});
