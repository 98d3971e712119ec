// What a tool call can reach: the backend (connected on first use, so `ping` and `doctor` work where
// there is no desktop), the ref store and the snapshots it serves.
import { sinceLines, windowChanges } from "../core/receipt.js";
import { newSessionTag, type RefLifetime, RefStore } from "../core/refs.js";
import { SnapshotStore } from "../core/snapshot.js";
import type { Hands, SeeingHands } from "../platform/hands.js";
import { connectBackend, connectHands, createRecognizer } from "../platform/index.js";
import type { TextRecognizer } from "../platform/ocr/types.js";
import type { AccessibilityBackend, AccessibilityReader, WindowInfo } from "../platform/types.js";
import { AuditJournal } from "../safety/audit.js";
import type { Confirmer } from "../safety/gate.js";
import type { SafetyLevel } from "../safety/levels.js";
import { policyInForce, type SafetyPolicy } from "../safety/policy.js";
import { ACTING, type ActingSurfaces } from "./acting.js";
import type { CallJournal } from "./call-journal.js";

export const DESKHAND_VERSION = "0.1.0";

/** What the gate reads of the tool a call runs: its name and declared levels (tool.ts declares them). */
export interface RunningTool {
  readonly name: string;
  readonly level: SafetyLevel;
  readonly highest?: SafetyLevel | undefined;
  readonly inputsAs?: readonly string[] | undefined;
}

/** A caller's deadline a call runs under (deadline.ts): what its caller learns when it passes. */
export interface DeadlineProbe {
  readonly signal: AbortSignal;
  /** Set by the gate when it hands out the acting surfaces: the action may have been made. */
  actingGiven: boolean;
}

export interface ToolContext {
  /** Reads the accessibility tree; acting on it goes through the gate (guard.ts). */
  backend(): Promise<AccessibilityReader>;
  /** Pixels and where windows are; connected on first use. Input goes through the gate (guard.ts). */
  hands(): Promise<SeeingHands>;
  /** The acting backend and hands, reached only through guard() (see acting.ts). */
  readonly [ACTING]: ActingSurfaces;
  /** The tool this call runs (set by callTool): the gate holds its levels to what it declares. */
  readonly running?: RunningTool;
  /**
   * The least level of the tools this call runs inside (a profile's main_press, L3, running click):
   * a tool's level is nominal, so what it calls is judged at that level at least, never below.
   */
  readonly levelFloor?: { level: SafetyLevel; tool: string };
  /**
   * The profile tool (a seed's own, as its client called it: main_press) this call runs inside: the
   * journal names it beside deskhand's own tool.
   */
  readonly calledAs?: string;
  /** Whether the profile tool this call runs inside has a `reversible` its client can declare. */
  readonly declaresReversible?: boolean;
  /** Inside a call a recording writes as a step: what it calls is part of that step, not one of its own. */
  readonly inRecordedStep?: boolean;
  /** Text from pixels; made on first use. */
  recognizer(): TextRecognizer;
  /** The safety policy in force now (the config is read again when it changes): throws ConfigError while it is wrong. */
  policy(): SafetyPolicy;
  audit(): AuditJournal;
  /** Asks a person; absent where the channel has no way to (then confirmation means refusal). */
  readonly confirm?: Confirmer;
  readonly refs: RefStore;
  readonly snapshots: SnapshotStore;
  /**
   * What a front end keeps for this context's session (a profile's own sessions and handles): one
   * slot per key, gone with the context, never shared with another HTTP session.
   */
  readonly sessionState: Map<symbol, unknown>;
  readonly env: NodeJS.ProcessEnv;
  readonly version: string;
  /** Aborted when the caller cancels the request in flight (MCP cancellation) or its deadline passes. */
  readonly signal?: AbortSignal;
  /** A caller's deadline this call runs under (deadline.ts): the gate notes when it lets an input through. */
  readonly deadline?: DeadlineProbe;
  /**
   * Aborted when the process is stopping (SIGTERM): a call in flight may finish what it does, but
   * starts nothing new (a run, its next step).
   */
  readonly stopping?: AbortSignal;
  /** This call's journal attempts (set by callTool): their outcome lines, and those not written. */
  readonly callJournal?: CallJournal;
  /** The MCP session acting, where a server holds several (HTTP): the journal records it. */
  readonly session?: string;
  /** The HTTP client that opened the session (its token's name): the journal records it. */
  readonly client?: string;
  /** What this process serves over the network, for doctor; absent when nothing is. */
  readonly serving?: ServingInfo;
  close(): Promise<void>;
}

/** The windows as this session's last acting reply or window list left them. */
const LAST_WINDOWS = Symbol("windows after the last action");

/** Keeps the windows an acting reply ended with, or a window list showed: the next acting call says what changed since. */
export function rememberWindows(context: ToolContext, windows: WindowInfo[]): void {
  context.sessionState.set(LAST_WINDOWS, windows);
}

/**
 * What changed in the windows since this session's last acting reply (a dialog that came after it
 * was sent), as data and lines for the start of this reply; `now` is kept in its place.
 */
