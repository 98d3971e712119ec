import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { asDeskhandError, DeskhandError } from "../core/errors.js";
import { readsBackAs } from "../core/readback.js";
import { type Receipt, renderReceipt, windowChangeLines, windowChanges } from "../core/receipt.js";
import { hidesSecret } from "../core/value.js";
import { roleSet } from "../platform/roles.js";
import { PASSWORD_ROLE } from "../platform/types.js";
import type { Secret } from "../safety/audit.js";
import { runAction } from "./act.js";
import { rememberWindows, type ToolContext, windowsSinceLast } from "./context.js";
import { type FindQueryInput, searchUntil } from "./find.js";
import { typeTextPlan, typeTextTool } from "./hands/keyboard.js";
import { intentSchema } from "./hands/schemas.js";
import { stateInside } from "./hands/window-read.js";
import { runPlan } from "./input-tool.js";
import { refSchema, targetSchema, wholeCharacters } from "./schemas.js";
import { defineTool } from "./tool.js";
import { viewSchema } from "./view.js";

/** The role the ref was handed out with, if the ref is known (its action verifies it anyway). */
function fieldRole(context: ToolContext, ref: string): string | undefined {
  try {
    return context.refs.lookup(ref).fingerprint.role;
  } catch {
    return undefined;
  }
}

/**
 * Whether a combo box has a text of its own to type into: it is editable, or holds an editable
 * field (Qt's and GTK's combo boxes with an entry). What cannot be read counts as yes.
 */
async function holdsText(context: ToolContext, ref: string): Promise<boolean> {
  try {
    const { handle, fingerprint } = context.refs.lookup(ref);
    return (
      !!fingerprint.states?.includes("editable") || (await stateInside(context, handle, "editable")) !== false
    );
  } catch {
    return true;
  }
}

/** Controls whose value is a number in a range, set as such whatever their text shows. */
const RANGE_ROLES = roleSet("spin button", "slider", "scroll bar");

/**
 * A text that is a plain number, given to a control of a range (a spinner's "5"): the number it
 * names, set as its value. Typed keys reach a Swing spinner's value only on Enter, so no typed route
 * can read it back. One rule for fill_form and the profiles that type into fields.
 */
export function rangeValue(context: ToolContext, ref: string, text: string): number | undefined {
  if (!RANGE_ROLES.has(fieldRole(context, ref) ?? "") || !/^\s*[-+]?(\d+\.?\d*|\.\d+)\s*$/.test(text))
    return undefined;
  return Number(text);
}

export interface FieldResult {
  ref: string;
  /**
   * A password field, or a field whose value holds a secret (a card number, a code): its value never
   * comes back in a reply, so whether it took cannot be read back.
   */
  unverifiable?: true;
  /**
   * True only when it reads back as asked; "typed, not verified" when its keys went in and the field
   * cannot be read back (a Qt combo box): typed, and counted as done, but not claimed as set.
   */
  set: boolean | typeof TYPED_UNVERIFIED;
  route?: "accessibility" | "typed";
  receipt?: Receipt;
  error?: Record<string, unknown>;
  typed?: Record<string, unknown>;
}

type FillInput = { intent?: string | undefined; typed_fallback: boolean };

