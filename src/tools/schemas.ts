// Input pieces shared by several tools. Bounds live in the schema, so a bad value is refused with the
// field named before any handler runs.
import { z } from "zod";
import { GLOB_MAX } from "../core/glob.js";
import { SNAPSHOT_CEILINGS, SNAPSHOT_DEFAULTS } from "../core/limits.js";

export const refSchema = z
  .string()
  .regex(/^s\d+:e\d+$/, "a ref looks like s3:e12, from a snapshot")
  .describe("An element ref from a snapshot, like s3:e12");

/** A window title glob: fnmatch, bounded so that matching stays cheap (core/glob.ts). */
export const globSchema = z.string().min(1).max(GLOB_MAX).describe("fnmatch glob");

export const targetSchema = z
  .discriminatedUnion("kind", [
    z.strictObject({ kind: z.literal("focused") }).describe("The focused window"),
    z
      .strictObject({ kind: z.literal("window"), id: z.number().int().positive() })
      .describe("A window by id (from `windows`)"),
    z
      .strictObject({ kind: z.literal("title"), glob: globSchema })
      .describe("A window by title, fnmatch glob"),
    z.strictObject({ kind: z.literal("pointer") }).describe("The window under the mouse pointer"),
    z
      .strictObject({ kind: z.literal("process"), pid: z.number().int().positive() })
      .describe("Every window of a process"),
    z.strictObject({ kind: z.literal("desktop") }).describe("Every accessible window"),
    z.strictObject({ kind: z.literal("element"), ref: refSchema }).describe("The subtree under a ref"),
    z
      .strictObject({
        kind: z.literal("cursor"),
        cursor: z.string().regex(/^s\d+@\d+$/, "a cursor looks like s3@250"),
      })
      .describe("The next page of an earlier snapshot; its limits apply"),
  ])
  .default({ kind: "focused" });

const C = SNAPSHOT_CEILINGS;
const D = SNAPSHOT_DEFAULTS;

export const limitsShape = {
  maxDepth: z
    .number()
    .int()
    .min(0)
    .max(C.maxDepth)
    .default(D.maxDepth)
    .describe("Levels below the root to read"),
  maxNodes: z.number().int().min(1).max(C.maxNodes).default(D.maxNodes).describe("Elements per page"),
  maxText: z
    .number()
    .int()
    .min(0)
    .max(C.maxText)
    .default(D.maxText)
    .describe("Characters of text or value per element"),
  tableRows: z
    .number()
    .int()
    .min(0)
    .max(C.tableRows)
    .default(D.tableRows)
    .describe("Rows of each table to show"),
  timeoutMs: z
    .number()
    .int()
    .min(100)
    .max(C.timeoutMs)
    .default(D.timeoutMs)
    .describe("Bound on reading the tree"),
  visibleOnly: z.boolean().default(D.visibleOnly).describe("Leave out elements that are not on screen"),
  onlyInteractive: z.boolean().default(D.onlyInteractive).describe("Leave out layout scaffolding"),
  walkTables: z.boolean().default(D.walkTables).describe("Walk every table cell (slow on big tables)"),
  actions: z.boolean().default(D.actions).describe("Also read each element's action names"),
  accessibleIds: z.boolean().default(D.accessibleIds).describe("Also read each element's accessible id"),
};

export const includeChangesSchema = z
  .boolean()
  .default(false)
  .describe(
    "Read the window before and after, and append what the action changed (added, removed, changed, with refs) " +
      "to the receipt, as snapshot {since} would",
  );
