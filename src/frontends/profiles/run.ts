// What every profile tool does underneath: run one of deskhand's own tools through the one call path
// (validation, the gate, the journal), its failure being the profile tool's failure.
import type { z } from "zod";
import { callTool } from "../../tools/call.js";
import type { ToolContext } from "../../tools/context.js";
import type { DataOf, InputOf, ToolDefinition, ToolOutput } from "../../tools/tool.js";

type AnyTool = ToolDefinition<z.ZodObject, ToolOutput<object>>;

/** Runs one of deskhand's tools, given as the tool itself: its input and its reply are typed. */
export async function runTool<T extends AnyTool>(
  context: ToolContext,
  tool: T,
  input: InputOf<T>,
): Promise<ToolOutput<DataOf<T>>> {
  const result = await callTool(context, tool as unknown as ToolDefinition, input);
  if (!result.ok) throw result.error;
  return result.output as ToolOutput<DataOf<T>>;
}

/** A tool's structured reply, in the shape that tool gives. */
export async function runData<T extends AnyTool>(
  context: ToolContext,
  tool: T,
  input: InputOf<T>,
): Promise<DataOf<T>> {
  return (await runTool(context, tool, input)).data;
}
