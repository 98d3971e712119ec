import { z } from "zod";
import { asDeskhandError } from "../core/errors.js";
import { renderReceipt } from "../core/receipt.js";
import { PASSWORD_ROLE } from "../platform/types.js";
import { runAction } from "./act.js";
import type { ToolContext } from "./context.js";
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

export const fillFormTool = defineTool({
  name: "fill_form",
  title: "Fill several fields",
  description:
    "Set several fields in one call: [{ref, value}], in order. Text fields get set_value, sliders and spinners " +
    "set_range with a numeric value. Every field is attempted, whatever happens to the others, and each gets its " +
    "own line: set, or why not. Only malformed input is an error.",
  level: "L2",
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  input: z.object({
    fields: z
      .array(z.object({ ref: refSchema, value: z.union([z.string(), z.number().finite()]) }))
      .min(1)
      .max(100),
    intent: intentSchema.optional(),
  }),
  async handler(context, input) {
    const results = [];
    // One intent covers every field, so every line keeps every field's value out, not just its own.
    const secrets = input.fields.map((f) => ({
      text: String(f.value),
      password: fieldRole(context, f.ref) === PASSWORD_ROLE,
    }));
    for (const field of input.fields) {
      const action =
        typeof field.value === "number"
          ? { kind: "set_range" as const, value: field.value }
          : { kind: "set_value" as const, text: field.value };
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
        const expected = typeof field.value === "number" ? String(field.value) : field.value;
        const matches = after !== undefined && (after === expected || Number(after) === Number(expected));
        results.push({ ref: field.ref, ok: true, receipt, reads_back: matches });
      } catch (error) {
        const problem = asDeskhandError(error);
        results.push({ ref: field.ref, ok: false, error: problem.toJSON() });
      }
    }
    const done = results.filter((r) => r.ok).length;
    const lines = results.map((r) =>
      r.ok && "receipt" in r
        ? `${r.ref}: set${r.reads_back ? "; reads back as asked" : "; does NOT read back as asked"} — ${renderReceipt(r.receipt!).split("\n")[0]}`
        : `${r.ref}: not set — ${"error" in r ? `${r.error!.code}: ${r.error!.message}` : ""}`,
    );
    lines.push(`${done} of ${results.length} fields set.`);
    return { data: { fields: results, set: done, total: results.length }, text: lines.join("\n") };
  },
});
