// The one way any front end runs a tool: validate against its schema, run it, and turn every failure
// into a DeskhandError that names what was wrong and what to do next. Nothing thrown escapes.
import type { z } from "zod";
import { asDeskhandError, DeskhandError } from "../core/errors.js";
import { boundText, boundValue, cutString, type ReplyCut, replyCutLine } from "../core/limits.js";
import { levelRank } from "../safety/levels.js";
import { gateWarm } from "../safety/warm.js";
import { CallJournal } from "./call-journal.js";
import type { ToolContext } from "./context.js";
import { RECORDER, type StepRecorder } from "./recorder-slot.js";
import type { ToolDefinition, ToolOutput } from "./tool.js";
import { viewAfter, viewSchema } from "./view.js";

/**
 * What became of a call, the one thing every front end switches on: MCP's isError, NDJSON's code,
 * the CLI's exit status (0 done, 1 error, 3 refused), a profile's reply. A refusal is one outcome
 * however a tool reports it (`act` by a `refused` error, the input tools by a `refused` result).
 */
export type Outcome = "done" | "refused" | "error";

export type CallResult =
  | { ok: true; outcome: Outcome; output: ToolOutput }
  | { ok: false; outcome: Exclude<Outcome, "done">; error: DeskhandError };

/** The outcome of a tool's reply: its `status` where it has one ("done", "refused", "error"). */
export function outcomeOf(output: ToolOutput): Outcome {
  const status = output.data.status;
  return status === "refused" ? "refused" : status === "error" ? "error" : "done";
}

/** How long a call that may judge a press waits for the gate's lexicon before it says it is still being learnt. */
const GATE_WARM_MS = 25_000;

const gateWarming = () =>
  new DeskhandError(
    "timeout",
    `the gate is still learning this machine's label lexicon (its first judgement since the translation catalogs changed: about 30 s of CPU, more on a busy machine); after ${GATE_WARM_MS / 1000} s nothing was judged or sent`,
    "Call it again in a moment; reading tools answer meanwhile.",
  );

export function failed(error: DeskhandError): CallResult {
  return { ok: false, outcome: error.code === "refused" ? "refused" : "error", error };
}

function fieldPath(path: readonly PropertyKey[]): string {
  return path.length === 0 ? "(the arguments)" : path.map(String).join(".");
}

function invalidParams(toolName: string, error: z.ZodError): DeskhandError {
  const problems = error.issues.slice(0, 5).map((issue) => `${fieldPath(issue.path)}: ${issue.message}`);
  return new DeskhandError(
    "invalid_params",
    `invalid arguments for ${toolName}: ${problems.join("; ")}`,
    `Fix ${problems.length === 1 ? "that field" : "those fields"} and call again; the tool's input schema lists each field.`,
    { fields: error.issues.map((issue) => fieldPath(issue.path)) },
  );
}

/** What clients written for other tools send, and what deskhand calls it. */
const KNOWN_AS: Record<string, string> = {
  depth: "maxDepth",
  max_depth: "maxDepth",
  max_nodes: "maxNodes",
  max_results: "limit",
  click: "count",
  double: "count",
  timeout: "timeoutMs",
  timeout_ms: "timeoutMs",
};

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}

/**
 * Arguments the tool does not have are refused, never dropped: `click {click: "double"}` would
 * otherwise do a single click. Each is named with the nearest argument the tool has.
 */
function unknownArguments(tool: ToolDefinition, rawInput: unknown): DeskhandError | undefined {
  if (typeof rawInput !== "object" || rawInput === null || Array.isArray(rawInput)) return undefined;
  const known = Object.keys(tool.input.shape);
  const unknown = Object.keys(rawInput).filter((key) => !known.includes(key));
  if (unknown.length === 0) return undefined;
  const hints = unknown.map((key) => {
    const alias = KNOWN_AS[key] ?? KNOWN_AS[key.toLowerCase()];
    const near = [...known].sort((a, b) => distance(key, a) - distance(key, b))[0];
    const guess =
      alias && known.includes(alias) ? alias : near && distance(key, near) <= 3 ? near : undefined;
    return `${key}${guess ? ` (did you mean ${guess}?)` : ""}`;
  });
  return new DeskhandError(
    "invalid_params",
    `${tool.name} has no argument ${hints.join(", ")}; nothing was done`,
    `Use the tool's own arguments: ${known.join(", ")}.`,
    { fields: unknown },
  );
}

