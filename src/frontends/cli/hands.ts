// CLI commands for the hands: click, type, key, drag, hover, wheel, screenshot, window, audit. An
// element is named by selector (found in this process) or a point by --at X,Y. A person at the
// controlling terminal is asked before anything that needs confirmation, and types back a code to
// allow it; without a terminal it is refused.
import { randomBytes } from "node:crypto";
import { closeSync, openSync, writeFileSync } from "node:fs";
import { createInterface } from "node:readline/promises";
import { ReadStream, WriteStream } from "node:tty";
import { AuditJournal } from "../../safety/audit.js";
import { type Confirmer, confirmationQuestion } from "../../safety/gate.js";
import { SAFETY_LEVELS, type SafetyLevel } from "../../safety/levels.js";
import { loadPolicy } from "../../safety/policy.js";
import { callTool } from "../../tools/call.js";
import type { ToolContext } from "../../tools/context.js";
import { type ToolName, toolNamed } from "../../tools/registry.js";
import { parse, reportFailure, resolve, type Values, whole, withContext } from "./elements.js";
import { exitStatus } from "./exit.js";
import { UsageError } from "./usage-error.js";

const SELECTOR_KEYS = [
  "role",
  "name",
  "name-contains",
  "value-contains",
  "description",
  "accessible-id",
  "label",
  "state",
  "locator",
];

const common = {
  intent: { type: "string" },
  "not-reversible": { type: "boolean" },
  "no-focus": { type: "boolean" },
  ceiling: { type: "string" },
} as const;

function hasSelector(values: Values): boolean {
  return SELECTOR_KEYS.some((key) => values[key] !== undefined);
}

export function point(flag: string, value: unknown): { space: "global"; x: number; y: number } {
  const match = /^(-?\d+),(-?\d+)$/.exec(String(value));
  if (!match) throw new UsageError(`--${flag} takes X,Y in screen points, like 120,45`);
  return { space: "global", x: Number(match[1]), y: Number(match[2]) };
}

export function ceilingFlag(value: unknown): SafetyLevel | undefined {
  if (value === undefined) return undefined;
  if (!(SAFETY_LEVELS as readonly string[]).includes(String(value)))
    throw new UsageError(`--ceiling is one of ${SAFETY_LEVELS.join(", ")}`);
  return value as SafetyLevel;
}

// Letters and digits a person cannot misread for one another (no 0/O, 1/l/I).
const CHALLENGE_LETTERS = "abcdefghjkmnpqrstuvwxyz23456789";

/** A short code a person types back: an answer written blindly ("y") into a terminal never matches. */
function challengeCode(length = 4): string {
  return [...randomBytes(length)].map((b) => CHALLENGE_LETTERS[b % CHALLENGE_LETTERS.length]).join("");
}

/** The controlling terminal, for reading and writing; undefined (and why) when there is none. */
function openTerminal(): { input: ReadStream; output: WriteStream } | { why: string } {
  let input: number | undefined;
  try {
    input = openSync("/dev/tty", "r");
    const output = openSync("/dev/tty", "w");
    return { input: new ReadStream(input), output: new WriteStream(output) };
  } catch (error) {
    if (input !== undefined) closeSync(input);
    return { why: `/dev/tty: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` };
  }
}

/**
 * Asks a person at the controlling terminal (/dev/tty, never stdin, which a script feeds), who must
 * type back a code shown with the question: a script that answers "y" into a terminal it holds is
 * declined. With no controlling terminal, nobody can be asked: the gate refuses and names the
 * pre-approval that would allow the step.
 */
export const terminalConfirmer: Confirmer = async (request) => {
  const terminal = openTerminal();
  if ("why" in terminal) {
    process.stderr.write(
      `deskhand: no person can be asked: this process has no controlling terminal (${terminal.why})\n`,
    );
    return "unavailable";
  }
  const code = challengeCode();
  const prompt = createInterface({ input: terminal.input, output: terminal.output });
  try {
    const answer = await prompt.question(
      `${confirmationQuestion(request)}\nTo allow it, type ${code} and Enter; anything else declines: `,
    );
    return answer.trim().toLowerCase() === code ? "approved" : "declined";
  } finally {
    prompt.close();
    terminal.input.destroy();
    terminal.output.destroy();
  }
};

