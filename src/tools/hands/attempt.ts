// The chain every input action takes: target probed (by the caller, into `place`), gate (level,
// ceiling, confirmation), focus, audit, execute. Every reply has one of three shapes: refused, done,
// error. The journal gets one line per attempt, whatever its end.

import { setTimeout as sleep } from "node:timers/promises";
import { asDeskhandError } from "../../core/errors.js";
import {
  awaitPromisedWindow,
  changedWords,
  type ElementState,
  gateLine,
  OPENING_SETTLE_MS,
  PROMISED_WINDOW_MS,
  statesChanged,
  windowChangeLines,
  windowChanges,
  windowsOnceChanged,
  windowsSettled,
} from "../../core/receipt.js";
import { verifiedNote } from "../../core/verify.js";
import { type Hands, HandsUnavailable, type Point, WINDOW_MANAGER_ANSWER_MS } from "../../platform/hands.js";
import type { Chord } from "../../platform/keys.js";
import { PASSWORD_ROLE, type WindowInfo } from "../../platform/types.js";
import type { AuditTarget, Secret } from "../../safety/audit.js";
import { chordMayOpen } from "../../safety/chords.js";
import {
  COMMAND_ROLES,
  commitReason,
  DIALOG_ROLES,
  declaredRole,
  type TargetFacts,
} from "../../safety/classify.js";
import { endsInEllipsis } from "../../safety/committing-words.js";
import type { SafetyLevel } from "../../safety/levels.js";
import type { ActingSurfaces } from "../acting.js";
import { watchChanges } from "../changes.js";
import { rememberWindows, type ToolContext, windowsSinceLast } from "../context.js";
import { activateWindow, FOCUS_WORDS, type Guarded, guard } from "../guard.js";
import { type ProgramsBefore, programsBefore, windowsOfStarted } from "../started-programs.js";
import type { ToolOutput } from "../tool.js";
import type { ResolvedPlace } from "./placed.js";
import { notingSends, sinceSent } from "./sends.js";
import { listedWindow } from "./window-read.js";

export interface InputAttempt {
  tool: string;
  /**
   * How this input may open, close or retitle a window, so that it waits for that: by pressing the
   * place (a click: "Open…" promises a window), by its chord (a key), by a line break in its text
   * (typing). Absent: it opens nothing of itself (a drag, a hover, the wheel).
   */
  mayOpen?: "place" | "chord" | "text";
  /** False for the raw primitives: the reply does not read the windows before and after. */
  readsWindows?: false;
  nominal: SafetyLevel;
  intent: string;
  /** Undefined: true, except a press on a committing target, which defaults to not reversible. */
  reversible: boolean | undefined;
  place?: ResolvedPlace | undefined;
  /**
   * Where the pointer presses first when that is not the place (a drag's start): it is approached
   * instead of the place, re-read like it, and must not be covered either.
   */
  pressAt?: ResolvedPlace | undefined;
  /** The window to bring in front first; defaults to the place's window. */
  windowId?: number | undefined;
  ensureFocus: boolean;
  /**
   * The pointer goes to the place: it is moved there first and a ref'd element re-read before
   * anything is pressed, because a window can change its layout when the pointer enters it.
   */
  approach?: boolean;
  declared?: { role?: string | undefined; label?: string | undefined };
  /**
   * What the input will press or change, as read just before (facts.ts, place-facts.ts, key-effect.ts): the element under a click
   * with its window, what a key reaches, the value or option set, the drop target; `pressesNothing`
   * for a move or a scroll. Required: an input that does not say what it activates is not sent. An
   * unreadable one counts as committing.
   */
  presses: TargetFacts[];
  /** How each press was found, for the reply ("the default button"). */
  pressedVia?: string[];
  chord?: Chord;
  /** Read the window before and after, and answer what changed (`include_changes`). */
  includeChanges?: boolean;
  /** The window whose changes to read; defaults to the target window, else the active one. */
  changesWindow?: number | undefined;
  /** Typed text: kept out of the journal, which records its length. */
  secret?: string;
  /** Whether `secret` is typed by keys (type_text, a printable key), rather than set as a value. */
  typed?: boolean;
  /**
   * Whether `secret` goes into a password field: the ref's role, else the focused element's as read
   * before typing (a focus that could not be read counts as one). Without it, the place's role says.
   */
  password?: boolean;
  /** What the journal keeps of the result, when not all of it (a printable key's character). */
  journalOutcome?: (outcome: Record<string, unknown>) => Record<string, unknown>;
  /** The call's other values (fill_form's other fields): kept out of this line too. */
  otherSecrets?: Secret[];
  /** Sends the input: `hands` and `acting` are what the gate gave out for this call. */
  execute(hands: Hands, acting: ActingSurfaces): Promise<Record<string, unknown>>;
  /** One line for a person: what was done, without typed text. */
  describe(result: Record<string, unknown>): string;
  /**
   * What the result says of the input beyond "sent" (typed text read back): absent or undefined, done;
   * else the reply's status and first word, and a note after where it went.
   */
  verdict?(result: Record<string, unknown>): Verdict | undefined;
}

