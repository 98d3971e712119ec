// Profiles: a seed document's own tool names, argument spellings and reply shapes, served by
// `deskhand mcp --profile NAME`, each tool a translation onto deskhand's registry (tools stay declared once).
import type { DeskhandError } from "../../core/errors.js";
import { TOOLS } from "../../tools/registry.js";
import type { ToolDefinition } from "../../tools/tool.js";
import { DAIMON, daimonError, daimonFailure, daimonReply } from "./daimon.js";
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
  /** A call that failed in the doing, as the document's own reply object; undefined: an error as usual. */
  failed?: (error: DeskhandError) => Record<string, unknown> | undefined;
  /** deskhand's tools as this profile's client calls them, for the advice an error gives (`next`). */
  words?: Record<string, string>;
}

/** Advice in a profile's words: each of deskhand's tool names it has its own for, as a whole word. */
export function inOwnWords(advice: string, words: Record<string, string> | undefined): string {
  if (!words) return advice;
  const names = Object.keys(words).sort((a, b) => b.length - a.length);
  if (names.length === 0) return advice;
  const escaped = names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const pattern = new RegExp(`(?<![\\w-])\`?(${escaped.join("|")})\`?(?![\\w-])`, "g");
  const said = advice.replace(pattern, (_, name: string) => words[name]!);
  // A sentence that sends the client to a deskhand tool it does not have is left out.
  const missing = new RegExp(`\`(${TOOLS.map((t) => t.name).join("|")})\``);
  // Sentences with the space after each, kept as they were (a reply's line breaks stay).
  const parts = said.match(/[\s\S]*?(?:[.;](?:\s+|$)|$)/g) ?? [said];
  const kept = parts
    .map((sentence) =>
      missing.test(sentence) ? (/\n/.test(sentence.match(/\s*$/)![0]) ? "\n" : "") : sentence,
    )
    .join("")
    .replace(/ +\n/g, "\n");
  return kept.trim() ? kept.trimEnd() : "Look at the window again before the next call.";
}

export const PROFILES: Record<string, Profile> = {
  ouroboros: {
    tools: OUROBOROS,
    asDeclared: true,
    words: {
      windows: "window_list",
      snapshot: "window_read",
      observe: "window_read",
      find: "element_find",
      act: "element_act",
    },
  },
  daimon: {
    tools: DAIMON,
    error: daimonError,
    failed: daimonFailure,
    reply: daimonReply,
    asDeclared: true,
    words: {
      click: "main_click",
      type_text: "main_type",
      key: "main_key",
      drag: "main_drag",
      hover: "main_hover",
    },
  },
  pyjab: {
    tools: PYJAB,
    asDeclared: true,
    words: {
      windows: "java_list_windows",
      snapshot: "java_snapshot",
      observe: "java_snapshot",
      find: "java_find",
      click: "java_click",
      type_text: "java_type_text",
      fill_form: "java_fill_form",
      key: "java_send_keys",
      element_info: "java_element_info",
      read_table: "java_read_table",
      read_text: "java_read_text",
      screenshot: "java_screenshot",
      doctor: "java_diagnostics",
      // Its client sets a value only through java_type_text, which sets a field's text or a spinner's number.
      "act set_value": "java_type_text without simulate",
      "act set_range": "java_type_text without simulate",
    },
  },
};
