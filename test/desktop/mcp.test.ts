// `deskhand mcp` through the SDK's own stdio client: the tool list is pinned, every tool answers on a
// real app, and failures are isError results that name the next step.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CLI, TITLES } from "./helpers.js";

type ToolResult = {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, any>;
};

describe("mcp on real apps", () => {
  let client: Client;
  before(async () => {
    client = new Client({ name: "deskhand-test", version: "0" });
    const env = Object.fromEntries(
      Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined),
    );
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [...CLI, "mcp"], env }));
  });
  after(() => client.close());

  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as ToolResult;

  it("lists exactly the pinned tools, each with annotations and an object schema", async () => {
    const { tools } = await client.listTools();
    // The one pin a new tool changes: its name, in the order served, and whether it changes anything.
    const PINNED: Record<string, "reads" | "acts"> = {
      ping: "reads",
      windows: "reads",
      snapshot: "reads",
      observe: "reads",
      find: "reads",
      element_info: "reads",
      read_text: "reads",
      read_table: "reads",
      act: "acts",
      fill_form: "acts",
      wait: "reads",
      screenshot: "reads",
      read_screen_text: "reads",
      find_text: "reads",
      click: "acts",
      type_text: "acts",
      key: "acts",
      drag: "acts",
      hover: "acts",
      wheel: "acts",
      window: "acts",
      clipboard: "acts",
      raw_input: "acts",
      run: "acts",
      record: "reads",
      doctor: "reads",
    };
    assert.deepEqual(
      tools.map((t) => t.name),
      Object.keys(PINNED),
    );
    for (const tool of tools) {
      assert.equal(tool.inputSchema.type, "object");
      assert.equal(
        tool.annotations?.readOnlyHint,
        PINNED[tool.name] === "reads",
        `${tool.name} says whether it changes anything`,
      );
      assert.ok(tool.description && tool.description.length > 40);
    }
  });

  it("ping, windows, snapshot, observe and doctor answer on the real desktop", async () => {
    const ping = await call("ping");
    assert.match(ping.content[0]!.text, /^deskhand \d+\.\d+\.\d+, protocol 1/);
    const windows = await call("windows");
    const swing = windows.structuredContent!.windows.find((w: { title: string }) => w.title === TITLES.swing);
    assert.ok(swing, windows.content[0]!.text);
    const snapshot = await call("snapshot", { target: { kind: "title", glob: "Deskhand*" }, maxDepth: 30 });
    assert.equal(snapshot.isError, undefined);
    assert.match(snapshot.content[0]!.text, /push button "Open dialog" \[ref=s1:e\d+[a-z]{2}\]/);
    assert.match(
      snapshot.content[0]!.text,
      /password text "Password" \[ref=s1:e\d+[a-z]{2}\] = "<hidden: password field>"/,
    );
    const observe = await call("observe", { target: { kind: "window", id: swing.id } });
    assert.match(
      observe.content[0]!.text,
      /\d+\. push button "Open dialog" \[ref=s\d+:e\d+[a-z]{2}\] invoke/,
    );
    const doctor = await call("doctor", { probe: true });
    assert.match(doctor.content[0]!.text, /ok +probe · read: "/);
    assert.equal(doctor.structuredContent!.failures, 0, doctor.content[0]!.text);
  });

  it("MCP refs survive later snapshots while they verify: a ring read goes deeper from an earlier ref", async () => {
    const shallow = await call("snapshot", {
      target: { kind: "title", glob: "Deskhand*" },
      maxDepth: 2,
      format: "json",
    });
    const layered = shallow.structuredContent!.elements.find(
      (e: { role: string }) => e.role === "layered pane",
    );
    await call("snapshot", { target: { kind: "title", glob: "gtk3*" }, maxDepth: 1 });
    const deeper = await call("snapshot", { target: { kind: "element", ref: layered.ref }, maxDepth: 3 });
    assert.equal(deeper.isError, undefined, deeper.content[0]!.text);
    assert.match(deeper.content[0]!.text, /menu bar/);
  });

  it("a call with wrong types is an isError result naming the field and the next step", async () => {
    const wrong = await call("snapshot", { maxNodes: "lots" });
    assert.equal(wrong.isError, true);
    assert.match(wrong.content[0]!.text, /^invalid_params: .*maxNodes/);
    assert.match(wrong.content[0]!.text, /Next: Fix that field/);
    const missing = await call("snapshot", { target: { kind: "window", id: 424242 } });
    assert.equal(missing.isError, true);
    assert.match(
      missing.content[0]!.text,
      /window_not_found: .*; open now: \d+ .*\nNext: Name one of those by its id/,
    );
    const unknown = await call("fly");
    assert.equal(unknown.isError, true);
    assert.match(unknown.content[0]!.text, /no tool named "fly"/);
  });

  it("an argument the tool does not have is refused, named with the one meant, and nothing is done", async () => {
    const target = { kind: "title", glob: TITLES.swing };
    const depth = await call("snapshot", { target, depth: 2 });
    assert.equal(depth.isError, true);
    assert.match(depth.content[0]!.text, /snapshot has no argument depth \(did you mean maxDepth\?\)/);
    const results = await call("find", { target, role: "push button", max_results: 1 });
    assert.match(results.content[0]!.text, /max_results \(did you mean limit\?\)/);
    const found = await call("find", { target, role: "push button", name: "Beta" });
    const ref = found.structuredContent?.matches?.[0]?.ref ?? "s1:e1";
    const double = await call("click", { ref, click: "double", intent: "Double-click the Beta button" });
    assert.equal(double.isError, true);
    assert.match(
      double.content[0]!.text,
      /click has no argument click \(did you mean count\?\); nothing was done/,
    );
  });
});

