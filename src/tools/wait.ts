import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { globMatch } from "../core/glob.js";
import { rememberWindows, type ToolContext } from "./context.js";
import { findQueryShape, oneQuery, searchUntil } from "./find.js";
import { refText } from "./read-text.js";
import { globSchema, refSchema } from "./schemas.js";
import { defineTool, READ_ONLY } from "./tool.js";

const conditionSchema = z.discriminatedUnion("kind", [
  z.strictObject({
    kind: z.literal("window"),
    title: globSchema,
    state: z.enum(["appears", "disappears"]).default("appears"),
  }),
  z
    .strictObject({
      kind: z.literal("text"),
      ref: refSchema,
      equals: z.string().optional().describe("omit: any change"),
    })
    .describe("text or value"),
  oneQuery(
    z.strictObject({
      kind: z.literal("element"),
      ...findQueryShape,
      state: z.enum(["appears", "enabled"]).default("appears"),
    }),
  ),
]);

type Condition = z.output<typeof conditionSchema>;
type Observation = { met: boolean; seen: unknown };

/** Its value (a spin button, a slider), else the text it shows as read_text reads it, else its name. */
async function textOf(context: ToolContext, ref: string): Promise<string | null> {
  const { node, read } = await refText(context, ref);
  return node.value ?? read?.text ?? node.name ?? null;
}

async function observe(
  context: ToolContext,
  condition: Condition,
  initial: string | null,
): Promise<Observation> {
  switch (condition.kind) {
    case "window": {
      const windows = await (await context.backend()).listWindows();
      const titles = windows.map((w) => w.title);
      const present = titles.some((t) => globMatch(condition.title, t));
      const met = condition.state === "appears" ? present : !present;
      // The window the wait saw come is known: the next acting reply does not announce it again.
      if (met) rememberWindows(context, windows);
      return { met, seen: titles };
    }
    case "text": {
      const now = await textOf(context, condition.ref);
      const met = condition.equals !== undefined ? now === condition.equals : now !== initial;
      return { met, seen: { before: initial, now } };
    }
    case "element": {
      const result = await searchUntil(context, condition as never, 5, 0);
      const first = result.matches[0];
      const enabled = first?.states?.includes("enabled") || first?.states?.includes("sensitive");
      const met = condition.state === "appears" ? result.total > 0 : Boolean(enabled);
      return { met, seen: first ?? null };
    }
  }
}

export const waitTool = defineTool({
  name: "wait",
  group: "read",
  title: "Wait",
  description: "Wait for a window, a text or an element (see condition). A timeout is a result.",
  level: "L1",
  annotations: READ_ONLY,
  input: z.object({
    condition: conditionSchema,
    timeout_ms: z.number().int().min(0).max(120_000).default(5000),
    poll_ms: z.number().int().min(20).max(5000).default(200),
  }),
  async handler(context, input) {
    const started = Date.now();
    const initial = input.condition.kind === "text" ? await textOf(context, input.condition.ref) : null;
    for (;;) {
      const observation = await observe(context, input.condition, initial);
      const waited = Date.now() - started;
      const cancelled = context.signal?.aborted ?? false;
      if (observation.met || waited >= input.timeout_ms || cancelled) {
        const data = {
          cancelled,
          met: observation.met,
          waited_ms: waited,
          condition: input.condition.kind,
          seen: observation.seen,
        };
        const text = observation.met
          ? `Met after ${waited} ms. Seen: ${JSON.stringify(observation.seen).slice(0, 400)}`
          : `Not met after ${waited} ms (a timeout is an answer, not an error). Seen: ${JSON.stringify(observation.seen).slice(0, 400)}`;
        return { data, text };
      }
      await sleep(Math.min(input.poll_ms, input.timeout_ms - waited));
    }
  },
});