export function windowsSinceLast(
  context: ToolContext,
  now: WindowInfo[],
): { data: { since_last_action: ReturnType<typeof windowChanges> }; lines: string[] } | undefined {
  const last = context.sessionState.get(LAST_WINDOWS) as WindowInfo[] | undefined;
  rememberWindows(context, now);
  if (!last) return undefined;
  const changes = windowChanges(last, now);
  const lines = sinceLines(changes);
  return lines.length > 0 ? { data: { since_last_action: changes }, lines } : undefined;
}

export interface ServingInfo {
  transport: "http";
  address: string;
  loopbackOnly: boolean;
  origins: string[];
  hosts: string[] | "any";
}

export interface ContextOptions {
  refLifetime: RefLifetime;
  env?: NodeJS.ProcessEnv;
  /** Injected for tests and other backends; defaults to this platform's. */
  connect?: () => Promise<AccessibilityBackend>;
  connectHands?: () => Promise<Hands>;
  recognizer?: TextRecognizer;
  /** The ceiling from a command-line flag: it wins over the environment and the config file. */
  ceiling?: SafetyLevel;
  confirm?: Confirmer;
  /** False when the backend and hands are shared with other contexts: close() leaves them open. */
  ownsConnections?: boolean;
  session?: string;
  client?: string;
  serving?: ServingInfo;
  /** Snapshot numbers shared among sessions (see RefStore). */
  snapshotNumbers?: () => number;
  /** Aborted when the process starts to stop (see ToolContext.stopping). */
  stopping?: AbortSignal;
}

const LOST =
  "the connection deskhand had closed (its server stopped, restarted or was replaced), and connecting anew failed: ";

/**
 * Connects on first use; a failed connection is not cached, so the next call tries again. A connection
 * that has since closed (the accessibility bus restarted, the X server went away) is dropped and a new
 * one made on the next call.
 */
export function lazily<T extends { readonly closed: boolean; close(): Promise<void> }>(
  connect: () => Promise<T>,
): { get: () => Promise<T>; current: () => Promise<T> | undefined } {
  let pending: Promise<T> | undefined;
  let resolved: T | undefined;
  /** A connection was open and closed since: a failure to connect anew says so. */
  let lost = false;
  return {
    get() {
      if (resolved?.closed) {
        void resolved.close().catch(() => undefined);
        resolved = undefined;
        pending = undefined;
        lost = true;
      }
      if (!pending) {
        const attempt = connect().then(
          (value) => {
            lost = false;
            return value;
          },
          (error: unknown) => {
            // A compositor named as gone says it all already.
            if (
              lost &&
              error instanceof Error &&
              error.name !== "CompositorUnreachable" &&
              !error.message.startsWith(LOST)
            )
              error.message = `${LOST}${error.message}`;
            throw error;
          },
        );
        pending = attempt;
        attempt.then(
          (value) => {
            if (pending === attempt) resolved = value;
          },
          () => {
            if (pending === attempt) pending = undefined;
          },
        );
      }
      return pending;
    },
    current: () => pending,
  };
}

/**
 * One connection to the hands for many sessions (an HTTP server's), made on first use and again once
 * closed: the only way above the platform to the real mouse and keyboard besides a context's own.
 */
export function sharedHands(env: NodeJS.ProcessEnv): ReturnType<typeof lazily<Hands>> {
  return lazily(() => connectHands({ env }));
}

export function createContext(options: ContextOptions): ToolContext {
  const env = options.env ?? process.env;
  const backend = lazily(options.connect ?? (() => connectBackend({ env })));
  const hands = lazily(options.connectHands ?? (() => connectHands({ env })));
  let audit: AuditJournal | undefined;
  let recognizer = options.recognizer;
  const refs = new RefStore(options.refLifetime, undefined, options.snapshotNumbers, newSessionTag());
  const currentPolicy = (): SafetyPolicy =>
    policyInForce(env, options.ceiling ? { ceiling: options.ceiling } : {});
  const sessionState = new Map<symbol, unknown>();
  return {
    backend: backend.get,
    hands: hands.get,
    [ACTING]: { backend: backend.get, hands: hands.get },
    recognizer() {
      recognizer ??= createRecognizer({ env });
      return recognizer;
    },
    policy: currentPolicy,
    audit() {
      audit ??= new AuditJournal(currentPolicy().auditPath);
      return audit;
    },
    ...(options.confirm ? { confirm: options.confirm } : {}),
    ...(options.session ? { session: options.session } : {}),
    ...(options.client ? { client: options.client } : {}),
    ...(options.serving ? { serving: options.serving } : {}),
    ...(options.stopping ? { stopping: options.stopping } : {}),
    refs,
    snapshots: new SnapshotStore(backend.get, refs),
    sessionState,
    env,
    version: DESKHAND_VERSION,
    async close() {
      if (options.ownsConnections === false) return;
      await Promise.all(
        [backend.current(), hands.current()].map(async (p) => {
          if (p) await (await p.catch(() => undefined))?.close();
        }),
      );
    },
  };
}
