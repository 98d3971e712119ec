// MCP over stdio. The tool list and schemas come from the registry; a failed call is an isError result
// whose text names what went wrong and the next step, so an agent can act on it.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { DeskhandError } from "../../core/errors.js";
import { callTool } from "../../tools/call.js";
import { createContext, DESKHAND_VERSION, type ToolContext } from "../../tools/context.js";
import { findTool, TOOLS } from "../../tools/registry.js";

export function createMcpServer(context: ToolContext): Server {
  const server = new Server(
    { name: "deskhand", version: DESKHAND_VERSION },
    {
      capabilities: { tools: {} },
      instructions:
        "deskhand reads desktop windows as text through accessibility APIs. Start with `windows`, then " +
        "`snapshot` a window (read in rings: shallow first, then snapshot a ref). Refs stay valid while the " +
        "element they name still verifies. Run `doctor` when anything fails.",
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: TOOLS.map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: `${tool.description} (safety level ${tool.level})`,
      inputSchema: z.toJSONSchema(tool.input, { io: "input" }) as { type: "object" },
      annotations: { title: tool.title, ...tool.annotations },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = findTool(request.params.name);
    const result = tool
      ? await callTool(context, tool, request.params.arguments ?? {}, extra.signal)
      : {
          ok: false as const,
          error: new DeskhandError(
            "invalid_params",
            `there is no tool named ${JSON.stringify(request.params.name)}`,
            `Use one of: ${TOOLS.map((t) => t.name).join(", ")}.`,
          ),
        };
    if (result.ok) {
      return {
        content: [{ type: "text" as const, text: result.output.text }],
        structuredContent: result.output.data,
      };
    }
    const { error } = result;
    return {
      isError: true,
      content: [{ type: "text" as const, text: `${error.code}: ${error.message}\nNext: ${error.next}` }],
      structuredContent: { error: error.toJSON() },
    };
  });
  return server;
}

export async function runMcpServer(): Promise<void> {
  const context = createContext({ refLifetime: "while-verified" });
  const server = createMcpServer(context);
  const transport = new StdioServerTransport();
  let closing = false;
  const close = async () => {
    if (closing) return;
    closing = true;
    await context.close().catch(() => undefined);
    await server.close().catch(() => undefined);
    process.exit(0);
  };
  transport.onclose = () => void close();
  process.stdin.on("end", () => void close());
  process.on("SIGTERM", () => void close());
  process.on("SIGINT", () => void close());
  await server.connect(transport);
}