/**
 * An input sent whose effect is not what was asked ("error": typed characters that did not arrive,
 * `reason` for the journal, with no typed text) or cannot be read ("unverified", done but not claimed).
 */
export type Verdict =
  | { status: "error"; lead: "error"; note: string; reason: string }
  | { status: "unverified"; lead: "typed, not verified" | "pressed, not verified"; note: string };

/** What an input that presses and sets nothing says it does instead ("moves the pointer"): judged too. */
export const pressesNothing = (how: string): TargetFacts[] => [{ nothing: how }];

/**
 * Thrown by an input's execute when it stopped before sending what would have gone astray (the
 * field did not take the focus): the reply is a refusal, with what to do next in its message.
 */
export class NothingSent extends Error {}

/** Thrown when an input stopped part way, before a part the gate refused: `sent` says how much went. */
export class PartlySent extends NothingSent {
  constructor(
    message: string,
    readonly sent: Record<string, unknown>,
  ) {
    super(message);
  }
}

/**
 * The fact the gate judges among what an input presses and what its caller declared: the first that
 * commits, else the first; a press that commits is taken as not reversible unless the caller said.
 */
function judgedFacts(judged: TargetFacts[], reversible: boolean | undefined) {
  const committing = judged.findIndex((f) => commitReason(f));
  return {
    committing,
    facts: judged[committing] ?? judged[0],
    reversible: reversible ?? committing < 0,
  };
}

/**
 * A later step of one input, judged on its own where it presses something new (the Enter after a
 * Tab in typed text): a step that commits passes the gate with a journal line of its own, before it
 * is sent. Undefined: it commits nothing and goes as part of the call.
 */
export async function gateStep(
  context: ToolContext,
  step: {
    tool: string;
    intent: string;
    reversible: boolean | undefined;
    presses: TargetFacts[];
    via: string[];
    windowId: number | undefined;
    secrets: Secret[];
  },
): Promise<
  | { allowed: true; end: (outcome: Record<string, unknown>) => void }
  | { allowed: false; reason: string }
  | undefined
> {
  const { committing, facts, reversible } = judgedFacts(step.presses, step.reversible);
  if (committing < 0) return undefined;
  const title = await windowTitle(context, step.windowId);
  const guarded = await guard(context, {
    journalTool: step.tool,
    gate: {
      tool: step.tool,
      nominal: "L2",
      intent: step.intent,
      reversible,
      reversibleDeclared: step.reversible !== undefined,
      target: { ...facts, windowTitle: title },
      laterStep: true,
    },
    target: {
      ...(facts?.role ? { role: facts.role, name: facts.name } : {}),
      ...(step.windowId !== undefined ? { window: { id: step.windowId, title } } : {}),
    },
    otherSecrets: step.secrets,
  });
  const via = step.via[committing];
  if (!guarded.allowed)
    return { allowed: false, reason: `${guarded.reason}${via ? ` (What it presses: ${via}.)` : ""}` };
  return { allowed: true, end: (outcome) => guarded.end({ decision: "done", outcome }) };
}

export interface FocusReport {
  window: number;
  title?: string | undefined;
  result: "is now in front" | "is not" | "cannot say";
}

