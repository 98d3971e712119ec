// Help texts. The error that means "the command line was wrong" is usage-error.ts's.
import { TOOL_GROUPS, TOOLS } from "../../tools/registry.js";

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
Selector (all given must hold): --role R --name N --label L --name-contains S --value-contains S
  --description D --accessible-id ID --state S (repeatable); or --locator "//push button[@name='OK']"`;

const SAFETY = `Safety: the action's level (L1 hover/wheel/focus, L2 input, L3 committing buttons and closing
windows, L4 raw primitives) must be within the ceiling (default L3; --ceiling, DESKHAND_CEILING or
"ceiling" in ~/.config/deskhand/config.json). L3, --not-reversible and dangerous chords need a
person: asked at the controlling terminal (/dev/tty, not stdin), who types back the code shown;
refused without a terminal unless pre-approved in the config. Every attempt
is journaled (on disk before any input) and then its outcome; an action the journal cannot take is
refused. Exit status 0 done, 1 failed, 2 bad command line, 3 refused.`;

export const HELP: Record<string, string> = {
  call: `Usage: deskhand call TOOL ['{"input": "as JSON"}'] [--json]

Runs any of deskhand's tools with its input as the MCP and NDJSON front ends take it, gated and
journaled alike. The tools, by group:
${Object.entries(TOOL_GROUPS)
  .map(([group, names]) => `  ${group.padEnd(8)} ${names.join(", ")}`)
  .join("\n")}
Each tool's input is its schema in \`deskhand mcp\`'s tools/list.`,
  main: `deskhand: read and drive desktop applications as text, through accessibility APIs.

Usage: deskhand <command> [options]

