// A confirmation is asked only of a person, and no secret reaches the journal or a recording:
// - the CLI asks at the controlling terminal and wants a code typed back: a script holding a pty
//   that answers "y" is declined (the app's own log shows nothing pressed), typing the code back
//   allows the press, and a process with no terminal is refused, saying why;
// - a question left open beside its window (a GTK 3 dialog, not modal, with no field) has its
//   default button judged like a modal dialog's: a click on it and Enter need a person;
// - text typed into the focused password field (no ref) is a password: its pieces are on no line
//   of the journal file, of this session or another; a key typed into an ordinary field is a secret
//   parameter of the recording file and masked in the journal.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createContext, type ToolContext } from "../../src/tools/context.js";
import type { ToolName } from "../../src/tools/registry.js";
import {
  CLI,
  findWaiting,
  gatedContext,
  HANG_MS,
  type StartedApp,
  startApp,
  TITLES,
  toolCaller,
} from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "deskhand-confirm-"));
const env = {
  ...process.env,
  DESKHAND_AUDIT: join(dir, "audit.jsonl"),
  DESKHAND_CONFIG: join(dir, "none.json"),
};
const logOf = (path: string) => (existsSync(path) ? readFileSync(path, "utf8") : "");
const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

/** Waits until `check` holds, or HANG_MS pass; answers whether it held. */
async function until(check: () => boolean | Promise<boolean>): Promise<boolean> {
  const deadline = Date.now() + HANG_MS;
  while (!(await check())) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}

/**
 * Runs the CLI under `script`, which gives it a pty as its controlling terminal, and answers the
 * question it shows there with `answer(question)`.
 */
function underPty(
  args: string[],
  answer: (question: string) => string,
): Promise<{ code: number; output: string }> {
  const command = [process.execPath, ...CLI, ...args].map(quote).join(" ");
  const child = spawn("script", ["-qec", command, "/dev/null"], { env, stdio: ["pipe", "pipe", "pipe"] });
  let output = "";
  let answered = false;
  const read = (data: Buffer) => {
    output += data;
    if (!answered && /and Enter; anything else declines: /.test(output)) {
      answered = true;
      child.stdin.write(`${answer(output)}\r`);
    }
  };
  child.stdout.on("data", read);
  child.stderr.on("data", read);
  return new Promise((resolve) =>
    child.on("exit", (code) => {
      child.stdin.end();
      resolve({ code: code ?? -1, output });
    }),
  );
}

