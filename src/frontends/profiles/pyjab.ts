// The pyjab-mcp profile: its `java_*` tools, sessions bound to one window, `e:` handles, comma-joined
// states, `simulate`, and its replies, each a translation onto deskhand's registry. Java Access Bridge
// maps to the Java ATK wrapper on AT-SPI: a "Java window" is one whose application reports the
// wrapper's toolkit. Handles are deskhand refs behind `e:`; they are verified before every use.

import { z } from "zod";
import { DeskhandError } from "../../core/errors.js";
import { globMatch } from "../../core/glob.js";
import { SINCE_LAST } from "../../core/receipt.js";
import { roleSet } from "../../platform/roles.js";
import { JAVA_TOOLKIT, type WindowInfo } from "../../platform/types.js";
import { actTool } from "../../tools/act.js";
import type { ToolContext } from "../../tools/context.js";
import { doctorTool } from "../../tools/doctor.js";
import { elementInfoTool } from "../../tools/element-info.js";
import { type FieldResult, fillFormTool, rangeValue } from "../../tools/fill-form.js";
import { findElementsTool } from "../../tools/find.js";
import { keyTool, typeTextTool } from "../../tools/hands/keyboard.js";
import { clickTool } from "../../tools/hands/pointer.js";
import { screenshotTool } from "../../tools/hands/screenshot.js";
import { windowTool } from "../../tools/hands/window.js";
import { readTableTool, tablePageShape } from "../../tools/read-table.js";
import { readTextTool } from "../../tools/read-text.js";
import { pageOf, snapshotTool } from "../../tools/snapshot.js";
import { defineTool, READ_ONLY, type ToolDefinition } from "../../tools/tool.js";
import { waitTool } from "../../tools/wait.js";
import { windowsTool } from "../../tools/windows.js";
import { runData, runTool } from "./run.js";

/** The toolkit name the Java ATK wrapper reports. */
/** pyjab has no intent: input is journaled as given none, under the same gate. */
const NO_INTENT = "(none given: a pyjab client)";
const INPUT = { readOnlyHint: false, idempotentHint: false, openWorldHint: false };

interface BoundSession {
  windowId: number;
  title: string;
  handles: Set<string>;
}
const SESSIONS = Symbol("pyjab sessions");
let counter = 0;

/** Sessions: each bound to one window, with the handles it gave out. Per MCP session, gone with it. */
function sessionsOf(context: ToolContext): Map<string, BoundSession> {
  let sessions = context.sessionState.get(SESSIONS) as Map<string, BoundSession> | undefined;
  if (!sessions) {
    sessions = new Map();
    context.sessionState.set(SESSIONS, sessions);
  }
  return sessions;
}

function session(context: ToolContext, id: string) {
  const sessions = sessionsOf(context);
  const found = sessions.get(id);
  if (!found)
    throw new DeskhandError(
      "invalid_params",
      `unknown session_id ${JSON.stringify(id)}; live sessions: ${[...sessions.keys()].join(", ") || "none"}`,
      "Call java_attach_window first, and pass the session id it returns.",
    );
  return found;
}

const handleOf = (ref: string) => `e:${ref}`;

/** The ref behind a handle of this session; a handle of another session is refused. */
function refOf(context: ToolContext, id: string, handle: string): string {
  const owner = session(context, id);
  if (!owner.handles.has(handle))
    throw new DeskhandError(
      "unknown_ref",
      `handle ${JSON.stringify(handle)} was not handed out by session ${id}`,
      "Take a fresh java_snapshot or java_find in this session and use its handles.",
    );
  return handle.slice(2);
}

function give(context: ToolContext, id: string, ref: string): string {
  const handle = handleOf(ref);
  session(context, id).handles.add(handle);
  return handle;
}

/** A locator that finds the element again: its role and, where it has one, its name. */
function locatorOf(role: string, name: string | null): string {
  return name ? `//${role}[@name='${name.replace(/'/g, "\\'")}']` : `//${role}`;
}

async function allWindows(context: ToolContext): Promise<WindowInfo[]> {
  return (await runData(context, windowsTool, { limit: 500 })).windows;
}

const sessionId = z.string().min(1).describe("From java_attach_window");
const handle = z
  .string()
  .regex(/^e:s\d+:e\d+([a-z]{2})?$/, "a handle looks like e:s3:e12kq, from java_snapshot or java_find");

