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
  doctorTool,
] as unknown as readonly ToolDefinition[];

export function findTool(name: string): ToolDefinition | undefined {
  return TOOLS.find((tool) => tool.name === name);
}