describe("the CLI asks a person at the controlling terminal", () => {
  const title = "Deskhand Confirm Buttons";
  const log = join(dir, "buttons.log");
  let app: StartedApp;
  let call: ReturnType<typeof toolCaller>;
  let context: ToolContext;
  before(async () => {
    app = startApp([
      "/usr/bin/python3",
      "test/fixtures/dialogs/gtk3_buttons.py",
      title,
      log,
      join(dir, "victim"),
    ]);
    context = gatedContext(dir);
    call = toolCaller(context);
    await findWaiting(call, title, { role: "push button", name: "Delete everything" }, 30_000);
  });
  after(async () => {
    app.kill();
    await context.close();
  });
  const press = ["click", "--title", title, "--role", "push button", "--name", "Delete everything"];

  it("a script holding a pty that answers y is declined; nothing is pressed", async () => {
    const { code, output } = await underPty([...press, "--intent", "Delete it"], () => "y");
    assert.equal(code, 3, output);
    assert.match(output, /deskhand asks before click \(L3\): .*\(on push button "Delete everything"\)/);
    assert.match(output, /refused: a person declined/, output);
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.doesNotMatch(logOf(log), /Delete everything/, "the app saw no press");
  });

  it("with no controlling terminal it is refused, saying why and what would allow it", async () => {
    const child = spawn(process.execPath, [...CLI, ...press, "--intent", "Delete it"], {
      env,
      detached: true, // a session of its own: no controlling terminal
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => {
      output += d;
    });
    child.stderr.on("data", (d) => {
      output += d;
    });
    const code = await new Promise<number>((resolve) => child.on("exit", (c) => resolve(c ?? -1)));
    assert.equal(code, 3, output);
    assert.match(output, /no controlling terminal \(\/dev\/tty: ENXIO\)/, output);
    assert.match(output, /Only a person can allow it: .* ahead of time under "preapprove"/, output);
    assert.doesNotMatch(logOf(log), /Delete everything/, "the app saw no press");
  });

  it("typing back the code shown allows it: the app logs the press", async () => {
    const { code, output } = await underPty(
      [...press, "--intent", "Delete it"],
      (question) => /type ([a-z2-9]{4}) and Enter/.exec(question)![1]!,
    );
    assert.equal(code, 0, output);
    assert.ok(await until(() => logOf(log).includes("Delete everything")), logOf(log));
  });
});

describe("a question left open beside its window: its default button needs a person", () => {
  const title = "Deskhand Modeless Question";
  const log = join(dir, "question.log");
  let app: StartedApp;
  let call: ReturnType<typeof toolCaller>;
  let context: ToolContext;
  before(async () => {
    app = startApp(["/usr/bin/python3", "test/fixtures/dialogs/gtk3_modeless_question.py", title, log]);
    context = gatedContext(dir);
    call = toolCaller(context);
    await findWaiting(call, title, { role: "push button", name: "Move" }, 30_000);
  });
  after(async () => {
    app.kill();
    await context.close();
  });
  const button = async (name: string) =>
    (await findWaiting(call, title, { role: "push button", name }, 10_000)) as { ref: string };

  it("a click on its default and Enter are refused; its other button passes and is logged", async () => {
    const windows = (await call("windows", {})).data.windows as { id: number; title: string }[];
    const dialog = windows.find((w) => w.title === title)!;
    const clicked = await call("click", { ref: (await button("Move")).ref, intent: "Move the files" });
    assert.equal(clicked.data.status, "refused", clicked.text);
    assert.match(clicked.data.reason, /default button of a dialog that asks a question/);
    const entered = await call("key", { key: "Enter", window: { id: dialog.id }, intent: "Answer it" });
    assert.equal(entered.data.status, "refused", entered.text);
    const kept = await call("click", { ref: (await button("Keep")).ref, intent: "Keep the files" });
    assert.equal(kept.data.status, "done", kept.text);
    assert.ok(await until(() => logOf(log).includes("kept")), logOf(log));
    assert.doesNotMatch(logOf(log), /moved/, "the default was never pressed");
  });
});

describe("secrets typed into the focus reach no journal line and no recording", () => {
  const journal = join(dir, "secrets.jsonl");
  const recordings = join(dir, "recordings");
  const contextFor = (session: string) =>
    createContext({
      refLifetime: "while-verified",
      session,
      env: { ...env, DESKHAND_AUDIT: journal, DESKHAND_RECORDINGS: recordings },
    });
  let typist: ToolContext;
  let other: ToolContext;
  let call: ReturnType<typeof toolCaller>;
  before(() => {
    typist = contextFor("typist");
    other = contextFor("other");
    call = toolCaller(typist);
  });
  after(async () => {
    await typist.close();
    await other.close();
  });
  const ok = async (tool: ToolName, input: Record<string, unknown>, caller = call) => {
    const result = await caller(tool, input);
    assert.ok(result.ok && result.data.status !== "refused", `${tool}: ${JSON.stringify(result)}`);
    return result;
  };
  const lines = () => readFileSync(journal, "utf8");

  it("a password typed in parts into the focused Swing password field: no piece on any line", async () => {
    const field = (await ok("find", { target: { kind: "title", glob: TITLES.swing }, role: "password text" }))
      .data.matches[0] as { ref: string };
    await ok("type_text", { ref: field.ref, text: "x", clear: true, intent: "Empty the field" });
    await ok("key", { key: "Backspace", intent: "Empty the field" });
    await ok("act", { ref: field.ref, action: { kind: "focus" }, intent: "Put the focus in the password" });
    for (const [part, intent] of [
      ["ul", "Type ul"],
      ["ti", "Then ti, after ul"],
      ["7x!", "Last 7x!, so ulti is done"],
    ])
      await ok("type_text", { text: part!, intent: intent! });
    // Another session of the same process quotes it, in part and zero-width split.
    await ok("key", { key: "Tab", intent: "Check ulti7x! and lti7 and ul\u200bti7x" }, toolCaller(other));
    const text = lines();
    assert.doesNotMatch(text, /ulti|lti7|7x!|\bul\b|\bti\b/, text);
    assert.match(text, /"session":"other"/);
    await ok("type_text", { ref: field.ref, text: "x", clear: true, intent: "Empty the field" });
    await ok("key", { key: "Backspace", intent: "Empty the field" });
  });

  it("an API key typed into the focused GTK entry is a secret parameter and masked in the journal", async () => {
    const key = "sk-proj-Qx7vB2mN9pL4kR8sT1wZ3yH6";
    const entries = (
      await ok("find", {
        target: { kind: "title", glob: TITLES.gtk3 },
        role: "text",
        states: ["editable", "showing"],
        limit: 20,
      })
    ).data.matches as { ref: string; value?: string }[];
    const entry = entries.find((e) => e.value === "");
    assert.ok(entry, "an empty GTK3 entry");
    await ok("record", { action: "start", name: "with-key" });
    try {
      await ok("act", { ref: entry.ref, action: { kind: "focus" }, intent: "Put the focus in the entry" });
      await ok("type_text", { text: key, intent: `Paste the key ${key}` });
    } finally {
      await ok("record", { action: "stop" });
    }
    const written = readFileSync(join(recordings, "with-key.json"), "utf8");
    assert.doesNotMatch(written, /Qx7vB2/, written);
    const typed = JSON.parse(written).steps.find((s: { tool: string }) => s.tool === "type_text");
    const param = typed.args.text.$param as string;
    assert.equal(JSON.parse(written).params[param].secret, true, written);
    assert.doesNotMatch(lines(), /Qx7vB2/);
    await ok("type_text", { ref: entry.ref, text: "x", clear: true, intent: "Empty the entry" });
    await ok("key", { key: "Backspace", intent: "Empty the entry" });
  });
});
