// Pointer tools: click, drag, hover and the wheel, each through the gate in attempt.ts.
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { afterRead } from "../../core/receipt.js";
import type { SeeingHands } from "../../platform/hands.js";
import { MODIFIERS } from "../../platform/keys.js";
import type { TargetFacts } from "../../safety/classify.js";
import type { ToolContext } from "../context.js";
import { findToolSchema } from "../find.js";
import { defineInputTool } from "../input-tool.js";
import type { DeclaredAnnotations } from "../tool.js";
import { pressesNothing } from "./attempt.js";
import { clicked, resolvePlace, resolveWindowSpec, revealedCommands, untilMenuShows } from "./place.js";
import { placeFacts } from "./place-facts.js";
import type { ResolvedPlace } from "./placed.js";
import {
  declaredShape,
  intentSchema,
  type PointInput,
  placeRule,
  placeShape,
  pointOrRefShape,
  pointRule,
  pointSchema,
  reversibleSchema,
  windowSchema,
  windowShape,
} from "./schemas.js";
import { draggedValue, wheelFacts } from "./sets.js";

export const INPUT: DeclaredAnnotations = {
  readOnlyHint: false,
  idempotentHint: false,
  // What an app is made to do can reach past the desktop (a browser posts the form it was given).
  openWorldHint: true,
};

export const buttonSchema = z.enum(["left", "middle", "right"]).default("left");
export const modifiersSchema = z.array(z.enum(MODIFIERS)).max(4).default([]).describe("Held during it");
const settleSchema = z.number().int().min(0).max(5000).default(150).describe("Pause before the re-read");

/** The target window: the one named, or the place's own. */
export async function targetWindow(
  context: ToolContext,
  input: { window?: { id: number } | { title: string } | { pid: number } | undefined },
  place: ResolvedPlace | undefined,
): Promise<number | undefined> {
  return input.window ? (await resolveWindowSpec(context, input.window)).id : place?.windowId;
}

/** The element as re-read after the action, for refs: the effect, not just the call. */
export async function readBack(
  context: ToolContext,
  place: ResolvedPlace | undefined,
  settleMs: number,
): Promise<Record<string, unknown>> {
  if (!place?.handle) return {};
  await sleep(settleMs);
  const backend = await context.backend();
  const windowId = place.windowId ?? null;
  return afterRead(backend, place.handle, windowId) as Promise<Record<string, unknown>>;
}

/** The window the caller named (if any), and the place resolved in it. */
async function placeInWindow(
  context: ToolContext,
  hands: SeeingHands,
  input: {
    ref?: string | undefined;
    at?: PointInput | undefined;
    window?: { id: number } | { title: string } | { pid: number } | undefined;
  },
): Promise<{ named: number | undefined; place: ResolvedPlace }> {
  const named = input.window ? (await resolveWindowSpec(context, input.window)).id : undefined;
  return { named, place: await resolvePlace(context, hands, input, named) };
}

const at = (place: ResolvedPlace) => `(${place.point.x}, ${place.point.y})`;

export const clickTool = defineInputTool({
  name: "click",
  group: "hands",
  title: "Click",
  description:
    "Real mouse click at a ref or a point, its window raised; a covered point is refused. A committing press (Send, Delete…) needs a person.",
  level: "L2",
  highest: "L3",
  annotations: INPUT,
  opens: "place",
  input: z
    .object({
      ...placeShape,
      button: buttonSchema,
      count: z
        .union([z.literal(1), z.literal(2)])
        .default(1)
        .describe("2: double-click"),
      modifiers: modifiersSchema,
      intent: intentSchema,
      reversible: reversibleSchema.optional(),
      ...windowShape,
      ...declaredShape,
      settleMs: settleSchema,
    })
    .refine(...placeRule),
  async plan(context, input) {
    const hands = await context.hands();
    const { named, place } = await placeInWindow(context, hands, input);
    return {
      intent: input.intent,
      reversible: input.reversible,
      place,
      windowId: named ?? place.windowId,
      ensureFocus: input.ensure_focus,
      includeChanges: input.include_changes,
      approach: true,
      presses: [
        ...(await placeFacts(context, place, { button: input.button, count: input.count })),
        ...(input.count === 2 ? await revealedCommands(context, place) : []),
      ],
      declared: { role: input.role, label: input.label },
      async execute(h) {
        await untilMenuShows(context, place, h);
        await h.click(place.point, { button: input.button, count: input.count, modifiers: input.modifiers });
        clicked();
        return {
          point: place.point,
          button: input.button,
          count: input.count,
          ...(await readBack(context, place, input.settleMs)),
        };
      },
      describe: () => `${input.count === 2 ? "double-" : ""}${input.button} click at ${at(place)}`,
    };
  },
});

// Nested, find is listed as find's arguments: the description says the rest once.
const endSchema = z.object({ ...placeShape, find: findToolSchema.optional() }).refine(...placeRule);

