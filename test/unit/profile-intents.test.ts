// A seed's client that gives no intent (windows2text's pattern actions, Ouroboros's element_act) is
// journaled as having given none, and whose call it was; one that gives an intent has it kept.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, it } from "node:test";
import { dispatch } from "../../src/frontends/ndjson/protocol.js";
import { PROFILES } from "../../src/frontends/profiles/index.js";
import type { FakeElement } from "../../src/platform/fake/backend.js";
import { callTool } from "../../src/tools/call.js";
import { toolNamed } from "../../src/tools/registry.js";
import { oneWindow } from "./fake-desktop.js";

const dir = mkdtempSync(join(tmpdir(), "deskhand-intents-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const box: FakeElement = {
  role: "check box",
  name: "Remember me",
  actions: ["click"],
  interfaces: ["Accessible", "Action", "Component"],
  states: ["enabled", "sensitive", "visible", "showing"],
  bounds: { x: 20, y: 40, width: 120, height: 24 },
};

it("the journal keeps the intent given, and says when none was, by whose client", async () => {
  const { context } = oneWindow("Sign in", [box], dir);
  const target = { kind: "title", glob: "Sign in" };
  const ref = async () => {
    const found = await callTool(context, toolNamed("find"), { target, role: "check box" });
    assert.ok(found.ok);
    return (found.output.data.matches as { ref: string }[])[0]!.ref;
  };
  await dispatch(context, "toggle", { ref: await ref() });
  await dispatch(context, "toggle", { ref: await ref(), intent: "Untick it again" });
  const elementAct = PROFILES.ouroboros!.tools.find((t) => t.name === "element_act")!;
  const acted = await callTool(context, elementAct, { hwnd: 7, role: "check box", action: "toggle" });
  assert.ok(acted.ok, JSON.stringify(!acted.ok && acted.error));
  const intents = readFileSync(join(dir, "audit.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l))
    .filter((e) => e.phase === "attempt")
    .map((e) => e.intent);
  assert.deepEqual(intents, [
    "(none given: a windows2text client)",
    "Untick it again",
    "(none given: an Ouroboros client)",
  ]);
  await context.close();
});
