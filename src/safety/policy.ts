// The safety policy in force: the ceiling, pre-approvals and where the audit journal goes. Read from a
// JSON config file, then the environment, then flags; later sources win. The MCP default ceiling is L3.

import { readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { CodedError } from "../platform/types.js";
import { levelRank, SAFETY_LEVELS, type SafetyLevel } from "./levels.js";

const CONFIRMATION_REASONS = ["validation", "irreversible", "dangerous_chord"] as const;
export type ConfirmationReason = (typeof CONFIRMATION_REASONS)[number];

const preapprovalSchema = z
  .object({
    reason: z.enum([...CONFIRMATION_REASONS, "any"]).describe("What is approved in advance"),
    tool: z.string().min(1).optional().describe("Only for this tool"),
    window: z.string().min(1).optional().describe("Only in windows whose title matches this glob"),
    element: z
      .string()
      .min(1)
      .optional()
      .describe(
        "Only for an element whose name matches this glob (the button, item or field the step names)",
      ),
  })
  .strict();
export type Preapproval = z.output<typeof preapprovalSchema>;

const configSchema = z
  .object({
    ceiling: z.enum(SAFETY_LEVELS).optional(),
    audit_path: z.string().min(1).optional(),
    preapprove: z.array(preapprovalSchema).default([]),
  })
  .strict();

export interface SafetyPolicy {
  ceiling: SafetyLevel;
  /** Where the ceiling came from, so a refusal can say how to change it. */
  ceilingSource: "default" | "config" | "environment" | "flag";
  preapprovals: Preapproval[];
  auditPath: string;
  configPath: string;
  /** When the config file was last read (ISO time): it is read again whenever it changes. */
  readAt?: string;
  /** The config turned invalid while deskhand ran: what is wrong, and the safer policy kept instead. */
  configProblem?: string;
}

export class ConfigError extends CodedError {
  override readonly name = "ConfigError";
  readonly code = "invalid_config";
  readonly next = "Fix the config file or the variable it names.";
}

export function configPath(env: NodeJS.ProcessEnv): string {
  return (
    env.DESKHAND_CONFIG ?? join(env.XDG_CONFIG_HOME ?? join(homedir(), ".config"), "deskhand", "config.json")
  );
}

export function defaultAuditPath(env: NodeJS.ProcessEnv): string {
  return join(env.XDG_STATE_HOME ?? join(homedir(), ".local", "state"), "deskhand", "audit.jsonl");
}

function readConfig(path: string): z.output<typeof configSchema> {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    // Only "no such file" means no config; one that exists but cannot be read must not quietly
    // fall back to the default ceiling and no pre-approvals.
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { preapprove: [] };
    throw new ConfigError(
      `${path} exists but cannot be read (${(error as Error).message}); fix or remove it, or point DESKHAND_CONFIG elsewhere`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${path} is not JSON: ${(error as Error).message}`);
  }
  const parsed = configSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".") || "(top)"}: ${i.message}`);
    throw new ConfigError(`${path}: ${problems.join("; ")}`);
  }
  return parsed.data;
}

export function loadPolicy(env: NodeJS.ProcessEnv, flags: { ceiling?: SafetyLevel } = {}): SafetyPolicy {
  const path = configPath(env);
  const config = readConfig(path);
  let ceiling: SafetyLevel = "L3";
  let ceilingSource: SafetyPolicy["ceilingSource"] = "default";
  if (config.ceiling) [ceiling, ceilingSource] = [config.ceiling, "config"];
  const fromEnv = env.DESKHAND_CEILING;
  if (fromEnv) {
    if (!(SAFETY_LEVELS as readonly string[]).includes(fromEnv))
      throw new ConfigError(`DESKHAND_CEILING=${fromEnv} is not one of ${SAFETY_LEVELS.join(", ")}`);
    [ceiling, ceilingSource] = [fromEnv as SafetyLevel, "environment"];
  }
  if (flags.ceiling) [ceiling, ceilingSource] = [flags.ceiling, "flag"];
  return {
    ceiling,
    ceilingSource,
    preapprovals: config.preapprove,
    auditPath: env.DESKHAND_AUDIT ?? config.audit_path ?? defaultAuditPath(env),
    configPath: path,
  };
}

