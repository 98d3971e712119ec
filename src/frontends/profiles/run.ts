// What every profile tool does underneath: run one of deskhand's own tools through the one call path
// (validation, the gate, the journal), its failure being the profile tool's failure.
import { callTool } from "../../tools/call.js";
import type { ToolContext } from "../../tools/context.js";
import { findTool } from "../../tools/registry.js";
import type { ToolOutput } from "../../tools/tool.js";

export async function runTool(
  context: ToolContext,
  tool: string,
  input: Record<string, unknown>,
): Promise<ToolOutput> {
  const result = await callTool(context, findTool(tool)!, input);
  if (!result.ok) throw result.error;
  return result.output;
}

/** A tool's structured reply, read as the shape that tool gives. */
export async function runData<T>(
  context: ToolContext,
  tool: string,
  input: Record<string, unknown>,
): Promise<T> {
  return (await runTool(context, tool, input)).data as T;
}