async function windowTitle(context: ToolContext, id: number | undefined): Promise<string | undefined> {
  return id === undefined ? undefined : (await listedWindow(context, id))?.title;
}

type Move = { from: Point; to: Point; when: string };

/**
 * Bringing a window to the front can move what is in it, and so can the pointer entering it:
 * LibreOffice shows its menu bar then, and everything below moves down 25 px, between the pointer's
 * arrival and the press. Each verified element is re-read after both: the same element (role, name)
 * is acted on at its new centre, and the move is reported; a different one is refused.
 */
async function recentre(
  context: ToolContext,
  hands: Hands,
  attempt: InputAttempt,
  focused: boolean,
  windowId: number | undefined,
): Promise<{ moved?: Move; startMoved?: Move } | { changed: string; when: string; gone: boolean }> {
  const first = attempt.pressAt ?? attempt.place;
  const verified = [attempt.pressAt, attempt.place].filter((p): p is ResolvedPlace => !!p?.handle);
  if (verified.length === 0 || !(focused || attempt.approach)) return {};
  if (attempt.approach && first) await hands.move(first.point);
  const when = [focused && "its window came to the front", attempt.approach && "the pointer reached it"]
    .filter(Boolean)
    .join(" and ");
  const backend = await context.backend();
  const moves = new Map<ResolvedPlace, Move>();
  for (const place of verified) {
    const node = await backend
      .describe(place.handle!, { maxText: 0, ...(windowId === undefined ? {} : { windowId }) })
      .catch(() => undefined);
    const b = node?.bounds;
    if (!node || node.role !== place.element?.role || node.name !== place.element?.name || !b || b.width <= 0)
      return { changed: place.ref ?? "the element", when, gone: !node };
    // The point keeps its place on the element: its centre, or its shown part's (a tall table's).
    const shift = place.fromCentre ?? { x: 0, y: 0 };
    const centre = {
      x: Math.round(b.x + b.width / 2) + shift.x,
      y: Math.round(b.y + b.height / 2) + shift.y,
    };
    if (centre.x === place.point.x && centre.y === place.point.y) continue;
    moves.set(place, { from: { ...place.point }, to: centre, when });
    place.point.x = centre.x;
    place.point.y = centre.y;
  }
  if (attempt.approach && first && moves.has(first)) await hands.move(first.point);
  return {
    ...(attempt.place && moves.has(attempt.place) ? { moved: moves.get(attempt.place)! } : {}),
    ...(attempt.pressAt && moves.has(attempt.pressAt) ? { startMoved: moves.get(attempt.pressAt)! } : {}),
  };
}

/** The windows and the front one before an input, to say afterwards what it changed; raw primitives skip it. */
async function seeWindows(
  context: ToolContext,
  hands: Hands,
  attempt: InputAttempt,
  windowId: number | undefined,
): Promise<WindowsBefore | undefined> {
  if (attempt.readsWindows === false) return undefined;
  try {
    const windows = await (await context.backend()).listWindows();
    const front = await hands.activeWindow();
    // What the input lands in may start a program of its app (a plug-in, a helper dialog).
    const into = windows.find((w) => w.id === (windowId ?? front));
    const programs = mayChangeWindows(attempt) ? programsBefore(into?.pid) : undefined;
    return { windows, front, programs };
  } catch {
    return undefined;
  }
}

interface WindowsBefore {
  windows: WindowInfo[];
  front: number | undefined;
  programs: ProgramsBefore | undefined;
}

/** How long an input's effect on windows is given to show when nothing was re-read after it. */
const WINDOWS_SETTLE_MS = 150;

/**
 * Whether the input may open, close or retitle a window: a chord with ctrl, alt or super (but not
 * one that edits), Enter, Escape or a function key, a typed newline, a click on a button, menu item
 * or link (or on what could not be read), or anything the gate judged committing. Plain typing,
 * moving and editing do not wait for it: a chord that opens nothing pays the whole settle.
 */