async function runHands(
  context: ToolContext,
  tool: ToolName,
  input: Record<string, unknown>,
  values: Values,
): Promise<number> {
  const result = await callTool(context, toolNamed(tool), input);
  const json = Boolean(values.json);
  if (!result.ok) return reportFailure(result.error, json);
  const { data, text, image } = result.output;
  if (image && typeof values.out === "string") writeFileSync(values.out, image.data);
  process.stdout.write(
    `${json ? JSON.stringify(data) : text}${image && values.out ? `\nwritten to ${values.out}` : ""}\n`,
  );
  // 0 done, 1 error, 3 refused: a script can tell "not allowed" from "went wrong".
  return exitStatus(result);
}

function requireIntent(values: Values): string {
  if (typeof values.intent !== "string") throw new UsageError('--intent "what this is for" is required');
  return values.intent;
}

/** The window the target flags name (--window ID in decimal or 0x hex, --title GLOB, --pid PID). */
function windowSpec(values: Values): { id: number } | { title: string } | { pid: number } | undefined {
  if (values.window !== undefined) {
    const raw = String(values.window);
    return { id: whole("window", raw.startsWith("0x") ? Number.parseInt(raw, 16) : raw)! };
  }
  if (typeof values.title === "string") return { title: values.title };
  if (values.pid !== undefined) return { pid: whole("pid", values.pid)! };
  return undefined;
}

/** The element a selector names, if one was given (a number is the exit status of a failed find). */
function optionalRef(context: ToolContext, values: Values): Promise<string | number | undefined> {
  return hasSelector(values) ? resolve(context, values) : Promise.resolve(undefined);
}

/** Keys go to the element a selector names, or else to the window the flags name (brought forward). */
function refOrWindow(ref: string | undefined, values: Values): Record<string, unknown> {
  if (ref) return { ref };
  const window = windowSpec(values);
  return window ? { window } : {};
}

/** The element (by selector) or the point (--at) an input command acts on. */
async function place(
  context: ToolContext,
  values: Values,
  flag = "at",
): Promise<Record<string, unknown> | number> {
  if (values[flag] !== undefined) {
    if (hasSelector(values)) throw new UsageError(`give --${flag} or a selector, not both`);
    // At a point, --window/--title/--pid name the window to bring forward before acting.
    const window = windowSpec(values);
    return { at: point(flag, values[flag]), ...(window ? { window } : {}) };
  }
  if (!hasSelector(values)) throw new UsageError(`name the element with a selector, or give --${flag} X,Y`);
  const ref = await resolve(context, values);
  return typeof ref === "number" ? ref : { ref };
}

function handsCommand(
  tool: ToolName,
  extra: Record<string, { type: "string" | "boolean"; multiple?: boolean }>,
  build: (context: ToolContext, values: Values) => Promise<Record<string, unknown> | number>,
) {
  return async (args: string[]): Promise<number> => {
    const values = parse(args, { ...common, ...extra, json: { type: "boolean" } });
    const ceiling = ceilingFlag(values.ceiling);
    return withContext(
      async (context) => {
        const input = await build(context, values);
        if (typeof input === "number") return input;
        return runHands(context, tool, input, values);
      },
      { confirm: terminalConfirmer, ...(ceiling ? { ceiling } : {}) },
    );
  };
}

const intentAndFlags = (values: Values, reversibleDefault = true) => ({
  intent: requireIntent(values),
  reversible: values["not-reversible"] ? false : reversibleDefault,
  ensure_focus: !values["no-focus"],
});

const modifiers = (values: Values) =>
  typeof values.modifiers === "string" ? values.modifiers.split(",").map((m) => m.trim()) : [];

export const clickCommand = handsCommand(
  "click",
  {
    at: { type: "string" },
    button: { type: "string" },
    double: { type: "boolean" },
    modifiers: { type: "string" },
  },
  async (context, values) => {
    const where = await place(context, values);
    if (typeof where === "number") return where;
    return {
      ...where,
      ...intentAndFlags(values),
      ...(values.button ? { button: values.button } : {}),
      count: values.double ? 2 : 1,
      modifiers: modifiers(values),
    };
  },
);

