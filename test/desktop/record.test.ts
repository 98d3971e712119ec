// Recording over MCP and replay by the CLI, with no model: a task (fields filled, a password typed, a
// dialog opened from a menu and confirmed) recorded from `deskhand mcp --record FILE`, then replayed in a fresh
// sandbox by `deskhand replay`, the effect re-read from the app there; the password is not in the
// file and is asked for as a parameter; a changed app stops the replay before the step that differs.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { createContext, type ToolContext } from "../../src/tools/context.js";
import type { ToolName } from "../../src/tools/registry.js";
import { CLI, findWaiting, type StartedApp, SWING_COMMAND, startApp, TITLES, toolCaller } from "./helpers.js";

const TITLE = "Record Fixture";
const target = { kind: "title", glob: TITLE };
const PASSWORD = "s3cret-Pa55word";
const intent = "Sign in and confirm, as recorded";
const fixture = (renamed = false) =>
  [...SWING_COMMAND, `'${TITLE}'`, ...(renamed ? ["--renamed"] : [])].join(" ");

describe("record over MCP, replay by the CLI", () => {
  const dir = mkdtempSync(join(tmpdir(), "deskhand-record-"));
  const file = join(dir, "sign-in.json");
  const config = join(dir, "config.json");
  // The Confirm dialog's OK commits: pre-approved there, for act, in advance.
  writeFileSync(config, JSON.stringify({ preapprove: [{ reason: "any", tool: "act", window: "Confirm" }] }));
  const env = Object.fromEntries(
    Object.entries({
      ...process.env,
      DESKHAND_CONFIG: config,
      DESKHAND_AUDIT: join(dir, "audit.jsonl"),
    }).filter((e): e is [string, string] => e[1] !== undefined),
  );
  const apps: StartedApp[] = [];
  let context: ToolContext;
  before(async () => {
    context = createContext({ refLifetime: "while-verified" });
    apps.push(startApp([...SWING_COMMAND, TITLE]));
    await findWaiting(toolCaller(context), TITLE, { role: "push button", name: "Open dialog" }, 30_000);
  });
  after(async () => {
    for (const app of apps) app.kill();
    await context.close();
  });

  /** `deskhand sandbox run --app FIXTURE -- sh -c SCRIPT` in a desktop of its own; its output. */
  const inFreshSandbox = (app: string, script: string) =>
    spawnSync(
      process.execPath,
      [...CLI, "sandbox", "run", "--app-timeout-ms", "60000", "--app", app, "--", "sh", "-c", script],
      { encoding: "utf8", env, timeout: 240_000 },
    );
  const cli = `${process.execPath} ${CLI.join(" ")}`;
  /** A shell line that prints "status WORD: N", N the status labels saying WORD (the fixture's description). */
  const said = (word: string) =>
    `echo "status ${word}: $(${cli} find --title '${TITLE}' --role label --name Status --description '${word}' --json | grep -o '"total":[0-9]*' | cut -d: -f2)"`;

  it("records each acting call over MCP; the password typed is not in the file", async () => {
    const client = new Client({ name: "deskhand-record-test", version: "0" });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [...CLI, "mcp", "--record", file], env }),
    );
    const call = async (name: string, args: Record<string, unknown>) => {
      const reply = await client.callTool({ name, arguments: args });
      assert.ok(!reply.isError, `${name}: ${JSON.stringify(reply.content)}`);
      return reply.structuredContent as Record<string, any>;
    };
    try {
      const name = (await call("find", { target, role: "text", name: "Name" })).matches[0].ref;
      await call("act", { ref: name, action: { kind: "set_value", text: "Grace Hopper" }, intent });
      const password = (await call("find", { target, role: "password text" })).matches[0].ref;
      await call("type_text", { ref: password, text: PASSWORD, intent });
      // The dialog is opened from a menu.
      await call("act", {
        find: { target, role: "menu item", name: "Confirm…" },
        action: { kind: "invoke" },
        intent,
      });
      await call("act", {
        find: { target: { kind: "title", glob: "Confirm" }, role: "push button", name: "OK" },
        action: { kind: "invoke" },
        intent,
      });
      const status = (await call("find", { target, role: "label", name: "Status" })).matches[0];
      assert.ok(status, "the status label");
    } finally {
      await client.close();
    }
    const written = readFileSync(file, "utf8");
    assert.doesNotMatch(written, new RegExp(PASSWORD), "the password is never written");
    const recording = JSON.parse(written);
    assert.equal(recording.version, 1);
    assert.deepEqual(
      recording.steps.map(
        (s: { tool: string; element?: { name: string } }) => `${s.tool} ${s.element?.name}`,
      ),
      ["act Name", "type_text Password", "act Confirm…", "act OK"],
      written,
    );
    const typed = recording.steps[1].args.text;
    assert.ok(typed.$param, written);
    assert.equal(recording.params[typed.$param].secret, true);
    assert.equal(recording.steps[2].expect.condition.kind, "window", "the dialog that came is expected");
    assert.equal(recording.steps[2].expect.condition.title, "Confirm");
  });

  it("replays in a fresh sandbox with no model: the same effect, re-read from the app there", () => {
    const recording = JSON.parse(readFileSync(file, "utf8"));
    const param = recording.steps[1].args.text.$param as string;
    // Without the password the replay does nothing and says which parameter it needs; with it, the
    // same app (one sandbox: each takes 10 s) is filled and confirmed.
    const run = inFreshSandbox(
      fixture(),
      `${cli} replay ${file}; echo "exit $?"; ${said("Dialog open")}; ${said("Confirmed")}; echo "-- with"; ` +
        `${cli} replay ${file} --param ${param}=other-secret; echo "exit $?"; ${said("Confirmed")}; ${cli} find --title '${TITLE}' --role text --name Name --json`,
    );
    const [without = "", given = ""] = run.stdout.split("-- with\n");
    const refused = { stdout: without, stderr: run.stderr };
    const done = { stdout: given, stderr: run.stderr };
    assert.match(refused.stdout + refused.stderr, new RegExp(`needs parameter ${param}`), refused.stderr);
    assert.match(refused.stdout, /exit 2/, "a missing parameter is a bad command line");
    assert.match(refused.stdout, /^status Dialog open: 0$/m, "nothing was pressed");
    assert.match(refused.stdout, /^status Confirmed: 0$/m, "nothing was pressed");
    assert.match(done.stdout, /^done: 4 of 4 steps/m, done.stdout + done.stderr);
    assert.match(done.stdout, /exit 0/);
    assert.match(done.stdout, /^status Confirmed: 1$/m, "the dialog was confirmed in the new app");
    assert.match(done.stdout, /"value":"Grace Hopper"/, "the field was filled");
    assert.doesNotMatch(done.stdout, /other-secret/, "the password is not echoed");
  });

  it("a changed app stops the replay before the step that differs, and says what differs", () => {
    const recording = JSON.parse(readFileSync(file, "utf8"));
    const param = recording.steps[1].args.text.$param as string;
    const changed = inFreshSandbox(
      fixture(true),
      `${cli} replay ${file} --param ${param}=x; echo "exit $?"; ${said("Dialog open")}; ${said("Confirmed")}; ${cli} windows`,
    );
    const out = changed.stdout;
    assert.match(out, /^error: the run stopped at step 3 of 4 \(differs\)/m, out + changed.stderr);
    assert.match(out, /recorded menu item "Confirm…"; now not_found: nothing matches/, out);
    assert.match(out, /# not run: 4 act/, out);
    assert.match(out, /exit 1/);
    assert.match(out, /^status Dialog open: 0$/m, "the renamed menu item was not pressed");
    assert.match(out, /^status Confirmed: 0$/m, "nothing was confirmed");
    assert.doesNotMatch(out, /"Confirm"/, "no dialog opened");
  });
});

