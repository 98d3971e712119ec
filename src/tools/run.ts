// `run`: many steps in one call. Each step is a tool call run exactly as if called alone (validated,
// verified, gated, journaled: callTool), and the run stops at the first step that fails, is refused,
// or whose `expect` is not met. A step may name its element by a `find` resolved when it runs, since
// earlier steps change the window, and say what that element must be (its role and name, as a
// recording does): a difference stops the run before the step does anything.
import { z } from "zod";
import { DeskhandError } from "../core/errors.js";
import { SINCE_LAST, windowChangeLines, windowChanges, YOURS_TO_JUDGE } from "../core/receipt.js";
import type { WindowInfo } from "../platform/types.js";
import { type CallResult, callTool } from "./call.js";
import { rememberWindows, type ToolContext, windowsSinceLast } from "./context.js";
import { resolveOne } from "./find.js";
import { paramValues, readRecording, recordingsDir } from "./recording.js";
import { type Step, stepSchema } from "./run-step.js";
import { defineTool, type ToolDefinition, type ToolOutput } from "./tool.js";
import { viewSchema } from "./view.js";
import { waitTool } from "./wait.js";

/** What a step's reply is cut to in the run's line for it; the stopping step's is given whole. */
const STEP_LINE_CHARS = 200;
/** Tools a step may not call: a run within a run, and recording's own switch. */
const NOT_A_STEP = new Set(["run", "record"]);

const runInput = z
  .object({
    // No bound on the number: a recording of any length runs as it was recorded.
    steps: z.array(stepSchema).min(1).optional(),
    recording: z
      .string()
      .regex(/^[A-Za-z0-9_.-]{1,100}$/, "a recording's name, as record named it")
      .optional()
      .describe("Instead of steps"),
    params: z.record(z.string(), z.string()).default({}).describe('Values for {"$param": NAME} in steps'),
    include_changes: z.boolean().default(false).describe("Acting steps report what changed"),
    view: viewSchema,
  })
  .refine((r) => (r.steps === undefined) !== (r.recording === undefined), {
    message: "give steps or a recording, one of the two",
    path: ["steps"],
  });

/** Why a run stopped before its last step. */
type Stop = "refused" | "error" | "expect_not_met" | "differs" | "cancelled" | "stopping";

interface StepLine {
  step: number;
  tool: string;
  outcome: "done" | Stop;
  line: string;
  /** The rest of a done step's reply, bounded (STEP_REPLY_LINES): a find's matches, a read's rows. */
  rest?: string[];
  /** Its reply left to the caller whether it achieved the goal (YOURS_TO_JUDGE). */
  unjudged?: boolean;
  ref?: string;
}

/** Lines of a done step's reply shown below its line; more are counted, not dropped silently. */
const STEP_REPLY_LINES = 15;

const PARAM_KEY = "$param";

/** Every parameter a value names ({"$param": NAME}), however deep. */
function paramsNamed(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) paramsNamed(v, into);
  else if (value && typeof value === "object") {
    const keys = Object.keys(value);
    const named = (value as Record<string, unknown>)[PARAM_KEY];
    if (keys.length === 1 && typeof named === "string") into.add(named);
    else for (const v of Object.values(value)) paramsNamed(v, into);
  }
  return into;
}

/** The value with each {"$param": NAME} replaced by its value and each "$ref" by the step's ref. */
function substitute(value: unknown, params: Record<string, string>, ref: string | undefined): unknown {
  if (value === "$ref" && ref !== undefined) return ref;
  if (Array.isArray(value)) return value.map((v) => substitute(v, params, ref));
  if (value && typeof value === "object") {
    const named = (value as Record<string, unknown>)[PARAM_KEY];
    if (Object.keys(value).length === 1 && typeof named === "string") return params[named];
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, params, ref)]));
  }
  return value;
}

function mentionsRef(value: unknown): boolean {
  if (value === "$ref") return true;
  if (Array.isArray(value)) return value.some(mentionsRef);
  if (value && typeof value === "object") return Object.values(value).some(mentionsRef);
  return false;
}

/** The step's arguments as its tool will get them, with `ref` for its element. */
function argsOf(step: Step, tool: ToolDefinition, params: Record<string, string>, ref?: string) {
  const args = substitute(step.args, params, ref) as Record<string, unknown>;
  if (ref !== undefined && !mentionsRef(step.args) && "ref" in tool.input.shape && args.ref === undefined)
    args.ref = ref;
  return args;
}

/** A recording's steps, checked as run's own: a file edited by hand is told what is wrong in it. */
export function recordedSteps(steps: unknown[]): Step[] {
  const parsed = z.array(stepSchema).safeParse(steps);
  if (!parsed.success)
    throw new DeskhandError(
      "invalid_params",
      `the recording's steps are malformed; nothing was done: ${parsed.error.issues
        .slice(0, 3)
        .map((issue) => `steps.${issue.path.join(".")}: ${issue.message}`)
        .join("; ")}`,
      "Fix the recording's file (each step: tool, args, and optional find, element, expect), or record it again.",
    );
  return parsed.data;
}

