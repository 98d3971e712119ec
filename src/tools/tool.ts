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

/** What a tool declares; destructiveHint follows from its highest level (see annotationsOf). */
export type DeclaredAnnotations = Omit<ToolAnnotations, "destructiveHint">;

/** A tool's structured reply: each tool's own shape, inferred from its handler. */
export type ToolData = Record<string, unknown>;

export interface ToolOutput<Data extends object = ToolData> {
  /** Structured result: what NDJSON and `--json` return. */
  data: Data;
  /** Compact text: what an agent reads over MCP and a person reads in the CLI. */
  text: string;
  /** A picture: an image content block over MCP, base64 in NDJSON, a file from the CLI. */
  image?: { mimeType: "image/png"; data: Buffer };
}

/** The places a typed value can be in a tool's input: its text, a set_value action's, each form field's. */
export type TypedValues = "text" | "action.text" | "fields[].value";

/** What `--tools` serves a tool under; each tool names its own. */
export const TOOL_GROUP_NAMES = ["read", "act", "hands", "pixels", "raw", "run"] as const;
export type ToolGroup = (typeof TOOL_GROUP_NAMES)[number];

export interface ToolDefinition<
  Input extends z.ZodObject = z.ZodObject,
  Output extends ToolOutput<object> = ToolOutput,
> {
  name: string;
  /** What `--tools` serves it under: every tool of deskhand's own names one (registry.ts); a seed profile's need not. */
  group?: ToolGroup;
  title: string;
  description: string;
  /** The level it runs at when nothing raises it. */
  level: SafetyLevel;
  /**
   * The highest the gate can raise it to (a committing target, a change that cannot be undone, a
   * `window close`); the same as `level` when nothing can. The listing shows both.
   */
  highest?: SafetyLevel;
  annotations: DeclaredAnnotations;
  /**
   * Other tools whose inputs it makes under their names, within its own levels (fill_form sets each
   * field as act does): the gate refuses an input named after any tool not declared here.
   */
  inputsAs?: readonly string[];
  input: Input;
  /**
   * Whether a call with this input may open or close a window by what it presses (a click, a key,
   * a typed line break, an invoked action), so that a recording watches for one that comes late.
   */
  mayOpenWindows?(input: z.output<Input>): boolean;
  /**
   * Where a call's typed or set values are in its input: a recording makes each a parameter, and a
   * secret where it went into a password field (test/unit/typed-values.test.ts finds every one).
   */
  typedValues?: TypedValues;
  /** False for a tool whose calls are not steps of a recording (it runs steps, or switches recording). */
  recorded?: false;
  /** Its reply's type is inferred from what it returns: that is the tool's typed reply (DataOf). */
  handler(context: ToolContext, input: z.output<Input>): Promise<Output>;
}

/**
 * Declares a tool; its name and its group, when it names one, are kept in its type: the registry
 * checks the group, and derives the names every front end may call (ToolName).
 */
export function defineTool<
  Input extends z.ZodObject,
  Output extends ToolOutput<object>,
  const Name extends string,
  Group extends ToolGroup | undefined = undefined,
>(
  tool: ToolDefinition<Input, Output> & { name: Name; group?: Group },
): ToolDefinition<Input, Output> & { name: Name; group: Group } {
  return tool as ToolDefinition<Input, Output> & { name: Name; group: Group };
}

/** What a tool takes, as a caller writes it (defaults may be left out). */
export type InputOf<T> = T extends ToolDefinition<infer Input, ToolOutput<object>> ? z.input<Input> : never;
/** The reply a tool gives, as its handler builds it. */
export type DataOf<T> = T extends ToolDefinition<z.ZodObject, infer Output> ? Output["data"] : never;

/** "L2" or "L2–L3": the levels a tool can run at, as the listing shows them. */
export function levelRange(tool: Pick<ToolDefinition, "level" | "highest">): string {
  return tool.highest && tool.highest !== tool.level ? `${tool.level}–${tool.highest}` : tool.level;
}

/** The MCP annotations: destructive exactly when the tool can reach L3 (a person must confirm). */
export function annotationsOf(
  tool: Pick<ToolDefinition, "level" | "highest" | "annotations">,
): ToolAnnotations {
  const highest = tool.highest ?? tool.level;
  return { ...tool.annotations, destructiveHint: highest === "L3" || highest === "L4" };
}

/**
 * A tool that only reads. Its world is open: what a window shows (a web page, a mail, a document)
 * is other people's text, and a client that treats an open world's replies with care should.
 */
export const READ_ONLY: DeclaredAnnotations = {
  readOnlyHint: true,
  idempotentHint: true,
  openWorldHint: true,
};
