// How each acting attempt of a call ended, as the journal is told: kept apart from the gate (guard.ts)
// so that the context every tool sees holds a call's journal without depending on the gate.

/** How an attempt ended: done with what it did, or refused or failed, and why. */
export type GuardedEnd =
  | { decision: "done"; outcome: Record<string, unknown> }
  | { decision: "refused" | "error"; reason: string };

/**
 * One tool call's attempts: those whose outcome line is still to come, and the outcome lines the
 * journal could not take. callTool makes one per call, ends what the tool left open (it threw), and
 * says in the reply what could not be written.
 */
export class CallJournal {
  readonly open = new Set<(how: GuardedEnd) => void>();
  readonly unwritten: string[] = [];
  /** The window the call's last judged input was aimed at: the view shows it where another is in front. */
  actedIn: number | undefined;
  /** The window in front when the call's first input was judged: one that came forward since is news. */
  frontBefore: number | undefined;
  frontRead = false;
  /** When the call's last input was done (Date.now()): its app may show what it did a moment later. */
  actedAt: number | undefined;

  /** Ends every attempt still open: the call stopped (threw) between its attempt and its outcome. */
  endOpen(reason: string): void {
    for (const end of [...this.open]) end({ decision: "error", reason });
  }
}
