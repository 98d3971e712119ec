// One judge for what an input sets, by every route: a value set on a slider, an option chosen in a
// list (act, fill_form, the three seed profiles), the options a wheel turns a combo box through, a
// run's or a replayed recording's step, what a moving key sets (for the key route), and the command
// a double click's first press reveals. What commits is refused with no person to ask, and the fake
// app is read again: unchanged; what does not commit is done.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, it } from "node:test";
import { dispatch } from "../../src/frontends/ndjson/protocol.js";
import { PROFILES } from "../../src/frontends/profiles/index.js";
import type { FakeElement } from "../../src/platform/fake/backend.js";
import type { State } from "../../src/platform/roles.js";
import { commitReason } from "../../src/safety/classify.js";
import { type CallResult, callTool } from "../../src/tools/call.js";
import { keyedFacts } from "../../src/tools/hands/sets.js";
import { toolNamed } from "../../src/tools/registry.js";
import { recordedSteps } from "../../src/tools/run.js";
import { fakeContext, oneWindow } from "./fake-desktop.js";

const dir = mkdtempSync(join(tmpdir(), "deskhand-one-judge-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const shown: State[] = ["enabled", "sensitive", "showing", "visible", "focusable"];
const rect = { x: 0, y: 0, width: 400, height: 300 };
const TITLE = "Checkout";
const target = { kind: "title", glob: TITLE };

const slider = (name: string, y: number): FakeElement => ({
  role: "slider",
  name,
  value: "0",
  states: shown,
  interfaces: ["Accessible", "Component", "Value"],
  bounds: { x: 20, y, width: 200, height: 20 },
});
/** A GTK 3 combo box: named by its chosen option, its options the items of its menu. */
const combo = (chosen: string, options: string[], y: number): FakeElement => ({
  role: "combo box",
  name: chosen,
  states: shown,
  actions: ["press"],
  interfaces: ["Accessible", "Component", "Action", "Selection"],
  bounds: { x: 20, y, width: 200, height: 24 },
  children: [
    {
      role: "menu",
      states: ["enabled", "sensitive", "visible"],
      children: options.map((name) => ({
        role: "menu item" as const,
        name,
        states: ["enabled", "sensitive", "visible", ...(name === chosen ? (["selected"] as State[]) : [])],
      })),
    },
  ],
});

function desktop() {
  const children = [
    slider("Slide to pay", 40),
    slider("Volume", 80),
    combo("Keep", ["Keep", "Truncate all tables"], 120),
    combo("Medium", ["Small", "Medium", "Delete all"], 160),
  ];
  const made = fakeContext({
    windows: [
      {
        id: 7,
        title: TITLE,
        pid: 11,
        app: "fake",
        rect,
        focused: true,
        toolkit: "J2SE-access-bridge",
        root: { role: "frame", name: TITLE, bounds: rect, children },
      },
    ],
    hands: { windows: [{ id: 7, rect }], active: 7 },
    dir,
  });
  const [pay, volume, actions, size] = children as [FakeElement, FakeElement, FakeElement, FakeElement];
  return { ...made, pay, volume, actions, size };
}

const refused = (r: CallResult) =>
  assert.equal(
    r.ok ? (r.output.data as { status?: string }).status : r.outcome,
    "refused",
    JSON.stringify(r),
  );
const done = (r: CallResult) =>
  assert.ok(r.ok && (r.output.data as { status?: string }).status !== "refused", JSON.stringify(r));

/** The journal's last line, for the words the judge gave. */
const lastLine = () => JSON.parse(readFileSync(join(dir, "audit.jsonl"), "utf8").trim().split("\n").at(-1)!);

it("a value set on a slider is judged by its words, by act, NDJSON and element_act: Slide to pay refused, Volume set", async () => {
  const { context, pay, volume } = desktop();
  const act = toolNamed("act");
  const paid = await callTool(context, act, {
    find: { target, role: "slider", name: "Slide to pay" },
    action: { kind: "set_range", value: 100 },
  });
  refused(paid);
  // The same set through NDJSON's method and Ouroboros's element_act (a set_value of its text).
  const found = await callTool(context, toolNamed("find"), { target, role: "slider", name: "Slide to pay" });
  assert.ok(found.ok, JSON.stringify(found));
  const ref = (found.output.data.matches as { ref: string }[])[0]!.ref;
  await assert.rejects(dispatch(context, "set_range", { ref, value: 100 }), /pay/);
  const elementAct = PROFILES.ouroboros!.tools.find((t) => t.name === "element_act")!;
  const args = { hwnd: 7, name: "Slide to pay", action: "set_value", text: "100" };
  refused(await callTool(context, elementAct, args));
  assert.equal(pay.value, "0", "the slider did not move");
  assert.match(lastLine().reason, /pay/);
  done(
    await callTool(context, act, {
      find: { target, role: "slider", name: "Volume" },
      action: { kind: "set_range", value: 40 },
    }),
  );
  assert.equal(volume.value, "40", "the volume was set");
  await context.close();
});

it("a committing option is refused through act, fill_form and the three seed profiles", async () => {
  const { context, actions } = desktop();
  const option = "Truncate all tables";
  const ref = async () => {
    const found = await callTool(context, toolNamed("find"), { target, role: "combo box", name: "Keep" });
    assert.ok(found.ok, JSON.stringify(found));
    return (found.output.data.matches as { ref: string }[])[0]!.ref;
  };
  const tools = (profile: string, name: string) => PROFILES[profile]!.tools.find((t) => t.name === name)!;
  refused(
    await callTool(context, toolNamed("act"), { ref: await ref(), action: { kind: "select", option } }),
  );
  refused(
    await callTool(context, toolNamed("fill_form"), {
      fields: [{ ref: await ref(), value: option }],
      typed_fallback: false,
    }),
  );
  refused(
    await callTool(context, tools("ouroboros", "element_act"), {
      hwnd: 7,
      name: "Keep",
      action: "select",
      option,
    }),
  );
  const attached = await callTool(context, tools("pyjab", "java_attach_window"), { hwnd: 7 });
  assert.ok(attached.ok, JSON.stringify(attached));
  const session_id = attached.output.data.session_id as string;
  const found = await callTool(context, tools("pyjab", "java_find"), { session_id, name: "Keep" });
  assert.ok(found.ok, JSON.stringify(found));
  const handle = (found.output.data.matches as { handle: string }[])[0]!.handle;
  refused(await callTool(context, tools("pyjab", "java_select"), { session_id, handle, option }));
  assert.equal(actions.name, "Keep", "nothing was chosen");
  await context.close();
});

it("the wheel over a combo box is judged by the options it turns through", async () => {
  const { context, hands, size } = desktop();
  const wheel = toolNamed("wheel");
  const at = { space: "global", x: 120, y: 172 };
  // Down from "Medium" chooses "Delete all": refused, by deskhand's wheel and Daimon's main_navigate.
  refused(await callTool(context, wheel, { at, direction: "down", notches: 1, intent: "Next size" }));
  const navigate = PROFILES.daimon!.tools.find((t) => t.name === "main_navigate")!;
  refused(await callTool(context, navigate, { intent: "Next size", scroll_y: -120, x: 120, y: 172 }));
  assert.match(lastLine().reason, /Delete all/);
  assert.deepEqual(
    hands.sent.filter((s) => s.startsWith("wheel")),
    [],
    "no wheel turned",
  );
  // Up chooses "Small": done, and the wheel turned.
  done(await callTool(context, wheel, { at, direction: "up", notches: 1, intent: "Smaller" }));
  assert.deepEqual(
    hands.sent.filter((s) => s.startsWith("wheel")),
    ["wheel up 1 at 120,172"],
  );
  assert.equal(size.name, "Medium", "the fake app's wheel does nothing itself");
  await context.close();
});

it("a run's and a replayed recording's set_range step is judged like the call", async () => {
  const { context, pay, volume } = desktop();
  const step = (name: string, value: number) => ({
    tool: "act",
    find: { target, role: "slider", name },
    args: { action: { kind: "set_range", value }, intent: "Set it" },
    element: { role: "slider", name },
  });
  const steps = recordedSteps([step("Volume", 30), step("Slide to pay", 100)]);
  const replayed = await callTool(context, toolNamed("run"), { steps });
  assert.ok(replayed.ok && replayed.outcome === "refused", JSON.stringify(replayed));
  assert.match(replayed.output.text, /^refused: the run stopped at step 2 of 2/);
  assert.equal(volume.value, "30", "the first step was done");
  assert.equal(pay.value, "0", "the refused step did nothing");
  await context.close();
});

it("a moving key on a focused slider or combo box is judged by what it sets (for the key route)", async () => {
  const { context } = desktop();
  const focused = async (role: string, name: string) => {
    const found = await callTool(context, toolNamed("find"), { target, role, name });
    assert.ok(found.ok, JSON.stringify(found));
    const entry = context.refs.lookup((found.output.data.matches as { ref: string }[])[0]!.ref);
    return { role, name, handle: entry.handle };
  };
  const commits = async (role: string, name: string, key: string) => {
    const facts = await keyedFacts(context, await focused(role, name), { name: key, count: 1 }, 7);
    assert.ok(facts, `${key} sets something in ${name}`);
    return facts.map((f) => commitReason(f)).filter(Boolean);
  };
  assert.match(String(await commits("slider", "Slide to pay", "End")), /pay/);
  assert.deepEqual(await commits("slider", "Volume", "Right"), []);
  assert.match(String(await commits("combo box", "Medium", "Down")), /Delete all/);
  assert.deepEqual(await commits("combo box", "Medium", "Up"), [], "Up chooses Small");
  assert.match(String(await commits("combo box", "Keep", "End")), /Truncate all tables/);
  const typed = await keyedFacts(context, await focused("slider", "Volume"), { name: "a", count: 1 }, 7);
  assert.equal(typed, undefined, "a letter sets no value");
  await context.close();
});

it("a double click on a row that holds a hidden command is judged by it: its first press may reveal it", async () => {
  const row = (name: string, y: number, hidden?: string): FakeElement => ({
    role: "list item",
    name,
    states: [...shown, "selectable"],
    actions: ["activate"],
    interfaces: ["Accessible", "Component", "Action"],
    bounds: { x: 20, y, width: 300, height: 30 },
    children: [
      { role: "label", name, states: shown, bounds: { x: 20, y, width: 200, height: 30 } },
      ...(hidden
        ? [
            {
              role: "push button" as const,
              name: hidden,
              actions: ["click"],
              states: ["enabled", "sensitive", "visible"] as State[],
            },
          ]
        : []),
    ],
  });
  const { context, hands } = oneWindow(
    "Files",
    [
      {
        role: "list box",
        states: shown,
        children: [row("notes.txt", 40, "Delete"), row("todo.txt", 80, "Rename")],
      },
    ],
    dir,
  );
  const files = { kind: "title", glob: "Files" };
  const refOf = async (name: string) => {
    const found = await callTool(context, toolNamed("find"), { target: files, role: "list item", name });
    assert.ok(found.ok, JSON.stringify(found));
    return (found.output.data.matches as { ref: string }[])[0]!.ref;
  };
  const click = toolNamed("click");
  refused(await callTool(context, click, { ref: await refOf("notes.txt"), count: 2, intent: "Open notes" }));
  assert.match(lastLine().reason, /Delete/);
  assert.deepEqual(
    hands.sent.filter((s) => s.startsWith("click")),
    [],
    "nothing was clicked",
  );
  done(await callTool(context, click, { ref: await refOf("todo.txt"), count: 2, intent: "Open todo" }));
  assert.equal(
    hands.sent.filter((s) => s.startsWith("click left 2")).length,
    1,
    "todo.txt was double-clicked",
  );
  await context.close();
});

it("a drag that starts on a slider sets its value: judged by the slider's words, not as a drop", async () => {
  const { context, hands } = desktop();
  const drag = toolNamed("drag");
  const along = (y: number, toY = y) => ({
    from: { at: { space: "global", x: 60, y } },
    to: { at: { space: "global", x: 210, y: toY } },
    intent: "Slide it",
  });
  refused(await callTool(context, drag, along(50)));
  assert.match(lastLine().reason, /pay/);
  assert.deepEqual(
    hands.sent.filter((s) => s.startsWith("drag")),
    [],
    "nothing was dragged",
  );
  // Volume's knob released over "Slide to pay": Volume holds the pointer, and is what is set.
  done(await callTool(context, drag, along(90, 50)));
  assert.deepEqual(
    hands.sent.filter((s) => s.startsWith("drag")),
    ["drag left 60,90 to 210,50"],
  );
  await context.close();
});
