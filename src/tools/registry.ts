// The tool list. Front ends iterate it; a test pins it.

import { actTool } from "./act.js";
import { doctorTool } from "./doctor.js";
import { elementInfoTool } from "./element-info.js";
import { fillFormTool } from "./fill-form.js";
import { findElementsTool } from "./find.js";
import { clipboardTool } from "./hands/clipboard.js";
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
import { defineRunTool } from "./run.js";
import { findTextTool, readScreenTextTool } from "./screen-text.js";
import { snapshotTool } from "./snapshot.js";
import { TOOL_GROUP_NAMES, type ToolDefinition, type ToolGroup } from "./tool.js";
import { waitTool } from "./wait.js";
import { windowsTool } from "./windows.js";

/** run finds its steps' tools in this list, built here so that run.ts depends on no list. */
export const runTool = defineRunTool((name) => findTool(name));

/** deskhand's own tools: each names its group, so `--tools` and the CLI's lists derive from this one list. */
const OWN = [
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
  clipboardTool,
  rawInputTool,
  runTool,
  recordTool,
  doctorTool,
] as const satisfies readonly { name: string; group: ToolGroup }[];
export const TOOLS = OWN as unknown as readonly (ToolDefinition & { name: ToolName; group: ToolGroup })[];

/** The name of one of deskhand's own tools: a misspelt one does not compile. */
export type ToolName = (typeof OWN)[number]["name"];

/**
 * What deskhand's default catalog may cost every conversation before its first call: characters of
 * tools/list as a client receives it (test/unit/catalog.test.ts pins it, bench/catalog.ts reports
 * each tool's part). A new tool pays for itself by saying less elsewhere, or raises this with the
 * measured reason written here (docs/adding-a-tool.md).
 */
export const CATALOG_BUDGET = 17_000;

/** The tool a caller named, or undefined: for names that come from outside (a request, a step). */
export function findTool(name: string): ToolDefinition | undefined {
  return TOOLS.find((tool) => tool.name === name);
}

/** Whether a name from outside (a request, a command line) is one of deskhand's own tools. */
export function isToolName(name: string): name is ToolName {
  return TOOLS.some((t) => t.name === name);
}

/** One of deskhand's own tools, by a name the compiler checked. */
export function toolNamed(name: ToolName): ToolDefinition {
  return TOOLS.find((t) => t.name === name)!;
}

/**
 * Each group's tools, in the list's order, as their definitions name them: the groups `deskhand mcp
 * --tools` serves, for clients that want fewer tools in their catalog (reading, accessibility
 * actions, real input, pixels, raw primitives, runs of steps and their recording). Every tool is in
 * one group.
 */
export const TOOL_GROUPS: Readonly<Record<string, readonly ToolName[]>> = Object.fromEntries(
  TOOL_GROUP_NAMES.map((group) => [group, TOOLS.filter((t) => t.group === group).map((t) => t.name)]),
);

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
