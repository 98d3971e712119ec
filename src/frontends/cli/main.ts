#!/usr/bin/env -S node --max-old-space-size=96 --max-semi-space-size=8
// The `deskhand` command: routes to a front end or a CLI command. Exit status 0 done, 1 failed,
// 2 bad command line. The heap limits in the first line keep a long-running server flat: without them
// V8 grew the heap lazily to 145 MB over 1,000 soak cycles; with them it stayed at 92 MB.
import { DESKHAND_VERSION } from "../../tools/context.js";
import { selectTools } from "../../tools/registry.js";
import { HttpConfigError, parseListen, runMcpHttpServer } from "../mcp/http.js";
import { runMcpServer } from "../mcp/server.js";
import { runNdjsonServer } from "../ndjson/server.js";
import { PROFILES } from "../profiles/index.js";
import {
  actCommand,
  elementInfoCommand,
  findCommand,
  readTableCommand,
  readTextCommand,
  waitCommand,
} from "./elements.js";
import {
  auditCommand,
  ceilingFlag,
  clickCommand,
  dragCommand,
  findTextCommand,
  hoverCommand,
  keyCommand,
  readScreenTextCommand,
  screenshotCommand,
  typeCommand,
  wheelCommand,
  windowCommand,
} from "./hands.js";
import { replayCommand, runCommand } from "./run.js";
import { sandboxRun, sandboxStart, sandboxStop, sandboxSupervise } from "./sandbox.js";
import { setupCommand } from "./setup.js";
import {
  callCommand,
  doctorCommand,
  observeCommand,
  pingCommand,
  snapshotCommand,
  windowsCommand,
} from "./tools.js";
import { HELP, UsageError } from "./usage.js";

type Command = (args: string[]) => Promise<number>;

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

const SANDBOX: Record<string, Command> = {
  run: sandboxRun,
  start: sandboxStart,
  stop: sandboxStop,
  _supervise: sandboxSupervise,
};

const COMMANDS: Record<string, Command> = {
  call: callCommand,
  windows: windowsCommand,
  snapshot: snapshotCommand,
  observe: observeCommand,
  doctor: doctorCommand,
  setup: setupCommand,
  ping: pingCommand,
  find: findCommand,
  act: actCommand,
  "read-text": readTextCommand,
  "read-table": readTableCommand,
  "element-info": elementInfoCommand,
  wait: waitCommand,
  click: clickCommand,
  type: typeCommand,
  key: keyCommand,
  drag: dragCommand,
  hover: hoverCommand,
  wheel: wheelCommand,
  screenshot: screenshotCommand,
  "read-screen-text": readScreenTextCommand,
  "find-text": findTextCommand,
  window: windowCommand,
  audit: auditCommand,
  run: runCommand,
  replay: replayCommand,
  mcp: async (args) => {
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
  },
  serve: async (args) => {
    keepServing();
    const ceiling = serverCeiling(args);
    await runNdjsonServer(ceiling ? { ceiling } : {});
    return 0;
  },
  sandbox: async (args) => {
    const [sub, ...rest] = args;
    const command = sub === undefined ? undefined : SANDBOX[sub];
    if (!command)
      throw new UsageError(
        sub ? `unknown sandbox command ${JSON.stringify(sub)}` : "sandbox needs run, start or stop",
      );
    return command(rest);
  },
};

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(`${HELP.main}\n`);
    return name === undefined ? 2 : 0;
  }
  if (name === "--version" || name === "-V") {
    process.stdout.write(`${DESKHAND_VERSION}\n`);
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) throw new UsageError(`unknown command ${JSON.stringify(name)}`);
  const beforeSeparator = args.includes("--") ? args.slice(0, args.indexOf("--")) : args;
  if (beforeSeparator.includes("--help") || beforeSeparator.includes("-h")) {
    process.stdout.write(`${HELP[name] ?? HELP.main}\n`);
    return 0;
  }
  return command(args);
}

/**
 * A one-shot command has printed all it says once it returns: a handle left open under load (a bus
 * call that answered after its timeout) must not keep the process alive. The event loop is given a
 * moment to drain by itself first.
 */
const EXIT_GRACE_MS = 1000;

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
    setTimeout(() => process.exit(code), EXIT_GRACE_MS).unref();
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`deskhand: ${error.message}\nRun \`deskhand --help\` for usage.\n`);
      process.exitCode = 2;
      return;
    }
    process.stderr.write(`deskhand: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
    setTimeout(() => process.exit(1), EXIT_GRACE_MS).unref();
  },
);