function mayChangeWindows(attempt: InputAttempt): boolean {
  if (attempt.presses.some((f) => commitReason(f))) return true;
  switch (attempt.mayOpen) {
    case "place": {
      const role = attempt.place?.element?.role;
      return role === undefined || COMMAND_ROLES.has(role);
    }
    case "text":
      return /[\r\n]/.test(attempt.secret ?? "");
    case "chord":
      return attempt.chord !== undefined && chordMayOpen(attempt.chord);
    default:
      return false;
  }
}

/**
 * What the input changed in the windows: those that came, went or were retitled, and the front one
 * when another came forward. Every input reply says it, in a line each.
 */
async function windowsChanged(
  context: ToolContext,
  hands: Hands,
  before: WindowsBefore,
  result: Record<string, unknown>,
  attempt: InputAttempt,
  { indirect, sinceSent }: { indirect: boolean; sinceSent: number },
): Promise<{ data: Record<string, unknown>; lines: string[]; windows: WindowInfo[] } | undefined> {
  try {
    // A re-read of the element has waited already; otherwise the app is given a moment from the
    // last send, which the input's own checks after it may have spent already.
    if (result.after === undefined && result.after_read === undefined)
      await sleep(Math.max(0, WINDOWS_SETTLE_MS - sinceSent));
    const backend = await context.backend();
    const list = () => backend.listWindows();
    let windows = await list();
    if (mayChangeWindows(attempt))
      windows = await windowsSettled(
        list,
        before.windows,
        windows,
        Math.max(0, OPENING_SETTLE_MS - Math.max(0, sinceSent - WINDOWS_SETTLE_MS)),
      );
    // A click presses what it lands on ("Open…" promises a window); a drag, a hover or a wheel does not.
    const pressed = attempt.mayOpen === "place" ? attempt.place?.element?.name : undefined;
    windows = await awaitPromisedWindow(list, before.windows, windows, pressed, endsInEllipsis);
    // A dialog's committing press made by a key (Enter on its default button) closes it or opens
    // the next, in its time: LibreOffice's "Keep current format?" came after the settle.
    if (indirect) windows = await windowsOnceChanged(list, before.windows, windows, PROMISED_WINDOW_MS);
    const starting = await windowsOfStarted(list, before.programs, windows);
    windows = starting.windows;
    const front = await hands.activeWindow();
    const changes = windowChanges(before.windows, windows, starting.started);
    const lines = windowChangeLines(changes);
    const moved = front !== undefined && front !== before.front;
    const frontTitle = windows.find((w) => w.id === front)?.title;
    if (moved)
      lines.push(
        `in front now: window ${front}${frontTitle !== undefined ? ` ${JSON.stringify(frontTitle)}` : ""}`,
      );
    // Nothing changed: nothing is said, in the text or the data.
    const data =
      lines.length > 0 ? { ...changes, ...(moved ? { front: { id: front, title: frontTitle } } : {}) } : {};
    return { data, lines, windows };
  } catch {
    return undefined;
  }
}

/**
 * Another window came (a Save dialog): it takes the keyboard, in its time, and what the one behind
 * reports focused is no place the keys went (Kate named a status table cell behind its dialog, the
 * dialog not yet in front on a loaded machine). Said of none rather than of the wrong one.
 */
function withoutStaleFocus(
  result: Record<string, unknown>,
  changes: Record<string, unknown> | undefined,
): void {
  const cameIn = changes?.front || (changes?.windows_appeared as unknown[] | undefined)?.length;
  if (cameIn && "focus_now" in result) delete result.focus_now;
}

/** What verifying the refs found besides "unchanged" (a move, a new handle), a line each. */
function sinceSeen(attempt: InputAttempt): string {
  const start = attempt.pressAt?.verified && verifiedNote(attempt.pressAt.verified);
  const end = attempt.place?.verified && verifiedNote(attempt.place.verified);
  return `${start ? `\nstart ${start}` : ""}${end ? `\n${end}` : ""}`;
}

/** What the caller said it saw (`role`, `label`), as facts the gate judges beside what the input presses. */
function declaredFacts(
  seen: InputAttempt["declared"],
): { role?: string; name: string | undefined } | undefined {
  if (!seen?.role && !seen?.label) return undefined;
  return {
    ...(seen.role ? { role: declaredRole(seen.role, Boolean(seen.label)) } : {}),
    name: seen.label,
  };
}