describe("record: text typed into the focused field", () => {
  const dir = mkdtempSync(join(tmpdir(), "deskhand-record-focus-"));
  let context: ToolContext;
  let call: ReturnType<typeof toolCaller>;
  before(() => {
    context = createContext({
      refLifetime: "while-verified",
      env: {
        ...process.env,
        DESKHAND_RECORDINGS: dir,
        DESKHAND_AUDIT: join(dir, "audit.jsonl"),
        DESKHAND_CONFIG: join(dir, "none.json"),
      },
    });
    call = toolCaller(context);
  });
  after(() => context.close());

  const ok = async (tool: ToolName, input: Record<string, unknown>) => {
    const result = await call(tool, input);
    assert.ok(result.ok && result.data.status !== "refused", `${tool}: ${JSON.stringify(result)}`);
    return result;
  };
  /** Records focusing `ref` and typing `text` into the focus, as `name`; the recording as written. */
  const recordTyping = async (name: string, ref: string, text: string) => {
    await ok("record", { action: "start", name });
    await ok("act", { ref, action: { kind: "focus" }, intent: "Put the focus in the field" });
    await ok("type_text", { text, intent: "Type into the focused field" });
    await ok("record", { action: "stop" });
    const written = readFileSync(join(dir, `${name}.json`), "utf8");
    return { written, recording: JSON.parse(written) };
  };
  const gtkEntries = async () =>
    (
      await ok("find", {
        target: { kind: "title", glob: TITLES.gtk3 },
        role: "text",
        states: ["editable", "showing"],
        limit: 20,
      })
    ).data.matches as { ref: string; value?: string; bounds: { y: number } }[];
  const empty = (ref: string) =>
    ok("type_text", { ref, text: "x", clear: true, intent: "Empty the field" }).then(() =>
      ok("key", { key: "Backspace", intent: "Empty the field" }),
    );

  it("plain text typed into a GTK entry is written as typed; replay with no parameters fills the field", async () => {
    const text = "plain words 42";
    const entry = (await gtkEntries()).find((e) => e.value === "");
    assert.ok(entry, "an empty GTK3 entry");
    const entryNow = async () => (await gtkEntries()).find((e) => e.bounds.y === entry.bounds.y);
    try {
      const { written, recording } = await recordTyping("plain", entry.ref, text);
      assert.deepEqual(recording.params, {}, written);
      const typed = recording.steps.find((s: { tool: string }) => s.tool === "type_text");
      assert.equal(typed.args.text, text, written);
      await empty(entry.ref);
      assert.equal((await entryNow())?.value, "", "the entry is empty before the replay");
      const replayed = await ok("run", { recording: "plain" });
      assert.equal(replayed.data.status, "done", replayed.text);
      assert.equal((await entryNow())?.value, text, "the replay typed the text into the entry");
    } finally {
      await empty(entry.ref);
    }
  });

  it("text typed into a focused password field becomes a secret parameter, never written", async () => {
    const secret = "n0t-in-the-file";
    const field = (await ok("find", { target: { kind: "title", glob: TITLES.swing }, role: "password text" }))
      .data.matches[0] as { ref: string };
    assert.ok(field, "the Swing fixture's password field");
    try {
      const { written, recording } = await recordTyping("secret", field.ref, secret);
      assert.doesNotMatch(written, new RegExp(secret), "the password is not in the file");
      const typed = recording.steps.find((s: { tool: string }) => s.tool === "type_text");
      const param = typed.args.text.$param as string;
      assert.ok(param, written);
      assert.equal(recording.params[param].secret, true, written);
    } finally {
      await empty(field.ref);
    }
  });
});
