// The hands through each front end: MCP (image blocks, confirmation by elicitation), NDJSON (click,
// type_text, key) and the CLI (exit statuses, the screenshot file, the journal).
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { decodePng, distinctColours } from "../../src/core/image.js";
import { CLI, cli, NdjsonClient, TITLES } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "deskhand-frontends-"));
const env = {
  ...(Object.fromEntries(Object.entries(process.env).filter((e) => e[1] !== undefined)) as Record<
    string,
    string
  >),
  DESKHAND_AUDIT: join(dir, "audit.jsonl"),
  DESKHAND_CONFIG: join(dir, "none.json"),
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type ToolResult = {
  isError?: boolean;
  content: { type: string; text?: string; data?: string }[];
  structuredContent?: any;
};

describe("hands over MCP", () => {
  let client: Client;
  let answer: "approve" | "decline" = "decline";
  const asked: string[] = [];
  before(async () => {
    client = new Client({ name: "deskhand-test", version: "0" }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return answer === "approve" ? { action: "accept", content: { allow: true } } : { action: "decline" };
    });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [...CLI, "mcp"], env }));
  });
  after(() => client.close());
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as ToolResult;
  const status = async () => {
    const found = await call("find", {
      target: { kind: "title", glob: TITLES.swing },
      role: "label",
      name: "Status",
    });
    const ref = found.structuredContent.matches[0].ref;
    return (await call("element_info", { ref })).structuredContent.description as string;
  };

  it("a screenshot is an image content block that decodes", async () => {
    const shot = await call("screenshot", {
      of: { kind: "window", window: { title: TITLES.swing } },
      max_width: 300,
    });
    const image = shot.content.find((c) => c.type === "image");
    assert.ok(image?.data, "an image block");
    const decoded = decodePng(Buffer.from(image.data, "base64"));
    assert.equal(decoded.width, 300);
    assert.ok(distinctColours(decoded) > 4);
  });

  it("an L3 click asks the person through elicitation: declined, nothing happens; approved, it lands", async () => {
    const alpha = await call("find", {
      target: { kind: "title", glob: TITLES.swing },
      role: "push button",
      name_contains: "Alpha",
    });
    await call("act", { ref: alpha.structuredContent.matches[0].ref, action: { kind: "invoke" } });
    const found = await call("find", {
      target: { kind: "title", glob: TITLES.swing },
      role: "push button",
      name: "Save",
    });
    const ref = found.structuredContent.matches[0].ref;
    const declined = await call("click", { ref, intent: "Save the document" });
    assert.equal(declined.isError, true);
    assert.equal(declined.structuredContent.status, "refused");
    assert.match(declined.structuredContent.reason, /a person declined/);
    assert.match(asked[0]!, /Save[\s\S]*\nThe agent says: "Save the document"$/);
    await sleep(300);
    assert.match(await status(), /^Pressed Alpha/);
    answer = "approve";
    const approved = await call("click", { ref, intent: "Save the document" });
    assert.equal(approved.structuredContent.status, "done", approved.content[0]!.text);
    assert.equal(approved.structuredContent.confirmed_by, "human");
    await sleep(300);
    assert.equal(await status(), "Saved from tool bar");
  });
});

describe("hands over NDJSON", () => {
  let client: NdjsonClient;
  before(() => {
    client = new NdjsonClient(env);
  });
  after(async () => {
    client.end();
    await client.exited;
  });

  it("type_text, key and click, with intent optional as the document has it, and refusals as action_failed (reason refused), as act's are", async () => {
    const windows = await client.request(1, "windows");
    const hwnd = windows.result.windows.find((w: { title: string }) => w.title === TITLES.swing).hwnd;
    const snap = await client.request(2, "snapshot", { scope: "hwnd", hwnd, maxDepth: 40, maxNodes: 2000 });
    const elements = snap.result.elements as { ref: string; role: string; name: string }[];
    const name = elements.find((e) => e.role === "text" && e.name === "Name")!;
    const save = elements.find((e) => e.role === "push button" && e.name === "Save")!;

    // windows2text has no intent: the call is done, and journaled as given none.
    const missing = await client.request(3, "type_text", { ref: name.ref, text: "x" });
    assert.equal(missing.result?.status, "done", JSON.stringify(missing));
    const typed = await client.request(4, "type_text", {
      ref: name.ref,
      text: "Grace ✓",
      clear: true,
      intent: "Fill the name",
    });
    assert.equal(typed.result?.status, "done", JSON.stringify(typed));
    assert.equal(typed.result.result.after.value, "Grace ✓");
    const key = await client.request(5, "key", {
      ref: name.ref,
      key: "End",
      focus: true,
      intent: "Go to the end",
    });
    assert.equal(key.result?.status, "done", JSON.stringify(key));
    const bad = await client.request(6, "key", { key: "ctrl+shfit+p", intent: "Open the palette" });
    assert.equal(bad.error.code, "invalid_params");
    const refused = await client.request(7, "click", {
      ref: save.ref,
      button: "left",
      count: 1,
      intent: "Save",
    });
    assert.equal(refused.error.code, "action_failed", "a refusal is one code, whichever tool refused");
    assert.equal(refused.error.reason, "refused");
    assert.equal(refused.error.level, "L3");
  });
});

