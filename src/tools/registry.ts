// The tool list. Front ends iterate it; a test pins it.

import type { z } from "zod";
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
import { findTextTool, readScreenTextTool } from "./screen-text.js";
import { snapshotTool } from "./snapshot.js";
import type { ToolDefinition } from "./tool.js";
import { waitTool } from "./wait.js";
import { windowsTool } from "./windows.js";

/**
 * Every tool by its name, for code that runs one tool from another (profiles, fill_form): the name is
 * checked by the compiler, and so is the input given. Each key is its tool's `name` (a test says so).
 */
export const TOOLS_BY_NAME = {
  ping: pingTool,
  windows: windowsTool,
  snapshot: snapshotTool,
  observe: observeTool,
  find: findElementsTool,
  element_info: elementInfoTool,
  read_text: readTextTool,
  read_table: readTableTool,
  act: actTool,
  fill_form: fillFormTool,
  wait: waitTool,
  screenshot: screenshotTool,
  read_screen_text: readScreenTextTool,
  find_text: findTextTool,
  click: clickTool,
  type_text: typeTextTool,
  key: keyTool,
  drag: dragTool,
  hover: hoverTool,
  wheel: wheelTool,
  window: windowTool,
  raw_input: rawInputTool,
  doctor: doctorTool,
} as const;

export type ToolName = keyof typeof TOOLS_BY_NAME;
/** What a tool takes, as a caller writes it (defaults may be left out). */
export type ToolInput<N extends ToolName> = z.input<(typeof TOOLS_BY_NAME)[N]["input"]>;

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
  doctorTool,
] as unknown as readonly ToolDefinition[];

export function findTool(name: string): ToolDefinition | undefined {
  return TOOLS.find((tool) => tool.name === name);
}
