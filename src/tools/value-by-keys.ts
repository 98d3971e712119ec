// A slider or spin button whose Value the toolkit accepts and does not apply (the Java ATK wrapper
// returns true and leaves a JSlider or JSpinner where it was) is set as a person sets it: focused by
// its ref, then stepped with the arrow keys, through the gate as any key; so is a page's drop-down,
// whose page no call of the toolkit tells of a choice. The value read back says whether it took.
import { setTimeout as sleep } from "node:timers/promises";
import { readsBackAs } from "../core/readback.js";
import type { ActionReport, RawNode } from "../platform/types.js";
import { callTool } from "./call.js";
import type { ToolContext } from "./context.js";
import { keyTool } from "./hands/keyboard.js";

/** More steps than this are not pressed: a range that wide wants a drag or the app's own field. */
const MAX_STEPS = 100;
/** The toolkit shows a stepped value a moment after the last key. */
const SETTLE_MS = 200;

const STEPPED_ROLES = new Set(["slider", "spin button"]);

/** Whether a value set that did not take can be stepped to by keys. */
export const steppable = (node: RawNode): boolean => STEPPED_ROLES.has(node.role);

/**
 * A slider or spin button after its Value was set: where it does not read `wanted` (at once, or a
 * moment later), it is stepped there with the arrow keys. The report stands where it took, where the
 * value is not a whole number, or where it cannot be stepped.
 */
export async function stepIfNotApplied(
  context: ToolContext,
  target: Target,
  wanted: number,
  report: ActionReport,
  /** Gives the element the focus through its own action: a spin button's keys go to its field. */
  focus: () => Promise<unknown>,
): Promise<ActionReport> {
  const backend = await context.backend();
  const read = () =>
    backend.describe(target.handle, { maxText: 0 }).then(
      (n) => Number(n.value),
      () => Number.NaN,
    );
  let current = await read();
  if (current === wanted) return report;
  // A toolkit may show the value a moment later: only one still not there is stepped.
  await sleep(SETTLE_MS);
  current = await read();
  if (current === wanted || !Number.isInteger(current) || !Number.isInteger(wanted)) return report;
  const stepped = await stepByKeys(context, target, current, wanted, focus).catch(() => undefined);
  if (!stepped) return report;
  return {
    ...report,
    route: `${report.route} (read back ${current}: not applied), then ${stepped.route}`,
    ...(stepped.seen === undefined ? {} : { seen: stepped.seen }),
  };
}

type Target = { ref: string; node: RawNode; handle: string; intent: string; windowId: number | null };

/**
 * A spin button's text written that did not take (Firefox's number field returns true and keeps its
 * text): its Value is set to that number instead, through `setRange`, and read back. The report stands
 * where the text took (readback's one test), where it is no number, or where the element has no Value.
 */
export async function valueIfTextNotTaken(
  context: ToolContext,
  target: { node: RawNode; handle: string },
  text: string,
  report: ActionReport,
  setRange: (value: number) => Promise<ActionReport>,
): Promise<ActionReport> {
  const wanted = text.trim() === "" ? Number.NaN : Number(text);
  if (target.node.role !== "spin button" || !target.node.interfaces?.includes("Value")) return report;
  if (!Number.isFinite(wanted)) return report;
  const backend = await context.backend();
  const now = await backend.describe(target.handle, { maxText: 0 }).catch(() => undefined);
  if (!now || readsBackAs(now.value, text) !== false) return report;
  const set = await setRange(wanted).catch(() => undefined);
  if (!set) return report;
  return { ...set, route: `${report.route} (its text did not take), then ${set.route}` };
}

/**
 * Steps the element from `current` to `wanted` with the arrow keys: Up and Down for a spin button
 * and a vertical slider, Right and Left for a horizontal one. Undefined where it is too many steps.
 */
async function stepByKeys(
  context: ToolContext,
  target: Target,
  current: number,
  wanted: number,
  focus: () => Promise<unknown>,
): Promise<(Pick<ActionReport, "route" | "seen"> & { value?: string }) | undefined> {
  // One key moves it by one: a Swing slider's and spinner's step.
  const steps = wanted - current;
  if (steps === 0 || Math.abs(steps) > MAX_STEPS) return undefined;
  const vertical = target.node.role === "spin button" || target.node.states?.includes("vertical");
  const key = steps > 0 ? (vertical ? "Up" : "Right") : vertical ? "Down" : "Left";
  // A slider takes the keys by its ref; a spin button's go to the field inside it, which has the
  // focus once the spin button is focused (a ref would place a caret in its text first).
  const field = target.node.role === "spin button" && target.windowId !== null;
  if (field) await focus();
  const pressed = await pressAndReread(
    context,
    { place: field ? { window: { id: target.windowId } } : { ref: target.ref }, handle: target.handle },
    key,
    Math.abs(steps),
    target.intent,
  );
  if (!pressed.done) return undefined;
  const value = pressed.value;
  return {
    route: `${key} pressed ${Math.abs(steps)} times with the real keyboard`,
    ...(value === undefined ? {} : { seen: Number(value) === wanted, value }),
  };
}

/** Keys pressed through the key tool (and so the gate), then the element's value read again. */
async function pressAndReread(
  context: ToolContext,
  target: { place: { ref: string } | { window: { id: number | null } }; handle: string },
  key: string,
  count: number,
  intent: string,
): Promise<{ done: boolean; why?: string; value?: string }> {
  const pressed = await callTool(context, keyTool, { ...target.place, key, count, intent });
  if (!(pressed.ok && pressed.outcome === "done"))
    return { done: false, why: pressed.ok ? pressed.outcome : pressed.error.message };
  await sleep(SETTLE_MS);
  const now = await (await context.backend()).describe(target.handle, { maxText: 0 }).catch(() => undefined);
  return now?.value === undefined ? { done: true } : { done: true, value: now.value };
}

/**
 * What the platform left to keys (`report.keys`: a page's drop-down or number field, whose page no
 * call of the toolkit tells of a change), pressed on the focused element through the gate as any key,
 * then read back by `took` on the value the element shows.
 */
export async function pressReportedKeys(
  context: ToolContext,
  target: { handle: string; intent: string; windowId: number },
  report: ActionReport,
  took: (value: string) => boolean,
  /** Gives it the focus through its own action: a click would open a drop-down's list, where keys only move a highlight. */
  focus: () => Promise<unknown>,
): Promise<ActionReport> {
  const keys = report.keys;
  if (!keys) return report;
  await focus();
  const { key, count } = keys;
  const pressed = await pressAndReread(
    context,
    { place: { window: { id: target.windowId } }, handle: target.handle },
    key,
    count,
    target.intent,
  );
  if (!pressed.done)
    return {
      route: `${report.route}; ${key} ×${count} not pressed (${pressed.why})`,
      outcome: "completed",
      seen: false,
    };
  return {
    route: `${key} pressed ${count === 1 ? "once" : `${count} times`} with the real keyboard (the page is told as a person's keys tell it)`,
    outcome: "completed",
    ...(pressed.value === undefined ? {} : { seen: took(pressed.value) }),
  };
}
