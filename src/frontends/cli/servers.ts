// The long-running front ends as commands: `deskhand mcp` (stdio or Streamable HTTP) and `deskhand
// serve` (NDJSON), with their flags. Loaded only when one of them runs (main.ts).
import { selectTools } from "../../tools/registry.js";
import { HttpConfigError, parseListen, runMcpHttpServer } from "../mcp/http.js";
import { runMcpServer } from "../mcp/server.js";
import { runNdjsonServer } from "../ndjson/server.js";
import { PROFILES } from "../profiles/index.js";
import { ceilingFlag } from "./hands.js";
import { UsageError } from "./usage-error.js";

/**
 * A server outlives a failure nobody awaited (an app's bus connection dropping under a read in
 * flight): it is logged on stderr, never the end of every session. Each call still answers for
 * itself, through its own error handling.
 */
function keepServing(): void {
  process.on("unhandledRejection", (reason) => {
    const what = reason instanceof Error ? `${reason.name}: ${reason.message}` : String(reason);
    process.stderr.write(
      `deskhand: a failure nobody awaited was caught; the server keeps serving (${what.slice(0, 300)})\n`,
    );
  });
}

/** `mcp` and `serve` take --ceiling L1..L4; `mcp` also --profile NAME (a seed's own tools). */
interface ServerFlags {
  ceiling?: ReturnType<typeof ceilingFlag>;
  profile?: string;
  /** `--tools read,act`: the groups or tools served, from the registry (not with a profile). */
  tools?: string;
  /** `--record FILE`: the session's acting calls written as a replayable run. */
  record?: string;
  http?: string;
  tokenFile?: string;
  allowRemote: boolean;
  allowOrigins: string[];
  allowHosts: string[];
}

const MCP_OPTIONS =
  "the options are --ceiling L1|L2|L3|L4, --profile NAME, --tools GROUP,..., --record FILE, and --http [HOST:]PORT with --token-file FILE, --allow-origin ORIGIN, --allow-host HOST[:PORT] and --allow-remote";

function serverFlags(args: string[], mcp: boolean): ServerFlags {
  const flags: ServerFlags = { allowRemote: false, allowOrigins: [], allowHosts: [] };
  for (let i = 0; i < args.length; i++) {
    const flag = args[i];
    if (mcp && flag === "--allow-remote") {
      flags.allowRemote = true;
      continue;
    }
    const value = args[++i];
    if (flag === "--ceiling" && value !== undefined) flags.ceiling = ceilingFlag(value);
    else if (mcp && flag === "--profile" && value !== undefined) {
      if (!PROFILES[value])
        throw new UsageError(
          `unknown profile ${JSON.stringify(value)}; profiles: ${Object.keys(PROFILES).join(", ")}`,
        );
      flags.profile = value;
    } else if (mcp && flag === "--tools" && value !== undefined) {
      try {
        selectTools(value);
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
      flags.tools = value;
    } else if (mcp && flag === "--record" && value !== undefined) flags.record = value;
    else if (mcp && flag === "--http" && value !== undefined) flags.http = value;
    else if (mcp && flag === "--token-file" && value !== undefined) flags.tokenFile = value;
    else if (mcp && flag === "--allow-origin" && value !== undefined) flags.allowOrigins.push(value);
    else if (mcp && flag === "--allow-host" && value !== undefined)
      flags.allowHosts.push(value.toLowerCase());
    else throw new UsageError(mcp ? MCP_OPTIONS : "the only option is --ceiling L1|L2|L3|L4");
  }
  if (
    !flags.http &&
    (flags.tokenFile || flags.allowRemote || flags.allowOrigins.length || flags.allowHosts.length)
  )
    throw new UsageError("--token-file, --allow-origin, --allow-host and --allow-remote go with --http");
  if (flags.tools && flags.profile)
    throw new UsageError("--tools chooses among deskhand's own tools; a --profile keeps its seed's list");
  return flags;
}

function serverCeiling(args: string[]) {
  return serverFlags(args, false).ceiling;
}

export async function mcpCommand(args: string[]): Promise<number> {
  keepServing();
  const flags = serverFlags(args, true);
  const common = {
    ...(flags.ceiling ? { ceiling: flags.ceiling } : {}),
    ...(flags.profile ? { profile: PROFILES[flags.profile]! } : {}),
    ...(flags.tools ? { profile: { tools: selectTools(flags.tools) } } : {}),
    ...(flags.record ? { record: flags.record } : {}),
  };
  if (flags.http) {
    try {
      await runMcpHttpServer({
        ...parseListen(flags.http),
        allowRemote: flags.allowRemote,
        ...(flags.tokenFile ? { tokenFile: flags.tokenFile } : {}),
        allowOrigins: flags.allowOrigins,
        allowHosts: flags.allowHosts,
        ...common,
      });
    } catch (error) {
      if (error instanceof HttpConfigError) throw new UsageError(error.message);
      throw error;
    }
    return new Promise<number>(() => {}); // Runs until SIGTERM.
  }
  await runMcpServer(common);
  return new Promise<number>(() => {}); // Runs until stdin closes.
}

export async function serveCommand(args: string[]): Promise<number> {
  keepServing();
  const ceiling = serverCeiling(args);
  await runNdjsonServer(ceiling ? { ceiling } : {});
  return 0;
}
