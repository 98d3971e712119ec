// run on real apps: eight steps and more in one call on a Swing fixture of its own and on
// gtk3-widget-factory, each step's effect re-read from the app afterwards; a refused step stops the
// run and the steps after it are not done; an unmet expect stops it. `deskhand run` killed in the
// middle of a long typing step leaves that step's attempt line in the journal; at SIGTERM it starts
// no further step and exits within the 15 s stop timeout.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { openX11Hands } from "../../src/platform/x11/hands.js";
import { createContext, type ToolContext } from "../../src/tools/context.js";
import {
  CLI,
  findWaiting,
  type StartedApp,
  SWING_COMMAND,
  startApp,
  TITLES,
  toolCaller,
  within,
} from "./helpers.js";

const SWING = "Run Fixture";
const swing = { kind: "title", glob: SWING };
const gtk3 = { kind: "title", glob: TITLES.gtk3 };
const intent = "Fill the fixture's form in one run";

const act = (
  target: Record<string, unknown>,
  find: Record<string, unknown>,
  action: Record<string, unknown>,
  expect?: Record<string, unknown>,
) => ({
  tool: "act",
  find: { target, ...find },
  args: { action, intent },
  ...(expect ? { expect: { condition: expect, timeout_ms: 5000 } } : {}),
});
/** The fixture's status label says what the app saw, in its description. */
const label = (said: string) => ({ kind: "element", target: swing, ...status(said) });
const status = (said: string) => ({ role: "label", name: "Status", description: said });

