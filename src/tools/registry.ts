// The tool list. Front ends iterate it; a test pins it.
import { doctorTool } from "./doctor.js";
import { observeTool } from "./observe.js";
import { pingTool } from "./ping.js";
import { snapshotTool } from "./snapshot.js";
import type { ToolDefinition } from "./tool.js";
import { windowsTool } from "./windows.js";

export const TOOLS: readonly ToolDefinition[] = [
  pingTool,
  windowsTool,
  snapshotTool,
  observeTool,
  doctorTool,
] as unknown as readonly ToolDefinition[];

export function findTool(name: string): ToolDefinition | undefined {
  return TOOLS.find((tool) => tool.name === name);
}