export const typeCommand = handsCommand(
  "type_text",
  { text: { type: "string" }, clear: { type: "boolean" } },
  async (context, values) => {
    if (typeof values.text !== "string") throw new UsageError("--text is required");
    const where = await optionalRef(context, values);
    if (typeof where === "number") return where;
    return {
      text: values.text,
      clear: Boolean(values.clear),
      ...refOrWindow(where, values),
      ...intentAndFlags(values),
    };
  },
);

export const keyCommand = handsCommand(
  "key",
  { key: { type: "string" }, count: { type: "string" } },
  async (context, values) => {
    if (typeof values.key !== "string") throw new UsageError("--key is required, like --key ctrl+s");
    const where = await optionalRef(context, values);
    if (typeof where === "number") return where;
    const count = whole("count", values.count);
    return {
      key: values.key,
      ...(count ? { count } : {}),
      ...refOrWindow(where, values),
      ...intentAndFlags(values),
    };
  },
);

export const dragCommand = handsCommand(
  "drag",
  { from: { type: "string" }, to: { type: "string" }, button: { type: "string" } },
  async (_context, values) => {
    const window = windowSpec(values);
    return {
      from: { at: point("from", values.from) },
      to: { at: point("to", values.to) },
      ...(window ? { window } : {}),
      ...(values.button ? { button: values.button } : {}),
      ...intentAndFlags(values),
    };
  },
);

export const hoverCommand = handsCommand("hover", { at: { type: "string" } }, async (context, values) => {
  const where = await place(context, values);
  if (typeof where === "number") return where;
  return { ...where, intent: requireIntent(values) };
});

export const wheelCommand = handsCommand(
  "wheel",
  { at: { type: "string" }, direction: { type: "string" }, notches: { type: "string" } },
  async (context, values) => {
    const where = values.at !== undefined || hasSelector(values) ? await place(context, values) : {};
    if (typeof where === "number") return where;
    const notches = whole("notches", values.notches);
    return {
      ...where,
      direction: values.direction ?? "down",
      ...(notches ? { notches } : {}),
      intent: requireIntent(values),
    };
  },
);

export const screenshotCommand = handsCommand(
  "screenshot",
  { out: { type: "string" }, "max-width": { type: "string" }, "no-raise": { type: "boolean" } },
  async (context, values) => {
    if (typeof values.out !== "string") throw new UsageError("--out FILE.png is required");
    const maxWidth = whole("max-width", values["max-width"]);
    const of = hasSelector(values)
      ? await resolve(context, values).then((ref) =>
          typeof ref === "number" ? ref : { kind: "element", ref },
        )
      : windowSpec(values)
        ? { kind: "window", window: windowSpec(values) }
        : { kind: "screen" };
    if (typeof of === "number") return of;
    return { of, ...(maxWidth ? { max_width: maxWidth } : {}), raise: !values["no-raise"] };
  },
);

/** What to capture: a selector's element, --region X,Y,W,H, a window, or the screen. */
async function captureOf(context: ToolContext, values: Values): Promise<Record<string, unknown> | number> {
  if (hasSelector(values)) {
    const ref = await resolve(context, values);
    return typeof ref === "number" ? ref : { kind: "element", ref };
  }
  if (values.region !== undefined) {
    const match = /^(\d+),(\d+),(\d+),(\d+)$/.exec(String(values.region));
    if (!match) throw new UsageError("--region takes X,Y,WIDTH,HEIGHT in screen points, like 0,0,300,100");
    const [x, y, width, height] = match.slice(1).map(Number);
    return { kind: "region", x, y, width, height };
  }
  const window = windowSpec(values);
  return window ? { kind: "window", window } : { kind: "screen" };
}

const textFlags = {
  region: { type: "string" },
  languages: { type: "string" },
  "no-raise": { type: "boolean" },
} as const;

const textInput = (values: Values) => ({
  ...(typeof values.languages === "string" ? { languages: values.languages.split(/[+,]/) } : {}),
  raise: !values["no-raise"],
});

