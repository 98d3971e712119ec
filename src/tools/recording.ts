// Recording: every acting call that succeeded, written as a `run` step that finds its element again
// (the window's title, role, name or accessible id, and which of the same-named it was), the values it
// typed or set, and what was seen after it (a window that came or went, a value read back) as the
// step's `expect`. Passwords are never written: a value typed into a password field (or into a focused
// field whose role could not be read) becomes a secret parameter, asked for on replay; text typed into
// any other field is written as it was, so a replay asks for nothing. The file is JSON,
// versioned, rewritten whole after each step so a server killed mid-task leaves a usable file.
import { mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { z } from "zod";
import { DeskhandError } from "../core/errors.js";
import { globEscape } from "../core/glob.js";
import { boundValue } from "../core/limits.js";
import { windowChanges, windowsOnceChanged } from "../core/receipt.js";
import { RefStore } from "../core/refs.js";
import { SnapshotStore } from "../core/snapshot.js";
import { verifyRef } from "../core/verify.js";
import { writeWholeSync } from "../platform/files.js";
import { statOf } from "../platform/processes.js";
import { PASSWORD_ROLE, type WindowInfo } from "../platform/types.js";
import type { AuditJournal } from "../safety/audit.js";
import { holdsCredential, secretField } from "../safety/secrets.js";
import type { ToolContext } from "./context.js";
import { findToolSchema, resolveOne, searchUntil } from "./find.js";
import type { PendingStep, StepRecorder } from "./recorder-slot.js";
import type { Step } from "./run-step.js";
import type { ToolDefinition, ToolOutput, TypedValues } from "./tool.js";

const RECORDING_VERSION = 1;

export { RECORDER } from "./recorder-slot.js";

/** How long a recorded expect waits on replay: an app is slower on some days. */
const EXPECT_TIMEOUT_MS = 10_000;
/** How long a recorded step's find waits on replay for its element (a dialog still opening). */
const FIND_TIMEOUT_MS = 5_000;
/**
 * How long the recorder watches for a window the reply did not see: Swing runs an action later, on
 * its event thread, and a dialog it opens can take a second to map on a loaded machine.
 */
const LATE_WINDOW_MS = 1_000;

const paramSchema = z.strictObject({
  secret: z.boolean().default(false),
  default: z.string().optional().describe("Used when replay is given no value"),
  note: z.string().optional(),
});

/** A recording as written; steps are run's steps (checked by run when they run). */
const recordingSchema = z.object({
  version: z.literal(RECORDING_VERSION),
  kind: z.literal("deskhand-run").optional(),
  recorded: z.string().optional(),
  params: z.record(z.string(), paramSchema).default({}),
  steps: z.array(z.unknown()).min(1),
});
export type RecordingFile = {
  version: typeof RECORDING_VERSION;
  kind: "deskhand-run";
  recorded: string;
  params: Record<string, z.input<typeof paramSchema>>;
  steps: Record<string, unknown>[];
};

/** Where the `record` tool keeps recordings by name: beside the audit journal, wherever that is. */
export function recordingsDir(env: NodeJS.ProcessEnv, auditPath: string): string {
  return env.DESKHAND_RECORDINGS ?? join(dirname(auditPath), "recordings");
}

/** A recording read from a file: its steps, and its parameters' defaults and which are secret. */
export function readRecordingFile(path: string): z.output<typeof recordingSchema> {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    const why =
      (error as NodeJS.ErrnoException).code === "ENOENT" ? "there is no such file" : "it is not JSON";
    throw new DeskhandError(
      "invalid_params",
      `cannot read the recording ${path}: ${why}`,
      "Name a file that record or --record wrote.",
    );
  }
  const parsed = recordingSchema.safeParse(raw);
  if (!parsed.success)
    throw new DeskhandError(
      "invalid_params",
      `${path} is not a deskhand recording: ${parsed.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join(".") || "(file)"}: ${i.message}`)
        .join("; ")}`,
      `A recording is {"version": ${RECORDING_VERSION}, "params": {…}, "steps": [{tool, args, find, element, expect}…]}.`,
    );
  return parsed.data;
}

export function readRecording(dir: string, name: string) {
  return readRecordingFile(join(dir, name.endsWith(".json") ? name : `${name}.json`));
}

/** The values a replay runs with: those given, else each parameter's default. Secrets have none. */
export function paramValues(
  recording: z.output<typeof recordingSchema>,
  given: Record<string, string>,
): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, param] of Object.entries(recording.params))
    if (param.default !== undefined) values[name] = param.default;
  return { ...values, ...given };
}

/** What is known of a call before it runs: its element, found again as a selector. */
interface Pending {
  tool: ToolDefinition;
  input: Record<string, unknown>;
  element?: { find: Record<string, unknown>; role: string; name: string; note?: string };
  /** The windows before the call, to see one that comes or goes after its reply was written. */
  windows?: WindowInfo[];
}

export class Recorder implements StepRecorder {
  readonly steps: Record<string, unknown>[] = [];
  readonly params: Record<string, z.input<typeof paramSchema>> = {};
  readonly started = new Date().toISOString();

  constructor(
    readonly path: string,
    /**
     * "typed": every typed or set value becomes a parameter, with what was typed as its default;
     * "hidden": every one becomes a secret parameter, never written.
     */
    readonly parameters: "secrets" | "typed" | "hidden" = "secrets",
  ) {
    this.write();
  }

  /**
   * Whether a call is a step: one of deskhand's own tools (it names its group; a seed profile's tool
   * does not, and is recorded as the steps it makes, since replay runs deskhand's tools) that acts.
   */
  records(tool: ToolDefinition): boolean {
    return tool.group !== undefined && !tool.annotations.readOnlyHint && tool.recorded !== false;
  }

  /** Before the call: its element, while it is still there (a press may close its window). */
  async before(context: ToolContext, tool: ToolDefinition, input: Record<string, unknown>): Promise<Pending> {
    const pending: Pending = { tool, input: await replayable(context, input) };
    const windows = await (await context.backend()).listWindows().catch(() => undefined);
    if (windows) pending.windows = windows;
    try {
      const element = await elementOf(context, input);
      if (element) pending.element = element;
    } catch {
      // The call itself will say what is wrong with its element; the step is then not recorded.
    }
    return pending;
  }

  /**
   * After a call that was done: the step, written at once. A window that came or went later than the
   * reply's read is waited for here (briefly) and expected; what it was is returned, for the reply.
   */
  async after(context: ToolContext, started: PendingStep, output: ToolOutput): Promise<string | undefined> {
    const pending = started as Pending;
    const { tool, input, element } = pending;
    const args: Record<string, unknown> = { ...input };
    delete args.ref;
    if (element) {
      delete args.find;
      delete args.nth;
    }
    const n = this.steps.length + 1;
    const secret = element ? element.role === PASSWORD_ROLE || secretField(element.name) : undefined;
    const journal = context.audit();
    this.#values(journal, tool.typedValues, args, output, secret, n, element);
    const step: Record<string, unknown> = {
      tool: tool.name,
      args,
      ...(element ? { find: element.find, element: { role: element.role, name: element.name } } : {}),
    };
    if (element) step.find = { ...element.find, timeout_ms: FIND_TIMEOUT_MS };
    // A window whose app ended during the step crashed or was killed: replay must not wait for that.
    const died = appsEnded(pending.windows ?? []);
    let expect = expectOf(output, element !== undefined, args, died);
    let late: string | undefined;
    if (!expect && pending.windows && tool.mayOpenWindows?.(input)) {
      const change = await lateWindow(context, pending.windows);
      if (change && !(change.state === "disappears" && died(change.id))) {
        expect = windowExpect(change.title, change.state);
        late = `window ${change.state === "appears" ? "appeared" : "disappeared"} after the reply's read: ${change.id} ${JSON.stringify(change.title)}; the step expects it`;
      }
    }
    if (expect) step.expect = expect;
    const notes = [element?.note, vanishedWithApp(output, died)].filter(Boolean);
    if (notes.length > 0) step.note = notes.join("; ");
    // A step is held to a reply's bounds (an app's 5 MB name is not written into the recording), and
    // keeps out every secret any process typed, as a journal line does (an intent, a title, a name).
    this.steps.push(journal.scrubbed(boundValue(step).value));
    this.write();
    return late;
  }

  /** Typed and set values: a password's becomes a secret parameter; with "typed" or "hidden", every one is one. */
  #values(
    journal: AuditJournal,
    typed: TypedValues | undefined,
    args: Record<string, unknown>,
    output: ToolOutput,
    secret: boolean | undefined,
    n: number,
    element: Pending["element"],
  ): void {
    const place = element ? `${element.role} ${JSON.stringify(element.name)}` : "the focused element";
    const param = (value: string, name: string, password: boolean, where: string) => {
      // A key, token or card number typed into any field is kept like a password, and so is a value
      // that quotes a secret typed before (by any process).
      const credential = !password && (holdsCredential(value) || journal.mask(value) !== value);
      const isSecret = password || credential || this.parameters === "hidden";
      if (!isSecret && this.parameters !== "typed") return value;
      if (isSecret) journal.keep([{ text: value, password }]);
      const named = credential ? name.replace(/^[a-z]+/, "secret") : name;
      this.params[named] = isSecret
        ? {
            secret: true,
            note: `typed into ${where} in step ${n}${credential ? " (it looks like a key or token)" : ""}; never written`,
          }
        : { secret: false, default: value, note: `typed into ${where} in step ${n}` };
      return { $param: named };
    };
    if (typed === "text" && typeof args.text === "string") {
      // Typed into the focus: a password field, or one whose role was not read, keeps its secret.
      const into = (output.data as { result?: { typed_into?: { role?: string; name?: string } } }).result
        ?.typed_into;
      const isSecret =
        secret ?? (into?.role === undefined || into.role === PASSWORD_ROLE || secretField(into.name));
      args.text = param(args.text, isSecret ? `password_${n}` : `text_${n}`, isSecret, place);
    }
    const action = args.action as { kind?: string; text?: unknown } | undefined;
    if (typed === "action.text" && action?.kind === "set_value" && typeof action.text === "string")
      args.action = {
        ...action,
        text: param(action.text, secret ? `password_${n}` : `value_${n}`, !!secret, place),
      };
    if (typed === "fields[].value" && Array.isArray(args.fields)) {
      // A field's role as re-read after it was set; a password field is not read back at all.
      type FieldResult = { unverifiable?: boolean; receipt?: { after?: { role?: string } | null } };
      const results = ((output.data as { fields?: FieldResult[] }).fields ?? []) as FieldResult[];
      args.fields = (args.fields as Record<string, unknown>[]).map((field, i) => {
        const role = results[i]?.unverifiable ? PASSWORD_ROLE : results[i]?.receipt?.after?.role;
        const label = typeof field.label === "string" ? field.label : `field ${i + 1}`;
        const isSecret = role === undefined || role === PASSWORD_ROLE || secretField(label);
        return typeof field.value === "string"
          ? {
              ...field,
              value: param(
                field.value,
                `${isSecret ? "password" : "field"}_${n}_${i + 1}`,
                isSecret,
                JSON.stringify(label),
              ),
            }
          : field;
      });
    }
  }

  file(): RecordingFile {
    return {
      version: RECORDING_VERSION,
      kind: "deskhand-run",
      recorded: this.started,
      params: this.params,
      steps: this.steps,
    };
  }

  write(): void {
    mkdirSync(dirname(this.path), { recursive: true });
    // A full disk leaves the recording as last written; no temporary stays, and the caller says why.
    writeWholeSync(this.path, `${JSON.stringify(this.file(), null, 2)}\n`);
  }
}

