// Two deskhand processes on one display, each typing into its own window at the same time: every
// key reaches the window it was meant for, in order and complete. A process that raised its window
// outside the display's input lock (to judge its keys) took the focus from the other mid-typing,
// whose keys then landed in the wrong window while its reply said "exact".
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { mcpClient, type StartedApp, startApp, within } from "./helpers.js";

const ROUNDS = 20;

interface Typist {
  title: string;
  app: StartedApp;
  client: Client;
}

const text = (result: unknown) =>
  ((result as { content: { type: string; text?: string }[] }).content[0]?.text ?? "") as string;

async function entryText(client: Client, title: string): Promise<string | undefined> {
  const found = await client.callTool({
    name: "find",
    arguments: { target: { kind: "title", glob: title }, role: "text" },
  });
  const matches = (found.structuredContent as { matches?: { value?: string }[] } | undefined)?.matches;
  return matches?.[0]?.value;
}

async function waitForEntry(client: Client, title: string): Promise<void> {
  const deadline = Date.now() + within(30_000);
  while (Date.now() < deadline) {
    if ((await entryText(client, title).catch(() => undefined)) !== undefined) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  assert.fail(`${title}'s entry never appeared`);
}

describe("two deskhand processes typing into two windows at once", () => {
  const typists: Typist[] = [];

  before(async () => {
    for (const name of ["A", "B"]) {
      const title = `Typist ${name} ${process.pid}`;
      const app = startApp(["zenity", "--entry", "--title", title, "--text", `Field ${name}`]);
      typists.push({ title, app, client: await mcpClient(`typist-${name}`) });
    }
    for (const typist of typists) await waitForEntry(typist.client, typist.title);
  });

  after(async () => {
    for (const typist of typists) {
      await typist.client.close().catch(() => undefined);
      typist.app.kill();
    }
  });

  it(`${ROUNDS} rounds each: every window's field reads back exactly what its own process typed`, async () => {
    const typed = await Promise.all(
      typists.map(async ({ title, client }, index) => {
        let sent = "";
        for (let round = 0; round < ROUNDS; round++) {
          const piece = `${"ab"[index]}${String(round).padStart(2, "0")} `;
          const result = await client.callTool({
            name: "type_text",
            arguments: { text: piece, window: { title }, intent: "Type into my own field" },
          });
          assert.ok(!result.isError, `${title} round ${round}: ${text(result)}`);
          sent += piece;
        }
        return sent;
      }),
    );
    for (const [index, { title, client }] of typists.entries())
      assert.equal(await entryText(client, title), typed[index], `${title} holds only its own text, whole`);
  });
});
