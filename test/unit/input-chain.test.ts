// The input chain's refusals on fake hands and a fake backend (the same contracts as X11 and AT-SPI):
// a window that will not come forward, a point another window covers, an element that changed since
// it was seen. Each is refused with its reason and sends nothing; the journal has the line.
import assert from "node:assert/strict";
import { chmodSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { z } from "zod";
import type { FakeElement } from "../../src/platform/fake/backend.js";
import type { FakeHandsDesktop, FakeHandsWindow } from "../../src/platform/fake/hands.js";
import type { State } from "../../src/platform/roles.js";
import type { Confirmer } from "../../src/safety/gate.js";
import { callTool } from "../../src/tools/call.js";
import { attemptInput } from "../../src/tools/hands/attempt.js";
import { INPUT } from "../../src/tools/hands/pointer.js";
import { type ToolName, toolNamed } from "../../src/tools/registry.js";
import { defineTool } from "../../src/tools/tool.js";
import { fakeContext } from "./fake-desktop.js";

const dir = mkdtempSync(join(tmpdir(), "deskhand-chain-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const showing: State[] = ["enabled", "sensitive", "showing", "visible", "focusable"];
const field: FakeElement = {
  role: "text",
  name: "Notes",
  states: [...showing, "editable"],
  interfaces: ["Accessible", "Component", "Text", "EditableText"],
  bounds: { x: 20, y: 40, width: 200, height: 24 },
};
const root = (): FakeElement => ({
  role: "frame",
  name: "Editor",
  bounds: { x: 0, y: 0, width: 400, height: 300 },
  children: [{ role: "panel", bounds: { x: 0, y: 0, width: 400, height: 300 }, children: [{ ...field }] }],
});

function desktop(hands: FakeHandsDesktop, confirm?: Confirmer) {
  const window = (id: number, title: string, pid: number) => ({
    id,
    title,
    pid,
    app: "fake",
    rect: { x: 0, y: 0, width: 400, height: 300 },
    root: root(),
  });
  const {
    backend,
    hands: fakeHands,
    context,
  } = fakeContext({
    windows: [window(7, "Editor", 11), window(9, "Other", 12)],
    hands,
    dir,
    ...(confirm ? { confirm } : {}),
  });
  const call = async (tool: ToolName, input: Record<string, unknown>) => {
    const result = await callTool(context, toolNamed(tool), input);
    assert.ok(result.ok, JSON.stringify(!result.ok && result.error));
    return result;
  };
  return { backend, hands: fakeHands, context, call };
}

/** A window of the fake hands' desktop, filling the screen's corner as the editor does. */
const win = (id: number, extra: Partial<FakeHandsWindow> = {}): FakeHandsWindow => ({
  id,
  rect: { x: 0, y: 0, width: 400, height: 300 },
  ...extra,
});

const journalLines = () =>
  readFileSync(join(dir, "audit.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map(
      (l) =>
        JSON.parse(l) as { tool: string; decision?: string; reason?: string; id?: string; phase?: string },
    );
const journalLast = () => journalLines().at(-1)!;

describe("the input chain on fake hands", () => {
  it("a window the window manager will not bring forward: refused, nothing sent", async () => {
    const { hands, context, call } = desktop({
      windows: [win(7, { activates: "not_front" }), win(9)],
      active: 9,
    });
    const result = await call("click", {
      at: { space: "global", x: 50, y: 50 },
      window: { id: 7 },
      intent: "Click in the editor",
    });
    assert.equal(result.outcome, "refused");
    assert.match(result.ok ? String(result.output.data.reason) : "", /window 7 \("Editor"\) is not in front/);
    assert.deepEqual(hands.sent, [], "nothing was sent");
    assert.deepEqual(hands.activations, [7]);
    assert.equal(journalLast().decision, "refused");
    await context.close();
  });

  it("keys judged for the window in front, another in front by the time they go: judged again there, once", async () => {
    // A person asked about ctrl+w answers while another window comes forward (an app dying while
    // its keys are judged brings its crash reporter): the keys are judged again, for the window in
    // front now, and a person is asked about that one.
    const asked: string[] = [];
    let fake: { desktop: FakeHandsDesktop } | undefined;
    const { hands, context, call } = desktop({ windows: [win(9), win(7)], active: 7 }, async (request) => {
      asked.push(String(request.target?.windowTitle));
      if (asked.length === 1) fake!.desktop.active = 9;
      return "approved";
    });
    fake = hands;
    const result = await call("key", { key: "ctrl+w", intent: "Close the window" });
    assert.equal(result.outcome, "done", JSON.stringify(result));
    assert.deepEqual(asked, ["Editor", "Other"]);
    assert.deepEqual(hands.sent, ["chord ctrl+w ×1"]);
    const decisions = journalLines()
      .slice(-4)
      .map((l) => l.decision ?? l.phase);
    assert.ok(decisions.includes("refused"), JSON.stringify(decisions));
    await context.close();
  });

  it("and where the window in front changes again: refused, nothing sent", async () => {
    let fake: { desktop: FakeHandsDesktop } | undefined;
    const { hands, context, call } = desktop({ windows: [win(9), win(7)], active: 7 }, async () => {
      fake!.desktop.active = fake!.desktop.active === 7 ? 9 : 7;
      return "approved";
    });
    fake = hands;
    const result = await call("key", { key: "ctrl+w", intent: "Close the window" });
    assert.equal(result.outcome, "refused");
    assert.match(
      result.ok ? String(result.output.data.reason) : "",
      /judged for window 9 \("Other"\), but window 7 \("Editor"\) is in front now; nothing was sent/,
    );
    assert.deepEqual(hands.sent, [], "nothing was sent");
    assert.equal(journalLast().decision, "refused");
    await context.close();
  });

  it("the window manager gives no answer: cannot tell, refused, nothing sent", async () => {
    const { hands, context, call } = desktop({
      windows: [win(7, { activates: "unknown" }), win(9)],
      active: 9,
    });
    const result = await call("key", { key: "Tab", window: { id: 7 }, intent: "Next field" });
    assert.equal(result.outcome, "refused");
    assert.match(result.ok ? String(result.output.data.reason) : "", /cannot tell whether window 7/);
    assert.deepEqual(hands.sent, []);
    await context.close();
  });

  it("a point another window covers: refused naming it, nothing sent, nothing raised", async () => {
    const { hands, context, call } = desktop({
      windows: [win(7), { id: 9, rect: { x: 0, y: 0, width: 100, height: 100 } }],
      active: 7,
    });
    const result = await call("click", {
      at: { space: "global", x: 50, y: 50 },
      window: { id: 7 },
      ensure_focus: false,
      intent: "Click in the editor",
    });
    assert.equal(result.outcome, "refused");
    assert.match(result.ok ? String(result.output.data.reason) : "", /is covered by window 9/);
    assert.deepEqual(hands.sent, []);
    assert.deepEqual(hands.activations, []);
    await context.close();
  });

  it("an element renamed since it was seen: not acted on", async () => {
    const { backend, hands, context, call } = desktop({
      windows: [win(7)],
      active: 7,
    });
    const found = await call("find", {
      target: { kind: "title", glob: "Editor" },
      role: "text",
      name: "Notes",
    });
    const ref = (found.ok && (found.output.data.matches as { ref: string }[])[0]?.ref) || "";
    assert.ok(ref);
    backend.replace("w7/0/0", { ...field, name: "Password" });
    const result = await callTool(context, toolNamed("click"), { ref, intent: "Click the notes" });
    assert.notEqual(result.outcome, "done", JSON.stringify(result));
    assert.deepEqual(hands.sent, [], "nothing was sent to the changed element");
    await context.close();
  });

  it("all well: the click is sent once, at the point, and journaled done", async () => {
    const { hands, context, call } = desktop({
      windows: [win(9), win(7)],
      active: 9,
    });
    const result = await call("click", {
      at: { space: "global", x: 300, y: 200 },
      window: { id: 7 },
      intent: "Click in the editor",
    });
    assert.equal(result.outcome, "done", JSON.stringify(result.ok && result.output.data));
    assert.deepEqual(hands.sent, ["click left 1 at 300,200"]);
    assert.equal(journalLast().decision, "done");
    await context.close();
  });

  it("a tool whose gate goes past the levels it declares: an internal error, nothing sent", async () => {
    const { hands, context } = desktop({ windows: [win(7)], active: 7 });
    // Listed as L1, yet it asks the gate for L2: the listing would lie, so the call stops.
    const misdeclared = defineTool({
      name: "poke",
      title: "Poke",
      description: "A tool declared L1 that sends input.",
      level: "L1",
      annotations: INPUT,
      input: z.object({}),
      handler: (ctx) =>
        attemptInput(ctx, {
          tool: "poke",
          nominal: "L2",
          intent: "Poke",
          reversible: true,
          ensureFocus: false,
          presses: [],
          execute: async (h) => {
            await h.click({ x: 1, y: 1 }, { button: "left", count: 1, modifiers: [] });
            return {};
          },
          describe: () => "poked",
        }),
    });
    const result = await callTool(context, misdeclared, {});
    assert.equal(result.outcome, "error");
    assert.match(result.ok ? "" : result.error.message, /poke declares L1 at least|poke declares L1 at most/);
    assert.deepEqual(hands.sent, []);
    assert.equal(journalLast().decision, "refused");
    await context.close();
  });

  it("a tool that names its input after another tool: an internal error, nothing sent", async () => {
    const { hands, context } = desktop({ windows: [win(7)], active: 7 });
    // Declared L1, yet it sends a click under click's name, where click's L2 would pass unnoticed.
    const borrowed = defineTool({
      name: "nudge",
      title: "Nudge",
      description: "A tool declared L1 that clicks under another tool's name.",
      level: "L1",
      annotations: INPUT,
      input: z.object({}),
      handler: (ctx) =>
        attemptInput(ctx, {
          tool: "click",
          nominal: "L2",
          intent: "Nudge",
          reversible: true,
          ensureFocus: false,
          presses: [],
          execute: async (h) => {
            await h.click({ x: 1, y: 1 }, { button: "left", count: 1, modifiers: [] });
            return {};
          },
          describe: () => "nudged",
        }),
    });
    const result = await callTool(context, borrowed, {});
    assert.equal(result.outcome, "error");
    assert.match(result.ok ? "" : result.error.message, /nudge made an input named click/);
    assert.deepEqual(hands.sent, []);
    await context.close();
  });
});

describe("the journal first: an action's line is on disk before its input", () => {
  /** Runs `during` at the moment the fake hands send the first input. */
  const onSend = (hands: { sent: string[] }, during: (items: string[]) => void) => {
    const push = hands.sent.push.bind(hands.sent);
    hands.sent.push = (...items: string[]) => {
      during(items);
      return push(...items);
    };
  };

  it("the attempt line, with its id, is in the journal when the click is sent; the outcome follows with that id", async () => {
    const { hands, context, call } = desktop({ windows: [win(7)], active: 7 });
    let seen: ReturnType<typeof journalLines> = [];
    onSend(hands, () => {
      seen = journalLines();
    });
    const result = await call("click", {
      at: { space: "global", x: 300, y: 200 },
      window: { id: 7 },
      intent: "Click in the editor",
    });
    assert.equal(result.outcome, "done");
    const attempt = seen.at(-1)!;
    assert.equal(attempt.phase, "attempt", JSON.stringify(seen.at(-1)));
    assert.equal(attempt.tool, "click");
    assert.equal(attempt.decision, undefined, "an attempt says nothing of how it ends");
    const outcome = journalLast();
    assert.deepEqual([outcome.phase, outcome.id, outcome.decision], ["outcome", attempt.id, "done"]);
    await context.close();
  });

  it("an outcome line the journal cannot take: the reply says the click was done, and that the line is missing", async () => {
    const { hands, context, call } = desktop({ windows: [win(7)], active: 7 });
    const path = join(dir, "audit.jsonl");
    // Between the attempt and the outcome the journal becomes one others can read: refused.
    onSend(hands, () => chmodSync(path, 0o644));
    const result = await call("click", {
      at: { space: "global", x: 300, y: 200 },
      window: { id: 7 },
      intent: "Click in the editor",
    });
    chmodSync(path, 0o600);
    assert.equal(result.outcome, "done", "the click was sent: not an error as if nothing happened");
    assert.deepEqual([...hands.sent], ["click left 1 at 300,200"]);
    const output = result.ok ? result.output : undefined;
    assert.match(output?.text ?? "", /^done/);
    assert.match(
      output?.text ?? "",
      /journal: the journal could not take the outcome line of click .*others can read/,
    );
    assert.equal((output?.data.journal_unwritten as string[] | undefined)?.length, 1);
    assert.equal(journalLast().phase, "attempt", "the attempt line stands, its outcome missing");
    await context.close();
  });

  it("a field gone while it was typed into (its app died): the reply says the keys were sent and what arrived is unknown", async () => {
    const { backend, hands, context, call } = desktop({ windows: [win(7)], active: 7 });
    // The field has the focus already, as it would after the focus click.
    backend.replace("w7/0/0", { ...field, states: [...(field.states ?? []), "focused"] });
    const found = await call("find", {
      target: { kind: "title", glob: "Editor" },
      role: "text",
      name: "Notes",
    });
    const ref = (found.ok && (found.output.data.matches as { ref: string }[])[0]?.ref) || "";
    onSend(hands, (items) => {
      if (items.some((i) => i.startsWith("type "))) backend.forget("w7/0/0");
    });
    const typed = await call("type_text", { ref, text: "a".repeat(120), intent: "Type a long note" });
    assert.ok(typed.ok);
    assert.equal(typed.output.data.status, "unverified");
    assert.doesNotMatch(typed.output.text, /typed 120|^done/m);
    assert.match(
      typed.output.text,
      /^typed, not verified: 120 character\(s\) sent as keys.*the field cannot be re-read now .*how many arrived is unknown/,
    );
    await context.close();
  });
});
