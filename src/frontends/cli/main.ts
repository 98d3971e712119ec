#!/usr/bin/env -S node --max-old-space-size=96 --max-semi-space-size=8
// The `deskhand` command: routes to a front end or a CLI command. Exit status 0 done, 1 failed,
// 2 bad command line. The heap limits in the first line keep a long-running server flat: without them
// V8 grew the heap lazily to 145 MB over 1,000 soak cycles; with them it stayed at 92 MB.
import { UsageError } from "./usage-error.js";

type Command = (args: string[]) => Promise<number>;

/**
 * A command whose module is loaded only when it runs: `sandbox stop` or `--help` does not load the
 * tool registry, the gate and every front end first (0.7 s of a CLI call's start, most of it
 * module loading, paid by every test and script that runs the CLI).
 */
const lazy =
  <M>(load: () => Promise<M>, pick: (module: M) => Command): Command =>
  async (args) =>
    pick(await load())(args);

const tools = () => import("./tools.js");
const elements = () => import("./elements.js");
const hands = () => import("./hands.js");
const sandbox = () => import("./sandbox.js");
const setup = () => import("./setup.js");
const runs = () => import("./run.js");
const servers = () => import("./servers.js");
const help = async () => (await import("./usage.js")).HELP as Record<string, string> & { main: string };

const SANDBOX: Record<string, Command> = {
  run: lazy(sandbox, (m) => m.sandboxRun),
  start: lazy(sandbox, (m) => m.sandboxStart),
  stop: lazy(sandbox, (m) => m.sandboxStop),
  _supervise: lazy(sandbox, (m) => m.sandboxSupervise),
};

const COMMANDS: Record<string, Command> = {
  call: lazy(tools, (m) => m.callCommand),
  windows: lazy(tools, (m) => m.windowsCommand),
  snapshot: lazy(tools, (m) => m.snapshotCommand),
  observe: lazy(tools, (m) => m.observeCommand),
  doctor: lazy(tools, (m) => m.doctorCommand),
  ping: lazy(tools, (m) => m.pingCommand),
  setup: lazy(setup, (m) => m.setupCommand),
  find: lazy(elements, (m) => m.findCommand),
  act: lazy(elements, (m) => m.actCommand),
  "read-text": lazy(elements, (m) => m.readTextCommand),
  "read-table": lazy(elements, (m) => m.readTableCommand),
  "element-info": lazy(elements, (m) => m.elementInfoCommand),
  wait: lazy(elements, (m) => m.waitCommand),
  click: lazy(hands, (m) => m.clickCommand),
  type: lazy(hands, (m) => m.typeCommand),
  key: lazy(hands, (m) => m.keyCommand),
  drag: lazy(hands, (m) => m.dragCommand),
  hover: lazy(hands, (m) => m.hoverCommand),
  wheel: lazy(hands, (m) => m.wheelCommand),
  screenshot: lazy(hands, (m) => m.screenshotCommand),
  "read-screen-text": lazy(hands, (m) => m.readScreenTextCommand),
  "find-text": lazy(hands, (m) => m.findTextCommand),
  window: lazy(hands, (m) => m.windowCommand),
  audit: lazy(hands, (m) => m.auditCommand),
  run: lazy(runs, (m) => m.runCommand),
  replay: lazy(runs, (m) => m.replayCommand),
  mcp: lazy(servers, (m) => m.mcpCommand),
  serve: lazy(servers, (m) => m.serveCommand),
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
    process.stdout.write(`${(await help()).main}\n`);
    return name === undefined ? 2 : 0;
  }
  if (name === "--version" || name === "-V") {
    process.stdout.write(`${(await import("../../tools/context.js")).DESKHAND_VERSION}\n`);
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) throw new UsageError(`unknown command ${JSON.stringify(name)}`);
  const beforeSeparator = args.includes("--") ? args.slice(0, args.indexOf("--")) : args;
  if (beforeSeparator.includes("--help") || beforeSeparator.includes("-h")) {
    const texts = await help();
    process.stdout.write(`${texts[name] ?? texts.main}\n`);
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
