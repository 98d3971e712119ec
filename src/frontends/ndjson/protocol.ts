// The windows2text NDJSON protocol: envelope, methods and error codes exactly as that document writes
// them. Each method translates its params into a registry tool call; deskhand's own finer error code
// travels beside the protocol's in `reason`.
import { z } from "zod";
import type { DeskhandError, ErrorCode } from "../../core/errors.js";
import { scrollAmountSchema } from "../../tools/act.js";
import { type CallResult, callTool } from "../../tools/call.js";
import type { ToolContext } from "../../tools/context.js";
import { rangeValue } from "../../tools/fill-form.js";
import { PROTOCOL_VERSION } from "../../tools/ping.js";
import { isToolName, TOOLS, type ToolName, toolNamed } from "../../tools/registry.js";

const PROTOCOL_ERROR_CODES = [
  "invalid_request",
  "invalid_params",
  "unknown_method",
  "unknown_ref",
  "stale_element",
  "unsupported_pattern",
  "read_only",
  "not_clickable",
  "input_failed",
  "action_failed",
  "internal_error",
] as const;
export type ProtocolErrorCode = (typeof PROTOCOL_ERROR_CODES)[number];

const CODE_FOR: Record<ErrorCode, ProtocolErrorCode> = {
  invalid_params: "invalid_params",
  unknown_ref: "unknown_ref",
  stale_element: "stale_element",
  element_gone: "stale_element",
  window_not_found: "invalid_params",
  invalid_cursor: "invalid_params",
  unsupported_pattern: "unsupported_pattern",
  read_only: "read_only",
  action_failed: "action_failed",
  no_text: "unsupported_pattern",
  ambiguous: "invalid_params",
  not_found: "invalid_params",
  not_clickable: "not_clickable",
  // A refusal is one code, whichever tool refused: the action was not performed (why: `reason`).
  refused: "action_failed",
  index_out_of_range: "invalid_params",
  hands_unavailable: "input_failed",
  ocr_unavailable: "unsupported_pattern",
  invalid_config: "invalid_params",
  not_accessible: "internal_error",
  backend_unavailable: "internal_error",
  unsupported_platform: "internal_error",
  timeout: "internal_error",
  internal_error: "internal_error",
};

