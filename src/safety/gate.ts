// The gate every action passes, after its target is probed: level (raised by the target, never
// lowered), ceiling, then confirmation for what commits, cannot be undone or is a dangerous chord.
import { globMatch } from "../core/glob.js";
import type { Chord } from "../platform/keys.js";
import { dangerousChord } from "./chords.js";
import { commitReason, type TargetFacts } from "./classify.js";
import { LEVEL_NAMES, raiseLevel, type SafetyLevel, withinCeiling } from "./levels.js";
import type { ConfirmationReason, Preapproval, SafetyPolicy } from "./policy.js";

export interface GateRequest {
  tool: string;
  /** The tool the client called, where it is a profile's running this one (Daimon's main_press). */
  via?: string;
  nominal: SafetyLevel;
  /** The tool whose level `nominal` is, when it is not `tool`'s own (a profile's main_press running click). */
  nominalFrom?: string;
  intent: string | null;
  reversible: boolean;
  /** Whether the caller said `reversible` (else it was inferred: a committing press is taken as not). */
  reversibleDeclared?: boolean;
  /** false: the client's tool has no `reversible` to declare (a profile's), so a refusal offers none. */
  reversibleDeclarable?: boolean;
  target?: (TargetFacts & { windowTitle?: string | undefined }) | undefined;
  chord?: Chord | undefined;
  /** A later step of an input whose first part was sent (the Enter after typed text): a refusal stops the rest. */
  laterStep?: boolean;
}

/** What a refusal left undone: all of it, or for a later step what was still to send. */
const notDone = (request: GateRequest) => (request.laterStep ? "nothing more was sent" : "nothing was done");

export interface ConfirmationRequest {
  tool: string;
  level: SafetyLevel;
  intent: string | null;
  reasons: string[];
  target?: GateRequest["target"];
}

// A person reads the question before allowing: what the app or the agent wrote is bounded, and its
// control, format and line-breaking characters are shown escaped, so a label cannot end the
// question early, start a line of its own, hide behind an escape sequence, or reverse what follows
// (U+202E).
// Every quotation mark but the straight one deskhand quotes with (which quoted() escapes): a label's
// typographic ” must not seem to end the quotation and let forged words follow it.
const UNSAFE_FOR_A_PERSON =
  /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Pi}\p{Pf}\u201a\u201e\u300c-\u300f\u301d-\u301f\uff02\uff07]/gu;
const QUESTION_PART = 240;
const escaped = (c: string) => `\\u{${c.codePointAt(0)!.toString(16)}}`;

/** Text from the app or the agent as a person is shown it: escaped where unsafe, and bounded. */
function shownToPerson(text: string, max = QUESTION_PART): string {
  return atClause(text, max).replace(UNSAFE_FOR_A_PERSON, escaped);
}

/**
 * A long reason cut where a clause ends, not in a word: what decided comes first, and what follows
 * (the detail, the advice to the agent) is left out with "…".
 */
function atClause(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  const head = chars.slice(0, max).join("");
  const clause = Math.max(...["; ", ", ", ": ", " ("].map((mark) => head.lastIndexOf(mark)));
  const end = clause > max / 2 ? clause : head.lastIndexOf(" ") > max / 2 ? head.lastIndexOf(" ") : max;
  return `${head.slice(0, end)} …`;
}

// A long name is shown by its head and its tail: what differs is often at its end.
const HEAD_AND_TAIL = { head: 52, tail: 20 };

/** A quotation a person can tell the end of: its own quotes escaped, a long one by head and tail. */
function quoted(text: string, max = QUESTION_PART): string {
  const chars = [...text];
  const shown =
    chars.length > max
      ? `${shownToPerson(chars.slice(0, Math.max(max - HEAD_AND_TAIL.tail - 1, HEAD_AND_TAIL.head)).join(""), Infinity)}…${shownToPerson(chars.slice(-HEAD_AND_TAIL.tail).join(""), Infinity)}`
      : shownToPerson(text, Infinity);
  const length = chars.length > max ? ` (${chars.length.toLocaleString("en-US")} characters)` : "";
  return `"${shown.replace(/"/g, '\\"')}"${length}`;
}