describe("run: many verified steps in one call", () => {
  const apps: StartedApp[] = [];
  let context: ToolContext;
  let call: ReturnType<typeof toolCaller>;
  before(async () => {
    context = createContext({ refLifetime: "while-verified" });
    call = toolCaller(context);
    apps.push(startApp([...SWING_COMMAND, SWING]));
    await findWaiting(call, SWING, { role: "push button", name: "Note" }, 30_000);
  });
  after(async () => {
    for (const app of apps) app.kill();
    await context.close();
  });

  const first = async (target: Record<string, unknown>, query: Record<string, unknown>) => {
    const found = await call("find", { target, ...query, include_off_screen: true });
    assert.ok(found.ok, JSON.stringify(found.error));
    return found.data.matches[0];
  };

  it("Swing: nine steps in one call, each effect re-read from the app", async () => {
    const steps = [
      act(swing, { role: "text", name: "Name" }, { kind: "set_value", text: "Ada Lovelace" }),
      act(swing, { role: "text", name: "Notes" }, { kind: "set_value", text: "One run" }),
      act(swing, { role: "check box", name: "Subscribe" }, { kind: "toggle" }, label("Subscribed")),
      act(swing, { role: "push button", name: "Alpha" }, { kind: "invoke" }, label("Pressed Alpha")),
      act(swing, { role: "radio button", name: "Large" }, { kind: "invoke" }, label("Size Large")),
      act(swing, { role: "push button", name: "Beta" }, { kind: "invoke" }, label("Pressed Beta")),
      act(
        swing,
        { role: "push button", name: "Note" },
        { kind: "invoke" },
        {
          kind: "element",
          target: swing,
          role: "label",
          name: "A note",
        },
      ),
      act(swing, { role: "push button", name: "Note" }, { kind: "invoke" }, label("Note removed")),
      { tool: "find", args: { target: swing, ...status("Note removed") } },
    ];
    const run = await call("run", { steps });
    assert.ok(run.ok, JSON.stringify(run.error));
    assert.equal(run.data.status, "done", run.text);
    assert.equal(run.data.done, 9, run.text);
    assert.match(run.text, /^done: 9 of 9 steps/);
    // What each step did, read again from the app now.
    assert.equal((await first(swing, { role: "text", name: "Name" })).value, "Ada Lovelace");
    assert.equal((await first(swing, { role: "text", name: "Notes" })).value, "One run");
    assert.ok((await first(swing, { role: "check box", name: "Subscribe" })).states.includes("checked"));
    assert.ok((await first(swing, { role: "radio button", name: "Large" })).states.includes("checked"));
    assert.equal(await first(swing, { role: "label", name: "A note" }), undefined, "the note came and went");
    assert.ok(await first(swing, status("Note removed")));
  });

  it("a refused step stops the run: the steps after it are not done", async () => {
    // "Open dialog" opens a modal Confirm dialog; under a ceiling of L1 every acting step is refused.
    const low = createContext({ refLifetime: "while-verified", ceiling: "L1" });
    try {
      const run = await toolCaller(low)("run", {
        steps: [
          { tool: "find", args: { target: swing, role: "push button", name: "Alpha" } },
          act(swing, { role: "text", name: "Name" }, { kind: "set_value", text: "Refused" }),
          act(swing, { role: "push button", name: "Alpha" }, { kind: "invoke" }),
        ],
      });
      assert.ok(run.ok, JSON.stringify(run.error));
      assert.equal(run.data.status, "refused", run.text);
      assert.equal(run.data.stopped.step, 2);
      assert.deepEqual(run.data.not_run, [{ step: 3, tool: "act" }]);
      assert.match(run.text, /^refused: the run stopped at step 2 of 3/);
    } finally {
      await low.close();
    }
    assert.equal((await first(swing, { role: "text", name: "Name" })).value, "Ada Lovelace", "not set");
  });

  it("an expect not met stops the run after its step", async () => {
    const run = await call("run", {
      steps: [
        act(
          swing,
          { role: "push button", name: "Alpha" },
          { kind: "invoke" },
          { kind: "window", title: "No such window" },
        ),
        act(swing, { role: "text", name: "Name" }, { kind: "set_value", text: "Not reached" }),
      ],
    });
    assert.ok(run.ok, JSON.stringify(run.error));
    assert.equal(run.data.status, "error");
    assert.equal(run.data.stopped.reason, "expect_not_met");
    assert.match(run.text, /its expect was not met/);
    assert.ok(await first(swing, status("Pressed Alpha")), "the step itself was done");
    assert.equal((await first(swing, { role: "text", name: "Name" })).value, "Ada Lovelace", "not reached");
  });

  it("gtk3-widget-factory: eight steps in one call, each effect re-read, the window left as found", async () => {
    const entry = await first(gtk3, { role: "text", states: ["editable", "showing"] });
    assert.ok(entry, "an entry on screen");
    const was = entry.value as string;
    const page = (name: string) =>
      act(
        gtk3,
        { role: "radio button", name },
        { kind: "invoke" },
        {
          kind: "element",
          target: gtk3,
          role: "radio button",
          name,
          states: ["checked"],
        },
      );
    const menu = (state?: string[]) =>
      act(
        gtk3,
        { role: "toggle button", name: "Menu" },
        { kind: "toggle" },
        state
          ? { kind: "element", target: gtk3, role: "toggle button", name: "Menu", states: state }
          : undefined,
      );
    const text = (value: string) => ({
      tool: "act",
      find: { target: gtk3, role: "text", states: ["editable", "showing"], nth: 0 },
      args: { action: { kind: "set_value", text: value }, intent },
      expect: { condition: { kind: "text", ref: "$ref", equals: value }, timeout_ms: 5000 },
    });
    const run = await call("run", {
      steps: [
        text("typed by a run"),
        menu(["checked"]),
        menu(),
        page("Page 2"),
        page("Page 3"),
        page("Page 1"),
        { tool: "find", args: { target: gtk3, role: "text", value_contains: "typed by a run" } },
        text(was),
      ],
    });
    assert.ok(run.ok, JSON.stringify(run.error));
    assert.equal(run.data.status, "done", run.text);
    assert.equal(run.data.done, 8);
    // Re-read now: page 1 is shown, the menu is up again, the entry holds what it held.
    assert.ok((await first(gtk3, { role: "radio button", name: "Page 1" })).states.includes("checked"));
    assert.ok(!(await first(gtk3, { role: "toggle button", name: "Menu" })).states.includes("checked"));
    assert.equal((await first(gtk3, { role: "text", states: ["editable", "showing"] })).value, was);
  });

  /**
   * `deskhand run` on a file of steps, its journal of its own; resolves once the journal holds the
   * attempt line of a type_text step, with the process still running.
   */
  const runUntilTyping = async (steps: unknown[]) => {
    const dir = mkdtempSync(join(tmpdir(), "deskhand-run-kill-"));
    const journal = join(dir, "audit.jsonl");
    writeFileSync(join(dir, "steps.json"), JSON.stringify({ steps }));
    const child = spawn(process.execPath, [...CLI, "run", join(dir, "steps.json")], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, DESKHAND_AUDIT: journal },
    });
    let stdout = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    const exited = new Promise<number | string>((resolve) =>
      child.on("exit", (code, signal) => resolve(code ?? signal ?? -1)),
    );
    const entries = () =>
      existsSync(journal)
        ? readFileSync(journal, "utf8")
            .split("\n")
            .filter(Boolean)
            .map((l) => JSON.parse(l) as Record<string, any>)
        : [];
    const deadline = Date.now() + within(60_000);
    while (!entries().some((e) => e.tool === "type_text" && e.phase === "attempt")) {
      assert.ok(Date.now() < deadline, `no typing started: ${stdout}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return { child, exited, entries, stdout: () => stdout };
  };
  const notes = { target: swing, role: "text", name: "Notes" };
  const longTyping = {
    tool: "type_text",
    find: notes,
    args: { text: "k".repeat(4000), clear: true, intent: "Type a long note" },
  };
  /** A fresh process's hands give back whatever a killed one held. */
  const releaseLeftovers = async () => (await openX11Hands({ display: process.env.DISPLAY })).close();

  it("SIGKILL in the middle of a long type_text step: the journal has its attempt line, with no outcome", async () => {
    const run = await runUntilTyping([longTyping]);
    run.child.kill("SIGKILL");
    assert.equal(await run.exited, "SIGKILL");
    await releaseLeftovers();
    const written = run.entries();
    const attempt = written.find((e) => e.tool === "type_text" && e.phase === "attempt")!;
    assert.equal(attempt.text_length, 4000);
    assert.equal(attempt.intent, "Type a long note");
    assert.ok(!written.some((e) => e.id === attempt.id && e.phase === "outcome"), JSON.stringify(written));
    const typed = (await first(swing, notes)).value as string;
    assert.ok(typed.length < 4000, `the kill came mid-way: ${typed.length} characters arrived`);
  });

  it("SIGTERM during a step: no further step starts, and the process exits within 15 s", async () => {
    const name = (await first(swing, { role: "text", name: "Name" })).value;
    const run = await runUntilTyping([
      { ...longTyping, args: { ...longTyping.args, text: "k".repeat(600) } },
      act(swing, { role: "text", name: "Name" }, { kind: "set_value", text: "not reached" }),
    ]);
    const signalled = Date.now();
    run.child.kill("SIGTERM");
    const status = await run.exited;
    assert.ok(Date.now() - signalled < within(15_000), `exited ${Date.now() - signalled} ms after SIGTERM`);
    await releaseLeftovers();
    assert.equal(status, 1, "the run answered, stopped, before the stop bound");
    assert.match(run.stdout(), /stopped at step 2 of 2 \(stopping\)/, run.stdout());
    assert.ok(!run.entries().some((e) => e.tool === "act.set_value"), "step 2 was never attempted");
    assert.equal((await first(swing, { role: "text", name: "Name" })).value, name, "step 2 did nothing");
  });
});