/**
 * The call's arguments as another session can use them: a window named by its title, not its id
 * (ids are the X server's of the day), and a form's fields by their names, not refs.
 */
async function replayable(
  context: ToolContext,
  input: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const out = { ...input };
  const needsWindows =
    (isObject(out.window) && typeof out.window.id === "number") || Array.isArray(out.fields);
  if (!needsWindows) return out;
  const windows = await (await context.backend()).listWindows().catch(() => []);
  const titleOf = (id: unknown) => windows.find((w) => w.id === id)?.title;
  if (isObject(out.window) && typeof out.window.id === "number") {
    const title = titleOf(out.window.id);
    if (title !== undefined) out.window = { title: globEscape(title) };
  }
  if (Array.isArray(out.fields)) {
    let window: number | null | undefined;
    out.fields = (out.fields as Record<string, unknown>[]).map((field) => {
      if (typeof field.ref !== "string") return field;
      try {
        const seen = context.refs.lookup(field.ref).fingerprint;
        if (!seen.name) return field;
        window ??= seen.windowId;
        const { ref: _ref, ...rest } = field;
        return { ...rest, label: seen.name };
      } catch {
        return field;
      }
    });
    // Fields given by ref name their window; "the focused window" (the default) may be another then.
    const title = titleOf(window);
    const target = out.target as { kind?: string } | undefined;
    if (title !== undefined && (!target || target.kind === "focused"))
      out.target = { kind: "title", glob: globEscape(title) };
  }
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

/**
 * The call's element as a selector that finds it again uniquely: the window's title, its role, and
 * its name (else its accessible id), with nth among the same when there are several. Found on
 * private refs, so a session whose refs last one snapshot (NDJSON) keeps the call's own ref.
 */
async function elementOf(context: ToolContext, input: Record<string, unknown>): Promise<Pending["element"]> {
  const refs = new RefStore("while-verified");
  const own = Object.assign(Object.create(context) as ToolContext, {
    refs,
    snapshots: new SnapshotStore(context.backend, refs),
  });
  // The element as the call will find it: its ref, or its find resolved as the tool will.
  let seen: { refs: RefStore; ref: string };
  if (typeof input.ref === "string") seen = { refs: context.refs, ref: input.ref };
  else if (input.find && typeof input.find === "object") {
    const match = await resolveOne(own, findToolSchema.parse(input.find), input.nth as number | undefined);
    seen = { refs, ref: match.ref };
  } else return undefined;
  const backend = await context.backend();
  const { entry, node } = await verifyRef(backend, seen.refs, seen.ref);
  const handle = entry.handle;
  const window = (await backend.listWindows()).find((w) => w.id === entry.fingerprint.windowId);
  if (!window) return undefined;
  const name = node.name ?? "";
  const base = { target: { kind: "title", glob: globEscape(window.title) }, role: node.role };
  let selector: Record<string, unknown> = {
    ...base,
    ...(name ? { name } : node.accessibleId ? { accessible_id: node.accessibleId } : {}),
  };
  const search = (query: Record<string, unknown>) =>
    searchUntil(own, findToolSchema.parse(query), 500, 0, "include");
  const ours = (m: { ref: string }) => refs.lookup(m.ref).handle === handle;
  let found = await search(selector);
  // An unnamed field is found again by the label beside it, as a person finds it.
  const label = !name && !node.accessibleId ? found.matches.find(ours)?.inferred_label : undefined;
  if (label) {
    selector = { ...base, label };
    found = await search(selector);
  }
  const index = found.matches.findIndex(ours);
  if (index < 0)
    return {
      find: selector,
      role: node.role,
      name,
      note: "when recorded, this selector did not find the element again: replay may stop here",
    };
  return { find: found.total > 1 ? { ...selector, nth: index } : selector, role: node.role, name };
}

/**
 * Whether a window listed before the step belonged to an app whose process has ended since (gone,
 * or a zombie its parent has not reaped): its window vanished because the app died, not because the
 * step closed it.
 */
function appsEnded(before: WindowInfo[]): (windowId: number) => boolean {
  const pids = new Map(before.map((w) => [w.id, w.pid]));
  return (windowId) => {
    const pid = pids.get(windowId);
    if (!pid || pid <= 0) return false;
    try {
      process.kill(pid, 0);
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === "ESRCH";
    }
    const stat = statOf(pid);
    return stat === undefined || stat.state === "Z";
  };
}

/** The step's note when a window went with its app: what happened, and that replay does not expect it. */
function vanishedWithApp(output: ToolOutput, died: (id: number) => boolean): string | undefined {
  const gone = (output.data as { windows_disappeared?: { id: number; title: string }[] }).windows_disappeared;
  const crashed = gone?.find((w) => died(w.id));
  return crashed
    ? `window ${JSON.stringify(crashed.title)} went with its app during this step (the app ended: a crash or a kill); replay does not expect it`
    : undefined;
}

/** What was seen after the step, for replay to wait for: a window that came or went, a value read back. */
function expectOf(
  output: ToolOutput,
  hasElement: boolean,
  args: Record<string, unknown>,
  died: (windowId: number) => boolean,
): Step["expect"] | undefined {
  const data = output.data as {
    windows_appeared?: { title: string }[];
    windows_disappeared?: { id: number; title: string }[];
    effect?: string;
    after?: { value?: string } | null;
  };
  const appeared = data.windows_appeared?.find((w) => w.title);
  if (appeared) return windowExpect(appeared.title, "appears");
  const gone = data.windows_disappeared?.find((w) => w.title && !died(w.id));
  if (gone) return windowExpect(gone.title, "disappears");
  // A value set and read back, unless it is a parameter (a secret, or a value chosen on replay).
  const action = args.action as { kind?: string; text?: unknown } | undefined;
  if (
    hasElement &&
    data.effect === "seen" &&
    typeof data.after?.value === "string" &&
    typeof action?.text === "string"
  )
    return {
      condition: { kind: "text" as const, ref: "$ref", equals: data.after.value },
      timeout_ms: EXPECT_TIMEOUT_MS,
      poll_ms: 200,
    };
  return undefined;
}

const windowExpect = (title: string, state: "appears" | "disappears") => ({
  condition: { kind: "window" as const, title: globEscape(title), state },
  timeout_ms: EXPECT_TIMEOUT_MS,
  poll_ms: 200,
});

/** A titled window that came or went since `before`, watched for up to LATE_WINDOW_MS. */
async function lateWindow(
  context: ToolContext,
  before: WindowInfo[],
): Promise<{ id: number; title: string; state: "appears" | "disappears" } | undefined> {
  const backend = await context.backend();
  const list = () => backend.listWindows();
  const now = await windowsOnceChanged(list, before, await list().catch(() => before), LATE_WINDOW_MS);
  const changes = windowChanges(before, now);
  const came = changes.windows_appeared.find((w) => w.title);
  if (came) return { id: came.id, title: came.title, state: "appears" };
  const went = changes.windows_disappeared.find((w) => w.title);
  return went ? { id: went.id, title: went.title, state: "disappears" } : undefined;
}
