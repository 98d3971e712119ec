import { z } from "zod";
import { afterRead, type Receipt, renderReceipt, windowChanges } from "../core/receipt.js";
import { verifyRef } from "../core/verify.js";
import type { SemanticAction } from "../platform/types.js";
import type { ToolContext } from "./context.js";
import { refSchema } from "./schemas.js";
import { defineTool } from "./tool.js";

const scrollAmount = z.enum([
  "no_amount",
  "small_increment",
  "small_decrement",
  "large_increment",
  "large_decrement",
]);

export const semanticActionSchema = z.discriminatedUnion("kind", [
  z
    .object({ kind: z.literal("invoke") })
    .describe("Press, click or activate, through the element's own action"),
  z.object({ kind: z.literal("toggle") }).describe("Flip a check box, toggle button or radio"),
  z.object({ kind: z.literal("set_value"), text: z.string().describe('The new text; "" clears it') }),
  z
    .object({ kind: z.literal("set_range"), value: z.number().finite() })
    .describe("A slider's or spinner's value"),
  z.object({ kind: z.literal("focus") }),
  z
    .object({
      kind: z.literal("select"),
      option: z
        .string()
        .min(1)
        .optional()
        .describe("An option of a combo box, list or tab list, by its text"),
      row: z.number().int().min(0).optional().describe("A table row"),
      column: z.number().int().min(0).optional().describe("With row: one cell"),
    })
    .refine((s) => s.column === undefined || s.row !== undefined, {
      message: "column needs row",
      path: ["column"],
    })
    .refine((s) => s.option === undefined || s.row === undefined, {
      message: "give option or row, not both",
      path: ["option"],
    }),
  z.object({ kind: z.literal("expand") }),
  z.object({ kind: z.literal("collapse") }),
  z.object({ kind: z.literal("scroll_into_view") }),
  z.object({
    kind: z.literal("scroll"),
    horizontal: scrollAmount.default("no_amount"),
    vertical: scrollAmount.default("no_amount"),
  }),
]);

export const actInput = z.object({
  ref: refSchema,
  action: semanticActionSchema,
  waitMs: z.number().int().min(0).max(5000).default(100).describe("Pause before re-reading the element"),
  timeoutMs: z.number().int().min(100).max(30_000).default(2000).describe("Bound on the action call itself"),
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Verify, act, wait, re-read: the one path every semantic action takes. */
export async function runAction(context: ToolContext, input: z.output<typeof actInput>): Promise<Receipt> {
  const backend = await context.backend();
  const [{ entry, node }, before] = await Promise.all([
    verifyRef(backend, context.refs, input.ref),
    backend.listWindows(),
  ]);
  const report = await backend.perform(entry.handle, input.action as SemanticAction, {
    timeoutMs: input.timeoutMs,
    node,
  });
  await sleep(input.waitMs);
  const after = await backend.listWindows();
  const receipt: Receipt = {
    ref: input.ref,
    action: input.action.kind,
    route: report.route,
    action_outcome: report.outcome,
    ...(report.returned === undefined ? {} : { returned: report.returned }),
    ...(report.detail ? { detail: report.detail } : {}),
    ...(await afterRead(backend, entry.handle, entry.fingerprint.windowId)),
    ...windowChanges(before, after),
  };
  return receipt;
}

export const actTool = defineTool({
  name: "act",
  title: "Act on an element",
  description:
    "Act on the element a ref names, through its own accessibility interfaces: invoke, toggle, set_value, " +
    "set_range, focus, select (option, table row or cell), expand, collapse, scroll_into_view, scroll. The ref is " +
    "verified first (role, name, index, bounds); if the element changed, nothing is done and the differences come " +
    "back. The receipt says which route carried the action, whether the call returned, the element as re-read " +
    "afterwards, and which windows appeared or went. It never claims the goal was reached. No mouse or keyboard input.",
  level: "L2",
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  input: actInput,
  async handler(context, input) {
    const receipt = await runAction(context, input);
    return { data: receipt as unknown as Record<string, unknown>, text: renderReceipt(receipt) };
  },
});
