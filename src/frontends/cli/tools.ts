// CLI commands that are registry tools: flags translate to the tool's input, nothing more.
import { parseArgs } from "node:util";
import { callTool } from "../../tools/call.js";
import { createContext } from "../../tools/context.js";
import { isToolName, TOOLS, type ToolName, toolNamed } from "../../tools/registry.js";
import { exitStatus } from "./exit.js";
import { UsageError } from "./usage-error.js";

export const WINDOW_TARGET_FLAGS = {
  window: { type: "string" },
  title: { type: "string" },
  focused: { type: "boolean" },
  pointer: { type: "boolean" },
  pid: { type: "string" },
  desktop: { type: "boolean" },
} as const;

const limitFlags = {
  "max-depth": { type: "string" },
  "max-nodes": { type: "string" },
  "max-text": { type: "string" },
  "table-rows": { type: "string" },
  "timeout-ms": { type: "string" },
  "visible-only": { type: "boolean" },
  "only-interactive": { type: "boolean" },
  "walk-tables": { type: "boolean" },
} as const;

function integer(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed))
    throw new UsageError(`--${flag} takes a whole number, not ${JSON.stringify(value)}`);
  return parsed;
}

function targetFrom(values: Record<string, unknown>): Record<string, unknown> {
  const given = Object.keys(WINDOW_TARGET_FLAGS).filter(
    (k) => values[k] !== undefined && values[k] !== false,
  );
  if (given.length > 1)
    throw new UsageError(`choose one target, not ${given.map((g) => `--${g}`).join(" and ")}`);
  if (values.window !== undefined) {
    const raw = String(values.window);
    const id = raw.startsWith("0x") ? Number.parseInt(raw, 16) : Number(raw);
    if (!Number.isInteger(id)) throw new UsageError(`--window takes a window id, not ${JSON.stringify(raw)}`);
    return { kind: "window", id };
  }
  if (values.title !== undefined) return { kind: "title", glob: values.title };
  if (values.pointer) return { kind: "pointer" };
  if (values.pid !== undefined) return { kind: "process", pid: integer("pid", values.pid as string) };
  if (values.desktop) return { kind: "desktop" };
  return { kind: "focused" };
}

function limitsFrom(values: Record<string, unknown>): Record<string, unknown> {
  const limits: Record<string, unknown> = {
    maxDepth: integer("max-depth", values["max-depth"] as string | undefined),
    maxNodes: integer("max-nodes", values["max-nodes"] as string | undefined),
    maxText: integer("max-text", values["max-text"] as string | undefined),
    tableRows: integer("table-rows", values["table-rows"] as string | undefined),
    timeoutMs: integer("timeout-ms", values["timeout-ms"] as string | undefined),
    visibleOnly: values["visible-only"],
    onlyInteractive: values["only-interactive"],
    walkTables: values["walk-tables"],
  };
  return Object.fromEntries(Object.entries(limits).filter(([, v]) => v !== undefined));
}

type Flags = Record<string, { type: "string" | "boolean" }>;

