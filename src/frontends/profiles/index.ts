// Profiles: a seed document's own tool names, argument spellings and reply shapes, served by
// `deskhand mcp --profile NAME`, each tool a translation onto deskhand's registry (tools stay declared once).
import type { ToolDefinition } from "../../tools/tool.js";
import { OUROBOROS } from "./ouroboros.js";

export const PROFILES: Record<string, readonly ToolDefinition[]> = {
  ouroboros: OUROBOROS,
};