/** The journal's target: the element pressed (else what the caller declared), its window, point and ref. */
function auditTarget(
  attempt: InputAttempt,
  declared: ReturnType<typeof declaredFacts>,
  keysWindow: number | undefined,
  title: string | undefined,
): AuditTarget {
  const element = attempt.place?.element;
  return {
    ...(element
      ? { role: element.role, name: element.name }
      : declared
        ? { role: declared.role, name: declared.name }
        : {}),
    ...(keysWindow !== undefined ? { window: { id: keysWindow, title } } : {}),
    ...(attempt.place ? { point: attempt.place.point } : {}),
    ...(attempt.place?.ref ? { ref: attempt.place.ref } : {}),
  };
}

/** Run only by an input tool's declaration (input-tool.ts), which names the input after its tool. */
export async function attemptInput(context: ToolContext, attempt: InputAttempt): Promise<ToolOutput> {
  // The display is reached before anything is judged: no hands, no attempt to journal.
  const seeing = await context.hands();
  // Keys these hands cannot send are refused before anything else is sent (a focus click, say).
  if (seeing.keyboardMissing && (attempt.chord !== undefined || attempt.typed))
    throw new HandsUnavailable(seeing.keyboardMissing);
  const windowId = attempt.windowId ?? attempt.place?.windowId;
  // Keys sent with no window named go to the one in front: that is the window the journal and a
  // refusal's pre-approval rule name.
  const keysWindow = windowId ?? attempt.changesWindow;
  const title = await windowTitle(context, keysWindow);
  const declared = declaredFacts(attempt.declared);
  const element = attempt.place?.element;
  // The target may raise the level, never lower it: whichever of what the input presses and what the
  // caller declared commits, counts.
  const judged: TargetFacts[] = [...attempt.presses, ...(declared ? [declared] : [])];
  const { committing, facts, reversible } = judgedFacts(judged, attempt.reversible);
  const target = auditTarget(attempt, declared, keysWindow, title);
  const guarded = await guard(context, {
    journalTool: attempt.tool,
    gate: {
      tool: attempt.tool,
      nominal: attempt.nominal,
      intent: attempt.intent,
      reversible,
      reversibleDeclared: attempt.reversible !== undefined,
      target: facts ? { ...facts, windowTitle: title } : title ? { windowTitle: title } : undefined,
      chord: attempt.chord,
    },
    target: Object.keys(target).length > 0 ? target : null,
    secret: attempt.secret,
    otherSecrets: attempt.otherSecrets,
    password: attempt.password ?? element?.role === PASSWORD_ROLE,
    ...(attempt.typed
      ? { typedInto: attempt.place?.ref ?? (windowId !== undefined ? `window ${windowId}` : "the focus") }
      : {}),
  });
  const via = committing >= 0 ? attempt.pressedVia?.[committing] : undefined;
  if (!guarded.allowed) {
    return {
      data: {
        status: "refused",
        reason: guarded.reason,
        level: guarded.level,
        target,
        ...(via ? { presses: { via, role: facts?.role, name: facts?.name } } : {}),
      },
      text: `refused: ${guarded.reason}${via ? ` (What it presses: ${via}.)` : ""}`,
    };
  }
  const hands = await guarded.acting.hands();
  const refuse = (reason: string, extra: Record<string, unknown> = {}): ToolOutput => {
    guarded.end({ decision: "refused", reason });
    return {
      data: { status: "refused", reason, level: guarded.level, ...extra, target },
      text: `refused: ${reason}`,
    };
  };

  // From bringing the window forward to the re-read after, the input is one turn on the display:
  // another call's window raised in between would take this call's click (two sessions typing into
  // two apps at once sent a click meant for one into the other).
  // A dialog's committing button closes it or opens another: in a main window (a chat's Send) a
  // press may change no window at all, so only a dialog's is checked.
  const inDialog = DIALOG_ROLES.has(facts?.window?.role ?? "");
  const indirect = via && facts && inDialog ? { role: facts.role, name: facts.name, via } : undefined;
  return hands.exclusive(() =>
    sendInput(context, attempt, { hands, guarded, refuse, windowId, title, element, target, indirect }),
  );
}

