// docs/clients.md's client configurations, as each client reads them, and a stock client's
// environment to start them in: shared by clients.test.ts (the TypeScript SDK) and
// test/python-sdk/clients.test.ts (the Python SDK).
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parse as parseToml } from "smol-toml";
import { parse as parseYaml } from "yaml";
import { deskhandCacheDir } from "../../src/platform/translations.js";

export type ServerEntry = {
  type?: string;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  url?: string;
  headers?: Record<string, string>;
};

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
export function snippets(): { client: string; transport: string; entry: ServerEntry }[] {
  const page = readFileSync("docs/clients.md", "utf8");
  const found = [...page.matchAll(/<!-- client: (\S+) (\S+) -->\n```(json|toml|yaml)\n([\s\S]*?)\n```/g)];
  return found.map(([, client, transport, language, text]) => ({
    client: client!,
    transport: transport!,
    entry: entryOf(language!, text!),
  }));
}

export const TOKEN = "clients-test-token-0123456789";
const home = mkdtempSync(join(tmpdir(), "deskhand-clients-"));
const bin = join(home, "bin");
mkdirSync(bin);
// `deskhand` on the PATH, as `npm link` puts it there.
writeFileSync(
  join(bin, "deskhand"),
  `#!/bin/sh\nexec "${process.execPath}" "${resolve("dist/frontends/cli/main.js")}" "$@"\n`,
);
chmodSync(join(bin, "deskhand"), 0o755);
// The gate's lexicon, built once per machine (about 30 s), is the user's: a fresh HOME starts with it.
const cache = deskhandCacheDir(process.env);
if (existsSync(cache)) cpSync(cache, join(home, ".cache", "deskhand"), { recursive: true });
/** A stock client's environment: HOME (a fresh user's) and PATH, nothing of the desktop's. */
export const stock = { HOME: home, PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}` };

/**
 * A header's value as each client fills it: ${VAR} (Claude Code, Codex's variable), ${env:VAR}
 * (Cursor), ${input:id} (VS Code), the token written in (Goose).
 */
export const filled = (value: string) =>
  value.replace(/\$\{(?:env:)?DESKHAND_TOKEN\}|\$\{input:deskhand-token\}|YOUR-DESKHAND-TOKEN/g, TOKEN);

/**
 * What a client starts or reaches from an entry, as a key: a process and its arguments and
 * environment, or an address and the headers it sends once filled. Entries with one key are one
 * configuration to the server: only the client's own name differs.
 */
export const launchOf = (entry: ServerEntry) =>
  JSON.stringify(
    entry.command
      ? { command: entry.command, args: entry.args ?? [], env: entry.env ?? {} }
      : {
          url: entry.url,
          headers: Object.fromEntries(Object.entries(entry.headers ?? {}).map(([k, v]) => [k, filled(v)])),
        },
  );
