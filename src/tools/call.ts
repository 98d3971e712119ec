// The one way any front end runs a tool: validate against its schema, run it, and turn every failure
// into a DeskhandError that names what was wrong and what to do next. Nothing thrown escapes.
import type { z } from "zod";
import { asDeskhandError, DeskhandError } from "../core/errors.js";
import type { ToolContext } from "./context.js";
import type { ToolDefinition, ToolOutput } from "./tool.js";

export type CallResult = { ok: true; output: ToolOutput } | { ok: false; error: DeskhandError };

function fieldPath(path: readonly PropertyKey[]): string {
  return path.length === 0 ? "(the arguments)" : path.map(String).join(".");
}

export function invalidParams(toolName: string, error: z.ZodError): DeskhandError {
  const problems = error.issues.slice(0, 5).map((issue) => `${fieldPath(issue.path)}: ${issue.message}`);
  return new DeskhandError(
    "invalid_params",
    `invalid arguments for ${toolName}: ${problems.join("; ")}`,
    `Fix ${problems.length === 1 ? "that field" : "those fields"} and call again; the tool's input schema lists each field.`,
    { fields: error.issues.map((issue) => fieldPath(issue.path)) },
  );
}

export async function callTool(
  context: ToolContext,
  tool: ToolDefinition,
  rawInput: unknown,
  signal?: AbortSignal,
): Promise<CallResult> {
  const parsed = tool.input.safeParse(rawInput ?? {});
  if (!parsed.success) return { ok: false, error: invalidParams(tool.name, parsed.error) };
  try {
    // The signal belongs to this call only: a view of the shared context that carries it.
    const scoped: ToolContext = signal
      ? Object.assign(Object.create(context) as ToolContext, { signal })
      : context;
    return { ok: true, output: await tool.handler(scoped, parsed.data) };
  } catch (error) {
    return { ok: false, error: asDeskhandError(error) };
  }
}
