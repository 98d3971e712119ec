// Typed errors that carry their context and the next step. Every front end turns them into its own
// shape (MCP isError results, NDJSON error codes, CLI exit codes) without losing either.

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

/** What every read of a window with no accessible tree says: it is pixels, and what reads pixels. */
export const PIXELS_ONLY_WINDOW =
  "Until then the window is pixels only: read_screen_text and find_text read it, and click, type_text and key act at a point (judged as committing, since deskhand cannot read what they hit).";

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

export function windowNotFound(what: string): DeskhandError {
  return new DeskhandError(
    "window_not_found",
    `no open window matches ${what}`,
    "Call `windows` to see what is open.",
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
  const message = error instanceof Error ? error.message : String(error);
  const kind = error instanceof Error ? error.name : "";
  switch (kind) {
    case "WindowNotFound":
      return new DeskhandError("window_not_found", message, "Call `windows` to see what is open.");
    case "WindowNotAccessible":
      return new DeskhandError(
        "not_accessible",
        message,
        `${PIXELS_ONLY_WINDOW} Run \`deskhand doctor\` for the toolkit's switch.`,
        {
          pixels_only: true,
        },
      );
    case "ElementGone":
      return new DeskhandError("element_gone", message, "Take a new snapshot.");
    case "AppNotResponding":
      return new DeskhandError(
        "timeout",
        `${message}; nothing was done`,
        "Wait and call again; if it stays so, the app is hung (or stopped): a new snapshot will not help.",
      );
    case "UnsupportedAction":
      return new DeskhandError(
        "unsupported_pattern",
        message,
        "Use an action the element supports (listed), or another element.",
        {
          supported: (error as Error & { supported?: string[] }).supported ?? [],
        },
      );
    case "ReadOnlyElement":
      return new DeskhandError("read_only", message, "Pick an editable element; this one cannot be changed.");
    case "ActionRejected":
      return new DeskhandError(
        "action_failed",
        message,
        "Re-read the element; the action did not apply as asked.",
      );
    case "OutOfRange":
      return new DeskhandError(
        "index_out_of_range",
        message,
        "Read the element's size (read_table) and ask within it.",
      );
    case "UnsupportedPlatform":
      return new DeskhandError(
        "unsupported_platform",
        message,
        "Use deskhand on Linux: X11, or Wayland under sway, KDE Plasma (KWin) or GNOME Shell.",
      );
    case "HandsUnavailable":
      return new DeskhandError(
        "hands_unavailable",
        message,
        "Run inside `deskhand sandbox run`, or on an X11 desktop with XTEST; `deskhand doctor` shows what is missing.",
      );
    case "RecognizerUnavailable":
      return new DeskhandError(
        "ocr_unavailable",
        message,
        "Install Tesseract (apt-get install tesseract-ocr tesseract-ocr-eng); `deskhand doctor` shows what is there.",
      );
    case "LanguageMissing":
      return new DeskhandError(
        "invalid_params",
        message,
        "Ask for installed languages only, or install the one you need (apt-get install tesseract-ocr-<code>).",
        { installed: (error as Error & { installed?: string[] }).installed ?? [] },
      );
    case "AuditUnwritable": {
      // Refused, not failed: deskhand takes no action it cannot journal, and took none.
      const { path, errno } = error as Error & { path?: string; errno?: string };
      return new DeskhandError(
        "refused",
        message,
        `${errno === "ENOSPC" || errno === "EDQUOT" ? "Free space on the journal's disk, or p" : "P"}oint DESKHAND_AUDIT (or "audit_path" in the config) at a writable file, then call again; deskhand takes no action it cannot journal.`,
        { journal: path, ...(errno ? { cause: errno } : {}) },
      );
    }
    case "ConfigError":
      return new DeskhandError("invalid_config", message, "Fix the config file or the variable it names.");
    case "KeyNameError":
      return new DeskhandError(
        "invalid_params",
        message,
        "Use one of the key names listed; nothing was sent.",
      );
    case "DBusClosedError":
      return new DeskhandError(
        "backend_unavailable",
        `${message}: the accessibility bus stopped or restarted`,
        "Call again: the next call connects to the accessibility bus anew. Apps started before the restart may need restarting to appear.",
      );
    case "DisplayGone":
      return new DeskhandError(
        "backend_unavailable",
        message,
        "Call again: the next call connects to the display anew (its windows and refs are new too).",
      );
    case "CompositorUnreachable": {
      // The session's compositor is gone, or GNOME Shell's deskhand extension does not answer.
      const gone = error as Error & { compositor?: string; problem?: string; next?: string };
      return new DeskhandError("backend_unavailable", message, gone.next ?? "Run `deskhand doctor`.", {
        compositor: gone.compositor,
        problem: gone.problem,
      });
    }
    case "BackendUnavailable":
    case "X11Error":
      return new DeskhandError(
        "backend_unavailable",
        message,
        "Run `deskhand doctor` to see what is missing.",
      );
    default:
      return new DeskhandError(
        "internal_error",
        message,
        "Run `deskhand doctor`; if it is clean, report this.",
        {
          kind,
        },
      );
  }
}
