// The clipboard tool on the fake desktop: a read says what is there (or that nothing is), a write is
// read back, and neither's text reaches the journal, which keeps lengths only.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, it } from "node:test";
import { callTool } from "../../src/tools/call.js";
import { toolNamed } from "../../src/tools/registry.js";
import { fakeContext, fakeWindow } from "./fake-desktop.js";

const dir = mkdtempSync(join(tmpdir(), "deskhand-clipboard-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const intent = "Move a text between apps";

function desktop() {
  const window = fakeWindow("Editor", []);
  return fakeContext({ windows: [window], hands: { windows: [{ id: window.id, rect: window.rect }] }, dir });
}

it("reads nothing, writes a text read back, then reads it; the journal keeps lengths, never the text", async () => {
  const { context, hands } = desktop();
  const clipboard = toolNamed("clipboard");
  try {
    const empty = await callTool(context, clipboard, { intent });
    assert.ok(empty.ok);
    assert.match(empty.output.text, /holds no text/);

    const secret = "tok_live_Zq81 ünïcode";
    const written = await callTool(context, clipboard, { text: secret, intent });
    assert.ok(written.ok && written.outcome === "done", JSON.stringify(written));
    assert.match(written.output.text, /^done: put 21 characters on the clipboard/);
    assert.equal(hands.clipboard, secret, "the desktop's clipboard holds it");

    const read = await callTool(context, clipboard, { intent });
    assert.ok(read.ok);
    assert.ok(read.output.text.endsWith(`(21 characters):\n${secret}`), read.output.text);

    const journal = readFileSync(join(dir, "audit.jsonl"), "utf8");
    assert.ok(!journal.includes("tok_live"), "the text is kept out of the journal");
    assert.match(journal, /"clipboard\.write"/);
    assert.match(journal, /"clipboard\.read"/);
  } finally {
    await context.close();
  }
});

it("a text an app took over before the read-back is an error, not done", async () => {
  const { context, hands } = desktop();
  hands.writeClipboard = async () => {
    hands.clipboard = "something else";
  };
  try {
    const written = await callTool(context, toolNamed("clipboard"), { text: "mine", intent });
    assert.ok(written.ok);
    assert.equal(written.output.data.status, "error");
    assert.match(written.output.text, /does not hold that text/);
  } finally {
    await context.close();
  }
});

it("a long text is shown by its head, the rest named by its length", async () => {
  const { context, hands } = desktop();
  hands.clipboard = "x".repeat(12_345);
  try {
    const read = await callTool(context, toolNamed("clipboard"), { intent });
    assert.ok(read.ok);
    assert.match(read.output.text, /the first 10000 of its 12345 characters/);
    assert.ok(read.output.text.length < 10_200);
  } finally {
    await context.close();
  }
});

it("a key or card number read is hidden unless reveal: plain words beside it are shown", async () => {
  const { context, hands } = desktop();
  hands.clipboard = "card 4111 1111 1111 1111 for Ann";
  try {
    const read = await callTool(context, toolNamed("clipboard"), { intent });
    assert.ok(read.ok);
    assert.match(
      read.output.text,
      /1 secret\(s\) hidden, reveal: true shows them\):\ncard <hidden: secret> for Ann$/,
    );
    const shown = await callTool(context, toolNamed("clipboard"), { reveal: true, intent });
    assert.ok(shown.ok);
    assert.ok(shown.output.text.endsWith("card 4111 1111 1111 1111 for Ann"), shown.output.text);
    // The number, not its first digits alone: a journal line's hashes are hex, and held "4111" once.
    const journal = readFileSync(join(dir, "audit.jsonl"), "utf8");
    assert.ok(!/4111[\s-]*1111[\s-]*1111[\s-]*1111/u.test(journal), "never in the journal");
  } finally {
    await context.close();
  }
});