Commands:
  call TOOL [JSON]     any tool, its input as one JSON object (${TOOLS.length} tools; \`call\` alone lists them)
  windows              list top-level windows
  snapshot             read a window as text, bounded
  observe              list the actionable targets of a window
  find                 find elements by selector or locator
  act                  act on one element through its accessibility interfaces
  read-text            read an element's text, a slice at a time
  read-table           read a table, a page of rows
  element-info         everything about one element
  wait                 wait for a window or an element
  click                click with the real mouse (an element by selector, or --at X,Y)
  type                 type Unicode text with the real keyboard
  key                  press a key or chord (ctrl+s, alt+F4, Enter...)
  drag                 drag from one point to another
  hover                move the pointer without clicking
  wheel                turn the mouse wheel
  screenshot           a PNG of the screen, a window or an element
  read-screen-text     read text from pixels (OCR) where the tree has none
  find-text            where a text appears on screen, read from pixels
  window               focus, minimize, hide, show or close a window
  audit                show the audit journal of input actions
  run FILE             run a file of steps (or a recording) as one call
  replay FILE          replay a recording, each step checked against what was recorded
  doctor               report whether deskhand can work here (read-only)
  setup kde|gnome      what your own desktop needs once (KDE: KWin's grant; GNOME: deskhand's extension)
  ping                 print the version
  mcp                  serve MCP over stdio, or Streamable HTTP with --http
  serve                serve the NDJSON protocol over stdio
  sandbox run|start|stop
                       a private headless accessible desktop

Every command takes --help. Exit status: 0 done, 1 failed, 2 bad command line.`,
  windows: `Usage: deskhand windows [--limit N] [--json]

List the top-level windows on screen, front to back.
  --limit N            at most N windows (default 100, ceiling 500)
  --json               print the structured result`,
  snapshot: `Usage: deskhand snapshot [target] [limits] [--full] [--bounds] [--all-pages] [--json]

Read a window as text: one line per element with role, name, ref, key states and value. What is not
on screen is folded into one line per subtree (snapshot its ref to read it); wrappers and labels that
repeat their control's name are merged; separators are dropped. The header counts each.

${TARGETS}

${LIMITS}

  --full               every element read, nothing folded or merged
  --bounds             show each element's bounds
  --all-pages          follow the cursor until the whole tree is printed
  --json               print the structured result`,
  observe: `Usage: deskhand observe [target] [limits] [--max-targets N] [--include-tree] [--no-pixels] [--json]

List what can be acted on in a window, in document order, with the actions each offers. Where the
tree is silent (a pixels-only surface, a window with no tree) its text is read by OCR and listed
with points to click; --no-pixels leaves that out.

${TARGETS}

${LIMITS}
observe's own defaults: --max-depth 64, --max-nodes 1000, on-screen elements only.`,
  setup: `Usage: deskhand setup kde [--dry-run]
       deskhand setup gnome [--form gnome43|esm] [--dry-run]

kde: writes ~/.local/share/applications/deskhand.desktop (under XDG_DATA_HOME where set), which
grants the Node running deskhand KWin's fake input (clicks, keys) and ScreenShot2 (pixels). KWin
reads it by itself. Every program that Node runs as you gets the same grant; remove the file to take
it back. --dry-run prints the file instead.
gnome: writes deskhand's Shell extension to ~/.local/share/gnome-shell/extensions/deskhand@deskhand.dev,
in the form the installed GNOME Shell loads (--form: gnome43 for 43 and 44, esm for 45 on; only
gnome43 has run here). Log out and in once, then \`gnome-extensions enable deskhand@deskhand.dev\`.
The extension answers only callers holding the token it writes to a 0600 file in your runtime folder.`,
  doctor: `Usage: deskhand doctor [--probe] [--json]

Report the platform, display, XTEST, the session and AT-SPI buses, the registry, missing system
packages and per-toolkit hints. Read-only. Exit status 1 when a check fails.
  --probe              also list windows, how each one's places map onto the screen, and read one`,
  find: `Usage: deskhand find [target] (selector | --locator L) [--limit N] [--timeout-ms N]
       [--include-off-screen] [--json]

Matches not on screen (items of closed menus, hidden pages) and labels repeating the name of a match
they sit in are left out and counted; --include-off-screen lists what is off screen too.

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
  mcp: `Usage: deskhand mcp [--ceiling L1..L4] [--profile ouroboros|daimon|pyjab | --tools GROUP,...] [--record FILE]
       deskhand mcp --http [HOST:]PORT [--token-file FILE] [--allow-origin ORIGIN]...
                   [--allow-host HOST[:PORT]]... [--allow-remote] [--ceiling L] [--profile P]

Serve the Model Context Protocol over stdio (until stdin closes), or over Streamable HTTP at
/mcp with --http (until SIGTERM, which lets calls in flight finish and releases held input).
Refs live while they verify, per MCP session. Confirmations are asked through elicitation when
the client supports it. --profile serves a seed document's own tools, each mapped onto deskhand's.
--tools serves fewer of deskhand's own: groups read, act, hands, pixels, raw, run, or tool names.
--record FILE writes each acting call that succeeds as a step of a replayable run (over HTTP, one
file per session, its id before the extension); \`deskhand replay FILE\` replays it. Passwords are
never written: they become parameters, asked for on replay.

Over HTTP every request needs "Authorization: Bearer TOKEN": the tokens are --token-file's (one a
line, "NAME TOKEN" or "TOKEN": one a client; a session is usable only with the token and from the
address that opened it), else $DESKHAND_TOKEN, else one made at start and printed once on stderr.
Idle sessions close after $DESKHAND_SESSION_IDLE_MS (30 min), at most $DESKHAND_MAX_SESSIONS (64)
are open. HOST defaults to
127.0.0.1; any other address needs --allow-remote. Host and Origin headers are checked against
the loopback names (and --allow-host, --allow-origin): anything else gets 403. GET /health
answers "ok" without a token.`,
  run: `Usage: deskhand run FILE [--param NAME=VALUE]... [--include-changes] [--ceiling L1..L4] [--json]

Runs FILE's steps as the run tool does: {"steps": [{"tool": "act", "find": {…}, "args": {…},
"expect": {…}}, …]} (or a recording). Each step is validated, its element found as it runs,
gated and journaled as if called alone; the run stops at the first step that fails, is refused,
finds another element than the recorded one, or whose expect (wait's arguments) is not met, and
says which and why. {"$param": "NAME"} in a step takes --param NAME=VALUE.

${SAFETY}`,
  replay: `Usage: deskhand replay FILE [--param NAME=VALUE]... [--include-changes] [--ceiling L1..L4] [--json]

Replays a recording (deskhand mcp --record FILE, or the record tool) with no model involved. Before
each step its selector must find exactly one element with the recorded role and name; after it,
what was seen when it was recorded (a window that came or went, a value read back) must hold. At
the first difference the replay stops, names the step and the difference, and does nothing on it.
A parameter (a password typed while recording) needs --param NAME=VALUE; one with a default uses it.

${SAFETY}`,
  click: `Usage: deskhand click ([target] selector [--nth N] | --at X,Y [target]) --intent S [--button left|middle|right]
       [--double] [--modifiers ctrl,shift] [--not-reversible] [--no-focus] [--ceiling L1..L4] [--json]

With --at, a target (--window, --title, --pid) names the window to bring to the front first.

${SAFETY}`,
  type: `Usage: deskhand type --text S [[target] selector] [--clear] --intent S [--ceiling L] [--json]

Types into the focused field, or into the element named (a text field is clicked to focus it).
The text never enters the audit journal, only its length.

${SAFETY}`,
  key: `Usage: deskhand key --key CHORD [[target] selector] [--count N] --intent S [--ceiling L] [--json]

Names: ctrl, shift, alt, super; Enter, Tab, Escape, Space, Backspace, Delete, Insert, Home, End,
PageUp, PageDown, Up, Down, Left, Right, F1-F12; one letter, digit or character. An unknown name is
an error and nothing is sent. ctrl+q, ctrl+w, ctrl+alt+Delete, super+l... need confirmation; alt+F4 where
the window may lose what it holds.

${SAFETY}`,
  drag: `Usage: deskhand drag --from X,Y --to X,Y [target] --intent S [--button B] [--ceiling L] [--json]

A target (--window, --title, --pid) names the window to bring to the front first.`,
  hover: `Usage: deskhand hover ([target] selector | --at X,Y [target]) --intent S [--json]`,
  wheel: `Usage: deskhand wheel [[target] selector | --at X,Y [target]] [--direction up|down|left|right] [--notches N] --intent S`,
  screenshot: `Usage: deskhand screenshot --out FILE.png [--window ID | --title GLOB | [target] selector]
       [--max-width N] [--no-raise] [--json]

The whole screen by default. A window is raised first unless --no-raise.`,
  "read-screen-text": `Usage: deskhand read-screen-text [--window ID | --title GLOB | --region X,Y,W,H | [target] selector]
       [--languages eng+deu] [--max-chars N] [--no-raise] [--json]

Text read from the pixels (Tesseract), not from the application: lines with their boxes in screen
points and a confidence each. The whole screen by default. Password fields are blanked first.`,
  "find-text": `Usage: deskhand find-text --text S [--match exact|fold|contains] [--limit N]
       [--window ID | --title GLOB | --region X,Y,W,H | [target] selector] [--languages eng+deu] [--json]

Where a text appears on screen, read from pixels: each match's box and the centre to click
(deskhand click --at X,Y). No match means not found in what was recognised.`,
  window: `Usage: deskhand window focus|minimize|hide|show|close (--window ID | --title GLOB | --pid PID) --intent S

Each answer is read back from the window manager. close needs confirmation (L3) where the window
may lose what it holds (an unsaved mark, text in a field, a canvas, a choice); else it is L2.`,
  audit: `Usage: deskhand audit [--tail N] [--json]

The last N lines (default 20) of the audit journal: $DESKHAND_AUDIT, "audit_path" in the config, or
$XDG_STATE_HOME/deskhand/audit.jsonl.`,
  serve: `Usage: deskhand serve [--ceiling L1..L4]

Serve the line-delimited JSON protocol over stdio: one request per line, one response per line.
Methods: ping, windows, snapshot, observe, the ten actions, click, type_text, key (these three need
"intent"), shutdown. Closing stdin ends the process. Nothing can be confirmed on this channel: what
needs a person is refused unless pre-approved in the config.`,
  sandbox: `Usage:
  deskhand sandbox run [--app "CMD"]... [--app-timeout-ms N] [--size WxH] [--scale F | --dpi N] [--monitors N] [--wayland | --kde | --gnome] [--xwayland] -- COMMAND [ARGS...]
  deskhand sandbox start [--name NAME] [--app "CMD"]... [--size WxH] [--scale F | --dpi N] [--monitors N] [--wayland | --kde | --gnome] [--xwayland] [--json]
  deskhand sandbox stop [--name NAME]

A private headless desktop: Xvfb on a free display, a session bus that activates only the AT-SPI
bus, the AT-SPI registry, openbox, and private XDG folders. \`run\` starts it and each app, waits
until each app has registered a window on the accessibility bus, runs COMMAND inside, tears it all
down and exits with COMMAND's status. \`start\` keeps one running and prints the environment to
export; \`stop\` ends it. Only processes the sandbox started are ended.

--wayland: headless sway instead of Xvfb and openbox (under \`unshare --user\` as root, since sway
refuses root), the same buses and folders; apps get WAYLAND_DISPLAY, GDK_BACKEND=wayland,
QT_QPA_PLATFORM=wayland and MOZ_ENABLE_WAYLAND=1, and no DISPLAY. Windows come from sway's IPC;
trees and accessibility actions work as under X11; the pointer and the keyboard are deskhand's own
virtual ones, pixels come from its own screencopy (grim where that cannot serve). --xwayland
starts sway's XWayland too and gives apps its DISPLAY, for X11-only apps (Java Swing) beside the Wayland ones: their places are shifted to where
sway shows them, and text outside the us keymap reaches them by XTEST on XWayland's display.

--kde: KDE Plasma's compositor, KWin, headless (kwin_wayland --virtual, one screen) instead of sway,
with XDG_CURRENT_DESKTOP=KDE and a desktop file in the sandbox's data folder granting deskhand's
Node KWin's fake input and ScreenShot2 (as \`deskhand setup kde\` does on your desktop). Windows come
from KWin's scripts, clicks and keys from its fake input, pixels from ScreenShot2; text outside
KWin's keymap is pasted (wl-copy) or written into the field.

--gnome: GNOME Shell headless (gnome-shell --headless, one screen, a whole --scale only, no XWayland) instead
of sway, with XDG_CURRENT_DESKTOP=GNOME, a private system bus, and deskhand's Shell extension in the
sandbox's data folder (as \`deskhand setup gnome\` puts it on your desktop). Windows, clicks, keys
and pixels all go through the extension; text outside the us keymap is committed to the focused
text input or pasted through the Shell's clipboard.

--scale F (1 to 4): a scaled screen. Under Wayland the output's scale. Under X11, as GNOME and
Plasma set one: Xvfb and Xft.dpi at 96×F dots per inch, GDK_SCALE=F with GDK_DPI_SCALE=1/F (a whole
F only), QT_SCALE_FACTOR=F with QT_FONT_DPI=96, Java's -Dsun.java2d.uiScale=F; browsers are told
nothing more (they may read Xft.dpi; not measured here). --dpi N (X11 only): the X server and Xft.dpi at N dots per inch, no toolkit told to
scale (a KDE app then scales itself by N/96). --monitors N (1 to 4): the first screen at --size, each
other 1024x768 at scale 1, to its right under X11 (RandR monitors), to its left under Wayland
(negative origins).`,
};
