// docs/clients.md's client configurations through the official Python MCP SDK (test/python-sdk/
// drive.py), as clients.test.ts drives them through the TypeScript SDK: each distinct one, started
// or reached exactly as the page says from a stock client's environment, lists the tools, presses a
// button and presses a committing one the person is asked about. The effects are the Swing fixture's
// status label, re-read through deskhand. The SDK comes from PyPI, which CI's machines do not reach:
// scripts/python-sdk-job.mjs runs this with DESKHAND_PYTHON, a python3 that has it.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import { filled, launchOf, type ServerEntry, snippets, stock, TOKEN } from "../desktop/client-snippets.js";
import { TITLES } from "../desktop/helpers.js";
import { type HttpServerProcess, startHttpServer } from "../desktop/http-load.js";

const run = promisify(execFile);
const python = process.env.DESKHAND_PYTHON;

describe("every client configuration in docs/clients.md, through the Python SDK", () => {
  // The snippets by what they start or reach: each configuration once, named by its clients.
  const distinct = new Map<string, { clients: string[]; transport: string; entry: ServerEntry }>();
  for (const { client, transport, entry } of snippets()) {
    const key = launchOf(entry);
    const known = distinct.get(key) ?? { clients: [], transport, entry };
    known.clients.push(client);
    distinct.set(key, known);
  }
  let server: HttpServerProcess;
  before(async () => {
    assert.ok(python, "DESKHAND_PYTHON names a python3 with the official MCP SDK (pip install mcp)");
    server = await startHttpServer({ ...stock, DESKHAND_TOKEN: TOKEN }, ["--http", "127.0.0.1:0"]);
  });
  after(() => server?.child.kill("SIGTERM"));

  for (const { clients, transport, entry } of distinct.values())
    it(`${transport}, as ${clients.join(", ")} write it: a read, an act, and an act a person confirms`, async () => {
      const launch = entry.command
        ? { command: entry.command, args: entry.args ?? [] }
        : {
            url: new URL(new URL(entry.url!).pathname, server.url).href,
            headers: Object.fromEntries(Object.entries(entry.headers ?? {}).map(([k, v]) => [k, filled(v)])),
          };
      const { stdout } = await run(
        python!,
        ["test/python-sdk/drive.py", JSON.stringify(launch), TITLES.swing],
        {
          env: stock,
          timeout: 120_000,
        },
      );
      const seen = JSON.parse(stdout.trim().split("\n").at(-1)!);
      assert.ok(seen.tools >= 20, stdout);
      assert.equal(seen.window_listed, true, stdout);
      assert.match(seen.after_alpha, /^Pressed Alpha/, stdout);
      assert.equal(seen.save_status, "done", stdout);
      assert.equal(seen.confirmed_by, "human", stdout);
      assert.match(seen.asked[0] ?? "", /Save/, stdout);
      assert.equal(seen.after_save, "Saved from tool bar", stdout);
    });
});
