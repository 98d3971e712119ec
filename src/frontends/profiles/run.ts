// What every profile tool does underneath: run one of deskhand's own tools through the one call path
// (validation, the gate, the journal), its failure being the profile tool's failure.
import { callTool } from "../../tools/call.js";
import type { ToolContext } from "../../tools/context.js";
import { TOOLS_BY_NAME, type ToolInput, type ToolName } from "../../tools/registry.js";
import type { ToolDefinition, ToolOutput } from "../../tools/tool.js";

/** Runs deskhand's tool `tool`: its name and its input are checked by the compiler. */
export async function runTool<N extends ToolName>(
  context: ToolContext,
  tool: N,
  input: ToolInput<N>,
): Promise<ToolOutput> {
  const result = await callTool(context, TOOLS_BY_NAME[tool] as unknown as ToolDefinition, input);
  if (!result.ok) throw result.error;
  return result.output;
}

/** A tool's structured reply, read as the shape that tool gives. */
export async function runData<T, N extends ToolName>(
  context: ToolContext,
  tool: N,
  input: ToolInput<N>,
): Promise<T> {
  return (await runTool(context, tool, input)).data as T;
}
