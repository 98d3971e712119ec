// Every client configuration docs/clients.md shows, started exactly as it says, through the official
// TypeScript SDK's clients with a stock client's environment (HOME and PATH only, `deskhand` on the
// PATH): each distinct configuration lists the windows, presses a button, and presses a committing
// one that deskhand asks the person about through elicitation. The effects are read from the Swing fixture's status label.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { filled, launchOf, type ServerEntry, snippets, stock, TOKEN } from "./client-snippets.js";
import { TITLES } from "./helpers.js";
import { type HttpServerProcess, startHttpServer } from "./http-load.js";

type ToolResult = { isError?: boolean; content: { text?: string }[]; structuredContent?: any };

/** A client with elicitation, connected as the entry says; what the person was asked, in order. */
async function connect(name: string, entry: ServerEntry, server: HttpServerProcess) {
  const asked: string[] = [];
  const client = new Client({ name, version: "0" }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params.message);
    return { action: "accept", content: { allow: true } };
  });
  if (entry.command) {
    assert.equal(entry.url, undefined);
    const env = { ...stock, ...(entry.env ?? {}) };
    await client.connect(new StdioClientTransport({ command: entry.command, args: entry.args ?? [], env }));
  } else {
    // The page's path, on the port the test's server took.
    const url = new URL(entry.url!);
    assert.equal(url.pathname, "/mcp");
    const headers = Object.fromEntries(Object.entries(entry.headers ?? {}).map(([k, v]) => [k, filled(v)]));
    const transport = new StreamableHTTPClientTransport(new URL(url.pathname, server.url), {
      requestInit: { headers },
    });
    await client.connect(transport);
  }
  return { client, asked };
}

describe("every client configuration in docs/clients.md, as written", () => {
  const listed = snippets();
  // Each distinct configuration is driven once, through the first client whose page shows it (the
  // 11 snippets are 2 configurations; driving each took 6 s of CI's 20 minutes).
  const driven = new Map<string, string>();
  for (const { client, transport, entry } of listed)
    if (!driven.has(launchOf(entry))) driven.set(launchOf(entry), `${client} ${transport}`);
  let server: HttpServerProcess;
  const clients = new Map<string, Promise<Awaited<ReturnType<typeof connect>>>>();
  before(async () => {
    assert.ok(listed.length >= 7, `the page's snippets: ${listed.map((s) => s.client).join(", ")}`);
    server = await startHttpServer({ ...stock, DESKHAND_TOKEN: TOKEN }, ["--http", "127.0.0.1:0"]);
    // Started at once: each stdio server is a process of its own, which takes a moment to start.
    for (const { client, transport, entry } of listed)
      if (driven.get(launchOf(entry)) === `${client} ${transport}`)
        clients.set(`${client} ${transport}`, connect(client, entry, server));
    await Promise.allSettled(clients.values());
  });
  after(async () => {
    for (const pending of clients.values())
      await pending.then(({ client }) => client.close()).catch(() => undefined);
    server?.child.kill("SIGTERM");
  });

  for (const { client: name, transport, entry } of snippets()) {
    const first = driven.get(launchOf(entry))!;
    if (first !== `${name} ${transport}`) {
      // The same process, or address and headers, as one driven here: the server cannot tell them apart.
      it(`${name} over ${transport}: the configuration ${first} has, driven there`, () =>
        assert.ok(clients.has(first)));
      continue;
    }
    it(`${name} over ${transport}: a read, an act, and an act a person confirms`, async () => {
      const { client, asked } = await clients.get(first)!;
      const call = async (tool: string, args: Record<string, unknown>) =>
        (await client.callTool({ name: tool, arguments: args })) as ToolResult;
      const target = { kind: "title", glob: TITLES.swing };
      const windows = await call("windows", {});
      assert.ok(
        !windows.isError && windows.content[0]!.text!.includes(TITLES.swing),
        windows.content[0]?.text,
      );
      const status = async () => {
        const found = await call("find", { target, role: "label", name: "Status" });
        const ref = found.structuredContent.matches[0].ref;
        return (await call("element_info", { ref })).structuredContent.description as string;
      };
      const button = async (query: Record<string, unknown>) =>
        (await call("find", { target, role: "push button", ...query })).structuredContent.matches[0]
          .ref as string;
      const pressed = await call("act", {
        ref: await button({ name_contains: "Alpha" }),
        action: { kind: "invoke" },
      });
      assert.ok(!pressed.isError, pressed.content[0]?.text);
      await sleep(300);
      assert.match(await status(), /^Pressed Alpha/);
      const saved = await call("click", { ref: await button({ name: "Save" }), intent: "Save the document" });
      assert.equal(saved.structuredContent?.status, "done", saved.content[0]?.text);
      assert.equal(saved.structuredContent.confirmed_by, "human");
      assert.match(asked[0] ?? "", /Save/);
      // The app says so on its own time: a loaded machine once took longer than 300 ms.
      let now = await status();
      for (let i = 0; i < 25 && now !== "Saved from tool bar"; i++) {
        await sleep(200);
        now = await status();
      }
      assert.equal(now, "Saved from tool bar");
    });
  }
});