/**
 * The reply within its bounds (core/limits.ts), in every channel: its structured data, which NDJSON,
 * the CLI's JSON and MCP's structuredContent carry, and its text. A cut reply says so in both.
 */
export function bounded(result: CallResult): CallResult {
  if (!result.ok) {
    const { error } = result;
    const details = boundValue(error.details);
    const message = cutString(error.message);
    const next = cutString(error.next);
    if (!details.cut && message === error.message && next === error.next) return result;
    const cut = details.cut ? { reply_cut: details.cut } : {};
    return failed(new DeskhandError(error.code, message, next, { ...details.value, ...cut }));
  }
  const { output } = result;
  const data = boundValue(output.data);
  const text = boundText(output.text);
  if (!data.cut && !text.cut) return result;
  const cut: ReplyCut = data.cut ?? { strings: 0, stringBound: 0, longest: 0 };
  if (text.cut) cut.text = true;
  return {
    ...result,
    output: {
      ...output,
      data: { ...data.value, reply_cut: cut },
      text: `${text.text}\n${replyCutLine(cut)}`,
    },
  };
}

export async function callTool(
  context: ToolContext,
  tool: ToolDefinition,
  rawInput: unknown,
  signal?: AbortSignal,
): Promise<CallResult> {
  return bounded(await validatedCall(context, tool, rawInput, signal));
}

async function validatedCall(
  context: ToolContext,
  tool: ToolDefinition,
  rawInput: unknown,
  signal?: AbortSignal,
): Promise<CallResult> {
  const unknown = unknownArguments(tool, rawInput);
  if (unknown) return failed(unknown);
  const parsed = tool.input.safeParse(rawInput ?? {});
  if (!parsed.success) return failed(invalidParams(tool.name, parsed.error));
  // A call that may judge a press waits for the gate's lexicon, still being learnt in the background
  // on a machine's first run; past a bound it says so rather than outlast its client's timeout.
  if (!tool.annotations.readOnlyHint && !(await gateWarm(GATE_WARM_MS))) return failed(gateWarming());
  const journal = new CallJournal();
  // The view as the caller asked, else as the environment says (DESKHAND_VIEW=off: only when asked).
  const asked = (rawInput as { view?: unknown } | null)?.view;
  const input = parsed.data as Record<string, unknown>;
  if (tool.input.shape.view === viewSchema && asked === undefined && context.env.DESKHAND_VIEW === "off")
    input.view = false;
  const result = await runCall(context, tool, input, journal, signal);
  // A step of a run, a field of a form: the outer call's view shows where its last input went.
  const outer = context.callJournal;
  if (journal.actedIn !== undefined && outer) outer.actedIn = journal.actedIn;
  if (journal.actedAt !== undefined && outer) outer.actedAt = journal.actedAt;
  if (journal.frontRead && outer && !outer.frontRead) {
    outer.frontRead = true;
    outer.frontBefore = journal.frontBefore;
  }
  return withJournalGaps(result, journal, context.callJournal);
}

/**
 * The call as done, and what the journal could not take of it: a reply that hides an unwritten
 * outcome line would let an action pass unrecorded; an error would say nothing happened.
 */
function withJournalGaps(result: CallResult, journal: CallJournal, outer?: CallJournal): CallResult {
  if (journal.unwritten.length === 0) return result;
  outer?.unwritten.push(...journal.unwritten);
  const lines = journal.unwritten.map((said) => `journal: ${said}`).join("\n");
  if (result.ok)
    return {
      ...result,
      output: {
        ...result.output,
        data: { ...result.output.data, journal_unwritten: journal.unwritten },
        text: `${result.output.text}\n${lines}`,
      },
    };
  const { error } = result;
  return failed(
    new DeskhandError(error.code, `${error.message}\n${lines}`, error.next, {
      ...error.details,
      journal_unwritten: journal.unwritten,
    }),
  );
}

