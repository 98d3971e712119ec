#!/usr/bin/env -S node --max-old-space-size=96 --max-semi-space-size=8
// The `deskhand` command: routes to a front end or a CLI command. Exit status 0 done, 1 failed,
// 2 bad command line. The heap limits in the first line keep a long-running server flat: without them
// V8 grew the heap lazily to 145 MB over 1,000 soak cycles; with them it stayed at 92 MB.
import { DESKHAND_VERSION } from "../../tools/context.js";
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
import { sandboxRun, sandboxStart, sandboxStop, sandboxSupervise } from "./sandbox.js";
import { doctorCommand, observeCommand, pingCommand, snapshotCommand, windowsCommand } from "./tools.js";
import { HELP, UsageError } from "./usage.js";

type Command = (args: string[]) => Promise<number>;

/** `mcp` and `serve` take --ceiling L1..L4; `mcp` also --profile NAME (a seed's own tools). */
function serverFlags(args: string[], allowProfile: boolean) {
  const flags: { ceiling?: ReturnType<typeof ceilingFlag>; profile?: string } = {};
  for (let i = 0; i < args.length; i += 2) {
    const [flag, value] = [args[i], args[i + 1]];
    if (flag === "--ceiling" && value !== undefined) flags.ceiling = ceilingFlag(value);
    else if (flag === "--profile" && value !== undefined && allowProfile) {
      if (!PROFILES[value])
        throw new UsageError(
          `unknown profile ${JSON.stringify(value)}; profiles: ${Object.keys(PROFILES).join(", ")}`,
        );
      flags.profile = value;
    } else
      throw new UsageError(
        allowProfile
          ? "the options are --ceiling L1|L2|L3|L4 and --profile NAME"
          : "the only option is --ceiling L1|L2|L3|L4",
      );
  }
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
  windows: windowsCommand,
  snapshot: snapshotCommand,
  observe: observeCommand,
  doctor: doctorCommand,
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
  mcp: async (args) => {
    const { ceiling, profile } = serverFlags(args, true);
    await runMcpServer({
      ...(ceiling ? { ceiling } : {}),
      ...(profile ? { profile: PROFILES[profile]! } : {}),
    });
    return new Promise<number>(() => {}); // Runs until stdin closes.
  },
  serve: async (args) => {
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

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`deskhand: ${error.message}\nRun \`deskhand --help\` for usage.\n`);
      process.exitCode = 2;
      return;
    }
    process.stderr.write(`deskhand: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