const listWindows = defineTool({
  name: "java_list_windows",
  title: "List Java windows",
  description:
    "The windows of Java applications on the accessibility bus (the Java ATK wrapper, Linux's Java Access Bridge): " +
    "hwnd (the X window id), pid and title. 'No Java windows are visible' is a measurement.",
  level: "L1",
  annotations: READ_ONLY,
  input: z.object({}),
  async handler(context) {
    const java = (await allWindows(context)).filter((w) => w.toolkit === JAVA_TOOLKIT);
    const windows = java.map((w) => ({ hwnd: w.id, pid: w.pid, title: w.title }));
    const text = windows.length
      ? windows.map((w) => `hwnd=${w.hwnd} pid=${w.pid} ${JSON.stringify(w.title)}`).join("\n")
      : "No Java windows are visible.";
    return { data: { windows }, text };
  },
});

const attachWindow = defineTool({
  name: "java_attach_window",
  title: "Bind to a Java window",
  description:
    "Bind to one Java window and get a session id for the other tools: an exact hwnd, or a title (fnmatch). " +
    "Nothing is done to the application.",
  level: "L1",
  annotations: READ_ONLY,
  input: z
    .object({ title: z.string().min(1).optional(), hwnd: z.number().int().positive().optional() })
    .refine((i) => i.title !== undefined || i.hwnd !== undefined, {
      message: "give a title (an fnmatch pattern) or an hwnd (from java_list_windows)",
    }),
  async handler(context, input) {
    const windows = await allWindows(context);
    const found =
      input.hwnd !== undefined
        ? windows.filter((w) => w.id === input.hwnd)
        : windows.filter((w) => input.title !== undefined && globMatch(input.title, w.title));
    const java = found.filter((w) => w.toolkit === JAVA_TOOLKIT);
    if (java.length !== 1)
      throw new DeskhandError(
        "window_not_found",
        `${java.length === 0 ? "no Java window" : `${java.length} Java windows`} for ${input.hwnd !== undefined ? `hwnd ${input.hwnd}` : `title ${JSON.stringify(input.title)}`}${found.length > java.length ? ` (${found.length - java.length} other windows match, not Java)` : ""}`,
        java.length > 1
          ? "Pass the hwnd of the one you mean."
          : "Call java_list_windows to see what is there.",
      );
    const id = `session-${++counter}`;
    sessionsOf(context).set(id, { windowId: java[0]!.id, title: java[0]!.title, handles: new Set() });
    return {
      data: { session_id: id, hwnd: java[0]!.id, title: java[0]!.title },
      text: `session_id ${id} bound to hwnd ${java[0]!.id} ${JSON.stringify(java[0]!.title)}`,
    };
  },
});

