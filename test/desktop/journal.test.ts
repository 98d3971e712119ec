// The journal keeps no secret, through every front end, on a real password field: a password typed
// one key at a time (over MCP's key tool, the Daimon profile's main_key and NDJSON's key), in parts
// (type_text twice), and repeated afterwards in an intent, in another normal form and case, is on no
// line of the journal; each key is journaled as "a printable key"; the record stays readable. A
// password typed by one CLI process is masked in another's line; plain text typed before a refusal
// masks nothing ("neither" stays whole).
// The journal comes first: on a full disk (a 64 KiB tmpfs filled up) an acting call is refused and
// the Swing field re-read is unchanged; a disk that fills between an action's attempt line and its
// outcome line leaves the attempt whole and the reply says the action was done; `deskhand audit`
// shows that attempt as unfinished and a cut line as unreadable, by its number.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import {
  appendFileSync,
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { createContext, type ToolContext } from "../../src/tools/context.js";
import { cli, mcpClient, NdjsonClient, TITLES, toolCaller } from "./helpers.js";

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
    // The five before the Tab (the Backspace's own line may say other than done on a loaded machine).
    for (const line of keys.slice(-1 - secret.length, -1))
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
    // Each key is an attempt line and its outcome line.
    const written = lines()
      .slice(from)
      .filter((l) => l.tool === "key" && l.phase === "outcome");
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

  const one = async (query: Record<string, unknown>) => {
    const found = await call("find", {
      target: { kind: "title", glob: TITLES.swing },
      include_off_screen: true,
      ...query,
    });
    assert.ok(found.ok && found.data.matches[0], found.text);
    return found.data.matches[0] as { ref: string; value?: string };
  };

  it("a password typed through one CLI process is masked in a second CLI process's line, in any case", async () => {
    const from = lines().length;
    const target = ["--title", TITLES.swing, "--role", "password text"];
    const typed = await cli(["type", ...target, "--text", "Jv8Lq3zW", "--clear", "--intent", "Type it"]);
    assert.equal(typed.code, 0, typed.stdout + typed.stderr);
    const quoted = await cli([
      "key",
      "--key",
      "Tab",
      ...target,
      "--intent",
      "Check that jv8lq3zw took, then Lq3z",
    ]);
    assert.equal(quoted.code, 0, quoted.stdout + quoted.stderr);
    const written = lines().slice(from);
    const text = JSON.stringify(written);
    assert.doesNotMatch(text, /jv8l|lq3z|3zw/i, text);
    const tab = written.find((l) => l.tool === "key" && l.phase === "attempt");
    assert.equal(tab?.intent, "Check that [typed text] took, then [typed text]", text);
  });

  it("plain text typed before a refusal masks nothing: neither stays whole", async () => {
    const from = lines().length;
    const name = await one({ role: "text", name: "Name" });
    for (const text of ["the", "n't"]) {
      const typed = await call("type_text", { ref: name.ref, text, intent: `Type ${text}` });
      assert.equal(typed.data.status, "done", typed.text);
    }
    const save = await one({ role: "push button", name: "Save" });
    const refused = await call("click", {
      ref: save.ref,
      intent: "Save neither the draft nor what didn't fit",
    });
    assert.equal(refused.data.status, "refused", refused.text);
    await call("act", { ref: name.ref, action: { kind: "set_value", text: name.value ?? "" } });
    const written = lines().slice(from);
    const line = written.find((l) => l.decision === "refused");
    assert.equal(line?.intent, "Save neither the draft nor what didn't fit", JSON.stringify(line));
    assert.ok(line?.reason, JSON.stringify(line));
    assert.doesNotMatch(JSON.stringify(written), /\[typed text\]/, JSON.stringify(written));
    assert.ok(
      written.some((l) => l.intent === "Type the"),
      "a plain value stays on its own line too",
    );
  });
});

