// 10,000+ bad lines into `serve`: each gets its one answer with the right code, in order, nothing
// crashes, and memory stays bounded. Lines are generated from a fixed seed, so a failure replays.
import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { it } from "node:test";
import { serve } from "../../src/frontends/ndjson/server.js";
import { FakeBackend } from "../../src/platform/fake/backend.js";
import { createContext } from "../../src/tools/context.js";
import { fakeDesktop } from "./fake-desktop.js";

function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

type Case = { line: Buffer; code: string | null };

function cases(count: number, maxLineBytes: number): Case[] {
  const next = random(20261130);
  const pick = <T>(items: T[]) => items[Math.floor(next() * items.length)]!;
  const out: Case[] = [];
  const json = (value: unknown) => Buffer.from(`${JSON.stringify(value)}\n`);
  for (let i = 0; i < count; i++) {
    const kind = Math.floor(next() * 8);
    switch (kind) {
      case 0: {
        // Random bytes without a newline or a leading brace: never JSON.
        const bytes = Buffer.from(
          Array.from({ length: 1 + Math.floor(next() * 60) }, () => 32 + Math.floor(next() * 200)),
        );
        const cleaned = Buffer.from(
          bytes.filter(
            (b) =>
              b !== 0x0a &&
              b !== 0x7b &&
              b !== 0x5b &&
              b !== 0x22 &&
              !(b >= 0x30 && b <= 0x39) &&
              b !== 0x2d &&
              b !== 0x74 &&
              b !== 0x66 &&
              b !== 0x6e,
          ),
        );
        out.push({
          line: Buffer.concat([Buffer.from("#"), cleaned, Buffer.from("\n")]),
          code: "invalid_request",
        });
        break;
      }
      case 1:
        out.push({ line: Buffer.from([0x7b, 0xc3, 0x28, 0xa0, 0xa1, 0x7d, 0x0a]), code: "invalid_request" });
        break;
      case 2:
        out.push({
          line: Buffer.from(
            `{"id":${i},"method":"ping","pad":"${"x".repeat(maxLineBytes + Math.floor(next() * 5000))}"}\n`,
          ),
          code: "invalid_request",
        });
        break;
      case 3:
        out.push({ line: json(pick([[1, 2], 42, "ping", null, true])), code: "invalid_request" });
        break;
      case 4:
        out.push({
          line: json({
            id: i,
            method: pick(["fly", "Snapshot", "__proto__", "constructor", "x".repeat(300)]),
          }),
          code: "unknown_method",
        });
        break;
      case 5:
        out.push({
          line: json(
            pick([
              { id: i, method: "windows", params: { maxNodes: "ten" } },
              { id: i, method: "snapshot", params: { scope: "galaxy" } },
              { id: i, method: "snapshot", params: { scope: "hwnd" } },
              { id: i, method: "snapshot", params: { maxDepth: 1.5 } },
              { id: i, method: "invoke", params: {} },
              { id: i, method: "set_value", params: { ref: "s1:e1" } },
              { id: i, method: "observe", params: [] },
              { id: i, method: "ping", params: { extra: true } },
            ]),
          ),
          code: "invalid_params",
        });
        break;
      case 6:
        out.push({ line: json({ id: { nested: i }, method: "ping" }), code: "invalid_request" });
        break;
      default:
        out.push({ line: json({ id: `ok-${i}`, method: "ping" }), code: null });
    }
  }
  return out;
}

it("answers 10,000 bad and good lines one for one, with the right codes, in bounded memory", async () => {
  const maxLineBytes = 4096;
  const all = cases(10_500, maxLineBytes);
  const input = new PassThrough();
  const output = new PassThrough();
  const context = createContext({
    refLifetime: "latest-snapshot",
    connect: async () => new FakeBackend(fakeDesktop()),
  });
  const responses: { id: unknown; ok: boolean; error?: { code: string } }[] = [];
  let buffered = "";
  output.on("data", (chunk: Buffer) => {
    buffered += chunk.toString();
    let newline = buffered.indexOf("\n");
    while (newline >= 0) {
      responses.push(JSON.parse(buffered.slice(0, newline)));
      buffered = buffered.slice(newline + 1);
      newline = buffered.indexOf("\n");
    }
  });
  const heapBefore = process.memoryUsage().heapUsed;
  const done = serve({ input, output, context, maxLineBytes });
  for (const c of all) {
    if (!input.write(c.line)) await new Promise((resolve) => input.once("drain", resolve));
  }
  input.end();
  await done;
  const heapGrowth = (process.memoryUsage().heapUsed - heapBefore) / (1 << 20);
  assert.equal(responses.length, all.length, "one response per line");
  const wrong: string[] = [];
  all.forEach((c, i) => {
    const response = responses[i]!;
    const got = response.ok ? null : (response.error?.code ?? "?");
    if (got !== c.code)
      wrong.push(`#${i}: expected ${c.code}, got ${got} for ${c.line.subarray(0, 60).toString("latin1")}`);
  });
  assert.deepEqual(wrong.slice(0, 5), []);
  assert.ok(heapGrowth < 64, `heap grew ${heapGrowth.toFixed(1)} MB`);
});
