// Typed errors that carry their context and the next step. Every front end turns them into its own
// shape (MCP isError results, NDJSON error codes, CLI exit codes) without losing either.
import { CodedError } from "../platform/types.js";

export type ErrorCode =
  | "invalid_params"
  | "unknown_ref"
  | "stale_element"
  | "window_not_found"
  | "not_accessible"
  | "element_gone"
  | "backend_unavailable"
  | "unsupported_platform"
  | "invalid_cursor"
  | "unsupported_pattern"
  | "read_only"
  | "action_failed"
  | "no_text"
  | "ambiguous"
  | "not_found"
  | "not_clickable"
  | "refused"
  | "index_out_of_range"
  | "hands_unavailable"
  | "ocr_unavailable"
  | "invalid_config"
  | "timeout"
  | "internal_error";

export class DeskhandError extends Error {
  override readonly name = "DeskhandError";
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** What the caller can do next, in one sentence. */
    readonly next: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }

  toJSON(): Record<string, unknown> {
    return { code: this.code, message: this.message, next: this.next, ...this.details };
  }
}

export function unknownRef(ref: string, reason: string): DeskhandError {
  return new DeskhandError(
    "unknown_ref",
    `ref ${ref} is not known: ${reason}`,
    "Take a new snapshot and use its refs.",
    {
      ref,
    },
  );
}

/** A ref this session let go of to keep its memory bounded: it named something once; read again. */
export function releasedRef(ref: string, kept: number): DeskhandError {
  return new DeskhandError(
    "unknown_ref",
    `ref ${ref} was released: a session keeps the refs of the ${kept.toLocaleString("en-US")} elements it was shown most recently`,
    "Call observe or snapshot again and use its refs.",
    { ref, released: true },
  );
}

// How many open windows a not-found names: the call after it needs no `windows` for a few.
const OPEN_NAMED = 6;

/**
 * No window matched: said with the windows open now (a few, those the title glob asked for matches
 * but for case first: "*Rechner*" and "Taschenrechner"), so the next call can name one.
 */
export function windowNotFound(
  what: string,
  open: readonly { id: number; title: string }[] = [],
  nearly: (title: string) => boolean = () => false,
): DeskhandError {
  const named = [...open.filter((w) => nearly(w.title)), ...open.filter((w) => !nearly(w.title))].slice(
    0,
    OPEN_NAMED,
  );
  const near = named.filter((w) => nearly(w.title));
  const listing = named.map((w) => `${w.id} ${JSON.stringify(w.title)}`).join(", ");
  const more = open.length > named.length ? `, and ${open.length - named.length} more` : "";
  return new DeskhandError(
    "window_not_found",
    `no open window matches ${what}${near.length ? ` (${near.length} would, ignoring case)` : ""}${named.length ? `; open now: ${listing}${more}` : ""}`,
    named.length ? "Name one of those by its id." : "Call `windows` to see what is open.",
    named.length ? { open: named.map((w) => ({ id: w.id, title: w.title })) } : {},
  );
}

export function invalidCursor(cursor: string, reason: string): DeskhandError {
  return new DeskhandError(
    "invalid_cursor",
    `cursor ${JSON.stringify(cursor.slice(0, 80))} cannot continue: ${reason}`,
    "Take a new snapshot; cursors are valid only for the snapshot that issued them.",
  );
}

/** Turns anything thrown into a DeskhandError, keeping our own as they are. */
export function asDeskhandError(error: unknown): DeskhandError {
  if (error instanceof DeskhandError) return error;
  // Each platform and safety error says its own code and next step where it is defined.
  if (error instanceof CodedError)
    return new DeskhandError(error.code, error.said, error.next, error.details);
  const message = error instanceof Error ? error.message : String(error);
  return new DeskhandError("internal_error", message, "Run `deskhand doctor`; if it is clean, report this.", {
    kind: error instanceof Error ? error.name : "",
  });
}