/** The view an acting call ends with (view.ts): a call done, by a tool that takes `view`, not turned off. */
async function withView(
  context: ToolContext,
  tool: ToolDefinition,
  input: Record<string, unknown>,
  output: ToolOutput,
): Promise<ToolOutput> {
  // A tool takes it by declaring `view: viewSchema` (snapshot's own `view` is another thing).
  if (tool.input.shape.view !== viewSchema || input.view === false || outcomeOf(output) !== "done")
    return output;
  // Where refs live only until the next snapshot (NDJSON, the CLI), the view's would retire the agent's.
  if (context.refs.lifetime !== "while-verified") return output;
  const view = await viewAfter(context, context.callJournal);
  return { ...output, data: { ...output.data, ...view.data }, text: `${output.text}\n${view.text}` };
}

async function runCall(
  context: ToolContext,
  tool: ToolDefinition,
  input: Record<string, unknown>,
  journal: CallJournal,
  signal?: AbortSignal,
): Promise<CallResult> {
  try {
    // The signal and the running tool belong to this call only: a view of the shared context.
    const running = { name: tool.name, level: tool.level, highest: tool.highest, inputsAs: tool.inputsAs };
    // Called from inside another tool: that tool's level holds for what it calls.
    const outer = context.running;
    const levelFloor =
      outer && (!context.levelFloor || levelRank(outer.level) > levelRank(context.levelFloor.level))
        ? { level: outer.level, tool: outer.name }
        : context.levelFloor;
    // A recording session's acting calls, each once: a call made inside one is part of its step.
    const recorder = context.sessionState.get(RECORDER) as StepRecorder | undefined;
    const recorded = !context.inRecordedStep && recorder?.records(tool);
    // A profile's tool (no group of deskhand's own) is what its client called: the outermost one counts.
    const calledAs = context.calledAs ?? (tool.group === undefined ? tool.name : undefined);
    // Whether that tool lets its client declare an input reversible: a refusal mentions it only then.
    const declaresReversible =
      context.calledAs !== undefined
        ? context.declaresReversible
        : calledAs !== undefined
          ? "reversible" in ((tool.input as { shape?: object }).shape ?? {})
          : undefined;
    const scoped: ToolContext = Object.assign(Object.create(context) as ToolContext, {
      running,
      ...(levelFloor ? { levelFloor } : {}),
      ...(calledAs ? { calledAs } : {}),
      ...(declaresReversible !== undefined ? { declaresReversible } : {}),
      ...(signal ? { signal } : {}),
      ...(recorded ? { inRecordedStep: true } : {}),
      callJournal: journal,
    });
    // The element is found again before the call can move it.
    const pending = recorded ? await recorder!.before(scoped, tool, input) : undefined;
    const handled = await tool.handler(scoped, input);
    // Only the outermost call ends with the view: a run's steps and a form's fields have one, the run's.
    const output = outer ? handled : await withView(scoped, tool, input, handled);
    journal.endOpen("the call returned without saying how this attempt ended (a defect in deskhand)");
    const outcome = outcomeOf(output);
    if (pending && outcome === "done") {
      // The call was done whatever becomes of its record: a file that cannot be written is said, not thrown.
      const said = await recorder!.after(scoped, pending, output).then(
        (late) => (late ? { field: "recording_saw", value: late, line: late } : undefined),
        (error: unknown) => {
          const reason = error instanceof Error ? error.message : String(error);
          const line = `this step could not be written (${reason}); the call itself was done`;
          return { field: "recording_failed", value: reason, line };
        },
      );
      if (said)
        return {
          ok: true,
          outcome,
          output: {
            ...output,
            data: { ...output.data, [said.field]: said.value },
            text: `${output.text}\nrecording: ${said.line}`,
          },
        };
    }
    return { ok: true, outcome, output };
  } catch (error) {
    const failure = asDeskhandError(error);
    // An attempt the tool left open ended in this error: its outcome line says so.
    journal.endOpen(failure.message);
    return failed(failure);
  }
}
