// Help texts, and the error that means "the command line was wrong" (exit status 2).
export class UsageError extends Error {
  override readonly name = "UsageError";
}

const TARGETS = `Target (one of; default --focused):
  --window ID          a window id from \`deskhand windows\` (decimal or 0x hex)
  --title GLOB         a window whose title matches the fnmatch glob
  --focused            the focused window
  --pointer            the window under the mouse pointer
  --pid PID            every window of a process
  --desktop            every accessible window`;

const LIMITS = `Limits (each reply echoes them with their ceilings):
  --max-depth N        levels below the window (default 12)
  --max-nodes N        elements per page (default 250)
  --max-text N         characters of text per element (default 200)
  --table-rows N       rows of each table to show (default 5)
  --timeout-ms N       bound on reading the tree (default 5000)
  --visible-only       leave out what is not on screen
  --only-interactive   leave out layout scaffolding
  --walk-tables        walk every table cell (slow on big tables)`;

const ELEMENT = `Target: --window ID | --title GLOB | --pid PID | --focused (default)
Selector (all given must hold): --role R --name N --name-contains S --value-contains S
  --description D --accessible-id ID --state S (repeatable); or --locator "//push button[@name='OK']"`;

export const HELP: Record<string, string> = {
  main: `deskhand: read and drive desktop applications as text, through accessibility APIs.

Usage: deskhand <command> [options]

Commands:
  windows              list top-level windows
  snapshot             read a window as text, bounded
  observe              list the actionable targets of a window
  find                 find elements by selector or locator
  act                  act on one element through its accessibility interfaces
  read-text            read an element's text, a slice at a time
  read-table           read a table, a page of rows
  element-info         everything about one element
  wait                 wait for a window or an element
  doctor               report whether deskhand can work here (read-only)
  ping                 print the version
  mcp                  serve MCP over stdio
  serve                serve the NDJSON protocol over stdio
  sandbox run|start|stop
                       a private headless accessible desktop

Every command takes --help. Exit status: 0 done, 1 failed, 2 bad command line.`,
  windows: `Usage: deskhand windows [--limit N] [--json]

List the top-level windows on screen, front to back.
  --limit N            at most N windows (default 100, ceiling 500)
  --json               print the structured result`,
  snapshot: `Usage: deskhand snapshot [target] [limits] [--bounds] [--all-pages] [--json]

Read a window as text: one line per element with role, name, ref, key states and value.

${TARGETS}

${LIMITS}

  --bounds             show each element's bounds
  --all-pages          follow the cursor until the whole tree is printed
  --json               print the structured result`,
  observe: `Usage: deskhand observe [target] [limits] [--max-targets N] [--include-tree] [--json]

List what can be acted on in a window, in document order, with the actions each offers.

${TARGETS}

${LIMITS}`,
  doctor: `Usage: deskhand doctor [--probe] [--json]

Report the platform, display, XTEST, the session and AT-SPI buses, the registry, missing system
packages and per-toolkit hints. Read-only. Exit status 1 when a check fails.
  --probe              also list windows and read one, end to end`,
  find: `Usage: deskhand find [target] (selector | --locator L) [--limit N] [--timeout-ms N] [--json]

${ELEMENT}`,
  act: `Usage: deskhand act [target] (selector | --locator L) [--nth N] --action A [--value V] [--option O] [--row N] [--wait-ms N] [--json]

Act through the element's own interfaces. A is one of invoke, toggle, set_value, set_range, focus,
select, expand, collapse, scroll_into_view. Several matches without --nth are refused, listed.

${ELEMENT}`,
  "read-text": `Usage: deskhand read-text [target] (selector | --locator L) [--nth N] [--start N] [--length N] [--json]

${ELEMENT}`,
  "read-table": `Usage: deskhand read-table [target] (selector | --locator L) [--nth N] [--row-start N] [--row-count N] [--json]

${ELEMENT}`,
  "element-info": `Usage: deskhand element-info [target] (selector | --locator L) [--nth N] [--json]

${ELEMENT}`,
  wait: `Usage: deskhand wait (--window-title GLOB [--gone] | [target] selector [--enabled]) [--timeout-ms N] [--json]

A timeout is an answer (exit 0, "not met"), not a failure.`,
  ping: "Usage: deskhand ping [--json]\n\nPrint deskhand's version and protocol version.",
  mcp: "Usage: deskhand mcp\n\nServe the Model Context Protocol over stdio. Refs live while they verify.",
  serve: `Usage: deskhand serve

Serve the line-delimited JSON protocol over stdio: one request per line, one response per line.
Methods: ping, windows, snapshot, observe, shutdown. Closing stdin ends the process.`,
  sandbox: `Usage:
  deskhand sandbox run [--app "CMD"]... [--app-timeout-ms N] [--size WxH] -- COMMAND [ARGS...]
  deskhand sandbox start [--name NAME] [--app "CMD"]... [--json]
  deskhand sandbox stop [--name NAME]

A private headless desktop: Xvfb on a free display, a session bus that activates only the AT-SPI
bus, the AT-SPI registry, openbox, and private XDG folders. \`run\` starts it and each app, waits
until each app has registered a window on the accessibility bus, runs COMMAND inside, tears it all
down and exits with COMMAND's status. \`start\` keeps one running and prints the environment to
export; \`stop\` ends it. Only processes the sandbox started are ended.`,
};