const snapshot = defineTool({
  name: "java_snapshot",
  title: "Snapshot the bound window",
  description:
    "The bounded tree of the bound window, one line per element with a handle ([e:...]). Read in rings: depth 2 " +
    "first. only_interactive drops layout scaffolding. fields adds states (default), bounds, description, " +
    "children, index, depth.",
  level: "L1",
  annotations: READ_ONLY,
  input: z.object({
    session_id: sessionId,
    depth: z.number().int().min(0).max(256).default(2),
    max_nodes: z.number().int().min(1).max(5000).default(500),
    only_interactive: z.boolean().default(true),
    fields: z
      .array(z.enum(["states", "bounds", "description", "children", "index", "depth"]))
      .default(["states"]),
  }),
  async handler(context, input) {
    const bound = session(context, input.session_id);
    // With only_interactive, depth counts the levels shown: Swing puts four to six panes between a
    // frame and its first control, so depth 2 of the raw tree would show the frame alone. The tree is
    // read that much deeper, and what lies below the asked depth is counted and said.
    const data = pageOf(
      await runData(context, snapshotTool, {
        target: { kind: "window", id: bound.windowId },
        format: "json",
        view: "full",
        maxDepth: input.only_interactive ? Math.min(256, input.depth + SCAFFOLDING) : input.depth,
        maxNodes: input.only_interactive ? 5000 : input.max_nodes,
        onlyInteractive: input.only_interactive,
      }),
    );
    const within = data.elements.filter((e) => e.depth <= input.depth);
    const shown = within.slice(0, input.max_nodes);
    const below = data.elements.length - within.length;
    const lines = shown.map((e) => {
      // The element's own depth in the window's tree, as java_element_info gives it.
      const treeDepth = context.refs.lookup(e.ref).fingerprint.path.length;
      const extra: string[] = [];
      if (input.fields.includes("states") && e.states) extra.push(`(${e.states.join(", ")})`);
      if (input.fields.includes("bounds") && e.bounds)
        extra.push(`@${e.bounds.x},${e.bounds.y} ${e.bounds.width}x${e.bounds.height}`);
      if (input.fields.includes("description") && e.description)
        extra.push(`desc=${JSON.stringify(e.description)}`);
      if (input.fields.includes("children")) extra.push(`children=${e.childCount ?? "?"}`);
      if (input.fields.includes("index")) extra.push(`index=${e.index}`);
      if (input.fields.includes("depth")) extra.push(`depth=${treeDepth}`);
      return `${"  ".repeat(e.depth)}${e.role} ${JSON.stringify(e.name ?? "")} [${give(context, input.session_id, e.ref)}]${extra.length ? ` ${extra.join(" ")}` : ""}`;
    });
    const truncatedBy = [...(data.truncated_by as string[])];
    if (below > 0 && !truncatedBy.includes("maxDepth")) truncatedBy.push("maxDepth");
    if (within.length > shown.length && !truncatedBy.includes("maxNodes")) truncatedBy.push("maxNodes");
    if (below > 0)
      lines.push(
        `(${below} more element${below === 1 ? "" : "s"} below depth ${input.depth}: raise depth to see them)`,
      );
    if (within.length > shown.length)
      lines.push(`(${within.length - shown.length} more at this depth: raise max_nodes)`);
    const others = truncatedBy.filter(
      (c) => !(c === "maxDepth" && below > 0) && !(c === "maxNodes" && within.length > shown.length),
    );
    // A table's rows past the first few are read by java_read_table, in pages: said so by name.
    const tableRows = others.includes("tableRows");
    const rest = others.filter((c) => c !== "tableRows");
    if (tableRows)
      lines.push(
        "(cut by tableRows: a table shows its first rows here; java_read_table reads them all, a page at a time)",
      );
    if (rest.length)
      lines.push(`(cut by ${rest.join(", ")}: raise depth or max_nodes, or snapshot less of the window)`);
    return {
      data: {
        session_id: input.session_id,
        lines: shown.length,
        truncated_by: truncatedBy,
        ...(below > 0 ? { below_depth: below } : {}),
      },
      text: lines.join("\n"),
    };
  },
});

/** How far below the asked depth the tree is read when only_interactive drops the panes between. */
const SCAFFOLDING = 24;