interface Allowed {
  hands: Hands;
  guarded: Extract<Guarded, { allowed: true }>;
  refuse: (reason: string, extra?: Record<string, unknown>) => ToolOutput;
  windowId: number | undefined;
  title: string | undefined;
  element: ResolvedPlace["element"];
  target: AuditTarget;
  /** The committing press the gate judged, where the input reaches it indirectly (Enter: the default button). */
  indirect: { role: string | undefined; name: string | undefined; via: string } | undefined;
}

/**
 * A dialog's committing press the input was to make indirectly (a line break pressing its Save) after
 * which no window came, went or changed its title: it may not have happened (a file chooser's
 * completion took the Enter), and the reply says so rather than "done".
 */
function pressUnseen(
  indirect: Allowed["indirect"],
  changed: { lines: string[] } | undefined,
): { press: Record<string, unknown>; note: string } | undefined {
  if (!indirect || !changed || changed.lines.length > 0) return undefined;
  const what = `${indirect.role ?? "element"}${indirect.name ? ` ${JSON.stringify(indirect.name)}` : ""}`;
  return {
    press: { role: indirect.role, name: indirect.name, via: indirect.via },
    note: `it was to press ${what} (${indirect.via}), but no window came, went or changed its title: that press may not have happened; read the window, or press it by ref`,
  };
}

/**
 * The input's window in front, when asked and it is not (or it is covered: act focus made it active,
 * another window stays on top, and a click at its element would be refused as covered for good).
 */
async function bringForward(
  context: ToolContext,
  attempt: InputAttempt,
  { hands, refuse, windowId, title }: Allowed,
): Promise<{ focus?: FocusReport } | { refused: ToolOutput }> {
  const presses = [attempt.pressAt?.point, attempt.place?.point].filter((p): p is Point => p !== undefined);
  const covered = async () =>
    (await Promise.all(presses.map((p) => hands.windowAt(p)))).some(
      (top) => top !== undefined && top !== windowId,
    );
  if (!attempt.ensureFocus || windowId === undefined) return {};
  if ((await hands.activeWindow()) === windowId && !(await covered())) return {};
  const truth = await activateWindow(context, { id: windowId, title }, attempt.tool, attempt.intent);
  const focus: FocusReport = { window: windowId, title, result: FOCUS_WORDS[truth] };
  if (truth === "front") return { focus };
  const named = windowNamed(windowId, title);
  if (truth === "unknown")
    return {
      refused: refuse(
        `cannot tell whether ${named} is in front: the window manager did not answer within ${WINDOW_MANAGER_ANSWER_MS / 1000} s; nothing was sent`,
        { focus },
      ),
    };
  // Who has it instead: often a dialog of the same app that must be answered first.
  const instead = await hands.activeWindow().catch(() => undefined);
  const insteadTitle = await windowTitle(context, instead);
  const other =
    instead !== undefined && instead !== windowId ? `; ${windowNamed(instead, insteadTitle)} is` : "";
  return {
    refused: refuse(`${named} is not in front after asking the window manager${other}; nothing was sent`, {
      focus,
      ...(other ? { in_front: { window: instead, title: insteadTitle } } : {}),
    }),
  };
}

/**
 * Keys sent with no window named go to the window in front: they were judged on the one in front
 * then. Another in front now (its app died while it was judged, a person answered slowly, a dialog
 * came up) would take keys nobody judged for it. Undefined: the same one is in front.
 */
async function frontSinceJudged(
  context: ToolContext,
  attempt: InputAttempt,
  { hands, windowId }: Allowed,
): Promise<{ reason: string; windows: { judged_for: number; in_front?: number } } | undefined> {
  const judgedOn = attempt.changesWindow;
  if (windowId !== undefined || judgedOn === undefined || (attempt.chord === undefined && !attempt.typed))
    return undefined;
  const now = await hands.activeWindow().catch(() => undefined);
  if (now === judgedOn) return undefined;
  const named = async (id: number | undefined) =>
    id === undefined ? "no window" : windowNamed(id, await windowTitle(context, id));
  return {
    reason: `the keys were judged for ${await named(judgedOn)}, but ${await named(now)} is in front now; nothing was sent. Name the window the keys are for (window), or call again`,
    windows: { judged_for: judgedOn, ...(now !== undefined ? { in_front: now } : {}) },
  };
}

