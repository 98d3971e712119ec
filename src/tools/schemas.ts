// Input pieces shared by several tools. Bounds live in the schema, so a bad value is refused with the
// field named before any handler runs.
import { z } from "zod";
import { GLOB_MAX } from "../core/glob.js";
import { SNAPSHOT_CEILINGS, SNAPSHOT_DEFAULTS } from "../core/limits.js";
import { loneSurrogateError } from "../platform/keys.js";

export const refSchema = z
  .string()
  .regex(/^s\d+:e\d+([a-z]{2})?$/, "a ref looks like s3:e12kq, from a snapshot")
  .describe("Ref, like s3:e12");

/** Refuses text holding half a character (a lone UTF-16 surrogate), naming where. */
export function wholeCharacters(text: string, ctx: z.RefinementCtx): void {
  const lone = loneSurrogateError(text);
  if (lone) ctx.addIssue({ code: "custom", message: `the text ${lone}` });
}

/** Text to type: whole characters, up to 20,000 of them. */
export const typedTextSchema = z.string().min(1).max(20_000).superRefine(wholeCharacters);

/** A window title glob: fnmatch, bounded so that matching stays cheap (core/glob.ts). */
export const globSchema = z.string().min(1).max(GLOB_MAX).describe("fnmatch glob");

/** A window's or a process's id: a number, taken in digits as a string too, as `windows` prints it bare. */
export const idSchema = z.preprocess(
  // Only digits: coerced, `true` would be window 1.
  (value) => (typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value),
  z.number().int().positive(),
);

export const targetSchema = z
  .discriminatedUnion("kind", [
    z.strictObject({ kind: z.literal("focused") }),
    z.strictObject({ kind: z.literal("window"), id: idSchema }),
    z.strictObject({ kind: z.literal("title"), glob: globSchema }),
    z.strictObject({ kind: z.literal("pointer") }),
    z.strictObject({ kind: z.literal("process"), pid: idSchema }),
    z.strictObject({ kind: z.literal("desktop") }),
    z.strictObject({ kind: z.literal("element"), ref: refSchema }),
    z.strictObject({
      kind: z.literal("cursor"),
      cursor: z.string().regex(/^s\d+@\d+$/, "a cursor looks like s3@250"),
    }),
  ])
  .default({ kind: "focused" });

const C = SNAPSHOT_CEILINGS;
const D = SNAPSHOT_DEFAULTS;

export const limitsShape = {
  maxDepth: z.number().int().min(0).max(C.maxDepth).default(D.maxDepth).describe("Levels to read"),
  maxNodes: z.number().int().min(1).max(C.maxNodes).default(D.maxNodes).describe("Elements per page"),
  maxText: z.number().int().min(0).max(C.maxText).default(D.maxText).describe("Text characters per element"),
  tableRows: z.number().int().min(0).max(C.tableRows).default(D.tableRows).describe("Rows per table"),
  timeoutMs: z.number().int().min(100).max(C.timeoutMs).default(D.timeoutMs).describe("Read bound"),
  visibleOnly: z.boolean().default(D.visibleOnly).describe("Only what is on screen"),
  onlyInteractive: z.boolean().default(D.onlyInteractive).describe("Leave out layout"),
  walkTables: z.boolean().default(D.walkTables).describe("Every table cell (slow)"),
  actions: z.boolean().default(D.actions).describe("Read action names"),
  accessibleIds: z.boolean().default(D.accessibleIds).describe("Read accessible ids"),
};

export const includeChangesSchema = z.boolean().default(false).describe("Also what changed, with refs");
