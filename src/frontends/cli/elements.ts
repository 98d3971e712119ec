// CLI commands that name an element. A CLI process keeps no refs between runs, so the element is named
// by selector or locator and found in the same process; several matches need --nth.
import { parseArgs } from "node:util";
import type { DeskhandError } from "../../core/errors.js";
import { callTool, failed } from "../../tools/call.js";
import { type ContextOptions, createContext, type ToolContext } from "../../tools/context.js";
import { type ToolName, toolNamed } from "../../tools/registry.js";
import { exitStatus } from "./exit.js";
import { WINDOW_TARGET_FLAGS } from "./tools.js";
import { UsageError } from "./usage-error.js";

const targetFlags = {
  window: WINDOW_TARGET_FLAGS.window,
  title: WINDOW_TARGET_FLAGS.title,
  focused: WINDOW_TARGET_FLAGS.focused,
  pid: WINDOW_TARGET_FLAGS.pid,
} as const;

const selectorFlags = {
  role: { type: "string" },
  name: { type: "string" },
  "name-contains": { type: "string" },
  "value-contains": { type: "string" },
  description: { type: "string" },
  "accessible-id": { type: "string" },
  label: { type: "string" },
  state: { type: "string", multiple: true },
  locator: { type: "string" },
  nth: { type: "string" },
  json: { type: "boolean" },
} as const;

export type Values = Record<string, string | boolean | string[] | undefined>;

export function parse(
  args: string[],
  extra: Record<string, { type: "string" | "boolean"; multiple?: boolean }>,
): Values {
  try {
    return parseArgs({
      args,
      options: { ...targetFlags, ...selectorFlags, ...extra },
      allowPositionals: false,
    }).values as Values;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

export function whole(flag: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n))
    throw new UsageError(`--${flag} takes a whole number, not ${JSON.stringify(value)}`);
  return n;
}

