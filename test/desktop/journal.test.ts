// The journal keeps no secret, through every front end, on a real password field: a password typed
// one key at a time (over MCP's key tool, the Daimon profile's main_key and NDJSON's key), in parts
// (type_text twice), and repeated afterwards in an intent, in another normal form and case, is on no
// line of the journal; each key is journaled as "a printable key"; the record stays readable.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { createContext, type ToolContext } from "../../src/tools/context.js";
import { mcpClient, NdjsonClient, TITLES, toolCaller } from "./helpers.js";

const journalPath = process.env.DESKHAND_AUDIT!;
const lines = () =>
  existsSync(journalPath)
    ? readFileSync(journalPath, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, any>)
    : [];

describe("the journal keeps a password out, typed any way through any front end", () => {
  let context: ToolContext;
  let call: ReturnType<typeof toolCaller>;
  let daimon: Client;
  before(async () => {
    context = createContext({ refLifetime: "while-verified" });
    call = toolCaller(context);
    daimon = await mcpClient("journal-daimon", ["--profile", "daimon"]);
  });
  after(async () => {
    await daimon.close();
    await context.close();
  });

  const password = async () => {
    const found = await call("find", {
      target: { kind: "title", glob: TITLES.swing },
      role: "password text",
      include_off_screen: true,
    });
    assert.ok(found.ok && found.data.matches[0], found.text);
    return found.data.matches[0].ref as string;
  };
  const windowId = async () =>
    (await call("windows", {})).data.windows.find((w: { title: string }) => w.title === TITLES.swing)
      .id as number;

  it("MCP's key, one character at a time, then an intent that repeats it in other forms", async () => {
    const secret = "Kq7Zw";
    const from = lines().length;
    const ref = await password();
    const cleared = await call("type_text", { ref, text: "x", clear: true, intent: "Clear the field" });
    assert.equal(cleared.data.status, "done", cleared.text);
    await call("key", { key: "Backspace", intent: "Empty it", window: { id: await windowId() } });
    for (const char of secret) {
      const pressed = await call("key", {
        key: char,
        intent: "Type the next character",
        window: { id: await windowId() },
      });
      assert.equal(pressed.data.status, "done", pressed.text);
    }
    // The same secret, in capitals and in full-width forms, in a later intent.
    const fullWidth = [...secret].map((c) => String.fromCodePoint(c.codePointAt(0)! + 0xfee0)).join("");
    await call("key", {
      key: "Tab",
      intent: `Done typing ${secret.toUpperCase()} (${fullWidth})`,
      window: { id: await windowId() },
    });
    const written = lines().slice(from);
    const text = JSON.stringify(written);
    assert.doesNotMatch(text, /kq7z/i, text);
    const keys = written.filter((l) => l.tool === "key" && l.decision === "done");
    assert.ok(keys.length >= secret.length + 1, text);
    for (const line of keys.slice(1, 1 + [...secret].length))
      assert.equal(line.outcome.key, "a printable key", JSON.stringify(line));
    assert.ok(
      written.every((l) => !l.target?.role?.includes("[typed text]")),
      text,
    );
  });

  it("the Daimon profile's main_key and NDJSON's key journal no character either", async () => {
    const from = lines().length;
    const ref = await password();
    assert.ok((await call("act", { ref, action: { kind: "focus" }, intent: "Focus the password" })).ok);
    for (const key of ["w", "9", "q"]) {
      const result = (await daimon.callTool({
        name: "main_key",
        arguments: { key, intent: "Type a character" },
      })) as {
        isError?: boolean;
      };
      assert.notEqual(result.isError, true, JSON.stringify(result));
    }
    const ndjson = new NdjsonClient();
    try {
      for (const [i, key] of ["x", "7"].entries()) {
        const reply = await ndjson.request(i, "key", { key, intent: "Type a character" });
        assert.ok(reply.ok, JSON.stringify(reply));
      }
    } finally {
      ndjson.end();
      await ndjson.exited;
    }
    const written = lines()
      .slice(from)
      .filter((l) => l.tool === "key");
    assert.equal(written.length, 5, JSON.stringify(written));
    for (const line of written) assert.equal(line.outcome?.key, "a printable key", JSON.stringify(line));
  });

  it("a password typed in two parts, then named whole in a later intent, is on no line", async () => {
    const from = lines().length;
    const ref = await password();
    await call("type_text", { ref, text: "Rt5", clear: true, intent: "Type the first part" });
    await call("type_text", { ref, text: "vXp2", intent: "Type the rest" });
    await call("key", { key: "Tab", intent: "Check that Rt5vXp2 took", window: { id: await windowId() } });
    const text = JSON.stringify(lines().slice(from));
    assert.doesNotMatch(text, /Rt5vXp2|Rt5v|vXp2/i, text);
    assert.match(text, /Check that \[typed text\] took/);
  });
});
