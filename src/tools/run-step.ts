// One step of a run, as `run` takes it and a recording writes it: its own module, so that the
// recording (recording.ts) and the run (run.ts) each read it without depending on the other.
import { z } from "zod";
import { findToolSchema } from "./find.js";

export const stepSchema = z.strictObject({
  tool: z.string().min(1),
  args: z.record(z.string(), z.unknown()).default({}),
  find: findToolSchema.optional().describe('Resolved as the step runs, into args.ref or "$ref"'),
  element: z
    .strictObject({ role: z.string(), name: z.string() })
    .optional()
    .describe("What find must find, else stop"),
  // Checked as wait's arguments when the run starts, once "$ref" and parameters stand in.
  expect: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("wait's arguments, met after the step, else stop"),
  note: z.string().max(500).optional(),
});
export type Step = z.output<typeof stepSchema>;
