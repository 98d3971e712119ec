// Checked by the typecheck step (`npm run typecheck`), never run: each `@ts-expect-error` below must
// meet a compile error, or the typecheck fails. What cannot be written is the proof.
import { z } from "zod";
import { runData, runTool } from "../../src/frontends/profiles/run.js";
import type { FakeElement } from "../../src/platform/fake/backend.js";
import { roleSet } from "../../src/platform/roles.js";
import type { RawNode } from "../../src/platform/types.js";
import type { ToolContext } from "../../src/tools/context.js";
import { findElementsTool } from "../../src/tools/find.js";
import { pressesNothing } from "../../src/tools/hands/attempt.js";
import { clickTool } from "../../src/tools/hands/pointer.js";
import { windowTool } from "../../src/tools/hands/window.js";
import { defineInputTool } from "../../src/tools/input-tool.js";
import { toolNamed } from "../../src/tools/registry.js";
import { defineTool, READ_ONLY } from "../../src/tools/tool.js";
import { windowsTool } from "../../src/tools/windows.js";

const handler = async () => ({ data: {}, text: "" });

// A tool without a level does not compile: the gate and the listing read it.
// @ts-expect-error: level is required
defineTool({
  name: "no_level",
  title: "t",
  description: "d",
  annotations: READ_ONLY,
  input: z.object({}),
  handler,
});

// A level that is not one of L1–L4 does not compile.
defineTool({
  name: "bad_level",
  title: "t",
  description: "d",
  // @ts-expect-error: "L5" is no level
  level: "L5",
  annotations: READ_ONLY,
  input: z.object({}),
  handler,
});

// destructiveHint is not declared by hand: it follows from the highest level.
defineTool({
  name: "declared_destructive",
  title: "t",
  description: "d",
  level: "L2",
  highest: "L3",
  // @ts-expect-error: destructiveHint is derived (annotationsOf)
  annotations: { ...READ_ONLY, destructiveHint: false },
  input: z.object({}),
  handler,
});

// A handler that returns no text does not compile: every reply says what happened.
defineTool({
  name: "no_text",
  title: "t",
  description: "d",
  level: "L1",
  annotations: READ_ONLY,
  input: z.object({}),
  // @ts-expect-error: text is required
  handler: async () => ({ data: {} }),
});

// One tool run from another is the tool itself, its input and its reply typed by the compiler.
declare const context: ToolContext;
// @ts-expect-error: click has no argument button_name
void runTool(context, clickTool, { intent: "Press it", button_name: "left" });
// @ts-expect-error: window's action is one of focus, minimize, hide, show, close
void runTool(context, windowTool, { action: "maximise", window: { id: 1 }, intent: "Bigger" });
// @ts-expect-error: a tool is run by object; a name is not one
void runTool(context, "click", { intent: "Press it" });
async function typedReplies() {
  const listed = await runData(context, windowsTool, {});
  void listed.windows[0]?.title;
  // @ts-expect-error: the windows reply has no "windowz"
  void listed.windowz;
  const found = await runData(context, findElementsTool, { role: "push button" });
  // @ts-expect-error: a match's ref is a string, not a number
  const ref: number = found.matches[0]!.ref;
  void ref;
}
void typedReplies;

// Roles are the platform's vocabulary: a misspelled one, or one no backend sends, does not compile.
// @ts-expect-error: "push buton" is no role
roleSet("push button", "push buton");
// @ts-expect-error: AT-SPI has no "default button" role (a default button is a push button)
roleSet("default button");
// @ts-expect-error: a fake desktop's elements take the vocabulary's roles too
const element: FakeElement = { role: "buton" };
void element;

// A tool's context reads; acting comes only from the gate (guard.ts): these do not compile.
async function actsAroundTheGate() {
  // @ts-expect-error: the context's backend has no perform (an accessibility action needs the gate)
  await (await context.backend()).perform("h", { kind: "invoke" }, { timeoutMs: 1 });
  // @ts-expect-error: the context's hands send no input (a click needs the gate)
  await (await context.hands()).click({ x: 1, y: 1 }, { button: "left", count: 1, modifiers: [] });
  // @ts-expect-error: nor change windows
  await (await context.hands()).closeWindow(1);
}
void actsAroundTheGate;

// States and single role comparisons are typed too: a misspelling is a compile error.
declare const node: RawNode;
// @ts-expect-error: "push buton" is no role, so the comparison can never hold
void (node.role === "push buton");
// @ts-expect-error: "focussed" is no state
void node.states?.includes("focussed");
// @ts-expect-error: "Texts" is no interface
void node.interfaces?.includes("Texts");

// A group that `--tools` does not serve does not compile: the groups are a closed list.
defineTool({
  name: "bad_group",
  // @ts-expect-error: "reading" is no group (read, act, hands, pixels, raw, run)
  group: "reading",
  title: "t",
  description: "d",
  level: "L1",
  annotations: READ_ONLY,
  input: z.object({}),
  handler,
});

const unnamed = {
  nominal: "L2" as const,
  intent: "i",
  reversible: true,
  ensureFocus: false,
  execute: async () => ({}),
  describe: () => "",
};
const plan = async () => ({ ...unnamed, presses: pressesNothing("moves the pointer") });

// An input that does not name what it activates or changes is not sent: it does not compile, and
// saying it presses nothing is said by name, which the judge sees (pressesNothing).
defineInputTool({
  name: "unnamed_press",
  title: "t",
  description: "d",
  level: "L2",
  annotations: READ_ONLY,
  input: z.object({}),
  // @ts-expect-error: presses is required
  plan: async () => unnamed,
});

// An input tool plans; its declaration gates and sends the plan under the tool's own name. A handler
// of its own, which could send around the gate or under another name, does not compile.
defineInputTool({
  name: "own_handler",
  group: "hands",
  title: "t",
  description: "d",
  level: "L2",
  annotations: READ_ONLY,
  input: z.object({}),
  plan,
  // @ts-expect-error: an input tool has no handler; its plan is sent by the declaration
  handler,
});
// What a press may open is one of three declared ways, not a name.
defineInputTool({
  name: "bad_opens",
  title: "t",
  description: "d",
  level: "L2",
  annotations: READ_ONLY,
  // @ts-expect-error: "menu" is not one of place, chord, text
  opens: "menu",
  input: z.object({}),
  plan,
});

// Tool names are a type derived from the registry: a misspelt one does not compile.
// @ts-expect-error: there is no tool "clik"
toolNamed("clik");
