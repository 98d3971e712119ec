// One gate and the journal's lines for every tool that changes an app (act, fill_form, the input
// tools): the level is decided (ceiling, confirmation); a refusal is one line; an allowed attempt is
// written to the journal, on disk, before guard() hands out the acting surfaces, and its end (done,
// refused, error) follows as a second line with the same id. Typed text is replaced by its length.
import type { GateNote } from "../core/receipt.js";
import type { FocusTruth } from "../platform/hands.js";
import {
  type AuditEntry,
  type AuditTarget,
  AuditUnwritable,
  type JournalAttempt,
  type Secret,
  type TypedInto,
} from "../safety/audit.js";
import { systemVocabulary } from "../safety/committing-words.js";
import { decide, type GateDecision, type GateRequest } from "../safety/gate.js";
import { levelRank, type SafetyLevel } from "../safety/levels.js";
import { warmInBackground } from "../safety/warm.js";
import { ACTING, type ActingSurfaces } from "./acting.js";
import type { GuardedEnd } from "./call-journal.js";
import type { ToolContext } from "./context.js";
import { callerGone } from "./deadline.js";

export interface GuardSpec {
  /** The journal's name for it, like "click" or "act.invoke". */
  journalTool: string;
  gate: GateRequest;
  target: AuditTarget | null;
  /** Typed or written text: kept out of the journal, which records its length. */
  secret?: string | undefined;
  /** Every other value of the call (fill_form's other fields), kept out of this line too. */
  otherSecrets?: Secret[] | undefined;
  /** Whether `secret` goes into a password field: its substrings are kept out too. */
  password?: boolean | undefined;
  /** Where `secret` is typed by keys: runs typed into one place one after another join as one. */
  typedInto?: string | undefined;
}

export type Guarded =
  | { allowed: false; level: SafetyLevel; reason: string }
  | {
      allowed: true;
      level: SafetyLevel;
      confirmed: { confirmed_by?: "human" | "preapproval" };
      /** What the reply says of the gate where it had a say (L3 and up, or a confirmation). */
      gate: GateNote | undefined;
      /**
       * Journals how the attempt ended; call it once. It never throws: an outcome line the journal
       * cannot take is said in the call's reply (CallJournal), since the action was taken.
       */
      end(how: GuardedEnd): void;
      /** The acting backend and hands: given out here, once the gate allowed the call, and nowhere else. */
      acting: ActingSurfaces;
    };

/** Steps any input tool may take under their own name, judged on their own: a window brought forward. */
const SUB_STEPS = new Set(["window.focus"]);

/**
 * A tool's levels are declared once, in its definition: the gate never runs a call above the highest
 * its tool declares (the listing and MCP annotations say that level), nor below its least. A sub-step
 * journaled as its own tool (a window brought forward for a click) is judged on its own.
 */
function outsideDeclaration(context: ToolContext, spec: GuardSpec, level: SafetyLevel): string | undefined {
  const running = context.running;
  if (!running) return undefined;
  const own =
    spec.gate.tool === running.name ||
    spec.gate.tool.startsWith(`${running.name}.`) ||
    !!running.inputsAs?.includes(spec.gate.tool);
  // An input is named after the tool that makes it: under another's name it would escape this check.
  if (!own && !SUB_STEPS.has(spec.gate.tool))
    return `${running.name} made an input named ${spec.gate.tool}: an input is named after the tool that makes it`;
  if (!own) return undefined;
  const highest = running.highest ?? running.level;
  if (levelRank(spec.gate.nominal) < levelRank(running.level))
    return `${running.name} declares ${running.level} at least, and was asked to run at ${spec.gate.nominal}`;
  if (levelRank(level) > levelRank(highest))
    return `${running.name} declares ${highest} at most, and its gate decided ${level}`;
  return undefined;
}

function gateNote(
  decision: Extract<GateDecision, { allowed: true }>,
  ceiling: SafetyLevel,
): GateNote | undefined {
  if (decision.confirmed_by === "human") return { level: decision.level, allowed_by: "a person" };
  if (decision.confirmed_by === "preapproval")
    return { level: decision.level, allowed_by: { preapproved: decision.rules ?? [] } };
  if (levelRank(decision.level) >= 3) return { level: decision.level, allowed_by: { ceiling } };
  return undefined;
}

/** The outcome line's failure, as the reply says it: the action was taken, its attempt line is there. */
function unwrittenOutcome(tool: string, id: string, error: unknown): string {
  const why =
    error instanceof AuditUnwritable
      ? `${error.path}: ${error.detail}`
      : error instanceof Error
        ? error.message
        : String(error);
  return `the journal could not take the outcome line of ${tool} (id ${id}; ${why}); its attempt line is in the journal and the action was taken as this reply says. Free space for the journal or point DESKHAND_AUDIT at a writable file before acting again`;
}

/** The window in front before the call's first input, for its view (view.ts); unread where it cannot be. */
async function frontBeforeInput(context: ToolContext): Promise<void> {
  const calls = context.callJournal;
  if (!calls || calls.frontRead) return;
  calls.frontRead = true;
  calls.frontBefore = await context
    .hands()
    .then((hands) => hands.activeWindow())
    .catch(() => undefined);
}

