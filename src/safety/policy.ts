// The safety policy in force: the ceiling, pre-approvals and where the audit journal goes. Read from a
// JSON config file, then the environment, then flags; later sources win. The MCP default ceiling is L3.
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { SAFETY_LEVELS, type SafetyLevel } from "./levels.js";

export const CONFIRMATION_REASONS = ["validation", "irreversible", "dangerous_chord"] as const;
export type ConfirmationReason = (typeof CONFIRMATION_REASONS)[number];

const preapprovalSchema = z
  .object({
    reason: z.enum([...CONFIRMATION_REASONS, "any"]).describe("What is approved in advance"),
    tool: z.string().min(1).optional().describe("Only for this tool"),
    window: z.string().min(1).optional().describe("Only in windows whose title matches this glob"),
  })
  .strict();
export type Preapproval = z.output<typeof preapprovalSchema>;

export const configSchema = z
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
}

export class ConfigError extends Error {
  override readonly name = "ConfigError";
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
