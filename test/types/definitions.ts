// Checked by the typecheck step (`npm run typecheck`), never run: each `@ts-expect-error` below must
// meet a compile error, or the typecheck fails. What cannot be written is the proof.
import { z } from "zod";
import { runTool } from "../../src/frontends/profiles/run.js";
import type { FakeElement } from "../../src/platform/fake/backend.js";
import { roleSet } from "../../src/platform/vocabulary.js";
import type { ToolContext } from "../../src/tools/context.js";
import { defineTool, READ_ONLY } from "../../src/tools/tool.js";

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

// One tool run from another is named and given its input under the compiler's eye.
declare const context: ToolContext;
// @ts-expect-error: no tool is named "clik"
void runTool(context, "clik", {});
// @ts-expect-error: click has no argument button_name
void runTool(context, "click", { intent: "Press it", button_name: "left" });
// @ts-expect-error: window's action is one of focus, minimize, hide, show, close
void runTool(context, "window", { action: "maximise", window: { id: 1 }, intent: "Bigger" });

// Roles are the platform's vocabulary: a misspelled one, or one no backend sends, does not compile.
// @ts-expect-error: "push buton" is no role
roleSet("push button", "push buton");
// @ts-expect-error: AT-SPI has no "default button" role (a default button is a push button)
roleSet("default button");
// @ts-expect-error: a fake desktop's elements take the vocabulary's roles too
const element: FakeElement = { role: "buton" };
void element;