/** One field: set through its accessibility interface, read back; typed instead where that fails and it may. */
async function fillField(
  context: ToolContext,
  input: FillInput,
  field: { ref: string; value: string | number },
  secrets: Secret[],
): Promise<FieldResult> {
  const expected = String(field.value);
  // A number, or a number's text given to a control of a range (a spinner's "5"), is its value.
  const number = typeof field.value === "number" ? field.value : rangeValue(context, field.ref, field.value);
  const action =
    number !== undefined
      ? { kind: "set_range" as const, value: number }
      : { kind: "set_value" as const, text: String(field.value) };
  const act = (a: typeof action | { kind: "select"; option: string }) =>
    runAction(
      context,
      {
        ref: field.ref,
        action: a,
        waitMs: 50,
        timeoutMs: 2000,
        reversible: true,
        ...(input.intent ? { intent: input.intent } : {}),
      },
      secrets,
    );
  // A combo box's text is first its option of that name (an HTML <select>, a GTK or Qt combo box),
  // as act select chooses it; an editable one that lists no such option takes the text itself.
  const combo = typeof field.value === "string" && fieldRole(context, field.ref) === "combo box";
  let notChosen: FieldResult | undefined;
  if (combo) {
    const chosen = await chooseOption(act, field.ref, String(field.value));
    if ("done" in chosen) return chosen.done;
    notChosen = chosen.notChosen;
  }
  let failure: FieldResult;
  try {
    const receipt = await act(action);
    const after = receipt.after?.value;
    // Typing again would only type it twice: the call took, and nothing can say more.
    if (hidesSecret(after))
      return { ref: field.ref, set: false, unverifiable: true, route: "accessibility", receipt };
    if (readsBackAs(after, expected) === true)
      return { ref: field.ref, set: true, route: "accessibility", receipt };
    failure = { ref: field.ref, set: false, receipt };
  } catch (error) {
    const problem = asDeskhandError(error);
    failure = { ref: field.ref, set: false, error: problem.toJSON() };
    // A combo box with no text of its own takes only its options: keys typed into it open its list
    // and mark an option there without choosing it (GTK 3), which would read back as chosen.
    if (combo && problem.code === "unsupported_pattern" && !(await holdsText(context, field.ref)))
      return notChosen ?? failure;
    if (!TYPE_AFTER.has(problem.code)) return failure;
  }
  if (!input.typed_fallback || expected === "") return failure;
  const others = secrets.filter((s) => s.text !== expected);
  return typedRoute(context, input, field.ref, expected, others, failure);
}

/**
 * A combo box set by choosing its option of that name, read back: its value, or the option reading
 * selected afterwards (a GTK 3 combo box reports no value, only its name). `notChosen` where it
 * lists no such option or cannot choose one (the text route is tried next, where it takes text);
 * a refusal by the gate is the answer.
 */
async function chooseOption(
  act: (a: { kind: "select"; option: string }) => ReturnType<typeof runAction>,
  ref: string,
  option: string,
): Promise<{ done: FieldResult } | { notChosen: FieldResult }> {
  try {
    const receipt = await act({ kind: "select", option });
    if (readsBackAs(receipt.after?.value, option) === true || receipt.effect === "seen")
      return { done: { ref, set: true, route: "accessibility", receipt } };
    return { notChosen: { ref, set: false, receipt } };
  } catch (error) {
    const problem = asDeskhandError(error);
    const result = { ref, set: false, error: problem.toJSON() };
    if (TYPE_AFTER.has(problem.code) || problem.code === "invalid_params") return { notChosen: result };
    return { done: result };
  }
}

/** A page reports the place it scrolled a field to a moment later (Chromium): tried again until then. */
const SCROLL_SETTLE_MS = [100, 200, 400, 800];

async function afterScroll<T>(type: () => Promise<T>): Promise<T> {
  let last: unknown;
  for (const ms of SCROLL_SETTLE_MS) {
    await sleep(ms);
    try {
      return await type();
    } catch (error) {
      if (asDeskhandError(error).code !== "not_clickable") throw error;
      last = error;
    }
  }
  throw last;
}

/** Whether a field was scrolled into view by its own accessibility action. */
async function scrolledTo(context: ToolContext, ref: string, intent: string): Promise<boolean> {
  const action = { kind: "scroll_into_view" as const };
  const scrolled = await runAction(context, {
    ref,
    action,
    waitMs: 50,
    timeoutMs: 2000,
    reversible: true,
    intent,
  })
    .then((receipt) => receipt.action_outcome === "completed")
    .catch(() => false);
  return scrolled;
}