function parse(args: string[], options: Flags): Record<string, string | boolean | undefined> {
  try {
    const parsed = parseArgs({
      args,
      options: { ...options, json: { type: "boolean" } },
      allowPositionals: false,
    });
    return parsed.values as Record<string, string | boolean | undefined>;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** Runs one tool and prints its text (or JSON); returns the exit code. */
async function runTool(
  name: ToolName,
  input: Record<string, unknown>,
  json: boolean,
  pages = false,
): Promise<number> {
  const context = createContext({ refLifetime: "latest-snapshot" });
  try {
    let result = await callTool(context, toolNamed(name), input);
    if (!result.ok) {
      const { error } = result;
      if (json) process.stdout.write(`${JSON.stringify({ ok: false, error: error.toJSON() })}\n`);
      else process.stderr.write(`deskhand ${name}: ${error.message}\nNext: ${error.next}\n`);
      return exitStatus(result);
    }
    process.stdout.write(`${json ? JSON.stringify(result.output.data) : result.output.text}\n`);
    if (!pages && !json && typeof result.output.data.cursor === "string") {
      process.stderr.write(
        "deskhand: the cursor lives only in this process; pass --all-pages to print the rest\n",
      );
    }
    // A CLI process keeps no state between runs, so --all-pages follows the cursor here.
    while (pages && typeof result.output.data.cursor === "string") {
      result = await callTool(context, toolNamed(name), {
        ...input,
        target: { kind: "cursor", cursor: result.output.data.cursor },
      });
      if (!result.ok) break;
      process.stdout.write(`${json ? JSON.stringify(result.output.data) : result.output.text}\n`);
    }
    if (name === "doctor" && Number(result.ok && result.output.data.failures) > 0) return 1;
    return exitStatus(result);
  } finally {
    await context.close();
  }
}

/**
 * `deskhand call TOOL [JSON]`: any registry tool with its input as JSON, so every tool is reachable
 * from the CLI the moment it is in the registry (the commands above only add flags).
 */
export async function callCommand(args: string[]): Promise<number> {
  const json = args.includes("--json");
  const [name, input, ...rest] = args.filter((a) => a !== "--json");
  if (!name) throw new UsageError(`call needs a tool: ${TOOLS.map((t) => t.name).join(", ")}`);
  if (!isToolName(name))
    throw new UsageError(
      `no tool ${JSON.stringify(name)}; the tools are ${TOOLS.map((t) => t.name).join(", ")}`,
    );
  if (rest.length > 0) throw new UsageError("call takes a tool, its input as one JSON object, and --json");
  // Its picture would be lost on a terminal: the command of its own writes it to a file.
  if (name === "screenshot")
    throw new UsageError("a screenshot is a picture: use `deskhand screenshot`, which writes the PNG");
  let parsed: unknown = {};
  if (input !== undefined) {
    try {
      parsed = JSON.parse(input);
    } catch (error) {
      throw new UsageError(`the input must be one JSON object: ${(error as Error).message}`);
    }
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw new UsageError(`the input must be one JSON object, like '{"limit": 5}', not ${input}`);
  return runTool(name, parsed as Record<string, unknown>, json);
}

export async function windowsCommand(args: string[]): Promise<number> {
  const values = parse(args, { limit: { type: "string" } });
  const limit = integer("limit", values.limit as string | undefined);
  return runTool("windows", limit === undefined ? {} : { limit }, Boolean(values.json));
}

export async function snapshotCommand(args: string[]): Promise<number> {
  const values = parse(args, {
    ...WINDOW_TARGET_FLAGS,
    ...limitFlags,
    bounds: { type: "boolean" },
    full: { type: "boolean" },
    "all-pages": { type: "boolean" },
  });
  const input = {
    target: targetFrom(values),
    ...limitsFrom(values),
    bounds: Boolean(values.bounds),
    format: values.json ? "json" : values.full ? "full" : "text",
  };
  return runTool("snapshot", input, Boolean(values.json), Boolean(values["all-pages"]));
}

export async function observeCommand(args: string[]): Promise<number> {
  const values = parse(args, {
    ...WINDOW_TARGET_FLAGS,
    ...limitFlags,
    "max-targets": { type: "string" },
    "include-tree": { type: "boolean" },
    "no-pixels": { type: "boolean" },
  });
  const maxTargets = integer("max-targets", values["max-targets"] as string | undefined);
  const input = {
    target: targetFrom(values),
    ...limitsFrom(values),
    ...(maxTargets === undefined ? {} : { maxTargets }),
    includeTree: Boolean(values["include-tree"]),
    pixels: !values["no-pixels"],
  };
  return runTool("observe", input, Boolean(values.json));
}

export async function doctorCommand(args: string[]): Promise<number> {
  const values = parse(args, { probe: { type: "boolean" } });
  return runTool("doctor", { probe: Boolean(values.probe) }, Boolean(values.json));
}

export async function pingCommand(args: string[]): Promise<number> {
  const values = parse(args, {});
  return runTool("ping", {}, Boolean(values.json));
}