type Lookup = (name: string) => ToolDefinition | undefined;

/** Every step checked before the first runs: a malformed one refuses the whole run, nothing done. */
function checkSteps(
  steps: Step[],
  params: Record<string, string>,
  includeChanges: boolean,
  findTool: Lookup,
) {
  const problems: string[] = [];
  const missing = new Set<string>();
  steps.forEach((step, i) => {
    const tool = findTool(step.tool);
    if (!tool || NOT_A_STEP.has(step.tool)) {
      problems.push(
        `step ${i + 1}: ${JSON.stringify(step.tool)} is ${tool ? "not allowed in a run" : "no tool"}`,
      );
      return;
    }
    for (const name of paramsNamed([step.args, step.expect])) if (!(name in params)) missing.add(name);
    // A stand-in ref lets the schema judge the rest before the step's element is found.
    const args = argsOf(step, tool, params, step.find ? "s0:e0" : undefined);
    if (includeChanges && "include_changes" in tool.input.shape) args.include_changes ??= true;
    const parsed = tool.input.safeParse(args);
    if (!parsed.success && missing.size === 0)
      problems.push(
        `step ${i + 1} (${step.tool}): ${parsed.error.issues
          .slice(0, 3)
          .map((issue) => `${issue.path.join(".") || "(args)"}: ${issue.message}`)
          .join("; ")}`,
      );
    if (step.expect && missing.size === 0) {
      const expect = waitTool.input.safeParse(substitute(step.expect, params, "s0:e0"));
      if (!expect.success)
        problems.push(
          `step ${i + 1}'s expect: ${expect.error.issues
            .slice(0, 2)
            .map((issue) => `${issue.path.join(".") || "(expect)"}: ${issue.message}`)
            .join("; ")}`,
        );
    }
    if (mentionsRef([step.args, step.expect]) && !step.find)
      problems.push(`step ${i + 1}: "$ref" needs the step's find`);
  });
  if (missing.size > 0)
    throw new DeskhandError(
      "invalid_params",
      `the run needs parameter${missing.size > 1 ? "s" : ""} ${[...missing].join(", ")}; nothing was done`,
      `Pass params {${[...missing].map((m) => `"${m}": "…"`).join(", ")}} (the CLI: --param NAME=VALUE).`,
      { missing: [...missing] },
    );
  if (problems.length > 0)
    throw new DeskhandError(
      "invalid_params",
      `the run has malformed steps; nothing was done: ${problems.slice(0, 5).join("; ")}`,
      "Fix those steps and call again; each step's args are its tool's arguments.",
      { problems },
    );
}

/** The lines a step's line carries: what it changed in the windows, and what was read back. */
const SAYS_WHETHER_IT_TOOK = (l: string) =>
  /^(window (appeared|disappeared|retitled)|in front now|started):/.test(l.replace(SINCE_LAST, "")) ||
  /^(The (option|cell|tab) (reads|does not read)|The value read back|Selected rows now)/.test(l);

/** The rest of a step's reply, below its line: bounded in lines and characters, the cut counted. */
function restOf(text: string): string[] {
  const lines = text.split("\n");
  const first = lines.findIndex((l) => !l.startsWith(SINCE_LAST));
  // Whose the judgement is: said once for the run, not after each step.
  const rest = lines
    .slice(first + 1)
    .filter((l) => l !== "" && l !== YOURS_TO_JUDGE && !SAYS_WHETHER_IT_TOOK(l));
  const shown = rest
    .slice(0, STEP_REPLY_LINES)
    .map((l) => (l.length > STEP_LINE_CHARS ? `${l.slice(0, STEP_LINE_CHARS)}…` : l));
  return rest.length > STEP_REPLY_LINES
    ? [...shown, `… ${rest.length - STEP_REPLY_LINES} more lines`]
    : shown;
}

function firstLines(text: string): string {
  const lines = text.split("\n");
  // The reply's first line, the lines that say what it changed in the windows, and what was read
  // back (an option chosen, a value set, rows selected): a step's line says whether it took.
  const changed = lines.filter(SAYS_WHETHER_IT_TOOK);
  const first = lines.find((l) => !l.startsWith(SINCE_LAST)) ?? "";
  return [first.length > STEP_LINE_CHARS ? `${first.slice(0, STEP_LINE_CHARS)}…` : first, ...changed].join(
    "; ",
  );
}