/** What identifies one version of the config file: a change to any of these is an edit. */
function fileStamp(path: string): string {
  try {
    const stat = statSync(path, { bigint: true });
    return `${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
  } catch (error) {
    return `missing:${(error as NodeJS.ErrnoException).code}`;
  }
}

/**
 * The safer of the policy in force and what can be read of a config that turned invalid: the lower
 * ceiling, only pre-approvals both allow, the journal where it was. Never looser than either.
 */
function saferOf(old: SafetyPolicy, path: string, problem: ConfigError): SafetyPolicy {
  let ceiling = old.ceiling;
  let kept: Preapproval[] = [];
  try {
    const json = JSON.parse(readFileSync(path, "utf8")) as { ceiling?: unknown; preapprove?: unknown };
    const readable = z.enum(SAFETY_LEVELS).safeParse(json.ceiling);
    if (readable.success && levelRank(readable.data) < levelRank(ceiling)) ceiling = readable.data;
    const listed = Array.isArray(json.preapprove) ? json.preapprove : [];
    const still = new Set(listed.map((p) => JSON.stringify(preapprovalSchema.safeParse(p).data ?? null)));
    kept = old.preapprovals.filter((p) => still.has(JSON.stringify(p)));
  } catch {
    // Not even JSON, or gone: the ceiling in force and no pre-approvals.
  }
  const lowered = ceiling !== old.ceiling;
  return {
    ...old,
    ceiling,
    ceilingSource: lowered ? "config" : old.ceilingSource,
    preapprovals: kept,
    configProblem:
      `${problem.message}. Kept the safer of the last valid config and what could be read of this one: ` +
      `ceiling ${ceiling}${lowered ? " (lowered by the new file)" : " (as before)"}, ` +
      `${kept.length} of ${old.preapprovals.length} pre-approval(s) (only those the new file still lists)`,
  };
}

/**
 * The policy of one config file, its variables and flag, read again whenever the file changes (one
 * stat per call): an edit applies to every session at the next call. A config that turns invalid
 * keeps the safer of old and new (saferOf); one invalid from the start refuses until it is fixed.
 */
class LivePolicy {
  #stamp: string | undefined;
  #state: { policy: SafetyPolicy } | { error: unknown } | undefined;

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly flags: { ceiling?: SafetyLevel },
  ) {}

  current(): SafetyPolicy {
    const path = configPath(this.env);
    const stamp = fileStamp(path);
    if (stamp !== this.#stamp || !this.#state) {
      // A file that goes away mid-session (an editor that moves it aside to save) is not "no config".
      const removed =
        this.#stamp !== undefined && !this.#stamp.startsWith("missing:") && stamp.startsWith("missing:");
      this.#stamp = stamp;
      this.#state = this.#read(path, removed);
    }
    if ("error" in this.#state) throw this.#state.error;
    return this.#state.policy;
  }

  #read(path: string, removed: boolean): { policy: SafetyPolicy } | { error: unknown } {
    const readAt = new Date().toISOString();
    const old = this.#state && "policy" in this.#state ? this.#state.policy : undefined;
    try {
      if (removed && old) throw new ConfigError(`${path} was removed while deskhand ran`);
      return { policy: { ...loadPolicy(this.env, this.flags), readAt } };
    } catch (error) {
      if (!(error instanceof ConfigError) || !old) return { error };
      return { policy: { ...saferOf(old, path, error), readAt } };
    }
  }
}

const livePolicies = new Map<string, LivePolicy>();

/**
 * The policy in force now for these variables and flag, shared by every context of the process that
 * names the same ones (stdio, NDJSON and every HTTP session): throws ConfigError while it is invalid.
 */
export function policyInForce(env: NodeJS.ProcessEnv, flags: { ceiling?: SafetyLevel } = {}): SafetyPolicy {
  const key = JSON.stringify([configPath(env), env.DESKHAND_CEILING, env.DESKHAND_AUDIT, flags.ceiling]);
  let live = livePolicies.get(key);
  if (!live) {
    live = new LivePolicy(env, flags);
    livePolicies.set(key, live);
  }
  return live.current();
}
