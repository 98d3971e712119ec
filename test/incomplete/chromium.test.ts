// Chromium started without renderer accessibility shows one bare frame. deskhand must not present
// that as a complete, empty window: snapshot, observe and find say tree_incomplete, with the flag that fixes it.
// Runs in a sandbox of its own (scripts/run-tests.mjs) with `test/fixtures/web/chromium --no-renderer-accessibility`.
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { createContext } from "../../src/tools/context.js";
import { toolCaller } from "../desktop/helpers.js";

describe("Chromium without renderer accessibility", () => {
  const context = createContext({ refLifetime: "while-verified" });
  const call = toolCaller(context);
  after(() => context.close());
  const target = { kind: "title", glob: "Deskhand Web Form*Chromium*" };

  it("snapshot says tree_incomplete and names the fix", async () => {
    await new Promise((resolve) => setTimeout(resolve, 1500)); // the page loads
    const snap = await call("snapshot", { target, maxDepth: 60, format: "json" });
    assert.ok(snap.ok, JSON.stringify(snap.error));
    const [known] = snap.data.tree_incomplete ?? [];
    assert.ok(known, `tree_incomplete is set: ${JSON.stringify(snap.data).slice(0, 300)}`);
    assert.match(known.reason, /exposes nothing|has no children/);
    assert.match(known.fix, /--force-renderer-accessibility/);
    const text = await call("snapshot", { target, maxDepth: 60 });
    assert.match(
      String(text.text),
      /^# tree_incomplete: .*Fix: start it with --force-renderer-accessibility/m,
    );
  });

  it("observe says so too, with the fix, rather than listing a bare frame as the window", async () => {
    const seen = await call("observe", { target });
    assert.ok(seen.ok, JSON.stringify(seen.error));
    assert.ok(seen.data.tree_incomplete?.length, JSON.stringify(seen.data).slice(0, 300));
    assert.match(
      String(seen.text),
      /^# tree_incomplete: .*Fix: start it with --force-renderer-accessibility/m,
    );
  });

  it("find does not call the search complete", async () => {
    const found = await call("find", { target, role: "push button", name: "Show greeting" });
    assert.ok(found.ok, JSON.stringify(found.error));
    assert.equal(found.data.total, 0);
    assert.equal(found.data.searched_whole_window, false);
    assert.ok(found.data.tree_incomplete?.length, "the reason travels with the empty answer");
    assert.match(found.text, /tree is incomplete/);
  });
});
