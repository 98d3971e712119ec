// MCP over stdio. The tool list and schemas come from the registry; a failed call is an isError result
// whose text names what went wrong and the next step, so an agent can act on it.

import { AsyncLocalStorage } from "node:async_hooks";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type RequestId,
} from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import { DeskhandError } from "../../core/errors.js";
import { type Confirmer, confirmationQuestion } from "../../safety/gate.js";
import type { SafetyLevel } from "../../safety/levels.js";
import { type CallResult, callTool, failed } from "../../tools/call.js";
import { createContext, DESKHAND_VERSION, type ToolContext } from "../../tools/context.js";
import { prepareGate } from "../../tools/guard.js";
import { attachRecorder } from "../../tools/recorder-slot.js";
import { Recorder } from "../../tools/recording.js";
import { TOOLS } from "../../tools/registry.js";
import { inOwnWords, type Profile } from "../profiles/index.js";
import { CallsInFlight, DRAIN_MS, exitBy } from "./calls.js";
import { catalog } from "./catalog.js";
import { GuardedStdioTransport } from "./stdio.js";

/** The answer to a call the server could not finish, or would not start, because it is stopping. */
function stoppingResult(tool: string, started: boolean, profile: Profile) {
  const error = new DeskhandError(
    "internal_error",
    started
      ? `the server is stopping and ${tool} was still running after ${DRAIN_MS / 1000} s; it had started, so it may have taken effect in part`
      : `the server is stopping; ${tool} was not started and nothing was done`,
    started
      ? "Re-read the app (snapshot, read_text) before going on, from a new session."
      : "Call it again once the server is back.",
    { stopping: true },
  );
  return errorResult(profile, error);
}

/** A failed call: the profile's own shape where it has one, and its code in the text block too. */
function errorResult(profile: Pick<Profile, "error" | "failed" | "words">, error: DeskhandError) {
  // A failure in the doing, where the document answers it with its own reply object.
  const failed = profile.failed?.(error);
  if (failed)
    return {
      isError: true,
      content: [{ type: "text" as const, text: JSON.stringify(failed) }],
      structuredContent: failed,
    };
  const shaped = profile.error?.(error);
  const code = typeof shaped?.error === "string" ? shaped.error : error.code;
  // The advice names the tools this client has: a profile's own names for deskhand's.
  const next = inOwnWords(error.next, profile.words);
  const message = inOwnWords(error.message, profile.words);
  return {
    isError: true,
    content: [{ type: "text" as const, text: `${code}: ${message}\nNext: ${next}` }],
    structuredContent: shaped ?? { error: { ...error.toJSON(), message, next } },
  };
}

/** A refusal's or failure's words in a profile's: the tools it names are this client's. */
function inWords<T extends { text: string; data?: unknown }>(
  output: T,
  words: Record<string, string> | undefined,
): T {
  if (!words) return output;
  const data = output.data as Record<string, unknown> | undefined;
  const reason = typeof data?.reason === "string" ? { reason: inOwnWords(data.reason, words) } : {};
  return {
    ...output,
    text: inOwnWords(output.text, words),
    ...(data ? { data: { ...data, ...reason } } : {}),
  };
}

const INSTRUCTIONS =
  "deskhand reads desktop windows as text through accessibility APIs. Start with `windows`, then " +
  "`snapshot` a window (read in rings: shallow first, then snapshot a ref). Refs stay valid while the " +
  "element they name still verifies. Prefer `act` (accessibility actions); real input (`click`, `type_text`, " +
  "`key`...) needs an intent and runs under a safety ceiling, and committing or irreversible actions ask a " +
  "person. Levels: L1 reads, L2 input, L3 a press that commits (asks a person), L4 raw held input. " +
  "Run `doctor` when anything fails.";

export function createMcpServer(
  context: ToolContext,
  profile: Profile = { tools: TOOLS },
  calls: CallsInFlight = new CallsInFlight(),
): Server {
  const { tools } = profile;
  const find = (name: string) => tools.find((t) => t.name === name);
  const server = new Server(
    { name: "deskhand", version: DESKHAND_VERSION },
    {
      capabilities: { tools: {} },
      // A profile's client has its own tools, documented by its seed: these words name deskhand's.
      ...(profile.asDeclared ? {} : { instructions: INSTRUCTIONS }),
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: catalog(tools, profile.asDeclared),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const name = request.params.name;
    if (calls.stopping) return stoppingResult(name, false, profile);
    return calls.run(
      () => callOf.run(extra.requestId, () => answer(request, extra.signal)),
      () => stoppingResult(name, true, profile),
    );
  });
  async function answer(request: z.infer<typeof CallToolRequestSchema>, signal: AbortSignal) {
    const tool = find(request.params.name);
    const result = tool
      ? await callTool(context, tool, request.params.arguments ?? {}, signal)
      : failed(
          new DeskhandError(
            "invalid_params",
            `there is no tool named ${JSON.stringify(request.params.name)}`,
            `Use one of: ${tools.map((t) => t.name).join(", ")}.`,
          ),
        );
    return mcpResult(result, profile);
  }
  return server;
}

