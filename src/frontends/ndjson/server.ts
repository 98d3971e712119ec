// `deskhand serve`: one JSON request per stdin line, exactly one response per stdout line, requests run
// one at a time in input order. Closing stdin ends the process once the queue is done.
import type { Readable, Writable } from "node:stream";
import type { SafetyLevel } from "../../safety/levels.js";
import { createContext, type ToolContext } from "../../tools/context.js";
import { prepareGate } from "../../tools/guard.js";
import { LineSplitter } from "../lines.js";
import { DRAIN_MS, exitBy } from "../mcp/calls.js";
import { dispatch, ProtocolError } from "./protocol.js";

const MAX_LINE_BYTES = 1 << 20;
/** Requests parsed but not yet run; past this, stdin is paused until the queue drains. */
const QUEUE_HIGH_WATER = 256;

type RequestId = string | number | null;

interface Job {
  id: RequestId;
  run: () => Promise<unknown>;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

function failure(id: RequestId, error: ProtocolError) {
  return { id, ok: false, error: { code: error.code, message: error.message, ...error.extra } };
}

/** Parses one line into a job, or into the error response it deserves. */
function parseLine(
  context: ToolContext,
  bytes: Buffer,
  onShutdown: () => void,
): Job | { id: RequestId; response: object } | undefined {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return {
      id: null,
      response: failure(null, new ProtocolError("invalid_request", "the line is not valid UTF-8")),
    };
  }
  if (text.trim() === "") return undefined;
  let request: unknown;
  try {
    request = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : "";
    return {
      id: null,
      response: failure(null, new ProtocolError("invalid_request", `the line is not JSON: ${detail}`)),
    };
  }
  if (typeof request !== "object" || request === null || Array.isArray(request)) {
    return {
      id: null,
      response: failure(null, new ProtocolError("invalid_request", "a request is a JSON object")),
    };
  }
  const { id, method, params } = request as Record<string, unknown>;
  const validId = typeof id === "string" || (typeof id === "number" && Number.isFinite(id));
  const echoId: RequestId = validId ? (id as string | number) : null;
  if (!validId) {
    return {
      id: null,
      response: failure(null, new ProtocolError("invalid_request", "id must be a string or a number")),
    };
  }
  if (typeof method !== "string" || method === "") {
    return {
      id: echoId,
      response: failure(echoId, new ProtocolError("invalid_request", "method must be a non-empty string")),
    };
  }
  if (params !== undefined && (typeof params !== "object" || params === null || Array.isArray(params))) {
    return {
      id: echoId,
      response: failure(echoId, new ProtocolError("invalid_params", "params must be an object")),
    };
  }
  if (method === "shutdown") {
    return {
      id: echoId,
      run: async () => {
        onShutdown();
        return { shuttingDown: true };
      },
    };
  }
  return { id: echoId, run: () => dispatch(context, method, params) };
}

export interface ServeOptions {
  input: Readable;
  output: Writable;
  context?: ToolContext;
  maxLineBytes?: number;
  /**
   * Aborted to stop (SIGTERM): no request is read or started after it; the one running is given
   * `drainMs` to finish and answered either way, each queued one is answered as not started.
   */
  stop?: AbortSignal;
  drainMs?: number;
}

/** The answer to a request the server did not start because it was stopping. */
const notStarted = (id: RequestId) =>
  failure(
    id,
    new ProtocolError(
      "internal_error",
      "the server is stopping; this request was not started and nothing was done",
      {
        stopping: true,
        next: "Send it again once the server is back.",
      },
    ),
  );

/** One line out, once the stream has room for it. */
function writeLine(output: Writable, response: object): Promise<void> {
  return new Promise<void>((resolve) => {
    if (output.write(`${JSON.stringify(response)}\n`)) resolve();
    else output.once("drain", resolve);
  });
}

/** What is written for a queued line: its ready answer, else its job's (not started once stopping). */
function answerTo(job: Job | { id: RequestId; response: object }, options: ServeOptions): Promise<object> {
  if ("response" in job) return Promise.resolve(job.response);
  if (options.stop?.aborted) return Promise.resolve(notStarted(job.id));
  return answered(job, options.stop, options.drainMs ?? 0);
}

/**
 * A job's answer: its result, its error, or, when the server stops and it runs past the drain,
 * that it had started and may have taken effect in part.
 */