/** What a drag presses or sets: the value control it starts on, else both its ends. */
async function dragFacts(
  context: ToolContext,
  from: ResolvedPlace,
  to: ResolvedPlace,
  button: "left" | "middle" | "right",
): Promise<TargetFacts[]> {
  const value = await draggedValue(context, from);
  if (value) return [value];
  return [
    ...(await placeFacts(context, to, { button, drop: true })),
    ...(await placeFacts(context, from, { button })),
  ];
}

export const dragTool = defineInputTool({
  name: "drag",
  group: "hands",
  title: "Drag",
  description:
    "Press at `from`, move to `to`, release. Each end: ref, find or point; both judged like a click.",
  level: "L2",
  highest: "L3",
  annotations: INPUT,
  input: z.object({
    from: endSchema,
    to: endSchema,
    button: buttonSchema,
    modifiers: modifiersSchema,
    intent: intentSchema,
    reversible: reversibleSchema.optional(),
    ...windowShape,
    settleMs: settleSchema,
  }),
  async plan(context, input) {
    const hands = await context.hands();
    const named = input.window ? (await resolveWindowSpec(context, input.window)).id : undefined;
    const from = await resolvePlace(context, hands, input.from, named);
    const to = await resolvePlace(context, hands, input.to, named ?? from.windowId);
    return {
      intent: input.intent,
      reversible: input.reversible,
      place: to,
      pressAt: from,
      // Both ends press: the button pressed at the start can run its action (a committing button
      // dragged off still fires in some toolkits), and dropping on Trash deletes. A slider's knob
      // dragged sets the slider's value instead, wherever it is released.
      presses: await dragFacts(context, from, to, input.button),
      windowId: named ?? from.windowId,
      ensureFocus: input.ensure_focus,
      includeChanges: input.include_changes,
      approach: true,
      async execute(h) {
        await h.drag(from.point, to.point, { button: input.button, modifiers: input.modifiers });
        return { from: from.point, to: to.point, ...(await readBack(context, from, input.settleMs)) };
      },
      describe: () => `dragged from ${at(from)} to ${at(to)}`,
    };
  },
});

export const hoverTool = defineInputTool({
  name: "hover",
  group: "hands",
  title: "Hover",
  description: "Move the pointer to a ref or a point without clicking (tooltips, menus).",
  // A hover presses nothing, whatever is under the pointer: it stays L1.
  level: "L1",
  annotations: INPUT,
  input: z
    .object({ ...pointOrRefShape, intent: intentSchema, window: windowSchema.optional() })
    .refine(...pointRule),
  async plan(context, input) {
    const hands = await context.hands();
    const { named, place } = await placeInWindow(context, hands, input);
    return {
      intent: input.intent,
      reversible: true,
      place,
      presses: pressesNothing("moves the pointer"),
      // A ref's (or the named) window comes to the front, so the pointer lands there and not on a cover.
      windowId: named ?? place.windowId,
      ensureFocus: place.ref !== undefined || named !== undefined,
      approach: true,
      async execute(h) {
        await h.move(place.point);
        return { point: place.point };
      },
      describe: () => `pointer moved to ${at(place)}`,
    };
  },
});

export const wheelTool = defineInputTool({
  name: "wheel",
  group: "hands",
  title: "Scroll with the wheel",
  description:
    "Turn the mouse wheel over a ref, a point or where the pointer is. To scroll by accessibility, act scroll.",
  // The wheel presses nothing: a committing button under it stays unpressed. It sets a value (L2), or
  // chooses a combo box's option, judged by its words.
  level: "L1",
  highest: "L3",
  annotations: INPUT,
  input: z
    .object({
      ref: placeShape.ref,
      at: pointSchema.optional(),
      direction: z.enum(["up", "down", "left", "right"]),
      notches: z.number().int().min(1).max(100).default(3),
      intent: intentSchema,
      window: windowSchema.optional(),
      settleMs: settleSchema,
    })
    .refine((w) => w.ref === undefined || w.at === undefined, {
      message: "give ref or at, not both",
      path: ["ref"],
    }),
  async plan(context, input) {
    const hands = await context.hands();
    const named = input.window ? (await resolveWindowSpec(context, input.window)).id : undefined;
    const place =
      input.ref !== undefined || input.at !== undefined
        ? await resolvePlace(context, hands, input, named)
        : undefined;
    // It sets a slider's value or chooses a combo box's next options; elsewhere it only scrolls (L1).
    const presses = await wheelFacts(context, place, input);
    return {
      nominal: presses.every((f) => f.nothing) ? "L1" : "L2",
      intent: input.intent,
      reversible: true,
      place,
      presses,
      windowId: named ?? place?.windowId,
      ensureFocus: place?.ref !== undefined || named !== undefined,
      approach: true,
      async execute(h) {
        await h.wheel(place?.point, input.direction, input.notches);
        return {
          ...(place ? { point: place.point } : {}),
          direction: input.direction,
          notches: input.notches,
          ...(await readBack(context, place, input.settleMs)),
        };
      },
      describe: () => `wheel ${input.direction} ${input.notches} notch(es)${place ? ` at ${at(place)}` : ""}`,
    };
  },
});
