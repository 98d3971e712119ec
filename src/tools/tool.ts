// A tool is declared once, as data: name, description, zod input schema, safety level, handler. Every
// front end (MCP, NDJSON, CLI) reads the same declaration and only translates.
import type { z } from "zod";
import type { SafetyLevel } from "../safety/levels.js";
import type { ToolContext } from "./context.js";

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface ToolOutput {
  /** Structured result: what NDJSON and `--json` return. */
  data: Record<string, unknown>;
  /** Compact text: what an agent reads over MCP and a person reads in the CLI. */
  text: string;
  /** A picture: an image content block over MCP, base64 in NDJSON, a file from the CLI. */
  image?: { mimeType: "image/png"; data: Buffer };
}

export interface ToolDefinition<Input extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  level: SafetyLevel;
  annotations: ToolAnnotations;
  input: Input;
  handler(context: ToolContext, input: z.output<Input>): Promise<ToolOutput>;
}

export function defineTool<Input extends z.ZodObject>(tool: ToolDefinition<Input>): ToolDefinition<Input> {
  return tool;
}

export const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
