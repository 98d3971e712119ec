// The Daimon "Mains" profile: its `main_*` tools, flat arguments (`x`, `y`, `space`, `display`,
// `max_width` 720, `region`; `window_title`/`window_pid`), and its reply shapes (`refused` / `done` /
// `error`), each a translation onto deskhand's input tools, which keep the one gate and journal.
// macOS and Windows mechanics map to Linux: `win` is the Super key; `cmd` and `fn` are refused, as the
// document has them on Windows; a bundle id has no X11 counterpart and is refused when given.
import { z } from "zod";
import { DeskhandError } from "../../core/errors.js";
import type { Modifier } from "../../platform/keys.js";
import { actTool } from "../../tools/act.js";
import type { ToolContext } from "../../tools/context.js";
import { keyTool, typeTextTool } from "../../tools/hands/keyboard.js";
import { resolveWindowSpec } from "../../tools/hands/place.js";
import { clickTool, dragTool, hoverTool, wheelTool } from "../../tools/hands/pointer.js";
import { rawInputTool } from "../../tools/hands/raw.js";
import type { PointInput } from "../../tools/hands/schemas.js";
import { windowTool as deskhandWindowTool } from "../../tools/hands/window.js";
import { type Pressable, pressableAt } from "../../tools/pressable-at.js";
import { defineTool, type ToolDefinition } from "../../tools/tool.js";
import { runTool } from "./run.js";

const INPUT = { readOnlyHint: false, idempotentHint: false, openWorldHint: false };
const VIEW_ONLY = { readOnlyHint: false, idempotentHint: true, openWorldHint: false };

const intent = z
  .string()
  .min(1)
  .describe("What you mean to do, in one sentence; it goes into the audit journal");
const coordinate = z.number().int();

/** The document's Positionnement block. */
const position = {
  space: z.enum(["global", "image"]).default("global"),
  display: z.number().int().min(0).optional(),
  max_width: z.number().int().min(16).default(720),
  region: z
    .object({
      x: z.number().int(),
      y: z.number().int(),
      width: z.number().int().min(1),
      height: z.number().int().min(1),
    })
    .strict()
    .optional(),
};

/** The document's Fenêtre cible block: "" and 0 mean "not given". */
const targetWindow = {
  window_bundle: z.string().default(""),
  window_title: z.string().default(""),
  window_pid: z.number().int().min(0).default(0),
  ensure_focus: z.boolean().default(true),
};

type Position = {
  space: "global" | "image";
  display?: number | undefined;
  max_width: number;
  region?: { x: number; y: number; width: number; height: number } | undefined;
};

/**
 * A point in the document's Positionnement block as deskhand's. Image space needs `display`; its
 * `region` defaults to the whole display, as the snapshot's does, which takes enumerating the
 * screen: a failure there is the document's capture_failed.
 */
async function at(context: ToolContext, p: Position, x: number, y: number): Promise<PointInput> {
  if (p.space === "global") return { space: "global", x, y };
  if (p.display === undefined)
    throw new DeskhandError(
      "invalid_params",
      'space="image" needs display, as the snapshot gave it',
      "Pass the display (and the max_width and region, if the snapshot had them) of the snapshot whose pixels these are.",
      { fields: ["display"] },
    );
  let region = p.region;
  if (!region) {
    try {
      region = await (await context.hands()).screen();
    } catch (error) {
      throw new DeskhandError(
        "hands_unavailable",
        `the screens could not be enumerated: ${error instanceof Error ? error.message : String(error)}`,
        "Call the doctor tool, or pass the snapshot's region.",
        { stage: "screens" },
      );
    }
  }
  return { space: "image", x, y, display: p.display, max_width: p.max_width, region };
}

function windowOf(w: { window_bundle: string; window_title: string; window_pid: number }) {
  if (w.window_bundle)
    throw new DeskhandError(
      "invalid_params",
      "window_bundle names a macOS bundle; X11 windows have none",
      "Name the window by window_title or window_pid.",
    );
  if (w.window_pid) return { window: { pid: w.window_pid } };
  if (w.window_title) return { window: { title: w.window_title } };
  return {};
}

function windowSpec(w: { bundle: string; title: string; pid: number }) {
  return windowOf({ window_bundle: w.bundle, window_title: w.title, window_pid: w.pid }).window;
}

const MODIFIERS: Record<string, Modifier> = {
  ctrl: "ctrl",
  shift: "shift",
  alt: "alt",
  win: "super",
  opt: "alt",
};