/** A call's MCP result: isError for every outcome but done, the text and the structured reply. */
export function mcpResult(
  result: CallResult,
  profile: Pick<Profile, "error" | "failed" | "reply" | "words"> = {},
) {
  if (result.ok) {
    const output = result.outcome === "done" ? result.output : inWords(result.output, profile.words);
    const shaped = profile.reply?.(output.data as Record<string, unknown>);
    if (shaped)
      return {
        content: [{ type: "text" as const, text: JSON.stringify(shaped) }],
        structuredContent: { ...output.data, ...shaped },
      };
    return {
      // A refused or failed action is a result the agent must notice: isError, with the reason.
      ...(result.outcome !== "done" ? { isError: true } : {}),
      content: [
        // A picture sent alone (a seed's screenshot) has no caption block.
        ...(output.text === "" && output.image ? [] : [{ type: "text" as const, text: output.text }]),
        ...(output.image
          ? [
              {
                type: "image" as const,
                data: output.image.data.toString("base64"),
                mimeType: output.image.mimeType,
              },
            ]
          : []),
      ],
      structuredContent: output.data,
    };
  }
  const { error } = result;
  return errorResult(profile, error);
}

// A person has this long to answer a confirmation; no answer is a refusal.
const CONFIRM_TIMEOUT_MS = 120_000;

/**
 * The request each tool call runs for: a confirmation it asks goes back on that request's own
 * stream (Streamable HTTP), so a client that opened no stream of its own (a reconnected one, one
 * that makes no GET) still hears it.
 */
const callOf = new AsyncLocalStorage<RequestId>();

/** Asks the person at the client, through elicitation, when the client says it can. */
export function elicitationConfirmer(server: () => Server | undefined): Confirmer {
  return async (request) => {
    const current = server();
    if (!current?.getClientCapabilities()?.elicitation?.form) return "unavailable";
    try {
      const answer = await current.elicitInput(
        {
          message: confirmationQuestion(request),
          requestedSchema: {
            type: "object",
            properties: { allow: { type: "boolean", title: "Allow this action?" } },
            required: ["allow"],
          },
        },
        { timeout: CONFIRM_TIMEOUT_MS, relatedRequestId: callOf.getStore() },
      );
      return answer.action === "accept" && answer.content?.allow === true ? "approved" : "declined";
    } catch (error) {
      // Nobody said no: the question got no answer, or the client could not show it.
      const timedOut = error instanceof McpError && error.code === ErrorCode.RequestTimeout;
      return {
        unanswered: timedOut
          ? `the question went to the client and nobody answered within ${CONFIRM_TIMEOUT_MS / 1000} s`
          : `the client did not ask a person (${(error as Error).message})`,
      };
    }
  };
}

export async function runMcpServer(
  options: { ceiling?: SafetyLevel; profile?: Profile; record?: string } = {},
): Promise<void> {
  let server: Server | undefined;
  const calls = new CallsInFlight();
  const context = createContext({
    refLifetime: "while-verified",
    confirm: elicitationConfirmer(() => server),
    ...(options.ceiling ? { ceiling: options.ceiling } : {}),
    stopping: calls.halted,
  });
  if (options.record) attachRecorder(context, new Recorder(options.record));
  prepareGate();
  server = createMcpServer(context, options.profile, calls);
  const transport = new GuardedStdioTransport();
  let closing = false;
  // Status 0 only when the input really ended or a signal asked for it; a failure is never 0. Every
  // call in flight is answered first: its own result within the drain, else that the server stopped.
  const close = async (status: number) => {
    if (closing) return;
    closing = true;
    exitBy(status);
    await calls.drain();
    await context.close().catch(() => undefined);
    await server.close().catch(() => undefined);
    process.exit(status);
  };
  transport.onclose = () => void close(0);
  transport.onerror = (error) => process.stderr.write(`deskhand mcp: ${error.message}\n`);
  process.stdout.on("error", (error) => {
    process.stderr.write(`deskhand mcp: cannot write replies: ${error.message}\n`);
    void close(1);
  });
  process.on("SIGTERM", () => void close(0));
  process.on("SIGINT", () => void close(0));
  await server.connect(transport);
}
