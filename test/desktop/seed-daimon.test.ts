// The Daimon "Mains" seed replayed: `deskhand mcp --profile daimon` answers the calls its document shows,
// in its own spelling (main_click {x, y, intent}, main_type, main_key, ...), with its reply shapes
// (refused / done / error) and error codes, against the Swing fixture; each effect is re-read from the app.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { createContext, type ToolContext } from "../../src/tools/context.js";
import { HANG_MS, mcpClient, TITLES, toolCaller } from "./helpers.js";

type Result = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: any };

describe("the Daimon profile, replayed", () => {
  let client: Client;
  let context: ToolContext;
  let local: ReturnType<typeof toolCaller>;
  before(async () => {
    client = await mcpClient("daimon-replay", ["--profile", "daimon"]);
    context = createContext({ refLifetime: "while-verified" });
    local = toolCaller(context);
  });
  after(async () => {
    await client.close();
    await context.close();
  });

  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as Result;
  /** The centre of an element of the Swing fixture, in global points, as vue_find would give it. */
  const centre = async (query: Record<string, unknown>) => {
    const found = await local("find", { target: { kind: "title", glob: TITLES.swing }, ...query });
    const b = found.data.matches[0].bounds;
    return { x: b.x + Math.floor(b.width / 2), y: b.y + Math.floor(b.height / 2) };
  };
  const status = async () => {
    const read = await local("snapshot", {
      target: { kind: "title", glob: TITLES.swing },
      format: "json",
      maxDepth: 40,
    });
    return read.data.elements.find((e: { name: string }) => e.name === "Status")?.description;
  };

  it("serves its fifteen main_* tools", async () => {
    const { tools } = await client.listTools();
    assert.equal(tools.length, 15);
    assert.ok(tools.every((t) => t.name.startsWith("main_")));
  });

  it("main_activate, main_click, main_type and main_key: done, and the app shows it", async () => {
    const front = await call("main_activate", { intent: "Bring the fixture forward", title: TITLES.swing });
    assert.equal(front.structuredContent.status, "done", front.content[0]!.text);
    const shape = JSON.parse(front.content[0]!.text);
    assert.equal(shape.status, "done");
    assert.ok(
      "result" in shape && Object.keys(shape).every((k) => ["status", "result", "focus"].includes(k)),
    );
    const alpha = await centre({ role: "push button", name_contains: "Alpha" });
    const clicked = await call("main_click", { ...alpha, intent: "Press Alpha", window_title: TITLES.swing });
    assert.equal(clicked.structuredContent.status, "done", clicked.content[0]!.text);
    // Java handles the click on its event thread: read its status until it says so, for a while.
    let seen = "";
    for (const deadline = Date.now() + HANG_MS; Date.now() < deadline; await sleep(100)) {
      seen = (await status()) ?? "";
      if (/^Pressed Alpha/.test(seen)) break;
    }
    assert.match(seen, /^Pressed Alpha/, JSON.stringify(clicked.structuredContent));
    const field = await centre({ role: "text", name: "Name" });
    assert.equal(
      (await call("main_click", { ...field, intent: "Focus the name field" })).structuredContent.status,
      "done",
    );
    const typed = await call("main_type", { text: "Daimon", intent: "Fill the name field" });
    assert.equal(typed.structuredContent.status, "done", typed.content[0]!.text);
    const key = await call("main_key", { key: "End", intent: "Go to the end of the field" });
    assert.equal(key.structuredContent.status, "done", key.content[0]!.text);
    const value = (
      await local("find", { target: { kind: "title", glob: TITLES.swing }, role: "text", name: "Name" })
    ).data.matches[0].value;
    assert.match(value, /Daimon$/);
  });

  it("its error codes and refusals: invalid_arguments, and L4 primitives above the ceiling refused", async () => {
    const cmd = await call("main_click", { x: 10, y: 10, intent: "Click with cmd", modifiers: ["cmd"] });
    assert.equal(cmd.isError, true);
    assert.equal(cmd.structuredContent.error, "invalid_arguments");
    assert.match(cmd.content[0]!.text, /^invalid_arguments: /, "the text block names the same code");
    const image = await call("main_click", { x: 10, y: 10, intent: "Click in image space", space: "image" });
    assert.equal(image.structuredContent.error, "invalid_arguments");
    assert.match(image.structuredContent.message, /needs display/);
    // Only the seed's four codes: a window that is not there is an argument the caller got wrong.
    const gone = await call("main_activate", { intent: "Bring it forward", title: "No such window" });
    assert.equal(gone.structuredContent.error, "invalid_arguments", gone.content[0]!.text);
    const down = await call("main_mouse_down", { x: 10, y: 10, intent: "Hold the button" });
    assert.equal(down.structuredContent.status, "refused", down.content[0]!.text);
    // main_key_down takes modifiers, as the seed has it (then the L4 ceiling refuses it).
    const held = await call("main_key_down", { key: "c", modifiers: ["ctrl"], intent: "Hold ctrl+c" });
    assert.equal(held.structuredContent.status, "refused", held.content[0]!.text);
    assert.match(held.structuredContent.reason, /L4/);
    // The text block is the seed's object itself, and a refusal is a result, not an MCP error.
    assert.deepEqual(Object.keys(JSON.parse(held.content[0]!.text)), ["status", "reason"]);
    assert.equal(held.isError, undefined);
    const bundle = await call("main_window_hide", { intent: "Hide Finder", bundle: "com.apple.finder" });
    assert.equal(bundle.structuredContent.error, "invalid_arguments");
  });

  it("main_press is L3 whatever the target: a plain button still needs a person, and under an L2 ceiling it is refused", async () => {
    const note = await centre({ role: "push button", name: "Note" });
    const before = await status();
    const pressed = await call("main_press", {
      ...note,
      reversible: true,
      intent: "Add a note",
      window_title: TITLES.swing,
    });
    assert.equal(pressed.structuredContent.status, "refused", pressed.content[0]!.text);
    assert.equal(pressed.structuredContent.level, "L3");
    assert.match(pressed.structuredContent.reason, /main_press is L3/);
    const { DAIMON } = await import("../../src/frontends/profiles/daimon.js");
    const { callTool } = await import("../../src/tools/call.js");
    const low = createContext({ refLifetime: "while-verified", ceiling: "L2" });
    try {
      const press = DAIMON.find((t) => t.name === "main_press")!;
      const result = await callTool(low, press, { ...note, reversible: true, intent: "Add a note" });
      assert.ok(result.ok);
      assert.equal((result.output.data as { status: string }).status, "refused");
      assert.match((result.output.data as { reason: string }).reason, /above the ceiling L2/);
    } finally {
      await low.close();
    }
    await sleep(300);
    assert.equal(await status(), before, "Note was not pressed");
  });

  it("main_press presses the button at the point through its own action, once a rule naming main_press allows it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "deskhand-daimon-press-"));
    // The person's rule names the client's own tool, as the refusal suggests it.
    writeFileSync(
      join(dir, "config.json"),
      JSON.stringify({ preapprove: [{ reason: "any", tool: "main_press", window: TITLES.swing }] }),
    );
    const allowed = createContext({
      refLifetime: "while-verified",
      env: {
        ...process.env,
        DESKHAND_CONFIG: join(dir, "config.json"),
        DESKHAND_AUDIT: join(dir, "audit.jsonl"),
      },
    });
    const { DAIMON } = await import("../../src/frontends/profiles/daimon.js");
    const { callTool } = await import("../../src/tools/call.js");
    try {
      const note = await centre({ role: "push button", name: "Note" });
      const before = await status();
      const press = DAIMON.find((t) => t.name === "main_press")!;
      const result = await callTool(allowed, press, {
        ...note,
        intent: "Add a note",
        window_title: TITLES.swing,
      });
      assert.ok(result.ok, JSON.stringify(result));
      const data = result.output.data as {
        status: string;
        result: { route: string; pressed: { name: string } };
      };
      assert.equal(data.status, "done", result.output.text);
      assert.equal(data.result.pressed.name, "Note");
      assert.match(data.result.route, /DoAction/, "its accessibility action, not a real click");
      let now = before;
      for (let i = 0; i < 20 && now === before; i++) {
        await sleep(100);
        now = await status();
      }
      assert.notEqual(now, before, "Note was pressed: the app's status changed");
      const journal = readFileSync(join(dir, "audit.jsonl"), "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l));
      assert.ok(
        journal.some((l) => l.via === "main_press" && l.tool === "act.invoke" && l.decision === "done"),
        JSON.stringify(journal).slice(0, 2000),
      );
    } finally {
      await allowed.close();
    }
  });

  it("a role in the seed's own spelling raises a click: AXButton labelled Delete needs a person", async () => {
    const field = await centre({ role: "text", name: "Name" });
    const before = await status();
    const clicked = await call("main_click", {
      ...field,
      intent: "Delete it",
      role: "AXButton",
      label: "Delete",
      window_title: TITLES.swing,
    });
    assert.equal(clicked.structuredContent.status, "refused", clicked.content[0]!.text);
    assert.equal(clicked.structuredContent.level, "L3");
    assert.equal(await status(), before, "nothing was pressed");
  });

  it("image space without region is the whole display, as a snapshot's: a hover there is done", async () => {
    const hover = await call("main_hover", {
      x: 5,
      y: 5,
      space: "image",
      display: 0,
      max_width: 20000,
      intent: "Look",
    });
    assert.equal(hover.structuredContent.status, "done", hover.content[0]!.text);
  });
});