function modifiersOf(list: string[]): Modifier[] {
  return list.map((m) => {
    const mapped = MODIFIERS[m.toLowerCase()];
    if (!mapped)
      throw new DeskhandError(
        "invalid_params",
        `modifier ${JSON.stringify(m)} is not one of ctrl, shift, alt, win (cmd and fn are refused here, as on Windows)`,
        "Use ctrl, shift, alt or win.",
      );
    return mapped;
  });
}

type ClickInput = Position & {
  x: number;
  y: number;
  intent: string;
  reversible?: boolean | undefined;
  role: string;
  label: string;
  window_bundle: string;
  window_title: string;
  window_pid: number;
  ensure_focus: boolean;
};

/** main_click and main_press: a click at the point, judged by what it presses, in the named window. */
async function clickAt(context: ToolContext, input: ClickInput, extra: Record<string, unknown>) {
  return runTool(context, clickTool, {
    at: await at(context, input, input.x, input.y),
    intent: input.intent,
    ...(input.reversible === undefined ? {} : { reversible: input.reversible }),
    ...extra,
    ...(input.role ? { role: input.role } : {}),
    ...(input.label ? { label: input.label } : {}),
    ...windowOf(input),
    ensure_focus: input.ensure_focus,
  });
}

const mainClick = defineTool({
  name: "main_click",
  title: "Click",
  description:
    "Click at (x, y): global points, or image pixels of a snapshot (space, display, max_width, region). L2, raised " +
    "by what the point presses. role and label, as you saw them, can only raise the level. window_title or " +
    "window_pid names the window that must be in front (window_bundle has no X11 counterpart).",
  level: "L2",
  highest: "L3",
  annotations: INPUT,
  input: z.object({
    x: coordinate,
    y: coordinate,
    intent,
    reversible: z.boolean().optional(),
    button: z.enum(["left", "right", "middle"]).default("left"),
    count: z.union([z.literal(1), z.literal(2)]).default(1),
    modifiers: z.array(z.string()).default([]),
    role: z.string().default(""),
    label: z.string().default(""),
    ...position,
    ...targetWindow,
  }),
  async handler(context, input) {
    return clickAt(context, input, {
      button: input.button,
      count: input.count,
      modifiers: modifiersOf(input.modifiers),
    });
  },
});

const mainPress = defineTool({
  name: "main_press",
  title: "Press a committing button",
  description:
    "Press the button at (x, y) through its accessibility action (AXPress's counterpart); where nothing there " +
    "offers one, a real click at the point. L3: a target that is not a way back needs a person. reversible " +
    "defaults to false.",
  level: "L3",
  annotations: INPUT,
  input: z.object({
    x: coordinate,
    y: coordinate,
    intent,
    reversible: z.boolean().default(false),
    role: z.string().default(""),
    label: z.string().default(""),
    ...position,
    ...targetWindow,
  }),
  async handler(context, input) {
    const point = await at(context, input, input.x, input.y);
    const named = windowOf(input).window;
    const hint = named ? (await resolveWindowSpec(context, named)).id : undefined;
    const pressable = await pressableAt(context, point, hint).catch(() => undefined);
    if (!pressable) return clickAt(context, input, {});
    return pressThrough(context, pressable, input);
  },
});

/** main_press by the element's own action: the document's reply, a refusal as a result. */
async function pressThrough(
  context: ToolContext,
  pressable: Pressable,
  input: { intent: string; reversible: boolean },
) {
  const pressed = { role: pressable.role, name: pressable.name ?? null };
  try {
    const { data } = await runTool(context, actTool, {
      ref: pressable.ref,
      action: { kind: "invoke" },
      intent: input.intent,
      reversible: input.reversible,
    });
    const result = {
      pressed,
      route: data.route,
      after: data.after,
      ...(data.windows_appeared.length ? { windows_appeared: data.windows_appeared } : {}),
      ...(data.windows_disappeared.length ? { windows_disappeared: data.windows_disappeared } : {}),
    };
    return { data: { status: "done", result }, text: JSON.stringify({ status: "done", result }) };
  } catch (error) {
    if (!(error instanceof DeskhandError) || error.code !== "refused") throw error;
    const reply = { status: "refused", reason: error.message };
    const level = error.details.level;
    return { data: { ...reply, pressed, ...(level ? { level } : {}) }, text: JSON.stringify(reply) };
  }
}

