// Where a session's recorder sits, and what the call path asks of it: the Recorder itself
// (recording.ts) reads the tree and resolves finds, and the context every tool sees must not depend
// on that.
import type { ToolContext } from "./context.js";
import type { ToolDefinition, ToolOutput } from "./tool.js";

/** The session's recorder, where one runs: in the context's session state. */
export const RECORDER = Symbol("recorder");

/** A call as it is being recorded, between `before` and `after`. */
export type PendingStep = object;

export interface StepRecorder {
  /** Whether this tool's calls become steps. */
  records(tool: ToolDefinition): boolean;
  /** Before the call: what it will be replayed by (its element's find, the windows then). */
  before(context: ToolContext, tool: ToolDefinition, input: Record<string, unknown>): Promise<PendingStep>;
  /** After it succeeded: writes the step; a file that cannot be written is said, not thrown. */
  after(context: ToolContext, pending: PendingStep, output: ToolOutput): Promise<string | undefined>;
}

/** Records this session's acting calls from now on (`deskhand mcp --record FILE`: a Recorder, recording.ts). */
export function attachRecorder(context: ToolContext, recorder: StepRecorder): ToolContext {
  context.sessionState.set(RECORDER, recorder);
  return context;
}