export async function guard(context: ToolContext, spec: GuardSpec): Promise<Guarded> {
  const journal = context.audit();
  journal.ensureWritable();
  if (spec.target?.window && context.callJournal) context.callJournal.actedIn = spec.target.window.id;
  await frontBeforeInput(context);
  const base = {
    time: new Date().toISOString(),
    tool: spec.journalTool,
    ...(context.calledAs ? { via: context.calledAs } : {}),
    intent: spec.gate.intent,
    reversible: spec.gate.reversible,
    target: spec.target,
    ...(spec.secret !== undefined ? { text_length: [...spec.secret].length } : {}),
    ...(context.session ? { session: context.session } : {}),
    ...(context.client ? { client: context.client } : {}),
  };
  const secrets: Secret[] = [
    ...(spec.secret !== undefined ? [{ text: spec.secret, password: spec.password ?? false }] : []),
    ...(spec.otherSecrets ?? []),
  ];
  const typed: TypedInto | undefined =
    spec.typedInto !== undefined && spec.secret !== undefined
      ? { place: spec.typedInto, text: spec.secret, password: spec.password ?? false }
      : undefined;
  // A refusal before anything is done is one line: the typed text joins the session's memory there.
  const record = (entry: Pick<AuditEntry, "level" | "decision"> & Partial<AuditEntry>) =>
    journal.record({ ...base, ...entry }, secrets, typed);
  // A call made by another tool is judged at that tool's level at least (levelFloor).
  const floor = context.levelFloor;
  const floored =
    floor && levelRank(floor.level) > levelRank(spec.gate.nominal)
      ? { ...spec.gate, nominal: floor.level, nominalFrom: floor.tool }
      : spec.gate;
  const gate = context.calledAs
    ? { ...floored, via: context.calledAs, reversibleDeclarable: context.declaresReversible === true }
    : floored;
  const policy = context.policy();
  const decision = await decide(gate, policy, context.confirm);
  const undeclared = outsideDeclaration(context, spec, decision.level);
  if (undeclared) {
    // A defect of deskhand's own, never a way past the gate: refused, journaled, reported as internal.
    record({ level: decision.level, decision: "refused", reason: undeclared });
    throw new Error(`${undeclared}; nothing was done (a defect in deskhand: please report it)`);
  }
  if (!decision.allowed) {
    record({ level: decision.level, decision: "refused", reason: decision.reason });
    return { allowed: false, level: decision.level, reason: decision.reason };
  }
  // A caller gone while the gate judged (or a person answered): nothing is done for nobody.
  if (context.signal?.aborted) {
    const gone = callerGone(context.signal);
    record({ level: decision.level, decision: "refused", reason: gone.message });
    throw gone;
  }
  const confirmed = decision.confirmed_by ? { confirmed_by: decision.confirmed_by } : {};
  // Before the acting surfaces are handed out: an attempt the journal cannot take is not made.
  const attempt = journal.attempt({ ...base, level: decision.level, ...confirmed }, secrets, typed);
  return {
    allowed: true,
    level: decision.level,
    confirmed,
    gate: gateNote(decision, policy.ceiling),
    end: endOf(context, attempt, { ...base, level: decision.level, ...confirmed }),
    acting: untilCallerGone(context),
  };
}

/** The acting surfaces, each refused once the caller is gone (its deadline passed, it cancelled). */
function untilCallerGone(context: ToolContext): ActingSurfaces {
  const surfaces = context[ACTING];
  const signal = context.signal;
  if (!signal) return surfaces;
  const given = () => {
    if (signal.aborted) throw callerGone(signal);
    if (context.deadline) context.deadline.actingGiven = true;
  };
  return {
    backend: async () => {
      given();
      return surfaces.backend();
    },
    hands: async () => {
      given();
      return surfaces.hands();
    },
  };
}

/** The attempt's end: its outcome line once, or, where the journal cannot take it, a word in the reply. */
function endOf(
  context: ToolContext,
  attempt: JournalAttempt,
  line: Omit<AuditEntry, "decision" | "time">,
): (how: GuardedEnd) => void {
  const calls = context.callJournal;
  const end = (how: GuardedEnd) => {
    if (calls && !calls.open.delete(end)) return;
    if (calls && how.decision === "done") calls.actedAt = Date.now();
    try {
      attempt.outcome({ ...line, time: new Date().toISOString(), ...how });
    } catch (error) {
      const said = unwrittenOutcome(line.tool, attempt.id, error);
      if (calls) calls.unwritten.push(said);
      else process.stderr.write(`deskhand: ${said}\n`);
    }
  };
  calls?.open.add(end);
  return end;
}

/** How a reply and the journal word the window manager's answer to an activation. */
export const FOCUS_WORDS = { front: "is now in front", not_front: "is not", unknown: "cannot say" } as const;

/**
 * Brings a window forward as a step of another call (before input is judged or sent, before a
 * capture) through the one gate, journaled as `window focus` is: a line of its own, L1, with the
 * answer read back from the window manager and the call it was part of. Every such activation
 * comes here, so the journal shows each time a window was raised.
 */
export async function activateWindow(
  context: ToolContext,
  window: { id: number; title?: string | undefined },
  partOf: string,
  intent: string | null,
): Promise<FocusTruth> {
  const guarded = await guard(context, {
    journalTool: "window.focus",
    gate: { tool: "window.focus", nominal: "L1", intent, reversible: true },
    target: { window },
  });
  if (!guarded.allowed) return "unknown";
  try {
    const truth = await (await guarded.acting.hands()).activate(window.id);
    guarded.end({ decision: "done", outcome: { focus: FOCUS_WORDS[truth], part_of: partOf } });
    return truth;
  } catch (error) {
    guarded.end({ decision: "error", reason: (error as Error).message });
    throw error;
  }
}

/**
 * Reads the gate's vocabulary now (the shipped table and this machine's catalogs: about 0.5 s from
 * the cache, 3 s without it), so that a server pays it before it takes requests, not inside one; and
 * starts learning its label lexicon in the background (20 s without its cache).
 */
export function prepareGate(): void {
  warmInBackground();
  try {
    systemVocabulary();
  } catch {
    // A damaged install shows itself at the first judgement, as an error of that call.
  }
}