const mainType = defineTool({
  name: "main_type",
  title: "Type text",
  description:
    "Type text into the field that has the focus (click it first). L2. The text never reaches the journal.",
  level: "L2",
  highest: "L3",
  annotations: INPUT,
  input: z.object({
    text: z.string().min(1),
    intent,
    reversible: z.boolean().default(true),
    role: z.string().default(""),
    label: z.string().default(""),
  }),
  async handler(context, input) {
    return runTool(context, typeTextTool, {
      text: input.text,
      intent: input.intent,
      reversible: input.reversible,
    });
  },
});

const mainKey = defineTool({
  name: "main_key",
  title: "Press a key or chord",
  description:
    "A key or chord (Return, Tab, Escape, arrows, F-keys, ctrl+shift+r). L2; dangerous chords need a person.",
  level: "L2",
  highest: "L3",
  annotations: INPUT,
  input: z.object({
    key: z.string().min(1),
    intent,
    modifiers: z.array(z.string()).default([]),
    count: z.number().int().min(1).max(50).default(1),
    reversible: z.boolean().default(true),
  }),
  async handler(context, input) {
    return runTool(context, keyTool, {
      key: input.key,
      modifiers: modifiersOf(input.modifiers),
      count: input.count,
      intent: input.intent,
      reversible: input.reversible,
    });
  },
});

const mainDrag = defineTool({
  name: "main_drag",
  title: "Drag",
  description: "Drag from (from_x, from_y) to (to_x, to_y). L2; the drop target is what the gate judges.",
  level: "L2",
  highest: "L3",
  annotations: INPUT,
  input: z.object({
    from_x: coordinate,
    from_y: coordinate,
    to_x: coordinate,
    to_y: coordinate,
    intent,
    button: z.enum(["left", "right", "middle"]).default("left"),
    reversible: z.boolean().optional(),
    ...position,
    ...targetWindow,
  }),
  async handler(context, input) {
    return runTool(context, dragTool, {
      from: { at: await at(context, input, input.from_x, input.from_y) },
      to: { at: await at(context, input, input.to_x, input.to_y) },
      button: input.button,
      intent: input.intent,
      ...(input.reversible === undefined ? {} : { reversible: input.reversible }),
      ...windowOf(input),
      ensure_focus: input.ensure_focus,
    });
  },
});

const mainHover = defineTool({
  name: "main_hover",
  title: "Move the pointer",
  description: "Move the pointer to (x, y) without clicking. L1.",
  level: "L1",
  annotations: VIEW_ONLY,
  input: z.object({ x: coordinate, y: coordinate, intent, ...position }),
  async handler(context, input) {
    return runTool(context, hoverTool, {
      at: await at(context, input, input.x, input.y),
      intent: input.intent,
    });
  },
});

/** A wheel notch is 120 units on Windows; pixels on macOS are taken at the same rate here. */
const UNITS_PER_NOTCH = 120;

const mainNavigate = defineTool({
  name: "main_navigate",
  title: "Scroll",
  description:
    "Scroll by scroll_y (positive is up; 120 is one wheel notch), at (x, y) or where the pointer is. L1, or L2 over " +
    "a slider, spin button or combo box (the wheel sets their value; L3 where that commits).",
  level: "L1",
  highest: "L3",
  annotations: VIEW_ONLY,
  input: z.object({
    intent,
    scroll_y: z.number().int().default(0),
    x: coordinate.optional(),
    y: coordinate.optional(),
    ...position,
  }),
  async handler(context, input) {
    const notches = Math.max(1, Math.round(Math.abs(input.scroll_y) / UNITS_PER_NOTCH));
    if (input.scroll_y === 0)
      return { data: { status: "done", result: { notches: 0 } }, text: "done: nothing to scroll" };
    return runTool(context, wheelTool, {
      direction: input.scroll_y > 0 ? "up" : "down",
      notches,
      intent: input.intent,
      ...(input.x !== undefined && input.y !== undefined
        ? { at: await at(context, input, input.x, input.y) }
        : {}),
    });
  },
});

const appWindow = {
  intent,
  bundle: z.string().default(""),
  title: z.string().default(""),
  pid: z.number().int().min(0).default(0),
};

function windowTool(name: string, action: "focus" | "minimize" | "hide" | "show", description: string) {
  return defineTool({
    name,
    title: description,
    description: `${description}. L1. bundle has no X11 counterpart: name the window by title or pid.`,
    level: "L1",
    annotations: VIEW_ONLY,
    input: z.object(appWindow),
    async handler(context, input) {
      const window = windowSpec(input);
      if (!window)
        throw new DeskhandError("invalid_params", "give title or pid", "Name the window by title or pid.");
      return runTool(context, deskhandWindowTool, { action, window, intent: input.intent });
    },
  });
}