const find = defineTool({
  name: "java_find",
  title: "Find in the bound window",
  description:
    "Give exactly one selector: name (exact), role, description (exact), states (comma-joined, e.g. " +
    "\"enabled,showing\"), or xpath (a pyjab locator: //push button[@name=contains('Save')]). One line per match " +
    "with its handle and a locator; a no-match repeats the selector.",
  level: "L1",
  annotations: READ_ONLY,
  input: z
    .object({
      session_id: sessionId,
      name: z.string().min(1).optional(),
      role: z.string().min(1).optional(),
      description: z.string().min(1).optional(),
      states: z.string().min(1).optional(),
      xpath: z.string().min(1).optional(),
      max_results: z.number().int().min(1).max(500).default(20),
    })
    .refine(
      (q) =>
        ["name", "role", "description", "states", "xpath"].filter((k) => q[k as "name"] !== undefined)
          .length === 1,
      {
        message: "give exactly one selector: name, role, description, states or xpath",
      },
    ),
  async handler(context, input) {
    const bound = session(context, input.session_id);
    const exactly =
      input.name !== undefined ? "name" : input.description !== undefined ? "description" : undefined;
    const { data } = await runTool(context, findElementsTool, {
      target: { kind: "window", id: bound.windowId },
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.role !== undefined ? { role: input.role } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.states !== undefined ? { states: input.states } : {}),
      ...(input.xpath !== undefined ? { locator: input.xpath } : {}),
      // The seed's name and description are exact, case and all, where deskhand's fold case: read
      // more, keep the exact.
      limit: exactly !== undefined ? 500 : input.max_results,
      include_off_screen: true,
    });
    const exact = await exactMatches(context, data.matches, exactly, input);
    const total = exactly === undefined ? data.total : exact.length;
    // A locator finds its element again only where no other match shares it: a shared one is none.
    const shared = new Map<string, number>();
    for (const m of exact)
      shared.set(locatorOf(m.role, m.name), (shared.get(locatorOf(m.role, m.name)) ?? 0) + 1);
    const matches = exact.slice(0, input.max_results).map((m) => {
      const locator = locatorOf(m.role, m.name);
      return {
        handle: give(context, input.session_id, m.ref),
        role: m.role,
        name: m.name,
        locator: shared.get(locator)! > 1 ? null : locator,
      };
    });
    const selector = ["name", "role", "description", "states", "xpath"]
      .filter((k) => input[k as "name"] !== undefined)
      .map((k) => `${k}=${JSON.stringify(input[k as "name"])}`)
      .join("");
    const text = matches.length
      ? [
          ...matches.map(
            (m) =>
              `[${m.handle}] ${m.role} ${JSON.stringify(m.name ?? "")} ${m.locator ?? "(no locator: others match it too)"}`,
          ),
          ...(total > matches.length
            ? [`${total} matches in all; ${matches.length} shown (max_results)`]
            : []),
        ].join("\n")
      : `Nothing matched ${selector}${data.searched_whole_window ? " (the whole window was read)" : " in what could be read"}.`;
    return { data: { matches, total, searched_whole_window: data.searched_whole_window }, text };
  },
});

/** Matches whose name or description is the one asked, case and all (deskhand's find folds case). */
async function exactMatches<M extends { ref: string; name: string | null }>(
  context: ToolContext,
  matches: M[],
  field: "name" | "description" | undefined,
  input: { name?: string | undefined; description?: string | undefined },
): Promise<M[]> {
  if (field === "name") return matches.filter((m) => m.name === input.name);
  if (field === undefined) return matches;
  // A match's description is not in find's reply: each is read again, as few as there are.
  const backend = await context.backend();
  const described = await Promise.all(
    matches.map((m) =>
      backend.describe(context.refs.lookup(m.ref).handle, { maxText: 0 }).then(
        (node) => node.description === input.description,
        () => false,
      ),
    ),
  );
  return matches.filter((_, i) => described[i]);
}

const click = defineTool({
  name: "java_click",
  title: "Click an element",
  description:
    "Click an element through its accessibility action (no mouse, no focus change); simulate=True drives the real " +
    "mouse instead (left, double or right), which brings the window to the front. The element is verified first.",
  level: "L2",
  highest: "L3",
  annotations: INPUT,
  input: z.object({
    session_id: sessionId,
    handle,
    click: z.enum(["left", "double", "right"]).default("left"),
    simulate: z.boolean().default(false),
  }),
  async handler(context, input) {
    const ref = refOf(context, input.session_id, input.handle);
    if (!input.simulate) {
      if (input.click !== "left")
        throw new DeskhandError(
          "invalid_params",
          `a ${input.click} click has no accessibility action`,
          "Pass simulate=True for a real double or right click.",
        );
      return runTool(context, actTool, { ref, action: { kind: "invoke" }, intent: NO_INTENT });
    }
    return runTool(context, clickTool, {
      ref,
      intent: NO_INTENT,
      ...(input.click === "double" ? { count: 2 } : input.click === "right" ? { button: "right" } : {}),
    });
  },
});

const typeText = defineTool({
  name: "java_type_text",
  title: "Type into a field",
  description:
    "Set a text field's text (it replaces, and waits until the field reads it back); simulate=True types real keys. " +
    "Re-read the field to confirm.",
  level: "L2",
  highest: "L3",
  annotations: INPUT,
  input: z.object({ session_id: sessionId, handle, value: z.string(), simulate: z.boolean().default(false) }),
  async handler(context, input) {
    const ref = refOf(context, input.session_id, input.handle);
    // A spinner's number is its value: typed keys show in its editor and reach its value only on
    // Enter, so a clear is never seen; its value is set, then stepped there with the arrow keys.
    const spinner = rangeValue(context, ref, input.value) !== undefined;
    if (input.simulate && !spinner)
      return runTool(context, typeTextTool, { ref, text: input.value, clear: true, intent: NO_INTENT });
    // Without simulate no real key is sent: where the field takes no accessible text (a push button
    // given " "), nothing is set, rather than typed keys that press it.
    return runTool(context, fillFormTool, {
      fields: [{ ref, value: input.value }],
      typed_fallback: false,
      intent: NO_INTENT,
    });
  },
});