function query(values: Values): Record<string, unknown> {
  const target =
    values.window !== undefined
      ? {
          kind: "window",
          id: whole(
            "window",
            String(values.window).startsWith("0x")
              ? Number.parseInt(String(values.window), 16)
              : values.window,
          ),
        }
      : values.title !== undefined
        ? { kind: "title", glob: values.title }
        : values.pid !== undefined
          ? { kind: "process", pid: whole("pid", values.pid) }
          : { kind: "focused" };
  const fields: Record<string, unknown> = {
    target,
    role: values.role,
    name: values.name,
    name_contains: values["name-contains"],
    value_contains: values["value-contains"],
    description: values.description,
    accessible_id: values["accessible-id"],
    label: values.label,
    states: values.state,
    locator: values.locator,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}

/** Prints a failed call (with any candidates to pick among) and returns its exit status. */
export function reportFailure(error: DeskhandError, json: boolean): number {
  if (json) process.stdout.write(`${JSON.stringify({ ok: false, error: error.toJSON() })}\n`);
  else {
    const candidates =
      (error.details.candidates as { ref: string; role: string; name: string }[] | undefined) ?? [];
    const listed = candidates.map((c, i) => `  --nth ${i}: ${c.role} ${JSON.stringify(c.name)}`).join("\n");
    process.stderr.write(`deskhand: ${error.message}\n${listed ? `${listed}\n` : ""}Next: ${error.next}\n`);
  }
  return exitStatus(failed(error));
}

export async function run(
  context: ToolContext,
  tool: ToolName,
  input: Record<string, unknown>,
  json: boolean,
): Promise<number> {
  const result = await callTool(context, toolNamed(tool), input);
  if (!result.ok) return reportFailure(result.error, json);
  process.stdout.write(`${json ? JSON.stringify(result.output.data) : result.output.text}\n`);
  return exitStatus(result);
}

/** Finds exactly one element (or the --nth) and returns its ref in this process's context. */
export async function resolve(context: ToolContext, values: Values): Promise<string | number> {
  // Acting and reading through accessibility need no element on screen (a table on another tab).
  const input = { ...query(values), limit: 50, include_off_screen: true };
  const result = await callTool(context, toolNamed("find"), input);
  if (!result.ok) return run(context, "find", input, Boolean(values.json));
  const matches = result.output.data.matches as { ref: string; role: string; name: string }[];
  const nth = whole("nth", values.nth);
  if (matches.length === 0) {
    process.stderr.write("deskhand: nothing matches\nNext: check the selector with `deskhand find`.\n");
    return 1;
  }
  if (nth === undefined && matches.length > 1) {
    process.stderr.write(
      `deskhand: ${matches.length} elements match; nothing was done\n${matches.map((m, i) => `  --nth ${i}: ${m.role} ${JSON.stringify(m.name)}`).join("\n")}\nNext: pass --nth.\n`,
    );
    return 1;
  }
  const chosen = matches[nth ?? 0];
  if (!chosen) throw new UsageError(`--nth ${nth} is past the ${matches.length} matches`);
  return chosen.ref;
}

export async function withContext(
  body: (context: ToolContext) => Promise<number>,
  options: Omit<ContextOptions, "refLifetime"> = {},
): Promise<number> {
  const context = createContext({ refLifetime: "while-verified", ...options });
  try {
    return await body(context);
  } finally {
    await context.close();
  }
}

export async function findCommand(args: string[]): Promise<number> {
  const values = parse(args, {
    limit: { type: "string" },
    "timeout-ms": { type: "string" },
    "include-off-screen": { type: "boolean" },
  });
  const limit = whole("limit", values.limit);
  const timeout = whole("timeout-ms", values["timeout-ms"]);
  return withContext((context) =>
    run(
      context,
      "find",
      {
        ...query(values),
        ...(limit ? { limit } : {}),
        ...(timeout ? { timeout_ms: timeout } : {}),
        ...(values["include-off-screen"] ? { include_off_screen: true } : {}),
      },
      Boolean(values.json),
    ),
  );
}

const ACTIONS = [
  "invoke",
  "toggle",
  "set_value",
  "set_range",
  "focus",
  "select",
  "expand",
  "collapse",
  "scroll_into_view",
];

export async function actCommand(args: string[]): Promise<number> {
  const values = parse(args, {
    action: { type: "string" },
    value: { type: "string" },
    option: { type: "string" },
    row: { type: "string" },
    "wait-ms": { type: "string" },
  });
  const kind = String(values.action ?? "");
  if (!ACTIONS.includes(kind)) throw new UsageError(`--action is one of ${ACTIONS.join(", ")}`);
  const action: Record<string, unknown> = { kind };
  if (kind === "set_value") action.text = values.value ?? "";
  if (kind === "set_range") action.value = Number(values.value);
  if (kind === "select") {
    if (values.option !== undefined) action.option = values.option;
    if (values.row !== undefined) action.row = whole("row", values.row);
  }
  const waitMs = whole("wait-ms", values["wait-ms"]);
  return withContext(async (context) => {
    const ref = await resolve(context, values);
    if (typeof ref === "number") return ref;
    return run(
      context,
      "act",
      { ref, action, ...(waitMs === undefined ? {} : { waitMs }) },
      Boolean(values.json),
    );
  });
}

export async function readTextCommand(args: string[]): Promise<number> {
  const values = parse(args, { start: { type: "string" }, length: { type: "string" } });
  return withContext(async (context) => {
    const ref = await resolve(context, values);
    if (typeof ref === "number") return ref;
    const start = whole("start", values.start);
    const length = whole("length", values.length);
    return run(
      context,
      "read_text",
      { ref, ...(start === undefined ? {} : { start }), ...(length === undefined ? {} : { length }) },
      Boolean(values.json),
    );
  });
}

export async function readTableCommand(args: string[]): Promise<number> {
  const values = parse(args, { "row-start": { type: "string" }, "row-count": { type: "string" } });
  return withContext(async (context) => {
    const ref = await resolve(context, values);
    if (typeof ref === "number") return ref;
    const rowStart = whole("row-start", values["row-start"]);
    const rowCount = whole("row-count", values["row-count"]);
    return run(
      context,
      "read_table",
      {
        ref,
        ...(rowStart === undefined ? {} : { row_start: rowStart }),
        ...(rowCount === undefined ? {} : { row_count: rowCount }),
      },
      Boolean(values.json),
    );
  });
}

export async function elementInfoCommand(args: string[]): Promise<number> {
  const values = parse(args, {});
  return withContext(async (context) => {
    const ref = await resolve(context, values);
    if (typeof ref === "number") return ref;
    return run(context, "element_info", { ref }, Boolean(values.json));
  });
}

export async function waitCommand(args: string[]): Promise<number> {
  const values = parse(args, {
    "window-title": { type: "string" },
    gone: { type: "boolean" },
    enabled: { type: "boolean" },
    "timeout-ms": { type: "string" },
  });
  const timeout = whole("timeout-ms", values["timeout-ms"]) ?? 5000;
  const condition =
    values["window-title"] !== undefined
      ? { kind: "window", title: values["window-title"], state: values.gone ? "disappears" : "appears" }
      : { kind: "element", ...query(values), state: values.enabled ? "enabled" : "appears" };
  return withContext(async (context) => {
    const code = await run(context, "wait", { condition, timeout_ms: timeout }, Boolean(values.json));
    return code;
  });
}