/**
 * The question a person is asked, in lines deskhand chose: the same words on every channel. The
 * reasons come first, so the word that decided stands within the first 200 characters; the element
 * follows, a long name by its head and its tail.
 */
export function confirmationQuestion(request: ConfirmationRequest): string {
  const name = request.target?.name;
  const filled = request.target?.window?.filled ?? [];
  // A dialog's filled fields: what its press commits (a save's file name).
  const fields =
    filled.length > 0
      ? `, in a dialog whose fields read ${filled.map((f) => `${shownToPerson(f.label, 40).replace(/"/g, '\\"')} ${quoted(f.text, 80)}`).join(", ")}`
      : "";
  const target = name ? ` (on ${request.target?.role ?? "element"} ${quoted(name, 80)}${fields})` : "";
  const reasons = request.reasons.map((r) => shownToPerson(r)).join("; ");
  const intent = request.intent === null ? "(no intent given)" : quoted(request.intent);
  return `deskhand asks before ${request.tool} (${request.level}): ${reasons}${target}.\nThe agent says: ${intent}`;
}

/**
 * A person's answer. `unavailable`: there is no way to ask one on this channel. `unanswered`: the
 * question was sent and no answer came back (a timeout, a client that failed to show it): nobody
 * said no, and nobody said yes.
 */
export type ConfirmationAnswer = "approved" | "declined" | "unavailable" | { unanswered: string };
export type Confirmer = (request: ConfirmationRequest) => Promise<ConfirmationAnswer>;

/** Why nobody said yes where nobody said no, and how a person can say it. */
function unasked(answer: "unavailable" | { unanswered: string }): { why: string; how: string } {
  return answer === "unavailable"
    ? {
        why: "this channel cannot ask one",
        how: "through a client that can ask (an MCP client with elicitation, the CLI at a terminal)",
      }
    : { why: `no answer came: ${answer.unanswered}`, how: "when asked again, once one can answer" };
}

export type GateDecision =
  | {
      allowed: true;
      level: SafetyLevel;
      confirmed_by?: "human" | "preapproval";
      /** With a pre-approval: the rules of the config that allowed it, one per need they covered. */
      rules?: Preapproval[];
    }
  | { allowed: false; level: SafetyLevel; reason: string };

function covering(
  policy: SafetyPolicy,
  request: GateRequest,
  reason: ConfirmationReason,
): Preapproval | undefined {
  return policy.preapprovals.find(
    (p) =>
      (p.reason === "any" || p.reason === reason) &&
      (p.tool === undefined || p.tool === request.tool || p.tool === request.via) &&
      (p.window === undefined ||
        (request.target?.windowTitle !== undefined && globMatch(p.window, request.target.windowTitle))) &&
      (p.element === undefined ||
        (request.target?.name !== undefined && globMatch(p.element, request.target.name))),
  );
}

/** A title as a glob that matches only itself: each pattern character in a class of its own. */
const literalGlob = (title: string) => title.replace(/[*?[]/g, "[$&]");

/** How much of an element's name its suggested rule quotes: a longer one is matched by its head. */
const ELEMENT_GLOB_HEAD = 80;

/** An element's name as a rule's glob: itself, or its head and "*" where it is long (a 5 MB name). */
const elementGlob = (name: string) => {
  const chars = [...name];
  return chars.length <= ELEMENT_GLOB_HEAD
    ? literalGlob(name)
    : `${literalGlob(chars.slice(0, ELEMENT_GLOB_HEAD).join(""))}*`;
};

/**
 * The pre-approval rule that would allow this one step: its reason, this tool, this window's title
 * and the element's name as literals, so that a rule allowing a cart's "Update" allows no "Order"
 * beside it. Where deskhand could not read what the input hits (a window with no accessible tree),
 * failing closed is right, and the person who trusts that one window can say so.
 */
function ruleThatAllows(request: GateRequest, needs: { reason: ConfirmationReason }[]): string {
  const title = request.target?.windowTitle;
  const name = request.target?.unreadable ? undefined : request.target?.name;
  const rule = {
    reason: needs.length === 1 ? needs[0]!.reason : "any",
    // In the words of the client's own tools: a rule naming either is kept.
    tool: request.via ?? request.tool,
    ...(title ? { window: literalGlob(title) } : {}),
    ...(name ? { element: elementGlob(name) } : {}),
  };
  if (request.target?.unreadable && title)
    return ` The rule that would allow this in that window only: ${JSON.stringify(rule)}.`;
  const where = name ? " for this element" : title ? " in this window" : "";
  return ` The rule that would allow it${where}: ${JSON.stringify(rule)}.`;
}

export async function decide(
  request: GateRequest,
  policy: SafetyPolicy,
  confirm: Confirmer | undefined,
): Promise<GateDecision> {
  const commits = request.target ? commitReason(request.target) : undefined;
  const level = raiseLevel(request.nominal, commits ? "L3" : "L1");
  // The tool as the client knows it: a profile's own (deskhand's that runs it is in the journal).
  const named = request.via ?? request.tool;
  if (!withinCeiling(level, policy.ceiling)) {
    const why =
      level !== request.nominal && commits
        ? ` (raised from ${request.nominal}: ${commits})`
        : request.nominalFrom
          ? ` (as ${request.nominalFrom}, which runs it)`
          : "";
    return {
      allowed: false,
      level,
      reason:
        `${named} is ${level} ${LEVEL_NAMES[level]}${why}, above the ceiling ${policy.ceiling} ` +
        `(set by ${policy.ceilingSource}); ${notDone(request)}. A person can raise the ceiling with --ceiling, ` +
        `DESKHAND_CEILING or "ceiling" in ${policy.configPath}.`,
    };
  }
  // `why` is said to the agent; `asked`, where it differs, to the person (who declares nothing).
  const needs: { reason: ConfirmationReason; why: string; asked?: string }[] = [];
  // L3 is where a person steps in; L4 is autonomy a person granted by raising the ceiling, but a
  // committing target still asks.
  if (commits || level === "L3")
    needs.push({
      reason: "validation",
      why: commits ?? `${request.nominalFrom ?? request.tool} is ${level}`,
    });
  if (!request.reversible) {
    // Say only what the caller said: an undeclared press that commits is taken as not reversible.
    // A client whose tool has no `reversible` to declare is not told of one, nor is the person.
    const taken = "it commits, so it is taken as not reversible";
    needs.push(
      request.reversibleDeclared
        ? { reason: "irreversible", why: "it is declared not reversible" }
        : {
            reason: "irreversible",
            why:
              request.reversibleDeclarable === false
                ? taken
                : `${taken} (declaring reversible: true would still leave the commit to a person)`,
            asked: taken,
          },
    );
  }
  const dangerous = request.chord ? dangerousChord(request.chord) : undefined;
  if (dangerous) needs.push({ reason: "dangerous_chord", why: dangerous });
  if (needs.length === 0) return { allowed: true, level };
  const rules = needs.map((n) => covering(policy, request, n.reason));
  if (rules.every((r) => r !== undefined))
    return { allowed: true, level, confirmed_by: "preapproval", rules: [...new Set(rules)] };
  const reasons = needs.map((n) => n.why);
  const asked = needs.map((n) => n.asked ?? n.why);
  const answer = confirm
    ? await confirm({ tool: named, level, intent: request.intent, reasons: asked, target: request.target })
    : "unavailable";
  if (answer === "approved") return { allowed: true, level, confirmed_by: "human" };
  const because = reasons.join("; ");
  return {
    allowed: false,
    level,
    reason:
      answer === "declined"
        ? `a person declined: ${because}; ${notDone(request)}.`
        : `this needs a person's confirmation (${because}), and ${unasked(answer).why}; ${notDone(request)}. ` +
          // Said so that an agent reads the config as the person's to change, not a way round them.
          `Only a person can allow it: ${unasked(answer).how}, or ahead of time under "preapprove" in ${policy.configPath}.` +
          ruleThatAllows(request, needs),
  };
}
