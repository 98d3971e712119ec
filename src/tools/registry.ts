// The tool list. Front ends iterate it; a test pins it.

import { actTool } from "./act.js";
import { doctorTool } from "./doctor.js";
import { elementInfoTool } from "./element-info.js";
import { fillFormTool } from "./fill-form.js";
import { findElementsTool } from "./find.js";
import { keyTool, typeTextTool } from "./hands/keyboard.js";
import { clickTool, dragTool, hoverTool, wheelTool } from "./hands/pointer.js";
import { rawInputTool } from "./hands/raw.js";
import { screenshotTool } from "./hands/screenshot.js";
import { windowTool } from "./hands/window.js";
import { observeTool } from "./observe.js";
import { pingTool } from "./ping.js";
import { readTableTool } from "./read-table.js";
import { readTextTool } from "./read-text.js";
import { recordTool } from "./record.js";
import { runTool } from "./run.js";
import { findTextTool, readScreenTextTool } from "./screen-text.js";
import { snapshotTool } from "./snapshot.js";
import type { ToolDefinition } from "./tool.js";
import { waitTool } from "./wait.js";
import { windowsTool } from "./windows.js";

export const TOOLS: readonly ToolDefinition[] = [
  pingTool,
  windowsTool,
  snapshotTool,
  observeTool,
  findElementsTool,
  elementInfoTool,
  readTextTool,
  readTableTool,
  actTool,
  fillFormTool,
  waitTool,
  screenshotTool,
  readScreenTextTool,
  findTextTool,
  clickTool,
  typeTextTool,
  keyTool,
  dragTool,
  hoverTool,
  wheelTool,
  windowTool,
  rawInputTool,
  runTool,
  recordTool,
  doctorTool,
] as unknown as readonly ToolDefinition[];

export function findTool(name: string): ToolDefinition | undefined {
  return TOOLS.find((tool) => tool.name === name);
}

/**
 * The groups `deskhand mcp --tools` serves, for clients that want fewer tools in their catalog:
 * reading, accessibility actions, real input, pixels, raw primitives, runs of steps and their
 * recording. Every tool is in one group.
 */
export const TOOL_GROUPS: Record<string, readonly string[]> = {
  read: [
    "ping",
    "windows",
    "snapshot",
    "observe",
    "find",
    "element_info",
    "read_text",
    "read_table",
    "wait",
    "doctor",
  ],
  act: ["act", "fill_form"],
  hands: ["click", "type_text", "key", "drag", "hover", "wheel", "window"],
  pixels: ["screenshot", "read_screen_text", "find_text"],
  raw: ["raw_input"],
  run: ["run", "record"],
};

/**
 * The tools named by a `--tools` list: groups and tool names, comma-separated, in registry order.
 * Throws with what was not understood and what is.
 */
export function selectTools(list: string): readonly ToolDefinition[] {
  const names = new Set<string>();
  const unknown: string[] = [];
  for (const item of list
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const group = TOOL_GROUPS[item];
    if (group) for (const name of group) names.add(name);
    else if (findTool(item)) names.add(item);
    else unknown.push(item);
  }
  if (unknown.length > 0 || names.size === 0)
    throw new Error(
      `${unknown.length > 0 ? `unknown in --tools: ${unknown.join(", ")}` : "--tools names nothing"}; ` +
        `groups: ${Object.keys(TOOL_GROUPS).join(", ")}, or tool names`,
    );
  return TOOLS.filter((tool) => names.has(tool.name));
}
