// `deskhand run FILE` and `deskhand replay FILE`: a file of steps, or a recording, run by the `run`
// tool in this process; no model involved. The gate asks at the terminal, or needs a pre-approval.
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { asDeskhandError } from "../../core/errors.js";
import { callTool } from "../../tools/call.js";
import { paramValues, readRecordingFile } from "../../tools/recording.js";
import { runTool } from "../../tools/registry.js";
import { exitBy } from "../mcp/calls.js";
import { reportFailure, withContext } from "./elements.js";
import { exitStatus } from "./exit.js";
import { ceilingFlag, terminalConfirmer } from "./hands.js";
import { UsageError } from "./usage-error.js";

function flags(args: string[]) {
  try {
    return parseArgs({
      args,
      options: {
        param: { type: "string", multiple: true },
        ceiling: { type: "string" },
        "include-changes": { type: "boolean" },
        json: { type: "boolean" },
      },
      allowPositionals: true,
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

function params(given: string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of given ?? []) {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new UsageError(`--param takes NAME=VALUE, not ${JSON.stringify(pair)}`);
    out[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return out;
}

/** The steps and parameters of a file: a recording ({version, params, steps}) or {steps}. */
function stepsOf(path: string, recordingOnly: boolean, given: Record<string, string>) {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const isRecording = typeof raw === "object" && raw !== null && "version" in raw;
  if (recordingOnly || isRecording) {
    const recording = readRecordingFile(path);
    return { steps: recording.steps, params: paramValues(recording, given) };
  }
  const steps = Array.isArray(raw) ? raw : (raw as { steps?: unknown }).steps;
  if (!Array.isArray(steps)) throw new UsageError(`${path} has no "steps" list`);
  return { steps, params: given };
}

function command(recordingOnly: boolean) {
  return async (args: string[]): Promise<number> => {
    const { values, positionals } = flags(args);
    if (positionals.length !== 1) throw new UsageError(`${recordingOnly ? "replay" : "run"} takes one FILE`);
    const ceiling = ceilingFlag(values.ceiling);
    const json = Boolean(values.json);
    let input: ReturnType<typeof stepsOf>;
    try {
      input = stepsOf(positionals[0]!, recordingOnly, params(values.param));
    } catch (error) {
      if (error instanceof UsageError) throw error;
      return reportFailure(asDeskhandError(error), json);
    }
    // SIGTERM or ^C: the step under way ends, no further one starts, and the process exits in time.
    const halt = new AbortController();
    const onSignal = () => {
      halt.abort();
      exitBy(143);
    };
    process.once("SIGTERM", onSignal);
    process.once("SIGINT", onSignal);
    return withContext(
      async (context) => {
        const result = await callTool(context, runTool, {
          ...input,
          ...(values["include-changes"] ? { include_changes: true } : {}),
        });
        if (!result.ok) return reportFailure(result.error, json);
        process.stdout.write(`${json ? JSON.stringify(result.output.data) : result.output.text}\n`);
        return exitStatus(result);
      },
      { confirm: terminalConfirmer, stopping: halt.signal, ...(ceiling ? { ceiling } : {}) },
    ).finally(() => {
      process.off("SIGTERM", onSignal);
      process.off("SIGINT", onSignal);
    });
  };
}

export const runCommand = command(false);
export const replayCommand = command(true);