function replyOf(result: CallResult): { text: string; data: unknown } {
  return result.ok
    ? { text: result.output.text, data: result.output.data }
    : {
        text: `${result.error.code}: ${result.error.message}\n${result.error.next}`,
        data: result.error.toJSON(),
      };
}

/** The stopping step's reason in a line: its refusal's reason, its error's message, or its reply's first line. */
function reasonOf(reply: { text: string; data: unknown }): string {
  const data = reply.data as { reason?: unknown; message?: unknown } | null;
  const said =
    typeof data?.reason === "string"
      ? data.reason
      : typeof data?.message === "string"
        ? data.message
        : undefined;
  const line = said ?? reply.text.split("\n")[0] ?? "";
  return line.length > STEP_LINE_CHARS ? `${line.slice(0, STEP_LINE_CHARS)}…` : line;
}

/** Why a run must start no further step: its caller cancelled it, or the process is stopping. */
function haltedBecause(context: ToolContext): { stop: Stop; text: string } | undefined {
  if (context.signal?.aborted) return { stop: "cancelled", text: "the caller cancelled the run" };
  if (context.stopping?.aborted)
    return { stop: "stopping", text: "deskhand is stopping (SIGTERM): no further step is started" };
  return undefined;
}

async function windowsNow(context: ToolContext): Promise<WindowInfo[] | undefined> {
  return (await context.backend()).listWindows().catch(() => undefined);
}

/** Where a run stopped: the step, its tool, why, and that step's own reply. */
interface Stopped {
  step: number;
  tool: string;
  reason: Stop;
  reply: { text: string; data: unknown };
}

type FindTool = (name: string) => ToolDefinition | undefined;

/**
 * The run tool, given the list it finds its steps' tools in: the registry builds it, so this module
 * depends on no list of tools (the registry lists run itself).
 */
export const defineRunTool = (findTool: FindTool) =>
  defineTool({
    name: "run",
    recorded: false,
    group: "run",
    title: "Run steps",
    description:
      "Several tool calls in one, each gated and journaled as if called alone; stops at the first that fails, is refused or misses its expect. Replays a recording.",
    level: "L1",
    highest: "L4",
    annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: true },
    input: runInput,
    async handler(context, input) {
      const recorded = input.recording
        ? readRecording(recordingsDir(context.env, context.policy().auditPath), input.recording)
        : undefined;
      const steps = recorded ? recordedSteps(recorded.steps) : input.steps!;
      const params = recorded ? paramValues(recorded, input.params) : input.params;
      checkSteps(steps, params, input.include_changes, findTool);
      const started = Date.now();
      const before = await windowsNow(context);
      // A window that came or went after the last reply: said once for the run, not by its first step.
      const since = before ? windowsSinceLast(context, before) : undefined;
      const lines: StepLine[] = [];
      let stopped: Stopped | undefined;
      for (const [i, step] of steps.entries()) {
        const ran = await runStep(context, step, i + 1, {
          params,
          includeChanges: input.include_changes,
          findTool,
        });
        lines.push(ran.line);
        stopped = ran.stopped;
        if (stopped) break;
      }
      const after = await windowsNow(context);
      const changes = before && after ? windowChanges(before, after) : undefined;
      if (after) rememberWindows(context, after);
      return runReply({ total: steps, lines, stopped, started, since, changes });
    },
  });

/** One step: its element found (and checked against the recorded one), its call, its expect. */
async function runStep(
  context: ToolContext,
  step: Step,
  number: number,
  run: {
    params: Record<string, string>;
    includeChanges: boolean | undefined;
    findTool: FindTool;
  },
): Promise<{ line: StepLine; stopped?: Stopped }> {
  const tool = run.findTool(step.tool)!;
  const stop = (reason: Stop, reply: Stopped["reply"]) => ({
    line: { step: number, tool: step.tool, outcome: reason, line: firstLines(reply.text) } as StepLine,
    stopped: { step: number, tool: step.tool, reason, reply },
  });
  // Checked before the step's find and again before its call: no step starts once asked to stop.
  const halted = haltedBecause(context);
  if (halted) return stop(halted.stop, { text: halted.text, data: null });
  const found = step.find ? await stepElement(context, step) : undefined;
  if (found && "stop" in found) return stop(found.stop, found.reply);
  const ref = found?.ref;
  const args = argsOf(step, tool, run.params, ref);
  if (run.includeChanges && "include_changes" in tool.input.shape) args.include_changes ??= true;
  const haltedNow = haltedBecause(context);
  if (haltedNow) return stop(haltedNow.stop, { text: haltedNow.text, data: null });
  const result = await callTool(context, tool, args, context.signal);
  if (!result.ok || result.outcome !== "done")
    return stop(result.outcome === "refused" ? "refused" : "error", replyOf(result));
  const line: StepLine = {
    step: number,
    tool: step.tool,
    outcome: "done",
    line: firstLines(result.output.text),
    rest: restOf(result.output.text),
    ...(result.output.text.includes(YOURS_TO_JUDGE) ? { unjudged: true } : {}),
    ...(ref ? { ref } : {}),
  };
  if (!step.expect) return { line };
  const waited = await callTool(context, waitTool, substitute(step.expect, run.params, ref), context.signal);
  if (waited.ok && (waited.output.data as { met?: boolean }).met === true)
    return { line: { ...line, line: `${line.line} · expect met` } };
  const reply = {
    text: `the step was done, but its expect was not met: ${replyOf(waited).text}`,
    data: replyOf(waited).data,
  };
  return { line, stopped: { step: number, tool: step.tool, reason: "expect_not_met", reply } };
}