const fillForm = defineTool({
  name: "java_fill_form",
  title: "Fill several fields",
  description:
    "Fill [{handle, value}] in order; every field is attempted and reported; simulate=True types every value with " +
    "real keys instead of the accessibility route.",
  level: "L2",
  highest: "L3",
  annotations: INPUT,
  input: z.object({
    session_id: sessionId,
    fields: z
      .array(z.object({ handle, value: z.string() }).strict())
      .min(1)
      .max(100),
    simulate: z.boolean().default(false),
  }),
  async handler(context, input) {
    // is_error only for an unknown session (and, by the schema, an empty list or a malformed entry):
    // a field that fails, an unknown handle included, is a line of the reply.
    const owner = session(context, input.session_id);
    const lines = new Map<number, { set: boolean; line: string }>();
    const known: { index: number; ref: string; value: string }[] = [];
    for (const [index, f] of input.fields.entries()) {
      if (owner.handles.has(f.handle)) known.push({ index, ref: f.handle.slice(2), value: f.value });
      else
        lines.set(index, {
          set: false,
          line: `${f.handle}: not set: this handle was not handed out by session ${input.session_id}; take a fresh java_snapshot or java_find`,
        });
    }
    if (known.length > 0) {
      if (input.simulate) await simulated(context, known, lines);
      else await accessible(context, known, lines);
    }
    const ordered = input.fields.map((_, i) => lines.get(i)!);
    const set = ordered.filter((l) => l.set).length;
    return {
      data: {
        set,
        of: input.fields.length,
        fields: input.fields.map((f, i) => ({
          handle: f.handle,
          set: ordered[i]!.set,
          line: ordered[i]!.line,
        })),
      },
      text: [...ordered.map((l) => l.line), `${set} of ${input.fields.length} fields set`].join("\n"),
    };
  },
});

type FieldLines = Map<number, { set: boolean; line: string }>;

/**
 * simulate=False (the seed's default): the accessibility route only, never real keys (a " " typed
 * into a push button would press it). A field that route cannot set says to try simulate=True,
 * unless the gate refused it (then keys would be refused too).
 */
async function accessible(
  context: ToolContext,
  known: { index: number; ref: string; value: string }[],
  lines: FieldLines,
): Promise<void> {
  const out = await runTool(context, fillFormTool, {
    fields: known.map((f) => ({ ref: f.ref, value: f.value })),
    intent: NO_INTENT,
    typed_fallback: false,
  });
  // Lines about windows changed before the call come first: the field lines follow them.
  const reported = out.text.split("\n").filter((l) => !l.startsWith(SINCE_LAST));
  // fill_form's own first line when nothing was set ("error: no field was set"): the lines follow it.
  if (out.data.status !== "done") reported.shift();
  (out.data.fields as FieldResult[]).forEach((result, i) => {
    const handle = handleOf(known[i]!.ref);
    const line = reported[i]!.replace(/^[^:]+:/, `${handle}:`);
    const gated = result.error?.code === "refused";
    const keysWouldNot = keysCannotSet(context, known[i]!.ref);
    lines.set(known[i]!.index, {
      set: result.set === true,
      line:
        result.set || gated || result.unverifiable
          ? line
          : keysWouldNot
            ? `${line}; ${keysWouldNot}`
            : `${line}; try simulate=True to type it with real keys`,
    });
  });
}

/** Roles a real key presses or toggles rather than types into: a space would press the button. */
const TEXT_FIELDS = roleSet("text", "entry", "password text", "paragraph");
const PRESSED_BY_KEYS = roleSet(
  "push button",
  "toggle button",
  "check box",
  "radio button",
  "menu item",
  "link",
);

