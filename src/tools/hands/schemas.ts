// Input pieces every hands tool shares: intent, reversibility, where to act (a ref, a global point or
// a pixel of a screenshot) and which window must be in front first.
import { z } from "zod";
import { globSchema, includeChangesSchema, refSchema } from "../schemas.js";

export const intentSchema = z
  .string()
  .trim()
  .min(3, "say in a sentence what this is for")
  .max(500)
  .describe("What you mean to do, in one sentence; it goes into the audit journal");

export const reversibleSchema = z
  .boolean()
  .describe(
    "Can this be undone? Default: true, except a press on a committing button (OK, Save, Delete...). Declared false, it needs a person's confirmation",
  );

const coordinate = z.number().int().min(-32768).max(32767);

export const regionSchema = z.object({
  x: z.number().int().min(0),
  y: z.number().int().min(0),
  width: z.number().int().min(1),
  height: z.number().int().min(1),
});

export const pointSchema = z
  .discriminatedUnion("space", [
    z
      .object({ space: z.literal("global"), x: coordinate, y: coordinate })
      .describe("Screen points, the unit of element bounds"),
    z
      .object({
        space: z.literal("image"),
        x: z.number().int().min(0),
        y: z.number().int().min(0),
        display: z.number().int().min(0).describe("The screenshot's display index"),
        max_width: z.number().int().min(16).describe("The screenshot's max_width"),
        region: regionSchema.describe("The screenshot's region, in global points"),
      })
      .describe("Pixels of a screenshot; pass back the image_space block its reply gave"),
  ])
  .describe("A point: global screen coordinates, or pixels of a screenshot");
export type PointInput = z.output<typeof pointSchema>;

/** Where a pointer action lands: a verified element, or a point. */
export const placeShape = {
  ref: refSchema.optional().describe("An element: verified first, then acted on at its centre"),
  at: pointSchema.optional(),
};

export const placeRule: [
  (p: { ref?: string | undefined; at?: unknown }) => boolean,
  { message: string; path: string[] },
] = [
  (p) => (p.ref === undefined) !== (p.at === undefined),
  { message: "give ref or at, one of the two", path: ["ref"] },
];

export const windowSchema = z
  .union([
    z.object({ id: z.number().int().positive() }).strict(),
    z.object({ title: globSchema }).strict(),
    z.object({ pid: z.number().int().positive() }).strict(),
  ])
  .describe("The window that must be in front; by default, the window of the ref or under the point");

export const windowShape = {
  include_changes: includeChangesSchema,
  window: windowSchema.optional(),
  ensure_focus: z
    .boolean()
    .default(true)
    .describe("Bring the target window to the front first, and refuse if it will not come"),
};

export const declaredShape = {
  role: z
    .string()
    .max(100)
    .optional()
    .describe("The target's role as you saw it; it can only raise the level"),
  label: z
    .string()
    .max(300)
    .optional()
    .describe("The target's label as you saw it; it can only raise the level"),
};