/** The typed route: the keys, then the same test as the accessibility route's, on the value re-read. */
async function typedRoute(
  context: ToolContext,
  input: FillInput,
  ref: string,
  expected: string,
  others: Secret[],
  failure: FieldResult,
): Promise<FieldResult> {
  const typing = {
    ref,
    text: expected,
    clear: true,
    intent: input.intent ?? "Fill a form field",
    reversible: true,
    ensure_focus: true,
    include_changes: false,
    view: false,
    settleMs: 50,
  };
  const type = () =>
    typeTextPlan(context, typing, others).then((plan) => runPlan(context, typeTextTool, plan));
  const typed = await type()
    .catch(async (error) => {
      // A field off screen has no place for keys: it is scrolled into view (an action of its own,
      // journaled), as a person scrolls to it, and typed into once more.
      if (asDeskhandError(error).code !== "not_clickable" || !(await scrolledTo(context, ref, typing.intent)))
        throw error;
      return afterScroll(type);
    })
    .catch((error) => {
      // What to do next rides with the reason: a field off screen is scrolled into view first.
      const { message, next } = asDeskhandError(error);
      return { data: { status: "error", reason: next ? `${message}. ${next}` : message } };
    });
  const data = typed.data as { status: string; reason?: string; result?: Record<string, unknown> };
  // The element's value as re-read (a spinner's text can show the digits while its value waits for Enter).
  const after = (data.result?.after as { value?: string } | undefined)?.value;
  // type_text's own read-back ("typed, not verified", characters lost) is judged again here, on the value.
  const sent = data.status === "done" || data.status === "unverified" || data.result !== undefined;
  const readBack = !sent
    ? undefined
    : after === undefined
      ? "unreadable"
      : readsBackAs(after, expected)
        ? "exact"
        : "differs";
  const typedSummary = {
    status: data.status,
    ...(data.reason ? { reason: data.reason } : {}),
    ...(readBack ? { read_back: readBack } : {}),
  };
  if (sent && readBack === "exact") return { ref, set: true, route: "typed", typed: typedSummary };
  if (sent && readBack === "unreadable")
    return { ref, set: TYPED_UNVERIFIED, route: "typed", typed: typedSummary };
  return { ...failure, typed: typedSummary };
}

/**
 * A field's line in the reply: how it was set and read back, or why not. A reason an earlier field's
 * line gave whole (the same refusal for every field) is named by that field, not said again.
 */
function fieldLine(r: FieldResult, said: Map<string, string>): string {
  const once = (reason: string) => {
    const first = said.get(reason);
    if (first) return `the same as ${first}`;
    said.set(reason, r.ref);
    return reason;
  };
  if (r.unverifiable)
    return `${r.ref}: written by its accessibility interface (the call returned); a password field, or a card number, key or code in a field, is never read back, so it is not verified`;
  if (r.set === TYPED_UNVERIFIED)
    return `${r.ref}: typed, not verified: the keys went in, and the field cannot be read back`;
  const owner = r.receipt?.owner_differs;
  if (r.set && owner)
    return `${r.ref}: set by its accessibility interface; the field reads back as asked, but the ${owner.role} it belongs to still reads ${JSON.stringify(owner.value)} until it is committed (Enter, or the focus leaving it)`;
  if (r.set)
    return `${r.ref}: set by ${r.route === "typed" ? "typing" : "its accessibility interface"}; reads back as asked`;
  const typed = r.typed
    ? `; typed: ${r.typed.status}${r.typed.read_back ? `, reads back ${r.typed.read_back}` : ""}${r.typed.reason ? ` (${once(String(r.typed.reason))})` : ""}`
    : "";
  if (r.receipt)
    return `${r.ref}: not set — ${renderReceipt(r.receipt).split("\n")[0]}, but it does NOT read back as asked${typed}`;
  return `${r.ref}: not set — ${String(r.error?.code)}: ${once(String(r.error?.message))}${typed}`;
}

/** The one field a label names in the target: its ref, or why there is none to fill. */
async function resolveLabel(
  context: ToolContext,
  target: z.output<typeof targetSchema>,
  label: string,
): Promise<{ ref: string } | { error: Record<string, unknown> }> {
  try {
    const found = await searchUntil(
      context,
      { target, label, maxDepth: 64, timeoutMsRead: 10_000 } as FindQueryInput,
      5,
      0,
    );
    if (found.total === 1) return { ref: found.matches[0]!.ref };
    const error =
      found.total === 0
        ? new DeskhandError(
            "not_found",
            `no field is named or labelled ${JSON.stringify(label)}`,
            'Snapshot the window: fields show their inferred labels as ~"…".',
          )
        : new DeskhandError(
            "ambiguous",
            `${found.total} fields are named or labelled ${JSON.stringify(label)}: ${found.matches.map((m) => m.ref).join(", ")}`,
            "Give the one you mean by ref.",
          );
    return { error: error.toJSON() };
  } catch (error) {
    return { error: asDeskhandError(error).toJSON() };
  }
}

const TYPED_UNVERIFIED = "typed, not verified";

// Errors after which typing is worth a try: the field took the value through no interface it has.
const TYPE_AFTER = new Set(["unsupported_pattern", "action_failed"]);

