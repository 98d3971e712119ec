// The CLI's exit status, for every command that runs a tool: one table, from the call's outcome.
import type { CallResult } from "../../tools/call.js";

/** 0 done, 1 error, 2 a bad command line (the tool refused its arguments), 3 refused. */
export function exitStatus(result: CallResult): number {
  if (result.outcome === "done") return 0;
  if (result.outcome === "refused") return 3;
  return !result.ok && result.error.code === "invalid_params" ? 2 : 1;
}
