// Profiles: a seed document's own tool names, argument spellings and reply shapes, served by
// `deskhand mcp --profile NAME`, each tool a translation onto deskhand's registry (tools stay declared once).
import type { DeskhandError } from "../../core/errors.js";
import type { ToolDefinition } from "../../tools/tool.js";
import { DAIMON, daimonError, daimonReply } from "./daimon.js";
import { OUROBOROS } from "./ouroboros.js";
import { PYJAB } from "./pyjab.js";

export interface Profile {
  tools: readonly ToolDefinition[];
  /** The structured content of a failed call, where the document gives it a shape of its own. */
  error?: (error: DeskhandError) => Record<string, unknown>;
  /** Its tools reproduce a seed's own list: their schemas are listed as declared, not compacted. */
  asDeclared?: boolean;
  /**
   * The document's own reply object for a call that ran (done, refused or failed in the doing): the
   * text block is that object, and a refusal is a result like any other, not an MCP error.
   */
  reply?: (data: Record<string, unknown>) => Record<string, unknown> | undefined;
}

export const PROFILES: Record<string, Profile> = {
  ouroboros: { tools: OUROBOROS, asDeclared: true },
  daimon: { tools: DAIMON, error: daimonError, reply: daimonReply, asDeclared: true },
  pyjab: { tools: PYJAB, asDeclared: true },
};