describe("mcp started as a stock client starts it: HOME and PATH only", () => {
  // The official SDKs and Claude Desktop pass a server a few variables, none of the desktop's.
  const bare = (extra: Record<string, string> = {}) => ({
    HOME: process.env.HOME ?? "/root",
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    ...extra,
  });
  const start = async (env: Record<string, string>) => {
    const client = new Client({ name: "stock-client", version: "0" });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [...CLI, "mcp"], env }));
    return client;
  };

  it("finds the desktop of the program that started it, reads it, and doctor says where it came from", async () => {
    const client = await start(bare());
    try {
      const listed = (await client.callTool({ name: "windows", arguments: {} })) as ToolResult;
      assert.ok(!listed.isError, listed.content[0]?.text);
      assert.match(listed.content[0]!.text, new RegExp(TITLES.swing.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
      const found = (await client.callTool({
        name: "find",
        arguments: { target: { kind: "title", glob: TITLES.swing }, role: "push button" },
      })) as ToolResult;
      assert.ok(!found.isError && (found.structuredContent?.total ?? 0) > 0, found.content[0]?.text);
      const doctor = (await client.callTool({ name: "doctor", arguments: {} })) as ToolResult;
      const line = doctor.content[0]!.text.split("\n").find((l) => /desktop:/.test(l)) ?? "";
      const display = process.env.DISPLAY ?? process.env.WAYLAND_DISPLAY;
      assert.match(
        line,
        new RegExp(`ok .*the desktop .*=${display} was found in the environment of .*which started deskhand`),
      );
    } finally {
      await client.close();
    }
  });

  it("a display chosen alone brings its bus; one set empty says there is none", async () => {
    const chosen: Record<string, string> = process.env.DISPLAY
      ? { DISPLAY: process.env.DISPLAY }
      : { WAYLAND_DISPLAY: process.env.WAYLAND_DISPLAY ?? "" };
    const client = await start(bare(chosen));
    try {
      const listed = (await client.callTool({ name: "windows", arguments: {} })) as ToolResult;
      assert.ok(!listed.isError, listed.content[0]?.text);
    } finally {
      await client.close();
    }
    const none = await start(bare({ DISPLAY: "", DBUS_SESSION_BUS_ADDRESS: "" }));
    try {
      const listed = (await none.callTool({ name: "windows", arguments: {} })) as ToolResult;
      assert.equal(listed.isError, true, listed.content[0]?.text);
    } finally {
      await none.close();
    }
  });
});