/** Why real keys would not set this field, where they would not (a button, a read-only field). */
function keysCannotSet(context: ToolContext, ref: string): string | undefined {
  let fingerprint: { role: string; states?: readonly string[] | undefined };
  try {
    fingerprint = context.refs.lookup(ref).fingerprint;
  } catch {
    return undefined;
  }
  if (PRESSED_BY_KEYS.has(fingerprint.role))
    return `it is a ${fingerprint.role}: keys would press it, not type into it, so simulate=True is no way to set it`;
  const states = fingerprint.states ?? [];
  // A text field that does not say `editable` is read-only (Swing's says nothing else).
  if (
    states.includes("read only") ||
    (TEXT_FIELDS.has(fingerprint.role) && states.length > 0 && !states.includes("editable"))
  )
    return "it is read-only: keys would not change it either";
  return undefined;
}

/** simulate=True: real keys, each field counted as set only when it reads back exactly. */
async function simulated(
  context: ToolContext,
  known: { index: number; ref: string; value: string }[],
  lines: FieldLines,
): Promise<void> {
  for (const f of known) {
    const out = await runTool(context, typeTextTool, {
      ref: f.ref,
      text: f.value,
      clear: true,
      intent: NO_INTENT,
    }).catch((error: Error) => ({
      data: { status: "error", reason: error.message } as Record<string, unknown>,
      text: `error: ${error.message}`,
    }));
    const readBack = (out.data.result as { read_back?: string } | undefined)?.read_back;
    const set = out.data.status === "done" && readBack === "exact";
    const first = out.text.split("\n").find((l) => !l.startsWith(SINCE_LAST)) ?? "";
    lines.set(f.index, {
      set,
      line: `${handleOf(f.ref)}: ${set ? first : out.data.status === "done" ? `not set: typed, but ${first.replace(/^done: /, "")}` : first}`,
    });
  }
}

const select = defineTool({
  name: "java_select",
  title: "Select an option, a row or a cell",
  description: "option selects by text in a combo box, list or tab set; row (and column) select in a table.",
  level: "L2",
  highest: "L3",
  annotations: INPUT,
  input: z.object({
    session_id: sessionId,
    handle,
    option: z.string().min(1).optional(),
    row: z.number().int().min(0).optional(),
    column: z.number().int().min(0).optional(),
    simulate: z.boolean().default(false),
  }),
  async handler(context, input) {
    const ref = refOf(context, input.session_id, input.handle);
    const action =
      input.row !== undefined
        ? {
            kind: "select" as const,
            row: input.row,
            ...(input.column !== undefined ? { column: input.column } : {}),
          }
        : { kind: "select" as const, ...(input.option !== undefined ? { option: input.option } : {}) };
    return runTool(context, actTool, { ref, action, intent: NO_INTENT });
  },
});

const sendKeys = defineTool({
  name: "java_send_keys",
  title: "Send a keyboard shortcut",
  description:
    "A chord (alt+y, ctrl+shift+s; key names ctrl, alt, shift, tab, enter, escape, spacebar, arrows, letters) to " +
    "whichever window has the keyboard focus: call java_focus_window first. Its effect has to be looked for.",
  level: "L2",
  highest: "L3",
  annotations: INPUT,
  input: z.object({ session_id: sessionId, keys: z.string().min(1) }),
  async handler(context, input) {
    session(context, input.session_id);
    const out = await runTool(context, keyTool, { key: input.keys, intent: NO_INTENT });
    return {
      data: out.data,
      text: `${out.text}\nA shortcut's effect is not seen by this call: look for it (java_snapshot, java_read_text).`,
    };
  },
});

const focusWindow = defineTool({
  name: "java_focus_window",
  title: "Bring the bound window to the front",
  description:
    "Bring the bound window to the front and say whether it came: it is, it is not, or cannot say.",
  level: "L1",
  annotations: INPUT,
  input: z.object({ session_id: sessionId }),
  async handler(context, input) {
    const bound = session(context, input.session_id);
    return runTool(context, windowTool, {
      action: "focus",
      window: { id: bound.windowId },
      intent: NO_INTENT,
    });
  },
});