describe("hands from the CLI", () => {
  it("screenshot writes a PNG; a bad key name is exit 2; a refused click is exit 3; audit lists it", async () => {
    const out = join(dir, "swing.png");
    const run = (args: string[]) => cli(args, "", env);
    const shot = await run(["screenshot", "--title", TITLES.swing, "--out", out, "--max-width", "200"]);
    assert.equal(shot.code, 0, shot.stderr);
    assert.equal(decodePng(readFileSync(out)).width, 200);
    const bad = await run(["key", "--key", "ctrl+shfit+p", "--intent", "Open the palette"]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /unknown key name "shfit"/);
    const refused = await run([
      "click",
      "--title",
      TITLES.swing,
      "--role",
      "push button",
      "--name",
      "Save",
      "--intent",
      "Save it",
    ]);
    assert.equal(refused.code, 3, refused.stderr + refused.stdout);
    assert.match(refused.stdout, /refused: .*confirmation/);
    const audit = await run(["audit", "--json", "--tail", "1"]);
    const last = JSON.parse(audit.stdout).entries[0];
    assert.equal(last.tool, "click");
    assert.equal(last.decision, "refused");
    assert.equal(last.intent, "Save it");
  });
});

describe("the other input commands from the CLI", () => {
  const run = (args: string[]) => cli(args, "", env);
  const find = async (title: string, selector: string[]) => {
    const found = await run(["find", "--title", title, ...selector, "--json"]);
    assert.equal(found.code, 0, found.stderr);
    return JSON.parse(found.stdout).matches as {
      name: string;
      value?: string;
      bounds: { x: number; y: number; width: number; height: number };
    }[];
  };
  const windowUnderPointer = async () => {
    const shot = await run(["snapshot", "--pointer", "--max-depth", "0", "--json"]);
    assert.equal(shot.code, 0, shot.stderr);
    return JSON.parse(shot.stdout).windows[0]?.title;
  };

  it("type fills a field; drag moves a scale; hover and wheel move the pointer; window focuses", async () => {
    const text = "cli typé ✓";
    const typed = await run([
      "type",
      "--title",
      TITLES.swing,
      "--role",
      "text",
      "--name",
      "Name",
      "--text",
      text,
      "--clear",
      "--intent",
      "Fill in the name",
    ]);
    assert.equal(typed.code, 0, typed.stderr + typed.stdout);
    assert.equal((await find(TITLES.swing, ["--role", "text", "--name", "Name"]))[0]?.value, text);

    const query = ["--role", "slider", "--state", "showing", "--state", "enabled"];
    const sliders = () => find(TITLES.gtk3, query);
    const all = await sliders();
    // A vertical scale: the horizontal one is the tool tests'.
    const slider = all.find((s) => s.bounds && s.bounds.height > s.bounds.width)!;
    const nth = String(all.indexOf(slider));
    const b = slider.bounds;
    const x = Math.round(b.x + b.width / 2);
    try {
      const dragged = await run([
        "drag",
        "--from",
        `${x},${Math.round(b.y + b.height / 2)}`,
        "--to",
        `${x},${Math.round(b.y + b.height * 0.9)}`,
        ...["--title", TITLES.gtk3],
        "--intent",
        "Move the scale",
      ]);
      assert.equal(dragged.code, 0, dragged.stderr + dragged.stdout);
      const moved = (await sliders()).find((s) => s.bounds?.x === b.x);
      const change = Math.abs(Number(moved?.value) - Number(slider.value));
      assert.ok(change > 15, `${slider.value} → ${moved?.value}`);

      const hovered = await run([
        "hover",
        "--title",
        TITLES.swing,
        "--role",
        "push button",
        "--name",
        "Open dialog",
        "--intent",
        "Point at the dialog button",
      ]);
      assert.equal(hovered.code, 0, hovered.stderr + hovered.stdout);
      assert.equal(await windowUnderPointer(), TITLES.swing);
      // Over a button, which a wheel leaves alone (over a scale it can leave the next drag ignored).
      const button = (await find(TITLES.gtk3, ["--role", "push button", "--state", "showing"]))[0]!.bounds;
      const wheeled = await run([
        "wheel",
        "--at",
        `${Math.round(button.x + button.width / 2)},${Math.round(button.y + button.height / 2)}`,
        "--direction",
        "up",
        ...["--title", TITLES.gtk3],
        "--intent",
        "Scroll over a button",
        "--json",
      ]);
      assert.equal(wheeled.code, 0, wheeled.stderr + wheeled.stdout);
      assert.equal(JSON.parse(wheeled.stdout).target.window.title, TITLES.gtk3, "the probe saw GTK3 there");
      assert.equal(await windowUnderPointer(), TITLES.gtk3);
    } finally {
      // The later tests drag this scale from where it was.
      const restored = await run([
        "act",
        ...["--title", TITLES.gtk3, ...query, "--nth", nth],
        ...["--action", "set_range", "--value", String(slider.value)],
      ]);
      assert.equal(restored.code, 0, restored.stderr);
    }

    const focused = await run(["window", "focus", "--title", TITLES.swing, "--intent", "Work in Swing"]);
    assert.equal(focused.code, 0, focused.stderr + focused.stdout);
    const windows = JSON.parse((await run(["windows", "--json"])).stdout).windows as {
      title: string;
      focused: boolean;
    }[];
    assert.equal(windows.find((w) => w.focused)?.title, TITLES.swing);
  });
});
