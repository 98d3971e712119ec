// The gate's label lexicon, 30 s of CPU on a machine's first judgement, is learnt in a worker thread
// as a server starts (src/safety/warm.ts): the server's own thread goes on answering meanwhile, and
// the first judgement finds it cached. Proven on a folder of one small catalog (DESKHAND_CATALOGS).
import assert from "node:assert/strict";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import gettextParser from "gettext-parser";
import { gateWarm, warmInBackground } from "../../src/safety/warm.js";

const compile = (gettextParser.mo as unknown as { compile(data: unknown): Buffer }).compile;

/** A folder of catalogs laid out as the machine's, holding one small catalog. */
function catalogs(root: string): string {
  const folder = join(root, "locale", "xx", "LC_MESSAGES");
  mkdirSync(folder, { recursive: true });
  const translations: Record<string, { msgid: string; msgstr: string[] }> = {
    "": { msgid: "", msgstr: ["Content-Type: text/plain; charset=UTF-8\n"] },
  };
  const messages: [string, string][] = [
    ["_Delete", "_Zmaž"],
    ["Delete File", "Zmaž soubor"],
    ["Open File", "Otevři soubor"],
    ["Print Preview", "Náhled tisku"],
  ];
  for (const [msgid, msgstr] of messages) translations[msgid] = { msgid, msgstr: [msgstr] };
  const mo = compile({ charset: "utf-8", headers: {}, translations: { "": translations } });
  writeFileSync(join(folder, "app.mo"), mo);
  return join(root, "locale");
}

describe("the gate's caches, warmed in the background", () => {
  it("are built and cached by a worker while this thread keeps running", async () => {
    const cache = mkdtempSync(join(tmpdir(), "deskhand-warm-"));
    try {
      const worker = warmInBackground({
        ...process.env,
        DESKHAND_CACHE_DIR: cache,
        DESKHAND_CATALOGS: catalogs(cache),
      });
      assert.ok(worker, "a worker started");
      // This thread's timers keep firing through the build: it is not done here.
      let ticks = 0;
      const timer = setInterval(() => ticks++, 5);
      const exited = once(worker, "exit");
      // A call that may judge waits for it, and only waits: no second build on this thread.
      assert.equal(await gateWarm(0), false, "a call arriving now would still wait");
      assert.equal(await gateWarm(60_000), true, "and goes on once the worker is done");
      const [code] = await exited;
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
      assert.ok(ticks > 0, `this thread ran meanwhile (${ticks} ticks)`);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });
});