/** A step's element by its find, as recorded: its ref, or why the step stops with nothing done. */
async function stepElement(
  context: ToolContext,
  step: Step,
): Promise<{ ref: string } | { stop: Stop; reply: Stopped["reply"] }> {
  const found = await resolveOne(context, step.find!).then(
    (m) => m,
    (error: unknown) => (error instanceof DeskhandError ? error : undefined),
  );
  if (!found || found instanceof DeskhandError) {
    const error =
      found ?? new DeskhandError("internal_error", "the step's find failed", "Try the find alone.");
    // What was recorded, beside what is there now: the difference is the reply.
    const recordedAs = step.element
      ? `recorded ${step.element.role} ${JSON.stringify(step.element.name)}; now `
      : "";
    return {
      stop: error.code === "not_found" || error.code === "ambiguous" ? "differs" : "error",
      reply: {
        text: `the step's find: ${recordedAs}${error.code}: ${error.message}\n${error.next}`,
        data: { ...error.toJSON(), ...(step.element ? { recorded: step.element } : {}) },
      },
    };
  }
  const want = step.element;
  if (want && (found.role !== want.role || (found.name ?? "") !== want.name))
    return {
      stop: "differs",
      reply: {
        text: `the step's element differs from the recorded one; nothing was done: recorded ${want.role} ${JSON.stringify(want.name)}, now ${found.role} ${JSON.stringify(found.name ?? "")} [ref=${found.ref}]`,
        data: { recorded: want, now: { ref: found.ref, role: found.role, name: found.name ?? "" } },
      },
    };
  return { ref: found.ref };
}

/** The run's reply: its outcome first, each step's line, the stopping step's reply, what changed. */
function runReply(run: {
  total: Step[];
  lines: StepLine[];
  stopped: Stopped | undefined;
  started: number;
  since: ReturnType<typeof windowsSinceLast> | undefined;
  changes: ReturnType<typeof windowChanges> | undefined;
}): ToolOutput {
  const { lines, stopped, since, changes } = run;
  const steps = run.total;
  const ms = Date.now() - run.started;
  const done = lines.filter((l) => l.outcome === "done").length;
  const notRun = steps.slice(lines.length).map((s, i) => ({ step: lines.length + i + 1, tool: s.tool }));
  const status = !stopped ? "done" : stopped.reason === "refused" ? "refused" : "error";
  const reason = stopped ? reasonOf(stopped.reply) : undefined;
  const text = [
    // The first word is the outcome, as every front end shows a refusal or a failure.
    stopped
      ? `${status}: the run stopped at step ${stopped.step} of ${steps.length} (${stopped.reason.replace(/_/g, " ")}); ${done} done, ${notRun.length} not run · ${ms} ms`
      : `done: ${steps.length} of ${steps.length} steps · ${ms} ms`,
    ...(since?.lines ?? []),
    // The stopping step's reply is given once, whole, below its line.
    ...lines.flatMap((l) => [
      l.step === stopped?.step
        ? `${l.step}. ${l.tool}: ${l.outcome.toUpperCase()}, its reply below`
        : `${l.step}. ${l.tool}: ${l.outcome === "done" ? "" : `${l.outcome.toUpperCase()}: `}${l.line}`,
      ...(l.rest ?? []).map((r) => `   ${r}`),
    ]),
    ...(stopped ? [`# step ${stopped.step}'s reply`, stopped.reply.text] : []),
    ...(notRun.length ? [`# not run: ${notRun.map((s) => `${s.step} ${s.tool}`).join(", ")}`] : []),
    ...(changes ? windowChangeLines(changes).map((l) => `run: ${l}`) : []),
    ...(lines.some((l) => l.unjudged)
      ? ["Whether the steps achieved the goal is for you to judge: re-read what matters."]
      : []),
  ].join("\n");
  return {
    data: {
      status,
      done,
      total: steps.length,
      steps: lines,
      ...(stopped ? { stopped, reason } : {}),
      not_run: notRun,
      ...(since?.data ?? {}),
      ...(changes ?? {}),
      ms,
    },
    text,
  };
}
