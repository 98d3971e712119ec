// run on a fake desktop: steps found as they run, each gated and re-read as if called alone; the run
// stops at the first refusal, difference or unmet expect, and what follows is not done. And a
// recording of acting calls: selectors that find the element again, passwords as parameters.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { PROFILES } from "../../src/frontends/profiles/index.js";
import type { FakeElement, FakeWindow } from "../../src/platform/fake/backend.js";
import type { State } from "../../src/platform/roles.js";
import { callTool } from "../../src/tools/call.js";
import { RECORDER, Recorder } from "../../src/tools/recording.js";
import { toolNamed } from "../../src/tools/registry.js";
import { recordedSteps } from "../../src/tools/run.js";
import { fakeContext, oneWindow } from "./fake-desktop.js";

const dir = mkdtempSync(join(tmpdir(), "deskhand-run-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const editable: State[] = ["enabled", "sensitive", "showing", "visible", "focusable", "editable"];
const rect = { x: 0, y: 0, width: 400, height: 300 };
const text = (name: string, y: number, role: "text" | "password text" = "text"): FakeElement => ({
  role,
  name,
  text: "",
  states: editable,
  interfaces: ["Accessible", "Component", "Text", "EditableText"],
  bounds: { x: 20, y, width: 200, height: 24 },
});

function desktop(ceiling?: "L1", react?: Parameters<typeof fakeContext>[0]["react"]) {
  const form: FakeWindow = {
    id: 7,
    title: "Sign up [beta]",
    pid: 11,
    app: "fake",
    rect,
    focused: true,
    root: {
      role: "frame",
      name: "Sign up [beta]",
      bounds: rect,
      children: [text("Name", 40), text("Email", 80), text("Password", 120, "password text")],
    },
  };
  const made = fakeContext({
    windows: [form],
    hands: { windows: [{ id: 7, rect }], active: 7 },
    dir,
    ...(ceiling ? { ceiling } : {}),
    ...(react ? { react } : {}),
  });
  const field = (i: number) => form.root!.children![i]!;
  return { ...made, field };
}

const target = { kind: "title", glob: "Sign up [[]beta]" };
const set = (name: string, value: string) => ({
  tool: "act",
  find: { target, role: "text", name },
  args: { action: { kind: "set_value", text: value }, intent: "Fill the sign-up form" },
});

describe("run", () => {
  it("runs every step, each found as it runs, and each effect is in the app", async () => {
    const { context, field } = desktop();
    const result = await callTool(context, toolNamed("run"), {
      steps: [
        set("Name", "Ada"),
        {
          ...set("Email", "ada@example.org"),
          expect: { condition: { kind: "text", ref: "$ref", equals: "ada@example.org" } },
        },
        { tool: "find", args: { target, role: "text", name: "Name" } },
      ],
    });
    assert.ok(result.ok && result.outcome === "done", JSON.stringify(result));
    assert.equal(field(0).text, "Ada");
    assert.equal(field(1).text, "ada@example.org");
    assert.match(result.output.text, /^done: 3 of 3 steps/);
    assert.match(result.output.text, /^2\. act: .*expect met/m);
    // A step's reply is there whole: the find's match below its line, not only "1 match:".
    assert.match(
      result.output.text,
      /^3\. find: .*\n {3}.*text "Name" = "Ada".*\[ref=s\d+:e\d+/m,
      result.output.text,
    );
    await context.close();
  });

  it("says once, not after each step, that whether the presses achieved the goal is the caller's", async () => {
    const key = (name: string, y: number): FakeElement => ({
      role: "push button",
      name,
      actions: ["click"],
      interfaces: ["Accessible", "Action", "Component"],
      states: ["enabled", "sensitive", "visible", "showing"] as State[],
      bounds: { x: 10, y, width: 40, height: 30 },
    });
    const { context } = oneWindow("Calculator", [key("1", 40), key("2", 80), key("3", 120)], dir);
    const press = (name: string) => ({
      tool: "act",
      find: { target: { kind: "title", glob: "Calculator" }, role: "push button", name },
      args: { action: { kind: "invoke" }, intent: "Enter 123" },
    });
    const result = await callTool(context, toolNamed("run"), { steps: ["1", "2", "3"].map(press) });
    assert.ok(result.ok && result.outcome === "done", JSON.stringify(result));
    const said = result.output.text.split("\n").filter((l) => /is for you to judge/.test(l));
    assert.deepEqual(said, [
      "Whether the steps achieved the goal is for you to judge: re-read what matters.",
    ]);
    assert.match(
      result.output.text.split("\n# view:")[0]!,
      /is for you to judge: re-read what matters\.$/,
      "the run's last line, before its view",
    );
    await context.close();
  });

  it("runs a run or a recording of more than 50 steps, each done", async () => {
    const { context, field } = desktop();
    const steps = Array.from({ length: 60 }, (_, i) => set("Name", `n${i}`));
    assert.equal(recordedSteps(steps).length, 60, "a recording's steps are not bounded");
    const result = await callTool(context, toolNamed("run"), { steps });
    assert.ok(result.ok && result.outcome === "done", JSON.stringify(result));
    assert.match(result.output.text, /^done: 60 of 60 steps/);
    assert.equal(field(0).text, "n59", "the last step was done too");
    await context.close();
  });

  it("stops at a value written that does not read back: the steps after it are not done", async () => {
    // The app takes the call and keeps its text as it was (Firefox's field, set_value): not "done".
    const { context, field } = desktop(undefined, (element, action) => {
      if (action.kind === "set_value" && element.name === "Name") element.text = "";
    });
    const result = await callTool(context, toolNamed("run"), {
      steps: [set("Name", "Ada"), set("Email", "ada@example.org")],
    });
    assert.ok(result.ok);
    assert.equal(result.outcome, "error", result.output.text);
    assert.match(result.output.text, /^error: the run stopped at step 1 of 2/);
    assert.match(result.output.text, /not what was asked/);
    assert.equal(field(1).text, "", "the step after it was not run");
    await context.close();
  });

  it("stops at a refused step: the steps after it are not done", async () => {
    const { context, field } = desktop("L1");
    const result = await callTool(context, toolNamed("run"), {
      steps: [{ tool: "find", args: { target, role: "text" } }, set("Name", "Ada"), set("Email", "x@y.z")],
    });
    assert.ok(result.ok);
    assert.equal(result.outcome, "refused");
    assert.match(result.output.text, /^refused: the run stopped at step 2 of 3/);
    assert.deepEqual(result.output.data.not_run, [{ step: 3, tool: "act" }]);
    assert.equal(field(0).text, "", "the refused step did nothing");
    assert.equal(field(1).text, "", "the step after it was not run");
    await context.close();
  });

  it("stops before a step whose element differs from the recorded one, and at an unmet expect", async () => {
    const { context, field } = desktop();
    const differs = await callTool(context, toolNamed("run"), {
      steps: [{ ...set("Name", "Ada"), element: { role: "text", name: "Full name" } }, set("Email", "x@y.z")],
    });
    assert.ok(differs.ok && differs.outcome === "error");
    assert.match(differs.output.text, /recorded text "Full name", now text "Name"/);
    assert.equal(field(0).text, "", "nothing was done on that step");
    assert.equal(field(1).text, "");
    const unmet = await callTool(context, toolNamed("run"), {
      steps: [
        {
          ...set("Name", "Ada"),
          expect: { condition: { kind: "window", title: "Welcome" }, timeout_ms: 300 },
        },
        set("Email", "x@y.z"),
      ],
    });
    assert.ok(unmet.ok && unmet.outcome === "error");
    assert.equal((unmet.output.data.stopped as { reason: string }).reason, "expect_not_met");
    assert.equal(field(0).text, "Ada", "the step itself was done");
    assert.equal(field(1).text, "", "the next was not");
    await context.close();
  });

  it("refuses the whole run, nothing done, for a missing parameter or a malformed step", async () => {
    const { context, field } = desktop();
    const missing = await callTool(context, toolNamed("run"), {
      steps: [
        set("Name", "Ada"),
        { ...set("Password", ""), args: { action: { kind: "set_value", text: { $param: "pw" } } } },
      ],
    });
    assert.ok(!missing.ok);
    assert.match(missing.error.message, /needs parameter pw; nothing was done/);
    const malformed = await callTool(context, toolNamed("run"), {
      steps: [
        set("Name", "Ada"),
        { tool: "click", args: { at: { space: "global", x: 1 } } },
        { tool: "run" },
      ],
    });
    assert.ok(!malformed.ok);
    assert.match(malformed.error.message, /step 2 \(click\)/);
    assert.match(malformed.error.message, /step 3: "run" is not allowed in a run/);
    assert.equal(field(0).text, "", "no step ran");
    await context.close();
  });
});

describe("recording", () => {
  it("writes each acting call as a step that finds its element again; a password is a parameter", async () => {
    const { context } = desktop();
    const path = join(dir, "signup.json");
    context.sessionState.set(RECORDER, new Recorder(path));
    const first = async (role: string) => {
      const found = await callTool(context, toolNamed("find"), { target, role });
      assert.ok(found.ok);
      return (found.output.data.matches as { ref: string }[])[0]!.ref;
    };
    for (const [ref, value] of [
      [await first("text"), "Ada"],
      [await first("password text"), "hunter2-secret"],
    ]) {
      const acted = await callTool(context, toolNamed("act"), {
        ref,
        action: { kind: "set_value", text: value },
      });
      assert.ok(acted.ok, JSON.stringify(acted));
    }
    const written = readFileSync(path, "utf8");
    assert.doesNotMatch(written, /hunter2/, "the password is not in the file");
    const file = JSON.parse(written);
    assert.equal(file.version, 1);
    assert.equal(file.steps.length, 2, "the find is not a step");
    assert.deepEqual(file.steps[0].find, { target, role: "text", name: "Name", timeout_ms: 5000 });
    assert.deepEqual(file.steps[0].element, { role: "text", name: "Name" });
    assert.equal(file.steps[0].args.action.text, "Ada");
    assert.deepEqual(file.steps[0].expect.condition, { kind: "text", ref: "$ref", equals: "Ada" });
    assert.deepEqual(file.steps[1].args.action.text, { $param: "password_2" });
    assert.equal(file.params.password_2.secret, true);
    await context.close();

    // Replayed on a fresh desktop: the same effect, the password given as a parameter.
    const fresh = desktop();
    context.sessionState.delete(RECORDER);
    const replay = await callTool(fresh.context, toolNamed("run"), {
      steps: file.steps,
      params: { password_2: "another-secret" },
    });
    assert.ok(replay.ok && replay.outcome === "done", JSON.stringify(replay));
    assert.equal(fresh.field(0).text, "Ada");
    assert.equal(fresh.field(2).text, "another-secret");
    await fresh.context.close();
  });

  it("a form filled by refs is recorded by its fields' names in the window's title; its password is a parameter", async () => {
    const { context } = desktop();
    const path = join(dir, "form.json");
    context.sessionState.set(RECORDER, new Recorder(path));
    const refOf = async (role: string, name: string) => {
      const found = await callTool(context, toolNamed("find"), { target, role, name });
      assert.ok(found.ok);
      return (found.output.data.matches as { ref: string }[])[0]!.ref;
    };
    const refs = { Name: await refOf("text", "Name"), Password: await refOf("password text", "Password") };
    const ref = (name: "Name" | "Password") => refs[name];
    const filled = await callTool(context, toolNamed("fill_form"), {
      fields: [
        { ref: ref("Name"), value: "Ada" },
        { ref: ref("Password"), value: "hunter2-secret" },
      ],
    });
    assert.ok(filled.ok && filled.outcome === "done", JSON.stringify(filled));
    const written = readFileSync(path, "utf8");
    assert.doesNotMatch(written, /hunter2/);
    const step = JSON.parse(written).steps[0];
    assert.deepEqual(step.args.target, target, "the window by its title, escaped as a glob");
    assert.deepEqual(step.args.fields[0], { label: "Name", value: "Ada" });
    assert.deepEqual(step.args.fields[1].label, "Password");
    assert.ok(step.args.fields[1].value.$param, written);
    await context.close();
  });
});

describe("recording a seed profile's tool", () => {
  it("records the steps it made of deskhand's own tools, never its own call: its text stays out", async () => {
    const { context } = desktop();
    const path = join(dir, "profile.json");
    context.sessionState.set(RECORDER, new Recorder(path));
    const mainType = PROFILES.daimon!.tools.find((t) => t.name === "main_type")!;
    const typed = await callTool(context, mainType, { text: "hunter2-secret", intent: "Type it" });
    assert.ok(typed.ok && typed.outcome === "done", JSON.stringify(typed));
    const written = readFileSync(path, "utf8");
    assert.doesNotMatch(written, /hunter2/, "the profile tool's text is not in the file");
    // Replay runs steps through deskhand's own tools: a profile's tool could not be replayed.
    assert.deepEqual(
      JSON.parse(written).steps.map((s: { tool: string }) => s.tool),
      ["type_text"],
    );
    await context.close();
  });
});

describe("a window that comes after the reply's read", () => {
  // As Swing does: the action runs later, on the app's own thread, and its dialog maps later still.
  // A press is given OPENING_SETTLE_MS (600 ms) after its wait; a dialog later still is the recorder's.
  const lateDialog = (button: string, afterMs = 600) =>
    fakeContext({
      windows: [
        {
          id: 7,
          title: "Editor",
          pid: 11,
          app: "fake",
          rect,
          focused: true,
          root: {
            role: "frame",
            name: "Editor",
            bounds: rect,
            children: [
              {
                role: "push button",
                name: button,
                actions: ["click"],
                bounds: { x: 20, y: 40, width: 80, height: 24 },
              },
            ],
          },
        },
      ],
      hands: { windows: [{ id: 7, rect }], active: 7 },
      dir,
      react: (_element, _action, fake) => {
        setTimeout(
          () => fake.windows.push({ id: 8, title: "Open File", pid: 11, app: "fake", rect }),
          afterMs,
        );
      },
    }).context;
  const press = (context: ReturnType<typeof lateDialog>, button: string) =>
    callTool(context, toolNamed("act"), {
      find: { target: { kind: "title", glob: "Editor" }, role: "push button", name: button },
      action: { kind: "invoke" },
    });

  it("is waited for by the recorder, expected by the step and said in the reply", async () => {
    const context = lateDialog("Browse", 1200);
    const path = join(dir, "late.json");
    context.sessionState.set(RECORDER, new Recorder(path));
    try {
      const acted = await press(context, "Browse");
      assert.ok(acted.ok && acted.outcome === "done", JSON.stringify(acted));
      assert.doesNotMatch(acted.output.text, /^window appeared/m, "the receipt's own read was too early");
      assert.match(acted.output.text, /recording: window appeared after the reply's read: 8 "Open File"/);
      const step = JSON.parse(readFileSync(path, "utf8")).steps[0];
      assert.deepEqual(step.expect.condition, { kind: "window", title: "Open File", state: "appears" });
    } finally {
      await context.close();
    }
  });

  it("is waited for by the receipt itself when the label promises it with an ellipsis", async () => {
    const context = lateDialog("Open…");
    try {
      const acted = await press(context, "Open…");
      assert.ok(acted.ok && acted.outcome === "done", JSON.stringify(acted));
      assert.match(acted.output.text, /^window appeared: 8 "Open File"$/m, acted.output.text);
    } finally {
      await context.close();
    }
  });
});

describe("a recording that cannot be written", () => {
  it("does not turn a done call into a failure: the reply says the step was not written", async () => {
    const { context, field } = desktop();
    const path = join(dir, "gone", "step.json");
    const recorder = new Recorder(path);
    context.sessionState.set(RECORDER, recorder);
    // The folder goes away under the recorder: its next write fails.
    rmSync(join(dir, "gone"), { recursive: true, force: true });
    writeFileSync(join(dir, "gone"), "a file where the folder was");
    const acted = await callTool(context, toolNamed("act"), {
      find: { target, role: "text", name: "Name" },
      action: { kind: "set_value", text: "Ada" },
    });
    assert.ok(acted.ok && acted.outcome === "done", JSON.stringify(acted));
    assert.equal(field(0).text, "Ada", "the call was done");
    assert.match(acted.output.text, /recording: this step could not be written/);
    rmSync(join(dir, "gone"), { force: true });
    await context.close();
  });
});

describe("a recording on a full disk", () => {
  // Root mounts a 64 KiB tmpfs and fills it (the test is skipped where mounting is not allowed).
  const disk = join(dir, "small");
  mkdirSync(disk);
  const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", disk]).status === 0;
  after(() => {
    if (mounted) execFileSync("umount", [disk]);
  });

  it("leaves no .tmp file: the half-written one goes, the last whole recording stays, the reply says why", {
    skip: !mounted && "mounting a tmpfs needs root",
  }, async () => {
    const { context, field } = desktop();
    const path = join(disk, "full.json");
    context.sessionState.set(RECORDER, new Recorder(path));
    const written = readFileSync(path, "utf8");
    const fd = openSync(join(disk, "filler"), "w");
    try {
      for (;;) writeSync(fd, Buffer.alloc(4096));
    } catch {
      // Full.
    } finally {
      closeSync(fd);
    }
    const acted = await callTool(context, toolNamed("act"), {
      find: { target, role: "text", name: "Name" },
      action: { kind: "set_value", text: "Ada" },
    });
    assert.ok(acted.ok && acted.outcome === "done", JSON.stringify(acted));
    assert.equal(field(0).text, "Ada", "the call was done");
    assert.match(acted.output.text, /recording: this step could not be written \(ENOSPC/);
    assert.deepEqual(readdirSync(disk).sort(), ["filler", "full.json"], "no .tmp file is left");
    assert.equal(readFileSync(path, "utf8"), written, "the recording as last written");
    await context.close();
  });
});

describe("a window that goes with its app during a step", () => {
  // The press closes the window; the app's process is either still there, or gone (a crash).
  const closing = (pid: number) =>
    fakeContext({
      windows: [
        {
          id: 7,
          title: "Viewer",
          pid,
          app: "fake",
          rect,
          focused: true,
          root: {
            role: "frame",
            name: "Viewer",
            bounds: rect,
            children: [
              {
                role: "push button",
                name: "Go",
                actions: ["click"],
                bounds: { x: 20, y: 40, width: 80, height: 24 },
              },
            ],
          },
        },
      ],
      hands: { windows: [{ id: 7, rect }], active: 7 },
      dir,
      react: (_element, _action, fake) => {
        fake.windows.splice(0, 1);
      },
    }).context;
  const recordPress = async (pid: number, name: string) => {
    const context = closing(pid);
    const path = join(dir, `${name}.json`);
    context.sessionState.set(RECORDER, new Recorder(path));
    try {
      const acted = await callTool(context, toolNamed("act"), {
        find: { target: { kind: "title", glob: "Viewer" }, role: "push button", name: "Go" },
        action: { kind: "invoke" },
      });
      assert.ok(acted.ok && acted.outcome === "done", JSON.stringify(acted));
      return JSON.parse(readFileSync(path, "utf8")).steps[0];
    } finally {
      await context.close();
    }
  };

  it("its app still running: the step expects the window to go", async () => {
    const step = await recordPress(process.pid, "closed");
    assert.deepEqual(step.expect.condition, { kind: "window", title: "Viewer", state: "disappears" });
  });

  it("its app ended (crashed, killed): no expect, and the step's note says what happened", async () => {
    const ended = spawnSync("true").pid;
    const step = await recordPress(ended, "crashed");
    assert.equal(step.expect, undefined, JSON.stringify(step));
    assert.match(step.note, /went with its app during this step .*replay does not expect it/);
  });
});
