// One gate and one journal line per attempt, for every tool that changes an app (act, fill_form, the
// input tools): the journal is proven writable before anything is done, the level is decided (ceiling,
// confirmation), and whatever the end — refused, done, error — the attempt is journaled once, with
// typed text replaced by its length.
import type { GateNote } from "../core/receipt.js";
import type { FocusTruth } from "../platform/hands.js";
import type { AuditEntry, AuditTarget, Secret, TypedInto } from "../safety/audit.js";
import { decide, type GateDecision, type GateRequest } from "../safety/gate.js";
import { levelRank, type SafetyLevel } from "../safety/levels.js";
import { systemVocabulary } from "../safety/vocabulary.js";
import { ACTING, type ActingSurfaces } from "./acting.js";
import type { ToolContext } from "./context.js";

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

/** How an allowed attempt ended, for its journal line. */
export type GuardedEnd =
  | { decision: "done"; outcome: Record<string, unknown> }
  | { decision: "refused" | "error"; reason: string };

export type Guarded =
  | { allowed: false; level: SafetyLevel; reason: string }
  | {
      allowed: true;
      level: SafetyLevel;
      confirmed: { confirmed_by?: "human" | "preapproval" };
      /** What the reply says of the gate where it had a say (L3 and up, or a confirmation). */
      gate: GateNote | undefined;
      /** Journals how the attempt ended; call it once. */
      end(how: GuardedEnd): void;
      /** The acting backend and hands: given out here, once the gate allowed the call, and nowhere else. */
      acting: ActingSurfaces;
    };

/**
 * A tool's levels are declared once, in its definition: the gate never runs a call above the highest
 * its tool declares (the listing and MCP annotations say that level), nor below its least. A sub-step
 * journaled as its own tool (a window brought forward for a click) is judged on its own.
 */
function outsideDeclaration(context: ToolContext, spec: GuardSpec, level: SafetyLevel): string | undefined {
  const running = context.running;
  if (!running || (spec.gate.tool !== running.name && !spec.gate.tool.startsWith(`${running.name}.`)))
    return undefined;
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

export async function guard(context: ToolContext, spec: GuardSpec): Promise<Guarded> {
  const journal = context.audit();
  journal.ensureWritable();
  const base = {
    time: new Date().toISOString(),
    tool: spec.journalTool,
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
  // One line per attempt: the typed text joins the session's memory once, at that line.
  const record = (entry: Pick<AuditEntry, "level" | "decision"> & Partial<AuditEntry>) =>
    journal.record({ ...base, ...entry }, secrets, typed);
  // A call made by another tool is judged at that tool's level at least (levelFloor).
  const floor = context.levelFloor;
  const gate =
    floor && levelRank(floor.level) > levelRank(spec.gate.nominal)
      ? { ...spec.gate, nominal: floor.level, nominalFrom: floor.tool }
      : spec.gate;
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
  const confirmed = decision.confirmed_by ? { confirmed_by: decision.confirmed_by } : {};
  return {
    allowed: true,
    level: decision.level,
    confirmed,
    gate: gateNote(decision, policy.ceiling),
    end: (how) => record({ level: decision.level, ...how, ...confirmed }),
    acting: context[ACTING],
  };
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
 * the cache, 3 s without it), so that a server pays it before it takes requests, not inside one.
 */
export function prepareGate(): void {
  try {
    systemVocabulary();
  } catch {
    // A damaged install shows itself at the first judgement, as an error of that call.
  }
}
