// The MCP server's calls in flight: a stop answers each running call, and a call that ended holds
// nothing (each once left a reaction on a promise pending for the server's life, with its context:
// the stdio server grew about 40 KB a call).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { CallsInFlight } from "../../src/frontends/mcp/calls.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

describe("calls in flight", () => {
  it("a stop answers a running call as stopped; an ended call keeps its own answer", async () => {
    const calls = new CallsInFlight();
    const ended = calls.run(
      async () => "own",
      () => "stopped",
    );
    let finish!: (value: string) => void;
    const running = calls.run(
      () => new Promise<string>((resolve) => (finish = resolve)),
      () => "stopped",
    );
    assert.equal(await ended, "own");
    assert.equal(calls.count, 1);
    await calls.drain(50);
    assert.equal(await running, "stopped");
    finish("late");
    assert.equal(await running, "stopped");
  });

  it("a failed call rejects with its own error", async () => {
    const calls = new CallsInFlight();
    await assert.rejects(
      calls.run(
        async () => {
          throw new Error("its own");
        },
        () => "stopped",
      ),
      /its own/,
    );
    assert.equal(calls.count, 0);
  });

  it("20,000 ended calls hold nothing of theirs", async () => {
    const calls = new CallsInFlight();
    const heap = () => {
      gc();
      return process.memoryUsage().heapUsed;
    };
    const before = heap();
    for (let i = 0; i < 20_000; i++) {
      // Each call's stop answer holds 8 KB, as a call's context holds its arguments and reply.
      const held = new Array<number>(1000).fill(i);
      await calls.run(
        async () => i,
        () => held.length,
      );
    }
    const grown = heap() - before;
    // The server lives on (and with it whatever it holds): measured while it does.
    assert.equal(calls.count, 0);
    // Kept, they would be 160 MB.
    assert.ok(grown < 16 * 1024 * 1024, `the heap grew ${(grown / 1024 / 1024).toFixed(1)} MB`);
  });
});
