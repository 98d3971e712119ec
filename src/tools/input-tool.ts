// An input tool is declared, not wired: it says what it will press and how to send it (a plan), and
// the declaration runs the chain every input takes (hands/attempt.ts: gate, journal, focus, send,
// receipt) under the tool's own name. What a press may open, and whether its reply reads the windows,
// are properties of the definition: the recorder and the receipt read them, never a tool's name.
import type { z } from "zod";
import type { SafetyLevel } from "../safety/levels.js";
import { attemptInput, frontChanged, type InputAttempt } from "./hands/attempt.js";
import { defineTool, type ToolDefinition, type ToolGroup, type ToolOutput } from "./tool.js";

/**
 * What one call will do: its target and what it presses, read before the gate, and how to send it.
 * `step` names a part of the tool (window's `focus`): the journal says `window.focus`.
 */
export type InputPlan = Omit<InputAttempt, "tool" | "mayOpen" | "readsWindows" | "nominal"> & {
  step?: string;
  /** The level it runs at before its target raises it: the tool's own `level`, unless it depends on the input. */
  nominal?: SafetyLevel;
};

/** How an input may open, close or retitle a window: see InputAttempt.mayOpen. */
export type Opens = NonNullable<InputAttempt["mayOpen"]>;

export interface InputToolDefinition<
  Input extends z.ZodObject,
  Name extends string,
  Group extends ToolGroup | undefined,
> extends Omit<ToolDefinition<Input>, "handler" | "mayOpenWindows" | "group" | "name"> {
  name: Name;
  group?: Group;
  /**
   * How its press may open a window: "place" (what it lands on: a click), "chord" (a key) or "text"
   * (a typed line break, in `input.text`). Absent: it opens nothing of itself (a drag, the wheel).
   */
  opens?: Opens;
  /** False for the raw primitives: their reply does not read the windows before and after. */
  readsWindows?: false;
  /** Reads the target; the declaration gates and sends what it returns. */
  plan(context: Parameters<ToolDefinition<Input>["handler"]>[0], input: z.output<Input>): Promise<InputPlan>;
}

/** An input tool as the registry holds it, with what running its plans needs. */
export type InputTool<
  Input extends z.ZodObject = z.ZodObject,
  Name extends string = string,
  Group extends ToolGroup | undefined = ToolGroup,
> = ToolDefinition<Input> & { name: Name; group: Group; opens?: Opens; readsWindows?: false };

/** Declares an input tool: its handler is its plan, gated and sent under its own name. */
export function defineInputTool<
  Input extends z.ZodObject,
  const Name extends string,
  Group extends ToolGroup | undefined = undefined,
>(tool: InputToolDefinition<Input, Name, Group>): InputTool<Input, Name, Group> {
  const { plan, ...definition } = tool;
  const declared: InputTool<Input, Name, Group> = defineTool({
    ...definition,
    mayOpenWindows: (input: z.output<Input>) => mayOpenWindows(tool.opens, input),
    // One typist at a time on the display, from the plan's first act (its window raised so that the
    // focus can be read and judged) to the last key: raised outside the turn, a window took the
    // focus from another process mid-typing, whose keys then landed in it.
    handler: async (context, input) =>
      (await context.hands()).exclusive(async () => {
        const sent = await runPlan(context, declared, await plan(context, input));
        // Keys judged for the window in front while another came forward (an act's focus raises its
        // window just after it answers): judged again, once, on the one in front now.
        return frontChanged(sent) ? runPlan(context, declared, await plan(context, input)) : sent;
      }),
  }) as InputTool<Input, Name, Group>;
  return declared;
}

/**
 * Sends a plan as `tool`'s input: the tool's own handler does, and a tool that makes another's
 * inputs (fill_form types as type_text, declared in its `inputsAs`) names that tool by its object.
 */
export function runPlan(
  context: Parameters<ToolDefinition["handler"]>[0],
  tool: Pick<InputTool, "name" | "opens" | "readsWindows" | "level">,
  { step, ...plan }: InputPlan,
): Promise<ToolOutput> {
  return attemptInput(context, {
    ...plan,
    nominal: plan.nominal ?? tool.level,
    tool: step ? `${tool.name}.${step}` : tool.name,
    ...(tool.opens ? { mayOpen: tool.opens } : {}),
    ...(tool.readsWindows === false ? { readsWindows: false } : {}),
  });
}

/** Whether a call may open a window by what it presses, for a recording to watch for a late one. */
function mayOpenWindows(opens: Opens | undefined, input: unknown): boolean {
  if (opens !== "text") return opens !== undefined;
  const text = (input as { text?: unknown }).text;
  return typeof text === "string" && /[\r\n]/.test(text);
}