describe("the journal first: a full disk takes no action unjournaled", () => {
  const disk = mkdtempSync(join(tmpdir(), "deskhand-full-journal-"));
  const path = join(disk, "audit.jsonl");
  const filler = join(disk, "filler");
  const PAGE = 4096;
  let context: ToolContext;
  let call: ReturnType<typeof toolCaller>;
  let was: string;
  before(async () => {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=64k,mode=700", "tmpfs", disk]);
    context = createContext({
      refLifetime: "while-verified",
      env: { ...process.env, DESKHAND_AUDIT: path },
    });
    call = toolCaller(context);
    was = (await nameField()).value ?? "";
  });
  after(async () => {
    // The name as it was, set through the tests' own journal: this one's disk may still be full.
    const restore = createContext({ refLifetime: "while-verified" });
    const found = await toolCaller(restore)("find", {
      target: { kind: "title", glob: TITLES.swing },
      role: "text",
      name: "Name",
      include_off_screen: true,
    });
    const ref = found.data?.matches[0]?.ref;
    if (ref) await toolCaller(restore)("act", { ref, action: { kind: "set_value", text: was } });
    await restore.close();
    await context.close();
    execFileSync("umount", [disk]);
    rmSync(disk, { recursive: true, force: true });
  });

  const nameField = async () => {
    const found = await call("find", {
      target: { kind: "title", glob: TITLES.swing },
      role: "text",
      name: "Name",
      include_off_screen: true,
    });
    assert.ok(found.ok && found.data.matches[0], found.text);
    return found.data.matches[0] as { ref: string; value?: string };
  };
  /** A journal of `size` bytes (one padding line), then every other byte of the disk taken. */
  const fill = (size: number) => {
    rmSync(filler, { force: true });
    writeFileSync(path, `{"pad":"${"x".repeat(size - 11)}"}\n`, { mode: 0o600 });
    assert.equal(statSync(path).size, size);
    const fd = openSync(filler, "w");
    try {
      for (;;) writeSync(fd, Buffer.alloc(PAGE));
    } catch (error) {
      assert.equal((error as NodeJS.ErrnoException).code, "ENOSPC");
    } finally {
      closeSync(fd);
    }
  };
  const setName = (ref: string, text: string) =>
    call("act", { ref, action: { kind: "set_value", text }, intent: "Set the name" });

  it("a full disk: set_value and type_text are refused naming the journal and ENOSPC; the field is unchanged", async () => {
    fill(PAGE);
    const before = readFileSync(path, "utf8");
    const { ref, value } = await nameField();
    const set = await setName(ref, "Full disk");
    assert.equal(set.ok, false);
    assert.equal(set.error.code, "refused", JSON.stringify(set.error));
    assert.match(
      set.error.message,
      /audit journal .*audit\.jsonl cannot be written \(.*ENOSPC.*nothing was done/,
    );
    assert.equal(set.error.journal, path);
    assert.equal(set.error.cause, "ENOSPC");
    assert.match(set.error.next, /Free space on the journal's disk/);
    const typed = await call("type_text", { ref, text: "typed anyway", intent: "Type into the name" });
    assert.equal(typed.ok, false);
    assert.equal(typed.error.code, "refused", JSON.stringify(typed.error));
    assert.equal((await nameField()).value, value, "the app is unchanged");
    assert.equal(readFileSync(path, "utf8"), before, "no line, and no part of one, was written");
  });

  it("a disk that fills between the attempt and the outcome: the attempt line is whole, the reply says the value was set", async () => {
    const { ref } = await nameField();
    // Measured with room to spare: the lengths of this call's two lines.
    fill(PAGE);
    rmSync(filler);
    assert.ok((await setName(ref, "value one")).ok);
    const [attemptLine, outcomeLine] = readFileSync(path, "utf8").split("\n").slice(1, 3);
    assert.match(attemptLine!, /"phase":"attempt"/);
    const attempt = Buffer.byteLength(`${attemptLine}\n`);
    const outcome = Buffer.byteLength(`${outcomeLine}\n`);
    // The journal's last page has room for the attempt line and half the outcome line.
    fill(PAGE * 2 - attempt - Math.floor(outcome / 2));
    const set = await setName(ref, "value two");
    assert.ok(set.ok, JSON.stringify(set.error));
    assert.match(set.text, /journal: the journal could not take the outcome line of act\.set_value .*ENOSPC/);
    assert.equal(set.data.journal_unwritten.length, 1);
    assert.equal((await nameField()).value, "value two", "the value was set");
    const lines = readFileSync(path, "utf8").split("\n");
    assert.equal(lines.at(-1), "", "the journal ends with a whole line");
    const last = JSON.parse(lines.at(-2)!);
    assert.deepEqual([last.phase, last.tool, last.text_length], ["attempt", "act.set_value", 9]);
    assert.equal(last.decision, undefined);

    // deskhand audit: the attempt is unfinished; a line cut short is unreadable, named by its number.
    rmSync(filler);
    appendFileSync(path, '{"time":"2026-12-02T11:0');
    const audit = await cli(["audit", "--tail", "5"], undefined, { ...process.env, DESKHAND_AUDIT: path });
    assert.equal(audit.code, 0, audit.stderr);
    assert.match(
      audit.stdout,
      /act\.set_value text "Name": no outcome recorded: deskhand stopped or the journal failed — Set the name/,
    );
    assert.match(audit.stdout, new RegExp(`line ${lines.length}: unreadable`));
    assert.doesNotMatch(audit.stdout, /undefined/);
  });
});