const elementInfo = defineTool({
  name: "java_element_info",
  title: "Everything about one element",
  description:
    "The element re-read and verified: role, name, description, states, bounds, index, depth, a locator.",
  level: "L1",
  annotations: READ_ONLY,
  input: z.object({ session_id: sessionId, handle }),
  async handler(context, input) {
    const ref = refOf(context, input.session_id, input.handle);
    const out = await runTool(context, elementInfoTool, { ref });
    // The seed's element_info fails for an element that is gone or no longer what was found.
    if (!out.data.verified) {
      // What changed, field by field ("  name: was …, now …"), as the reply's own lines say it.
      const [first, ...changes] = out.text.split("\n");
      const what = changes.filter((line) => /^ {2}\S+: was /.test(line)).map((line) => line.trim());
      throw new DeskhandError(
        "stale_element",
        `handle ${input.handle} ${"gone" in out.data && out.data.gone ? "is gone" : "is no longer the element that was found"}: ${first}${what.length ? `; ${what.join("; ")}` : ""}`,
        "Find it again (java_find) and use the new handle.",
        { handle: input.handle, ...("differences" in out.data ? { differences: out.data.differences } : {}) },
      );
    }
    const known = "path" in out.data ? out.data : undefined;
    const depth = known ? known.path.length : null;
    // A locator only where it names this element alone, as java_find gives it (null where shared).
    const locator = known ? await uniqueLocator(context, input.session_id, known.role, known.name) : null;
    return {
      data: { ...out.data, handle: input.handle, depth, locator },
      text: `${out.text}\ndepth ${depth ?? "?"} · locator ${locator}`,
    };
  },
});

/** The element's locator, or null where another element of its window answers to it too. */
async function uniqueLocator(
  context: ToolContext,
  id: string,
  role: string,
  name: string | null | undefined,
): Promise<string | null> {
  const locator = locatorOf(role, name ?? null);
  const found = await runData(context, findElementsTool, {
    target: { kind: "window", id: session(context, id).windowId },
    locator,
    limit: 2,
    include_off_screen: true,
  }).catch(() => undefined);
  return found && found.total === 1 ? locator : null;
}

const readTable = defineTool({
  name: "java_read_table",
  title: "Read a table, a page of rows",
  description:
    "Rows of a table: counts, headers, one line per row; - for no text, ? for unreadable, with a count.",
  level: "L1",
  annotations: READ_ONLY,
  input: z.object({
    session_id: sessionId,
    handle,
    ...tablePageShape,
  }),
  async handler(context, input) {
    const ref = refOf(context, input.session_id, input.handle);
    return runTool(context, readTableTool, {
      ref,
      row_start: input.row_start,
      row_count: input.row_count,
      max_cells: input.max_cells,
    });
  },
});

const readText = defineTool({
  name: "java_read_text",
  title: "Read an element's text",
  description: "A slice of an element's text, with the whole length and whether it was cut.",
  level: "L1",
  annotations: READ_ONLY,
  input: z.object({
    session_id: sessionId,
    handle,
    start: z.number().int().min(0).default(0),
    length: z.number().int().min(1).max(100_000).default(4000),
  }),
  async handler(context, input) {
    return runTool(context, readTextTool, {
      ref: refOf(context, input.session_id, input.handle),
      start: input.start,
      length: input.length,
    });
  },
});

const screenshot = defineTool({
  name: "java_screenshot",
  title: "A picture of the window or an element",
  description: "A PNG of the bound window, or of one verified element. A picture is not readable structure.",
  level: "L1",
  annotations: READ_ONLY,
  input: z.object({ session_id: sessionId, handle: handle.optional() }),
  async handler(context, input) {
    const bound = session(context, input.session_id);
    const of =
      input.handle !== undefined
        ? { kind: "element" as const, ref: refOf(context, input.session_id, input.handle) }
        : { kind: "window" as const, window: { id: bound.windowId } };
    // The seed sends the picture alone: no caption beside it (what was captured stays in the data).
    const shot = await runTool(context, screenshotTool, { of });
    return { ...shot, text: "" };
  },
});

