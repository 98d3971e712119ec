// `record`: a client starts and stops recording its session's acting calls as a replayable run
// (recording.ts). Recordings are kept by name in one folder (DESKHAND_RECORDINGS, else beside the
// audit journal), so a client names a recording, never a path on the machine, and one is never
// written over.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { DeskhandError } from "../core/errors.js";
import { RECORDER, Recorder, recordingsDir } from "./recording.js";
import { defineTool } from "./tool.js";

export const recordTool = defineTool({
  name: "record",
  recorded: false,
  group: "run",
  title: "Record a run",
  description:
    "Record this session's acting calls as steps that find their elements again, for run {recording}. Passwords become parameters.",
  level: "L1",
  // It writes only deskhand's own file (as the journal is written): nothing on the desktop changes.
  annotations: { readOnlyHint: true, idempotentHint: false, openWorldHint: false },
  input: z.object({
    action: z.enum(["start", "stop", "status"]),
    name: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,100}$/, "letters, digits, _ and -")
      .optional()
      .describe("For start"),
    parameters: z
      .enum(["secrets", "typed", "hidden"])
      .default("secrets")
      .describe("typed: every typed value is one; hidden: a secret one"),
  }),
  async handler(context, input) {
    const current = context.sessionState.get(RECORDER) as Recorder | undefined;
    const summary = (r: Recorder) => ({
      recording: true,
      path: r.path,
      steps: r.steps.length,
      params: Object.keys(r.params),
    });
    if (input.action === "status") {
      return current
        ? { data: summary(current), text: `recording to ${current.path}: ${current.steps.length} steps` }
        : { data: { recording: false }, text: "not recording" };
    }
    if (input.action === "stop") {
      if (!current) return { data: { recording: false }, text: "not recording: nothing to stop" };
      context.sessionState.delete(RECORDER);
      const data = { ...summary(current), recording: false };
      const params = data.params.length ? `; parameters: ${data.params.join(", ")}` : "";
      return {
        data,
        text: `recorded ${current.steps.length} steps to ${current.path}${params}. Replay: run {recording: ${JSON.stringify(current.path.replace(/^.*\//, "").replace(/\.json$/, ""))}} or \`deskhand replay ${current.path}\``,
      };
    }
    if (current)
      throw new DeskhandError(
        "invalid_params",
        `already recording to ${current.path}`,
        'Stop it first: record {action: "stop"}.',
      );
    if (!input.name)
      throw new DeskhandError("invalid_params", "start needs a name", 'Pass name, like "monthly-report".');
    const path = join(recordingsDir(context.env, context.policy().auditPath), `${input.name}.json`);
    if (existsSync(path))
      throw new DeskhandError(
        "invalid_params",
        `a recording named ${input.name} exists (${path}); it is not written over`,
        "Choose another name, or delete that file yourself.",
      );
    const recorder = new Recorder(path, input.parameters);
    context.sessionState.set(RECORDER, recorder);
    return {
      data: summary(recorder),
      text: `recording to ${path}: each acting call that succeeds is a step`,
    };
  },
});
