// Every client configuration docs/clients.md shows, started exactly as it says, through the official
// TypeScript SDK's clients with a stock client's environment (HOME and PATH only, `deskhand` on the
// PATH): each distinct configuration lists the windows, presses a button, and presses a committing
// one that deskhand asks the person about through elicitation. The effects are read from the Swing fixture's status label.
import assert from "node:assert/strict";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { parse as parseToml } from "smol-toml";
import { parse as parseYaml } from "yaml";
import { deskhandCacheDir } from "../../src/platform/translations.js";
import { TITLES } from "./helpers.js";
import { type HttpServerProcess, startHttpServer } from "./http-load.js";

type ServerEntry = {
  type?: string;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  url?: string;
  headers?: Record<string, string>;
};
type ToolResult = { isError?: boolean; content: { text?: string }[]; structuredContent?: any };

/**
 * The deskhand entry of one snippet, in each client's own shape: JSON `mcpServers` or `servers`
 * (Claude, VS Code, Cursor), TOML `mcp_servers` (Codex: `bearer_token_env_var` names the token's
 * variable), YAML `extensions` (Goose: `cmd`, `uri`).
 */
function entryOf(language: string, text: string): ServerEntry {
  if (language === "toml") {
    const server = (parseToml(text) as { mcp_servers: Record<string, Record<string, unknown>> }).mcp_servers
      .deskhand!;
    const variable = server.bearer_token_env_var as string | undefined;
    return {
      ...(server as ServerEntry),
      ...(variable ? { headers: { Authorization: `Bearer \${${variable}}` } } : {}),
    };
  }
  if (language === "yaml") {
    const ext = (parseYaml(text) as { extensions: Record<string, Record<string, unknown>> }).extensions
      .deskhand!;
    return {
      ...(ext.cmd ? { command: ext.cmd as string, args: ext.args as string[] } : {}),
      ...(ext.uri ? { url: ext.uri as string, headers: ext.headers as Record<string, string> } : {}),
    };
  }
  const config = JSON.parse(text) as {
    mcpServers?: Record<string, ServerEntry>;
    servers?: Record<string, ServerEntry>;
  };
  return (config.mcpServers ?? config.servers)!.deskhand!;
}

/** Each snippet of the page: its client, transport and the entry it gives deskhand. */
function snippets(): { client: string; transport: string; entry: ServerEntry }[] {
  const page = readFileSync("docs/clients.md", "utf8");
  const found = [...page.matchAll(/<!-- client: (\S+) (\S+) -->\n```(json|toml|yaml)\n([\s\S]*?)\n```/g)];
  return found.map(([, client, transport, language, text]) => ({
    client: client!,
    transport: transport!,
    entry: entryOf(language!, text!),
  }));
}

const TOKEN = "clients-test-token-0123456789";
const home = mkdtempSync(join(tmpdir(), "deskhand-clients-"));
const bin = join(home, "bin");
mkdirSync(bin);
// `deskhand` on the PATH, as `npm link` puts it there.
writeFileSync(
  join(bin, "deskhand"),
  `#!/bin/sh\nexec "${process.execPath}" "${resolve("dist/frontends/cli/main.js")}" "$@"\n`,
);
chmodSync(join(bin, "deskhand"), 0o755);
// The gate's lexicon, built once per machine (about 20 s), is the user's: a fresh HOME starts with it.
const cache = deskhandCacheDir(process.env);
if (existsSync(cache)) cpSync(cache, join(home, ".cache", "deskhand"), { recursive: true });
/** A stock client's environment: HOME (a fresh user's) and PATH, nothing of the desktop's. */
const stock = { HOME: home, PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}` };

/**
 * A header's value as each client fills it: ${VAR} (Claude Code, Codex's variable), ${env:VAR}
 * (Cursor), ${input:id} (VS Code), the token written in (Goose).
 */
const filled = (value: string) =>
  value.replace(/\$\{(?:env:)?DESKHAND_TOKEN\}|\$\{input:deskhand-token\}|YOUR-DESKHAND-TOKEN/g, TOKEN);

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

/**
 * What a client starts or reaches from an entry, as a key: a process and its arguments and
 * environment, or an address and the headers it sends once filled. Entries with one key are one
 * configuration to the server: only the client's own name differs.
 */
const launchOf = (entry: ServerEntry) =>
  JSON.stringify(
    entry.command
      ? { command: entry.command, args: entry.args ?? [], env: entry.env ?? {} }
      : {
          url: entry.url,
          headers: Object.fromEntries(Object.entries(entry.headers ?? {}).map(([k, v]) => [k, filled(v)])),
        },
  );

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
      await sleep(300);
      assert.equal(await status(), "Saved from tool bar");
    });
  }
});
