// The gate's label lexicon, 20 s of CPU on a machine's first judgement, is learnt in a worker thread
// as a server starts (src/safety/warm.ts): the server's own thread goes on answering meanwhile, and
// the first judgement finds it cached.
import assert from "node:assert/strict";
import { once } from "node:events";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { warmInBackground } from "../../src/safety/warm.js";

describe("the gate's caches, warmed in the background", () => {
  it("are built and cached by a worker while this thread keeps running", async () => {
    const cache = mkdtempSync(join(tmpdir(), "deskhand-warm-"));
    try {
      const worker = warmInBackground({ ...process.env, DESKHAND_CACHE_DIR: cache });
      assert.ok(worker, "a worker started");
      // This thread's timers keep firing through the build: it is not done here.
      let ticks = 0;
      const timer = setInterval(() => ticks++, 20);
      const [code] = await once(worker, "exit");
      clearInterval(timer);
      assert.equal(code, 0, "the worker finished");
      const files = readdirSync(cache);
      assert.ok(
        files.some((f) => /^labels-.*\.json$/.test(f)),
        `the label lexicon is cached: ${files}`,
      );
      assert.ok(
        files.some((f) => /^(things|translations)-.*\.json$/.test(f)),
        `the named things' translations are cached: ${files}`,
      );
      assert.ok(ticks > 10, `this thread ran meanwhile (${ticks} ticks)`);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });
});