export const readScreenTextCommand = handsCommand(
  "read_screen_text",
  { ...textFlags, "max-chars": { type: "string" } },
  async (context, values) => {
    const of = await captureOf(context, values);
    if (typeof of === "number") return of;
    const maxChars = whole("max-chars", values["max-chars"]);
    return { of, ...textInput(values), ...(maxChars ? { maxChars } : {}) };
  },
);

export const findTextCommand = handsCommand(
  "find_text",
  { ...textFlags, text: { type: "string" }, match: { type: "string" }, limit: { type: "string" } },
  async (context, values) => {
    if (typeof values.text !== "string") throw new UsageError("--text S is required: the text to look for");
    const of = await captureOf(context, values);
    if (typeof of === "number") return of;
    const limit = whole("limit", values.limit);
    return {
      text: values.text,
      ...(typeof values.match === "string" ? { match: values.match } : {}),
      of,
      ...textInput(values),
      ...(limit ? { limit } : {}),
    };
  },
);

const WINDOW_ACTIONS = ["focus", "minimize", "hide", "show", "close"];

export async function windowCommand(args: string[]): Promise<number> {
  const [action, ...rest] = args;
  if (!action || !WINDOW_ACTIONS.includes(action))
    throw new UsageError(`window needs one of ${WINDOW_ACTIONS.join(", ")}`);
  return handsCommand("window", {}, async (_context, values) => {
    const window = windowSpec(values);
    if (!window) throw new UsageError("name the window: --window ID, --title GLOB or --pid PID");
    return { action, window, intent: requireIntent(values) };
  })(rest);
}

/** Whether an outcome's attempt line is among those shown: then the two read as one line. */
const attemptShown = (entries: Record<string, unknown>[], outcome: Record<string, unknown>) =>
  entries.some((e) => e.phase === "attempt" && e.id === outcome.id);

/** One journal line as a person reads it; a field a line lacks is left out, never "undefined". */
function auditLine(e: Record<string, unknown>, all: Record<string, unknown>[]): string {
  if (typeof e.unreadable === "string")
    return `line ${e.line}: unreadable (cut short or garbled): ${JSON.stringify(e.unreadable.slice(0, 80))}`;
  // An attempt shown with its outcome reads as the outcome; one with none did not finish.
  const ended = e.phase === "attempt" ? all.find((o) => o.phase === "outcome" && o.id === e.id) : undefined;
  const line = ended ?? e;
  const text = (value: unknown) => (typeof value === "string" || typeof value === "number" ? value : "?");
  const target = line.target as { role?: string; name?: string } | null | undefined;
  const what = typeof target?.name === "string" ? ` ${target.role ?? ""} ${JSON.stringify(target.name)}` : "";
  const how =
    e.unfinished === true
      ? "no outcome recorded: deskhand stopped or the journal failed"
      : typeof line.decision === "string"
        ? `${line.decision}${typeof line.reason === "string" ? ` (${line.reason})` : ""}`
        : "attempted";
  const intent = typeof line.intent === "string" ? line.intent : "(no intent)";
  const tool = typeof line.via === "string" ? `${line.via} (${text(line.tool)})` : text(line.tool);
  return `${text(e.time)} ${text(line.level)} ${tool}${what}: ${how} — ${intent}`;
}

export async function auditCommand(args: string[]): Promise<number> {
  const values = parse(args, { tail: { type: "string" } });
  const policy = loadPolicy(process.env);
  const entries = new AuditJournal(policy.auditPath).tail(whole("tail", values.tail) ?? 20);
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ path: policy.auditPath, entries })}\n`);
    return 0;
  }
  process.stdout.write(`${policy.auditPath}\n${auditLines(entries).join("\n") || "(empty)"}\n`);
  return 0;
}

/**
 * The journal's lines as a person reads them: an attempt and its outcome as one line, read against
 * every line (an outcome left out of the list is still the attempt's end).
 */
export function auditLines(entries: Record<string, unknown>[]): string[] {
  return entries
    .filter((e) => e.phase !== "outcome" || !attemptShown(entries, e))
    .map((e) => auditLine(e, entries));
}