function rawPointerTool(name: string, kind: "mouse_down" | "mouse_up") {
  return defineTool({
    name,
    title: kind.replace("_", " "),
    description: `Low-level ${kind.replace("_", " ")} of the left button. L4 only; a held button is released after 10 s.`,
    level: "L4",
    annotations: INPUT,
    input: z.object({ x: coordinate, y: coordinate, intent, ...position }),
    async handler(context, input) {
      const primitive = { kind, at: await at(context, input, input.x, input.y), button: "left" as const };
      return runTool(context, rawInputTool, { primitive, intent: input.intent });
    },
  });
}

function rawKeyTool(name: string, kind: "key_down" | "key_up") {
  return defineTool({
    name,
    title: kind.replace("_", " "),
    description: `Low-level ${kind.replace("_", " ")}. L4 only; a held key is released after 10 s.`,
    level: "L4",
    annotations: INPUT,
    input: z.object({ key: z.string().min(1), intent, modifiers: z.array(z.string()).default([]) }),
    async handler(context, input) {
      // The modifiers are held with the key, and let go with it: "ctrl" + "c" is the chord ctrl+c.
      const key = [...modifiersOf(input.modifiers), input.key].join("+");
      return runTool(context, rawInputTool, { primitive: { kind, key }, intent: input.intent });
    },
  });
}

export const DAIMON: ToolDefinition[] = [
  mainNavigate,
  mainHover,
  windowTool("main_activate", "focus", "Bring a window to the front"),
  windowTool("main_window_minimize", "minimize", "Minimize a window"),
  windowTool("main_window_hide", "hide", "Hide an application's windows"),
  windowTool("main_window_show", "show", "Show, restore and raise an application's windows"),
  mainClick,
  mainType,
  mainDrag,
  mainKey,
  mainPress,
  rawPointerTool("main_mouse_down", "mouse_down"),
  rawPointerTool("main_mouse_up", "mouse_up"),
  rawKeyTool("main_key_down", "key_down"),
  rawKeyTool("main_key_up", "key_up"),
] as ToolDefinition[];

/**
 * The document's four error codes for preparation errors: `{"error": "<code>", "message"}`. What
 * names something that is not there (a window, a ref, an element) is an argument the caller got
 * wrong; what the host lacks (input, the accessibility bus) is the Mains being unavailable; a failed
 * screen enumeration is capture_failed.
 */
const ARGUMENT_CODES = new Set([
  "invalid_params",
  "window_not_found",
  "not_found",
  "ambiguous",
  "unknown_ref",
  "stale_element",
  "element_gone",
  "not_clickable",
  "invalid_cursor",
]);

/** What the host lacks: the document's motor_unavailable. */
const MOTOR_CODES = new Set([
  "hands_unavailable",
  "backend_unavailable",
  "unsupported_platform",
  "ocr_unavailable",
]);

/**
 * An action that was prepared and then failed in the doing (the app did not answer, the input was not
 * taken): the document's own reply, `{status: "error", reason}`, not a preparation error.
 */
export function daimonFailure(error: DeskhandError): Record<string, unknown> | undefined {
  if (error.details.stage === "screens" || error.code === "index_out_of_range") return undefined;
  if (ARGUMENT_CODES.has(error.code) || MOTOR_CODES.has(error.code) || error.code === "invalid_config")
    return undefined;
  return { status: "error", reason: error.message };
}

export function daimonError(error: DeskhandError): { error: string; message: string } {
  const code =
    error.details.stage === "screens"
      ? "capture_failed"
      : error.code === "index_out_of_range"
        ? "index_out_of_range"
        : ARGUMENT_CODES.has(error.code)
          ? "invalid_arguments"
          : "motor_unavailable";
  return { error: code, message: error.message };
}

/**
 * The document's reply object for an action that ran: `{status: "done", result, focus}` (focus only
 * where a window was brought forward), or `{status: "refused" | "error", reason}`. A reply with no
 * status (a snapshot, the doctor) keeps its own shape.
 */
export function daimonReply(data: Record<string, unknown>): Record<string, unknown> | undefined {
  const { status } = data;
  if (status === "done")
    return { status, result: data.result ?? null, ...(data.focus ? { focus: data.focus } : {}) };
  if (status === "refused" || status === "error") return { status, reason: data.reason ?? null };
  return undefined;
}
