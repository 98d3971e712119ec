// Input pieces every hands tool shares: intent, reversibility, where to act (a ref, a global point or
// a pixel of a screenshot) and which window must be in front first.
import { z } from "zod";
import { type findToolSchema, inlineFindSchema } from "../find.js";
import { globSchema, idSchema, includeChangesSchema, refSchema } from "../schemas.js";
import { viewSchema } from "../view.js";

export const intentSchema = z
  .string()
  .trim()
  .min(3, "say in a sentence what this is for")
  .max(500)
  .describe("Why (journaled)");

export const reversibleSchema = z.boolean().describe("false or a commit needs a person");

const coordinate = z.number().int().min(-32768).max(32767);

export const regionSchema = z.object({
  x: z.number().int().min(0),
  y: z.number().int().min(0),
  width: z.number().int().min(1),
  height: z.number().int().min(1),
});

export const pointSchema = z.discriminatedUnion("space", [
  z.object({ space: z.literal("global"), x: coordinate, y: coordinate }),
  z
    .object({
      space: z.literal("image"),
      x: z.number().int().min(0),
      y: z.number().int().min(0),
      display: z.number().int().min(0).describe("The screenshot's display index"),
      max_width: z.number().int().min(16).describe("The screenshot's max_width"),
      region: regionSchema.describe("The screenshot's region, in global points"),
    })
    .describe("a screenshot's pixels, with its image_space"),
]);
export type PointInput = z.output<typeof pointSchema>;

export type FindInput = z.output<typeof findToolSchema>;

/** An element by ref, or by find (its own nth picks among several), verified and gated alike. */
export const elementShape = {
  ref: refSchema.optional().describe("Element (verified)"),
  find: inlineFindSchema,
};

/** Where a pointer action lands: a verified element, or a point. */
export const placeShape = { ...elementShape, at: pointSchema.optional() };
/** A ref or a point only: what hover and raw input take. */
export const pointOrRefShape = { ref: elementShape.ref, at: placeShape.at };

const given = (p: { ref?: unknown; at?: unknown; find?: unknown }) =>
  [p.ref, p.at, p.find].filter((v) => v !== undefined).length;

export const placeRule: [
  (p: { ref?: string | undefined; at?: unknown; find?: unknown }) => boolean,
  { message: string; path: string[] },
] = [(p) => given(p) === 1, { message: "give ref, find or at, one of them", path: ["ref"] }];

/** hover and raw input: a ref or a point. */
export const pointRule: typeof placeRule = [
  (p) => given(p) === 1,
  { message: "give ref or at, one of the two", path: ["ref"] },
];

/** A keyboard target: a ref or a find, or neither (the focus). */
export const elementRule: [
  (p: { ref?: string | undefined; find?: unknown }) => boolean,
  { message: string; path: string[] },
] = [(p) => given(p) <= 1, { message: "give ref or find, not both", path: ["ref"] }];

export const windowSchema = z
  .union([
    z.object({ id: idSchema }).strict(),
    z.object({ title: globSchema }).strict(),
    z.object({ pid: idSchema }).strict(),
  ])
  .describe("Window to act in (default: the ref's or the point's)");

export const windowShape = {
  include_changes: includeChangesSchema,
  view: viewSchema,
  window: windowSchema.optional(),
  ensure_focus: z.boolean().default(true).describe("Bring it to the front first"),
};

export const declaredShape = {
  role: z.string().max(100).optional().describe("Role you saw (can raise the level)"),
  label: z.string().max(300).optional().describe("Label you saw (can raise the level)"),
};