/** Whether a reply is the refusal of keys judged for a window no longer in front (frontSinceJudged). */
export const frontChanged = (output: ToolOutput): boolean =>
  output.data.status === "refused" && output.data.front_changed !== undefined;

/** A window as refusals name it: `window 7 ("Editor")`. */
const windowNamed = (id: number, title: string | undefined) =>
  `window ${id}${title ? ` (${JSON.stringify(title)})` : ""}`;

/** Where the input went, said after what was done and before what followed ("pressed ctrl+f on …; the focus is now on …"). */
function withWhere(described: string, where: string): string {
  const clause = described.indexOf("; ");
  return clause < 0
    ? `${described}${where}`
    : `${described.slice(0, clause)}${where}${described.slice(clause)}`;
}

/** Where the input went, for its reply: the element (by its ref when unnamed) and a word read from pixels. */
function whereText(attempt: InputAttempt, element: ResolvedPlace["element"]): string {
  // An unnamed element is named by its ref, never as "": an empty name reads as an empty field.
  const called = element?.name ? JSON.stringify(element.name) : (attempt.place?.ref ?? "(unnamed)");
  const word = attempt.place?.pixelWord;
  const read = word ? `${element ? "," : ""} on ${JSON.stringify(word.text)} (from pixels)` : "";
  return `${element ? ` on ${element.role} ${called}` : ""}${read}`;
}

/** Why a point would land on another window than the element observed, if one covers it. */
async function coveredPoint(
  hands: Hands,
  attempt: InputAttempt,
  windowId: number | undefined,
): Promise<string | undefined> {
  if (windowId === undefined) return undefined;
  for (const point of [attempt.pressAt?.point, attempt.place?.point]) {
    if (!point) continue;
    const top = await hands.windowAt(point);
    if (top !== undefined && top !== windowId)
      return (
        `(${point.x}, ${point.y}) is covered by window ${top}; nothing was sent. Name the target window ` +
        "(window, with ensure_focus) to bring it to the front first, or act on the element through act"
      );
  }
  return undefined;
}

/** The allowed input: its window in front, its point still its element's, then sent and re-read. */
/** The reply to input that threw: refused where nothing was sent, else an error saying what was. */
function inputFailed(
  error: unknown,
  guarded: Allowed["guarded"],
  said: { since: { data: Record<string, unknown> } | undefined; sinceText: string; target: unknown },
): ToolOutput {
  const reason = error instanceof Error ? error.message : String(error);
  const status = error instanceof NothingSent ? "refused" : "error";
  guarded.end({ decision: status, reason });
  const sent = error instanceof PartlySent ? { sent: error.sent } : {};
  // A compositor gone mid-input is named, with what to do (not left to look like a key's fault).
  const named =
    error instanceof Error && error.name === "CompositorUnreachable" ? asDeskhandError(error) : undefined;
  return {
    data: {
      status,
      reason,
      level: guarded.level,
      ...sent,
      ...(named ? { error: named.toJSON() } : {}),
      ...(said.since?.data ?? {}),
      target: said.target,
    },
    text: `${said.sinceText}${status}: ${reason}${named ? `\n${named.next}` : ""}`,
  };
}

/**
 * What the input toggled on the element it landed on, re-read after it: a menu item checked as its
 * menu closed (FeatherPad's "Line Numbers") is said, though no view lists it now.
 */
function toggledLine(attempt: InputAttempt, result: Record<string, unknown>): string {
  const after = result.after as ElementState | null | undefined;
  const element = attempt.place?.element;
  if (!after || !element) return "";
  const words = changedWords(statesChanged(element.states, after.states));
  return words
    ? `\n${after.role} ${JSON.stringify(after.name ?? "")} since${words.replace(/^; /u, ": ")}`
    : "";
}