export const fillFormTool = defineTool({
  name: "fill_form",
  typedValues: "fields[].value",
  group: "act",
  title: "Fill several fields",
  description:
    "Set fields in order, [{ref|label, value}]: by accessibility, typed where that has no effect. A field is set only when it reads back; each gets a line.",
  level: "L2",
  highest: "L3",
  inputsAs: ["act", "type_text"],
  annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: true },
  input: z.object({
    fields: z
      .array(
        z
          .strictObject({
            ref: refSchema.optional(),
            label: z.string().trim().min(1).optional().describe("Instead of ref: its name or label"),
            value: z.union([z.string().superRefine(wholeCharacters), z.number().finite()]),
          })
          .refine((f) => (f.ref === undefined) !== (f.label === undefined), {
            message: "give ref or label, one of the two",
            path: ["ref"],
          }),
      )
      .min(1)
      .max(100),
    target: targetSchema.optional().describe("The window of fields given by label"),
    intent: intentSchema.optional(),
    typed_fallback: z.boolean().default(true),
    view: viewSchema,
  }),
  async handler(context, input) {
    const results: FieldResult[] = [];
    if (input.fields.some((f) => f.label !== undefined) && !input.target)
      throw new DeskhandError(
        "invalid_params",
        "a field given by label needs a target: the window to find it in",
        'Add target {kind: "title", glob: "…"} (or a window id), or give the field\'s ref.',
      );
    // What the whole form changed in the windows (a field that opens a popup, a form that closes):
    // each field's own receipt has its part; the call says the sum, once.
    const windowsBefore = await (await context.backend()).listWindows().catch(() => undefined);
    // A window that came or went after the last reply: said once, first, not by the first field.
    const since = windowsBefore ? windowsSinceLast(context, windowsBefore) : undefined;
    // Labels become refs first: a label that names no field, or several, is that field's failure.
    const resolved = await Promise.all(
      input.fields.map(async (f) =>
        f.ref !== undefined ? { ref: f.ref } : resolveLabel(context, input.target!, f.label!),
      ),
    );
    // One intent covers every field, so every line keeps every field's value out, not just its own.
    const secrets = input.fields.map((f, i) => ({
      text: String(f.value),
      password: "ref" in resolved[i]! && fieldRole(context, resolved[i]!.ref) === PASSWORD_ROLE,
    }));
    for (const [i, given] of input.fields.entries()) {
      const found = resolved[i]!;
      results.push(
        "error" in found
          ? { ref: `label ${JSON.stringify(given.label)}`, set: false, error: found.error }
          : await fillField(context, input, { ref: found.ref, value: given.value }, secrets),
      );
    }
    const done = results.filter((r) => r.set === true).length;
    const typedOnly = results.filter((r) => r.set === TYPED_UNVERIFIED).length;
    const said = new Map<string, string>();
    const lines = results.map((r) => fieldLine(r, said));
    const unverifiable = results.filter((r) => r.unverifiable).length;
    lines.push(
      `${done} of ${results.length} fields set and read back${typedOnly ? `; ${typedOnly} typed, not verified` : ""}${unverifiable ? `; ${unverifiable} secret field${unverifiable > 1 ? "s" : ""} (password, card number, key or code) written, not verifiable` : ""}.`,
    );
    // The call's outcome: done when any field was set; refused when every field was refused (the
    // gate, a person); an error when nothing was set for any other reason.
    const written = done + typedOnly + unverifiable;
    const refused = results.every((r) => r.error?.code === "refused" || r.typed?.status === "refused");
    const status = written > 0 ? "done" : refused ? "refused" : "error";
    const windowsAfter =
      windowsBefore && (await (await context.backend()).listWindows().catch(() => undefined));
    const changes = windowsBefore && windowsAfter ? windowChanges(windowsBefore, windowsAfter) : undefined;
    if (changes) lines.push(...windowChangeLines(changes));
    if (windowsAfter) rememberWindows(context, windowsAfter);
    if (since) lines.unshift(...since.lines);
    const text = lines.join("\n");
    const first = results[0];
    const reason =
      status === "done"
        ? undefined
        : (first?.error?.message ?? first?.typed?.reason ?? "no field reads back as asked");
    return {
      data: {
        status,
        ...(reason ? { reason: String(reason) } : {}),
        fields: results,
        set: done,
        ...(typedOnly ? { typed_not_verified: typedOnly } : {}),
        total: results.length,
        ...(since?.data ?? {}),
        ...(changes ?? {}),
      },
      text: status === "done" ? text : `${status}: no field was set\n${text}`,
    };
  },
});