const wait = defineTool({
  name: "java_wait",
  title: "Wait for something",
  description:
    "window_title (fnmatch) appears; or a handle's text equals text_equals; or a handle's text changes. A timeout " +
    "is a result. timeout and poll_interval are in seconds.",
  level: "L1",
  annotations: READ_ONLY,
  input: z
    .object({
      session_id: sessionId,
      window_title: z.string().min(1).optional(),
      handle: handle.optional(),
      text_equals: z.string().optional(),
      timeout: z.number().min(0).max(120).default(10),
      poll_interval: z.number().min(0.02).max(5).default(0.2),
    })
    .refine((w) => w.window_title !== undefined || w.handle !== undefined, {
      message: "give window_title, or a handle (with text_equals or without)",
    }),
  async handler(context, input) {
    session(context, input.session_id);
    const timeoutMs = Math.round(input.timeout * 1000);
    const pollMs = Math.round(input.poll_interval * 1000);
    if (input.window_title !== undefined)
      return javaWindowWait(context, input.window_title, timeoutMs, pollMs);
    return runTool(context, waitTool, {
      condition: {
        kind: "text" as const,
        ref: refOf(context, input.session_id, input.handle!),
        ...(input.text_equals !== undefined ? { equals: input.text_equals } : {}),
      },
      timeout_ms: timeoutMs,
      poll_ms: pollMs,
    });
  },
});

/**
 * Waits for a Java window whose title matches (fnmatch): the seed's java_wait looks among Java
 * windows only, so a GTK window of that title does not meet it. A timeout is a result, as wait's.
 */
async function javaWindowWait(context: ToolContext, title: string, timeoutMs: number, pollMs: number) {
  const started = Date.now();
  for (;;) {
    const java = (await allWindows(context)).filter((w) => w.toolkit === JAVA_TOOLKIT);
    const found = java.filter((w) => globMatch(title, w.title)).map((w) => ({ hwnd: w.id, title: w.title }));
    const waited = Date.now() - started;
    const cancelled = context.signal?.aborted ?? false;
    if (found.length > 0 || waited >= timeoutMs || cancelled) {
      const met = found.length > 0;
      const data = { cancelled, met, waited_ms: waited, condition: "window", seen: found };
      const text = met
        ? `Met after ${waited} ms: ${found.map((w) => `hwnd=${w.hwnd} ${JSON.stringify(w.title)}`).join(", ")}`
        : `Not met after ${waited} ms: no Java window's title matches ${JSON.stringify(title)} (a timeout is an answer, not an error)`;
      return { data, text };
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(pollMs, timeoutMs - waited)));
  }
}

const diagnostics = defineTool({
  name: "java_diagnostics",
  title: "Can this machine drive a Java application",
  description:
    "Read-only report: platform, display, buses, AT-SPI, the Java ATK wrapper and each check; what could not be " +
    "measured says so. load_bridge also reads a window end to end.",
  level: "L1",
  annotations: READ_ONLY,
  input: z.object({ load_bridge: z.boolean().default(false) }),
  async handler(context, input) {
    return runTool(context, doctorTool, { probe: input.load_bridge });
  },
});

/** A deskhand ref spelled in a reply's text, bare or as `[ref=…]`, not already a handle. */
const SPELLED_REF = /\[ref=(s\d+:e[0-9a-z]+)\]|(?<![\w:])(s\d+:e[0-9a-z]+)/g;

/**
 * A tool whose reply text spells elements as this client's tools take them: handles of the
 * caller's session (`e:s1:e38va`), given out as they are spelled, never deskhand's bare refs.
 */
function inHandles<T extends ToolDefinition>(tool: T): T {
  const handler = tool.handler;
  return {
    ...tool,
    async handler(context: ToolContext, input: Record<string, unknown>) {
      const output = await handler(context, input as never);
      const id = input.session_id;
      if (typeof id !== "string" || typeof output.text !== "string") return output;
      const text = output.text.replace(
        SPELLED_REF,
        (_, bracketed: string | undefined, bare: string | undefined) => {
          const handle = give(context, id, (bracketed ?? bare)!);
          return bracketed ? `[handle=${handle}]` : handle;
        },
      );
      return { ...output, text };
    },
  } as T;
}

export const PYJAB: ToolDefinition[] = (
  [
    listWindows,
    attachWindow,
    snapshot,
    find,
    click,
    typeText,
    fillForm,
    select,
    sendKeys,
    focusWindow,
    elementInfo,
    readTable,
    readText,
    screenshot,
    wait,
    diagnostics,
  ] as ToolDefinition[]
).map(inHandles);