function answered(job: Job, stop: AbortSignal | undefined, drainMs: number): Promise<object> {
  const result = job.run().then(
    (value) => ({ id: job.id, ok: true, result: value }),
    (error: unknown) =>
      failure(
        job.id,
        error instanceof ProtocolError
          ? error
          : new ProtocolError("internal_error", error instanceof Error ? error.message : String(error)),
      ),
  );
  if (!stop) return result;
  // Each request listens for the stop only while it runs: a listener left behind per request grew
  // without end (Node's MaxListenersExceededWarning after ten).
  const listening = new AbortController();
  const cut = cutAtDrain(job.id, stop, drainMs, listening.signal);
  return Promise.race([result, cut]).finally(() => listening.abort());
}

/** Resolves `drainMs` after `stop` aborts, with the answer for a request still running then. */
function cutAtDrain(id: RequestId, stop: AbortSignal, drainMs: number, done: AbortSignal): Promise<object> {
  return new Promise<object>((resolve) => {
    const onStop = () =>
      setTimeout(
        () =>
          resolve(
            failure(
              id,
              new ProtocolError(
                "internal_error",
                `the server is stopping and this request was still running after ${drainMs / 1000} s; it had started, so it may have taken effect in part`,
                { stopping: true, next: "Re-read the app before going on." },
              ),
            ),
          ),
        drainMs,
      ).unref();
    if (stop.aborted) onStop();
    else stop.addEventListener("abort", onStop, { once: true, signal: done });
  });
}

export function serve(options: ServeOptions): Promise<void> {
  const context = options.context ?? createContext({ refLifetime: "latest-snapshot" });
  const splitter = new LineSplitter(options.maxLineBytes ?? MAX_LINE_BYTES);
  const queue: (Job | { id: RequestId; response: object })[] = [];
  let running = false;
  let inputEnded = false;
  let shuttingDown = false;
  let finish: () => void;
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    options.input.removeAllListeners("data");
    await context.close().catch(() => undefined);
    finish();
  };

  const pump = async () => {
    if (running) return;
    running = true;
    while (queue.length > 0) {
      const job = queue.shift()!;
      if (queue.length < QUEUE_HIGH_WATER / 2) options.input.resume();
      await writeLine(options.output, await answerTo(job, options));
      // A request that asked the server to shut down ends it: the rest are not read.
      if ("run" in job && shuttingDown && !options.stop?.aborted) {
        queue.length = 0;
        break;
      }
    }
    running = false;
    if (shuttingDown || inputEnded) await stop();
  };

  options.stop?.addEventListener(
    "abort",
    () => {
      shuttingDown = true;
      options.input.removeAllListeners("data");
      options.input.pause();
      if (!running) void pump();
    },
    { once: true },
  );

  const enqueue = (events: ReturnType<LineSplitter["push"]>) => {
    for (const event of events) {
      if (shuttingDown) return;
      if (event.kind === "oversized") {
        const message = `the line is ${event.length} bytes; requests are at most ${splitter.maxLineBytes}`;
        queue.push({ id: null, response: failure(null, new ProtocolError("invalid_request", message)) });
        continue;
      }
      const parsed = parseLine(context, event.bytes, () => {
        shuttingDown = true;
      });
      if (parsed) queue.push(parsed);
    }
    if (queue.length >= QUEUE_HIGH_WATER) options.input.pause();
    void pump();
  };

  options.input.on("data", (chunk: Buffer) => enqueue(splitter.push(Buffer.from(chunk))));
  options.input.on("end", () => {
    enqueue(splitter.end());
    inputEnded = true;
    if (!running && queue.length === 0) void stop();
  });
  options.input.on("error", () => {
    inputEnded = true;
    void pump();
  });
  return finished;
}

export async function runNdjsonServer(options: { ceiling?: SafetyLevel } = {}): Promise<void> {
  // SIGTERM drains as the MCP servers do: the request running finishes (or is answered as cut at
  // DRAIN_MS), queued ones are answered as not started, held input is released, and it exits 0.
  const stopping = new AbortController();
  // No way to ask a person on this channel: what needs confirmation is refused unless pre-approved.
  const context = createContext({
    refLifetime: "latest-snapshot",
    ...(options.ceiling ? { ceiling: options.ceiling } : {}),
    stopping: stopping.signal,
  });
  prepareGate();
  const stop = () => {
    exitBy(0);
    stopping.abort();
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  await serve({
    input: process.stdin,
    output: process.stdout,
    context,
    stop: stopping.signal,
    drainMs: DRAIN_MS,
  });
  process.exit(0);
}
