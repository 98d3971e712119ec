import { z } from "zod";
import { asDeskhandError } from "../core/errors.js";
import { type Receipt, renderReceipt } from "../core/receipt.js";
import { PASSWORD_ROLE } from "../platform/types.js";
import { runAction } from "./act.js";
import type { ToolContext } from "./context.js";
import { typeText } from "./hands/keyboard.js";
import { intentSchema } from "./hands/schemas.js";
import { refSchema } from "./schemas.js";
import { defineTool } from "./tool.js";

/** The role the ref was handed out with, if the ref is known (its action verifies it anyway). */
function fieldRole(context: ToolContext, ref: string): string | undefined {
  try {
    return context.refs.lookup(ref).fingerprint.role;
  } catch {
    return undefined;
  }
}

interface FieldResult {
  ref: string;
  /** Only when it reads back as asked. */
  set: boolean;
  route?: "accessibility" | "typed";
  receipt?: Receipt;
  error?: Record<string, unknown>;
  typed?: Record<string, unknown>;
}

// Errors after which typing is worth a try: the field took the value through no interface it has.
const TYPE_AFTER = new Set(["unsupported_pattern", "action_failed"]);

export const fillFormTool = defineTool({
  name: "fill_form",
  title: "Fill several fields",
  description:
    "Set several fields in one call: [{ref, value}], in order. Text fields get set_value, sliders and spinners " +
    "set_range with a numeric value; where that has no effect (Firefox, a Swing spinner) the field is focused and " +
    "the value typed instead (typed_fallback: false turns that off). A field counts as set only when it reads back " +
    "as asked. Every field is attempted, whatever happens to the others, and each gets its own line: the route " +
    "that set it, or why not. Only malformed input is an error.",
  level: "L2",
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  input: z.object({
    fields: z
      .array(z.object({ ref: refSchema, value: z.union([z.string(), z.number().finite()]) }))
      .min(1)
      .max(100),
    intent: intentSchema.optional(),
    typed_fallback: z
      .boolean()
      .default(true)
      .describe("Type the value with the real keyboard where the accessibility route has no effect"),
  }),
  async handler(context, input) {
    const results: FieldResult[] = [];
    // One intent covers every field, so every line keeps every field's value out, not just its own.
    const secrets = input.fields.map((f) => ({
      text: String(f.value),
      password: fieldRole(context, f.ref) === PASSWORD_ROLE,
    }));
    for (const field of input.fields) {
      const expected = String(field.value);
      const others = secrets.filter((s) => s.text !== expected);
      const action =
        typeof field.value === "number"
          ? { kind: "set_range" as const, value: field.value }
          : { kind: "set_value" as const, text: field.value };
      let failure: FieldResult | undefined;
      try {
        const receipt = await runAction(
          context,
          {
            ref: field.ref,
            action,
            waitMs: 50,
            timeoutMs: 2000,
            reversible: true,
            ...(input.intent ? { intent: input.intent } : {}),
          },
          secrets,
        );
        const after = receipt.after?.value;
        const matches = after !== undefined && (after === expected || Number(after) === Number(expected));
        if (matches) {
          results.push({ ref: field.ref, set: true, route: "accessibility", receipt });
          continue;
        }
        failure = { ref: field.ref, set: false, receipt };
      } catch (error) {
        const problem = asDeskhandError(error);
        failure = { ref: field.ref, set: false, error: problem.toJSON() };
        if (!TYPE_AFTER.has(problem.code)) {
          results.push(failure);
          continue;
        }
      }
      if (!input.typed_fallback || expected === "") {
        results.push(failure);
        continue;
      }
      const typed = await typeText(
        context,
        {
          ref: field.ref,
          text: expected,
          clear: true,
          intent: input.intent ?? "Fill a form field",
          reversible: true,
          ensure_focus: true,
          include_changes: false,
          settleMs: 50,
        },
        others,
      ).catch((error) => ({ data: { status: "error", reason: asDeskhandError(error).message } }));
      const data = typed.data as { status: string; reason?: string; result?: Record<string, unknown> };
      // The same test as the accessibility route's: the element's value as re-read (a spinner's text
      // can show the digits while its value waits for Enter).
      const after = (data.result?.after as { value?: string } | undefined)?.value;
      const readBack =
        data.status !== "done"
          ? undefined
          : after === undefined
            ? "unreadable"
            : after === expected || Number(after) === Number(expected)
              ? "exact"
              : "differs";
      const typedSummary = {
        status: data.status,
        ...(data.reason ? { reason: data.reason } : {}),
        ...(readBack ? { read_back: readBack } : {}),
      };
      if (data.status === "done" && readBack === "exact")
        results.push({ ref: field.ref, set: true, route: "typed", typed: typedSummary });
      else results.push({ ...failure, typed: typedSummary });
    }
    const done = results.filter((r) => r.set).length;
    const lines = results.map((r) => {
      if (r.set)
        return `${r.ref}: set by ${r.route === "typed" ? "typing" : "its accessibility interface"}; reads back as asked`;
      const typed = r.typed
        ? `; typed: ${r.typed.status}${r.typed.read_back ? `, reads back ${r.typed.read_back}` : ""}${r.typed.reason ? ` (${r.typed.reason})` : ""}`
        : "";
      if (r.receipt)
        return `${r.ref}: not set — ${renderReceipt(r.receipt).split("\n")[0]}, but it does NOT read back as asked${typed}`;
      return `${r.ref}: not set — ${String(r.error?.code)}: ${String(r.error?.message)}${typed}`;
    });
    lines.push(`${done} of ${results.length} fields set.`);
    return { data: { fields: results, set: done, total: results.length }, text: lines.join("\n") };
  },
});