export class ProtocolError extends Error {
  constructor(
    readonly code: ProtocolErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

function fromDeskhand(error: DeskhandError): ProtocolError {
  const { code: reason, message: _m, ...rest } = error.toJSON();
  return new ProtocolError(CODE_FOR[error.code], error.message, { reason, ...rest });
}

const scopeParams = {
  scope: z.enum(["foreground", "desktop", "cursor", "process", "hwnd"]).default("foreground"),
  pid: z.number().int().positive().optional(),
  hwnd: z.number().int().positive().optional(),
  view: z.enum(["control", "raw", "content"]).default("control"),
  maxDepth: z.number().int().optional(),
  maxNodes: z.number().int().optional(),
  maxText: z.number().int().optional(),
  visibleOnly: z.boolean().optional(),
  onlyInteractive: z.boolean().optional(),
  tableRows: z.number().int().optional(),
  timeoutMs: z.number().int().optional(),
};

const scopeRule = (p: { scope: string; pid?: number | undefined; hwnd?: number | undefined }) =>
  (p.scope !== "process" || p.pid !== undefined) && (p.scope !== "hwnd" || p.hwnd !== undefined);
const scopeMessage = { message: "scope process needs pid, scope hwnd needs hwnd" };

const snapshotParams = z
  .object({ ...scopeParams, continue: z.string().optional(), ref: z.string().optional() })
  .strict()
  .refine(scopeRule, scopeMessage);
const observeParams = z
  .object({ ...scopeParams, maxTargets: z.number().int().optional(), includeTree: z.boolean().optional() })
  .strict()
  .refine(scopeRule, scopeMessage);
const windowsParams = z.object({ maxNodes: z.number().int().optional() }).strict();

type ScopeInput = z.output<z.ZodObject<typeof scopeParams>>;

function toTarget(p: ScopeInput): Record<string, unknown> {
  switch (p.scope) {
    case "foreground":
      return { kind: "focused" };
    case "desktop":
      return { kind: "desktop" };
    case "cursor":
      return { kind: "pointer" };
    case "process":
      return { kind: "process", pid: p.pid };
    case "hwnd":
      return { kind: "window", id: p.hwnd };
  }
}

function limitsOf(p: ScopeInput): Record<string, unknown> {
  const { scope: _s, pid: _p, hwnd: _h, view: _v, ...limits } = p;
  return Object.fromEntries(Object.entries(limits).filter(([, v]) => v !== undefined));
}

function parseParams<S extends z.ZodType>(schema: S, params: unknown): z.output<S> {
  const parsed = schema.safeParse(params ?? {});
  if (!parsed.success) {
    const problems = parsed.error.issues
      .slice(0, 5)
      .map((i) => `${i.path.join(".") || "params"}: ${i.message}`);
    // An unknown key is named itself ("bogus"), not by the object it is in ("").
    const fields = parsed.error.issues.flatMap((i) =>
      i.code === "unrecognized_keys"
        ? i.keys.map((k) => [...i.path, k].join("."))
        : [i.path.join(".") || "params"],
    );
    throw new ProtocolError("invalid_params", problems.join("; "), { fields });
  }
  return parsed.data;
}

/**
 * observe's labels in the document's shape, `Button "Save" [ref=s1:e12; actions=invoke,click]`:
 * deskhand's agent view ends a label with `[ref=…] invoke,click`, which the protocol does not.
 */
function inSeedLabels(result: Record<string, unknown>): Record<string, unknown> {
  const label = (text: string) => text.replace(/ \[ref=([^\]]+)\] ([\w,]*)$/, " [ref=$1; actions=$2]");
  const targets = (result.targets as { label: string }[] | undefined)?.map((t) => ({
    ...t,
    label: label(t.label),
  }));
  const visible = (result.visible as string[] | undefined)?.map(label);
  return { ...result, ...(targets ? { targets } : {}), ...(visible ? { visible } : {}) };
}

async function run(
  context: ToolContext,
  toolName: ToolName,
  input: unknown,
): Promise<Record<string, unknown>> {
  return protocolResult(await callTool(context, toolNamed(toolName), input));
}

/** A tool's result, or the protocol error its outcome maps to (CODE_FOR, the one table). */
export function protocolResult(result: CallResult): Record<string, unknown> {
  if (!result.ok) throw fromDeskhand(result.error);
  const data = result.output.data;
  if (result.outcome === "done") return data;
  // An input tool's refusal or failure comes as a result: a refusal is the same outcome as a thrown
  // one; a failure (only input tools report one this way) is input that went wrong.
  throw new ProtocolError(
    result.outcome === "refused" ? CODE_FOR.refused : "input_failed",
    String(data.reason),
    {
      reason: result.outcome === "refused" ? "refused" : "input_error",
      ...(data.level ? { level: data.level } : {}),
    },
  );
}

const ACTION_METHODS = [
  "invoke",
  "set_value",
  "set_range",
  "focus",
  "toggle",
  "select",
  "expand",
  "collapse",
  "scroll_into_view",
  "scroll",
] as const;

const INPUT_METHODS = ["click", "type_text", "key"] as const;
// deskhand's addition: the only way out of a window that is covered, over this protocol.
const WINDOW_METHODS = ["focus_window"] as const;
// deskhand's additions: many steps in one call, and recording them (the tools' own params).
const RUN_METHODS = ["run", "record"] as const;

export const METHODS = [
  "ping",
  "windows",
  "snapshot",
  "observe",
  ...ACTION_METHODS,
  ...INPUT_METHODS,
  ...WINDOW_METHODS,
  ...RUN_METHODS,
  "shutdown",
] as const;

const actionBase = {
  ref: z.string(),
  waitMs: z.number().int().min(0).max(5000).optional(),
  intent: z.string().optional(),
};

// The windows2text document has no intent: a client that gives none is journaled as having given
// none; levels, the ceiling and confirmation apply as always. Everything else is as the document writes it.
export const NO_INTENT = "(none given: a windows2text client)";
const inputParams = {
  click: z
    .object({
      ref: z.string(),
      button: z.enum(["left", "middle", "right"]).optional(),
      count: z.number().int().optional(),
      modifiers: z.array(z.string()).optional(),
      intent: z.string().optional(),
      reversible: z.boolean().optional(),
    })
    .strict(),
  type_text: z
    .object({
      ref: z.string().optional(),
      text: z.string(),
      clear: z.boolean().optional(),
      intent: z.string().optional(),
      reversible: z.boolean().optional(),
    })
    .strict(),
  key: z
    .object({
      ref: z.string().optional(),
      key: z.string(),
      focus: z.boolean().optional(),
      intent: z.string().optional(),
      reversible: z.boolean().optional(),
    })
    .strict(),
  focus_window: z.object({ hwnd: z.number().int().nonnegative(), intent: z.string() }).strict(),
} as const;

const actionParams = {
  invoke: z.object(actionBase).strict(),
  focus: z.object(actionBase).strict(),
  toggle: z.object(actionBase).strict(),
  expand: z.object(actionBase).strict(),
  collapse: z.object(actionBase).strict(),
  scroll_into_view: z.object(actionBase).strict(),
  set_value: z.object({ ...actionBase, value: z.string() }).strict(),
  set_range: z.object({ ...actionBase, value: z.number().finite() }).strict(),
  select: z
    .object({
      ...actionBase,
      option: z.string().optional(),
      row: z.number().int().min(0).optional(),
      column: z.number().int().min(0).optional(),
    })
    .strict(),
  scroll: z
    .object({
      ...actionBase,
      horizontal: scrollAmountSchema.default("no_amount"),
      vertical: scrollAmountSchema.default("no_amount"),
    })
    .strict(),
} as const;

function actionFor(
  method: (typeof ACTION_METHODS)[number],
  p: Record<string, unknown>,
): Record<string, unknown> {
  switch (method) {
    case "set_value":
      return { kind: "set_value", text: p.value };
    case "set_range":
      return { kind: "set_range", value: p.value };
    case "select":
      return { kind: "select", option: p.option, row: p.row, column: p.column };
    case "scroll":
      return { kind: "scroll", horizontal: p.horizontal, vertical: p.vertical };
    default:
      return { kind: method };
  }
}

/** `snapshot`: a scope or a ref read in one of the document's views, or the next page of one. */
async function snapshotMethod(context: ToolContext, params: unknown): Promise<unknown> {
  const p = parseParams(snapshotParams, params);
  const { continue: cursor, ref, ...scope } = p;
  if (cursor !== undefined)
    return run(context, "snapshot", { target: { kind: "cursor", cursor }, format: "json" });
  // deskhand's extension: `ref` reads the subtree under an element of the latest snapshot.
  const target = ref !== undefined ? { kind: "element", ref } : toTarget(scope);
  // The document's views: raw is every element; control what a person sees of the controls (the
  // screen view: off screen folded, layout merged); content the elements of it that carry text.
  const read = await run(context, "snapshot", {
    target,
    ...limitsOf(scope),
    format: "json",
    view: scope.view === "raw" ? "full" : "screen",
  });
  if (scope.view !== "content") return { ...read, view: scope.view };
  const elements = (read.elements as { name?: string | null; value?: string }[]).filter(
    (e) => !!e.name?.trim() || !!e.value?.trim(),
  );
  return { ...read, view: "content", elements };
}

/** `click`, `type_text` and `key` as deskhand's tools of those names (a spinner's number is set). */
async function inputMethod(
  context: ToolContext,
  method: "click" | "type_text" | "key",
  params: unknown,
): Promise<unknown> {
  const p = parseParams(inputParams[method], params) as Record<string, unknown>;
  const defined = Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined));
  // A spinner's number is its value: typed keys reach it only on Enter, so no clear is ever seen
  // (a Swing spinner failed after 10 s); it is set, then stepped there with the arrow keys.
  const number =
    method === "type_text" && typeof p.ref === "string"
      ? rangeValue(context, p.ref, String(p.text))
      : undefined;
  if (number !== undefined)
    return run(context, "act", {
      ref: p.ref,
      action: { kind: "set_range", value: number },
      intent: p.intent ?? NO_INTENT,
    });
  return run(context, method, { intent: NO_INTENT, ...defined });
}