async function sendInput(context: ToolContext, attempt: InputAttempt, allowed: Allowed): Promise<ToolOutput> {
  const { hands, guarded, refuse, windowId, element, target } = allowed;
  const { level, confirmed } = guarded;
  const front = await bringForward(context, attempt, allowed);
  if ("refused" in front) return front.refused;
  const { focus } = front;
  const elsewhere = await frontSinceJudged(context, attempt, allowed);
  if (elsewhere) return refuse(elsewhere.reason, { front_changed: elsewhere.windows });
  const recentred = await recentre(context, hands, attempt, focus !== undefined, windowId);
  if ("changed" in recentred) {
    // A menu that closed as the pointer came takes its items with it: gone, not changed.
    const what = recentred.gone ? "was gone" : "had changed";
    const reason = `${recentred.changed} ${what} once ${recentred.when}; nothing was sent. Take a new snapshot`;
    return refuse(reason, focus ? { focus } : {});
  }
  const { moved, startMoved } = recentred;
  const covered = await coveredPoint(hands, attempt, windowId);
  if (covered) return refuse(covered);

  const watchOn = attempt.includeChanges
    ? (attempt.changesWindow ?? windowId ?? (await hands.activeWindow()))
    : undefined;
  const watch = watchOn !== undefined ? await watchChanges(context, watchOn) : undefined;
  const windowsBefore = await seeWindows(context, hands, attempt, windowId);
  // A window that came or went after the last reply is said first, before what this input did.
  const since = windowsBefore ? windowsSinceLast(context, windowsBefore.windows) : undefined;
  const sinceText = since ? `${since.lines.join("\n")}\n` : "";
  let result: Record<string, unknown>;
  const sends = notingSends(hands, guarded.acting);
  try {
    result = await attempt.execute(sends.hands, sends.acting);
  } catch (error) {
    return inputFailed(error, guarded, { since, sinceText, target });
  }
  // The journal keeps what was done, not the element's whole re-read state.
  const { after: _after, after_read: _read, unread: _unread, typed_into: _into, ...outcome } = result;
  const verdict = attempt.verdict?.(result);
  guarded.end(
    verdict?.status === "error"
      ? { decision: "error", reason: verdict.reason }
      : { decision: "done", outcome: attempt.journalOutcome ? attempt.journalOutcome(outcome) : outcome },
  );
  const changed = windowsBefore
    ? await windowsChanged(context, hands, windowsBefore, result, attempt, {
        indirect: !!allowed.indirect,
        sinceSent: sinceSent(sends.lastSent()),
      })
    : undefined;
  if (changed) rememberWindows(context, changed.windows);
  withoutStaleFocus(result, changed?.data);
  const unseen = verdict ? undefined : pressUnseen(allowed.indirect, changed);
  const data = {
    status: verdict?.status ?? (unseen ? "unverified" : "done"),
    ...(unseen ? { press_unseen: unseen.press } : {}),
    ...(verdict?.status === "error" ? { reason: verdict.reason } : {}),
    level,
    result,
    ...(since?.data ?? {}),
    ...(changed?.data ?? {}),
    ...(focus ? { focus } : {}),
    ...(moved ? { moved } : {}),
    ...(startMoved ? { start_moved: startMoved } : {}),
    ...(attempt.place?.verified ? { since_seen: attempt.place.verified } : {}),
    ...(attempt.pressAt?.verified ? { start_since_seen: attempt.pressAt.verified } : {}),
    ...confirmed,
    ...(guarded.gate ? { gate: guarded.gate } : {}),
    target,
  };
  const text = [
    `${sinceText}${verdict?.lead ?? (unseen ? "sent, not verified" : "done")}: ${withWhere(attempt.describe(result), whereText(attempt, element))}`,
    verdict ? `; ${verdict.note}` : unseen ? `; ${unseen.note}` : "",
    focus ? ` (focused window ${focus.window} first)` : "",
    `${sinceSeen(attempt)}${toggledLine(attempt, result)}`,
    changed?.lines.length ? `\n${changed.lines.join("\n")}` : "",
    guarded.gate ? `\n${gateLine(guarded.gate)}` : "",
  ].join("");
  if (!watch) return { data, text };
  const changes = await watch.finish();
  return { data: { ...data, ...changes.data }, text: `${text}\n${changes.text}` };
}
