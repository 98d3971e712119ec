// `deskhand serve` stops as the MCP servers do: a stop (SIGTERM) lets the request running finish and
// answers it, answers each queued request as not started, and ends; a request still running when
// the drain is over is answered as cut, never left without an answer.
import assert from "node:assert/strict";
import { getEventListeners } from "node:events";
import { PassThrough } from "node:stream";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { serve } from "../../src/frontends/ndjson/server.js";
import { FakeBackend } from "../../src/platform/fake/backend.js";
import { createContext } from "../../src/tools/context.js";
import { fakeDesktop } from "./fake-desktop.js";

/** A desktop whose window list takes `ms` to answer. */
class SlowBackend extends FakeBackend {
  constructor(readonly ms: number) {
    super(fakeDesktop());
  }
  override async listWindows() {
    await sleep(this.ms);
    return super.listWindows();
  }
}

async function stopWhileRunning(listMs: number, drainMs: number) {
  const input = new PassThrough();
  const output = new PassThrough();
  const context = createContext({
    refLifetime: "latest-snapshot",
    connect: async () => new SlowBackend(listMs),
  });
  let text = "";
  output.on("data", (chunk) => {
    text += chunk;
  });
  const stop = new AbortController();
  const done = serve({ input, output, context, stop: stop.signal, drainMs });
  input.write('{"id":1,"method":"windows"}\n{"id":2,"method":"windows"}\n');
  await sleep(50);
  const stoppedAt = Date.now();
  stop.abort();
  await done;
  const answers = text
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  return { answers, took: Date.now() - stoppedAt };
}

describe("serve: a stop drains", () => {
  it("the running request finishes and is answered; the queued one is answered as not started", async () => {
    const { answers } = await stopWhileRunning(300, 5000);
    assert.equal(answers.length, 2, JSON.stringify(answers));
    assert.equal(answers[0].id, 1);
    assert.equal(answers[0].ok, true, JSON.stringify(answers[0]));
    assert.equal(answers[1].id, 2);
    assert.equal(answers[1].ok, false);
    assert.match(answers[1].error.message, /not started and nothing was done/);
  });

  it("a request still running when the drain ends is answered as cut, at the drain's end", async () => {
    const { answers, took } = await stopWhileRunning(3000, 200);
    assert.equal(answers[0].id, 1);
    assert.match(answers[0].error.message, /still running after 0\.2 s; it had started/);
    assert.equal(answers[1].id, 2);
    assert.ok(took < 2500, `answered at the drain's end, not the request's (${took} ms)`);
  });

  it("a request answered stops listening for the stop: thirty leave none behind", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const context = createContext({
      refLifetime: "latest-snapshot",
      connect: async () => new SlowBackend(0),
    });
    let answered = 0;
    output.on("data", (chunk) => {
      answered += String(chunk).split("\n").filter(Boolean).length;
    });
    const stop = new AbortController();
    const done = serve({ input, output, context, stop: stop.signal, drainMs: 1000 });
    for (let id = 1; id <= 30; id++) input.write(`{"id":${id},"method":"windows"}\n`);
    while (answered < 30) await sleep(20);
    assert.ok(getEventListeners(stop.signal, "abort").length <= 1, "no listener per answered request");
    stop.abort();
    await done;
  });
});