/** `run`: one that stopped keeps what it did, the steps done and the stopping step's reply with the error. */
async function runMethod(context: ToolContext, params: unknown): Promise<unknown> {
  // A run that stopped keeps what it did: the steps done and the stopping step's reply go with
  // the error, as `run`.
  const result = await callTool(context, toolNamed("run"), params ?? {});
  if (!result.ok || result.outcome === "done") return protocolResult(result);
  const data = result.output.data;
  throw new ProtocolError(
    result.outcome === "refused" ? CODE_FOR.refused : "input_failed",
    String(data.reason),
    { reason: result.outcome === "refused" ? "refused" : "input_error", run: data },
  );
}

export async function dispatch(context: ToolContext, method: string, params: unknown): Promise<unknown> {
  switch (method) {
    case "ping": {
      parseParams(z.object({}).strict(), params);
      return {
        version: context.version,
        protocolVersion: PROTOCOL_VERSION,
        snapshotId: context.refs.currentSnapshotId,
        methods: METHODS,
      };
    }
    case "windows": {
      const p = parseParams(windowsParams, params);
      const data = await run(context, "windows", p.maxNodes === undefined ? {} : { limit: p.maxNodes });
      const windows = (data.windows as { id: number }[]).map(({ id, ...rest }) => ({ hwnd: id, ...rest }));
      return { ...data, windows };
    }
    case "snapshot":
      return snapshotMethod(context, params);
    case "observe": {
      const p = parseParams(observeParams, params);
      const { maxTargets, includeTree, ...scope } = p;
      return inSeedLabels(
        await run(context, "observe", {
          target: toTarget(scope),
          ...limitsOf(scope),
          ...(maxTargets === undefined ? {} : { maxTargets }),
          ...(includeTree === undefined ? {} : { includeTree }),
        }),
      );
    }
    case "invoke":
    case "set_value":
    case "set_range":
    case "focus":
    case "toggle":
    case "select":
    case "expand":
    case "collapse":
    case "scroll_into_view":
    case "scroll": {
      const p = parseParams(actionParams[method], params) as Record<string, unknown>;
      return run(context, "act", {
        ref: p.ref,
        action: actionFor(method, p),
        ...(p.waitMs === undefined ? {} : { waitMs: p.waitMs }),
        // The journal says none was given, and by whom, where the document's client gives none.
        intent: p.intent ?? NO_INTENT,
      });
    }
    case "click":
    case "type_text":
    case "key":
      return inputMethod(context, method, params);
    case "focus_window": {
      const p = parseParams(inputParams.focus_window, params) as { hwnd: number; intent: string };
      return run(context, "window", { action: "focus", window: { id: p.hwnd }, intent: p.intent });
    }
    case "record":
      return run(context, "record", params ?? {});
    case "run":
      return runMethod(context, params);
    default:
      // Every other tool of deskhand's by its own name, its input as params: the registry is the list.
      if (isToolName(method)) return run(context, method, params ?? {});
      throw new ProtocolError("unknown_method", `unknown method ${JSON.stringify(method).slice(0, 100)}`, {
        methods: METHODS,
        tools: TOOLS.map((t) => t.name),
      });
  }
}
