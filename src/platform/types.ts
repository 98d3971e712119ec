import { type Interface, type Role, roleSet, type State } from "./roles.js";

/** Who makes an app's extents differ from the screen's by a factor: the app, or the output it is on. */
export type ScaledBy = "app" | "output";
// The backend contract. Every platform (atspi+x11 today; uia and ax later) and the in-memory fake
// implement these capability interfaces, and one contract suite runs against each.

/** The role whose text never leaves deskhand: it is not read, and a marker stands in its place. */
export const PASSWORD_ROLE = "password text";

/** Roles with two states that a toggle flips (a push button's "click" is a press, not a toggle). */
export const TOGGLE_ROLES = roleSet(
  "check box",
  "toggle button",
  "radio button",
  "check menu item",
  "radio menu item",
);

/**
 * Whether an element has two states a press flips: a toggle's role, a checkable item, or an action
 * named "toggle" (GTK 3's check box cell in a tree view, a table cell to its role).
 */
export const flipsState = (
  role: string,
  states: readonly string[] | undefined,
  actions: readonly string[] = [],
) =>
  TOGGLE_ROLES.has(role) ||
  !!states?.includes("checkable") ||
  actions.some((a) => a.toLowerCase() === "toggle");

/** An item of an exported menu: its label (mnemonic marks dropped), action and accelerator. */
export interface ExportedItem {
  label: string;
  action?: string;
  accel?: string;
  /** A radio item's value of its action's state ("target"): checked where the state is it. */
  target?: string | number;
}

/** A chord an app's shortcuts window lists, and the title it gives it ("<control>s": "Save"). */
export interface ListedShortcut {
  /** GTK's accelerator syntax, one or more separated by spaces. */
  accel: string;
  title: string;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The toolkit name the Java ATK wrapper reports, after the Java Access Bridge. */
export const JAVA_TOOLKIT = "J2SE-access-bridge";

export interface WindowInfo {
  /** The X window id on Linux: the `hwnd` of the NDJSON protocol. */
  id: number;
  title: string;
  pid: number | null;
  app: string | null;
  rect: Rect | null;
  focused: boolean;
  /** Whether an accessible frame was matched to this window; false means its tree cannot be read. */
  accessible: boolean;
  /**
   * Not matched because an application that may own it did not answer in time (busy or hung), rather
   * than because none owns it.
   */
  unanswered?: boolean;
  /** The window's class, as the window manager knows it (X11's WM_CLASS, sway's app_id). */
  windowClass?: string;
  /** The toolkit its application reports ("GTK", "Qt", "J2SE-access-bridge" for Java), when known. */
  toolkit?: string;
  /**
   * The factor its app's extents are multiplied by to be the screen's: the app scales itself while
   * reporting its own unscaled pixels (Qt's QT_SCALE_FACTOR), or the output does (GNOME's scale,
   * `extentsScaledBy`). Absent where they are the screen's.
   */
  extentsScale?: number;
  /** Who scaled them: the app itself, or the output it is on (GNOME's monitor scale). */
  extentsScaledBy?: ScaledBy;
  /**
   * Why its app's extents cannot be placed on the screen: its frame disagrees with its window and no
   * one scale maps one onto the other. Its elements then have no bounds, and no click goes by them.
   */
  extentsDisagree?: string;
}

/** Why a node's children were not all read. */
export type ChildrenCut =
  | { reason: "maxDepth" }
  | { reason: "table"; rows: number; columns: number; rowsRead: number; columnsRead: number }
  | { reason: "hugeChildCount"; childCount: number }
  | { reason: "nodeCeiling"; childrenRead: number }
  | { reason: "timeout" }
  | { reason: "unreadable"; error: string };

/** Whether a read left children out: a table read whole keeps a "table" record only for its shape. */
export function leftOut(cut: ChildrenCut | undefined): cut is ChildrenCut {
  if (cut?.reason !== "table") return cut !== undefined;
  return cut.rowsRead < cut.rows || cut.columnsRead < cut.columns;
}

/**
 * One element as the platform reported it. A field the application failed to report is `undefined`
 * and named in `unread`: "could not read" is never shown as empty or false.
 */
export interface RawNode {
  /** Opaque, backend-specific; resolves to the same live object while it exists. */
  handle: string;
  role: Role;
  name: string | undefined;
  description: string | undefined;
  states: State[] | undefined;
  interfaces: Interface[] | undefined;
  childCount: number | undefined;
  indexInParent: number;
  children: RawNode[];
  childrenCut?: ChildrenCut;
  /** A label beside this unnamed field, inferred by position (core/labels.ts); never the app's name. */
  inferredLabel?: string;
  /** Read through a table's Table interface: the row and column of the cell it is, or is inside. */
  cell?: { row: number; column: number };
  /** Filled by enrich(). `null` bounds: the element has no geometry (no Component interface). */
  bounds?: Rect | null;
  accessibleId?: string | undefined;
  actions?: string[] | undefined;
  /** The actions' key bindings as the toolkit gives them ("<Control>s"), read with the actions. */
  keyBindings?: string[] | undefined;
  value?: string | undefined;
  /** A Value element's range (a slider's, a spin button's), where read (EnrichOptions.range). */
  range?: { min: number; max: number } | undefined;
  text?: string | undefined;
  /** Full length of `text`/`value` before maxText cut it. */
  textLength?: number;
  enriched?: boolean;
  unread: string[];
}

export interface StructureOptions {
  maxDepth: number;
  /** Rows of a table to read through the Table interface instead of walking its cells. */
  tableRows: number;
  /** Walk table cells as plain children (slow on big tables; for fidelity checks). */
  walkTables: boolean;
  /** Stop reading after this many nodes. */
  nodeCeiling: number;
  /** Wall-clock bound on the whole read. */
  timeoutMs: number;
  /**
   * Enrich the first `limit` nodes while reading, when the caller expects to show them all anyway:
   * it overlaps the two phases. Nodes enriched here are not enriched again.
   */
  eagerEnrich?: { maxText: number; limit: number; actions: boolean; accessibleIds: boolean };
}

export interface StructureRead {
  root: RawNode;
  /** How the tree was read, for the reply and the benchmarks. */
  method: string;
  /** Nodes whose children could not be read because the deadline passed. */
  timedOut: boolean;
  ceilingHit: boolean;
  /**
   * The language the window's app shows its labels in ("pt_BR"; "en" for the C locale), read from its
   * process; undefined where the platform cannot tell, and for a web engine, whose pages each have their own.
   */
  language?: string | undefined;
  /** The toolkit its app reports ("Qt", "GTK"), where known: a Qt app's standard buttons speak Qt's words. */
  toolkit?: string | undefined;
  /** The app's own gettext catalogs, as its process has them mapped (its labels' English is there). */
  catalogs?: string[] | undefined;
}

export interface EnrichOptions {
  maxText: number;
  /** Read action names too (one call per element that has any). */
  actions: boolean;
  /** Read accessible ids too (one call per element). */
  accessibleIds: boolean;
  /** Read a Value element's range too (two calls per such element). */
  range?: boolean;
  timeoutMs: number;
  /** The window the nodes belong to, for toolkits whose extents are window-relative. */
  windowId?: number;
}

export interface WindowLister {
  listWindows(): Promise<WindowInfo[]>;
}

export interface TreeReader {
  readWindow(windowId: number, options: StructureOptions): Promise<StructureRead>;
  readSubtree(handle: string, options: StructureOptions): Promise<StructureRead>;
  enrich(nodes: RawNode[], options: EnrichOptions): Promise<void>;
  /**
   * What a window's app binds outside its accessible tree, read without acting on it: whether it
   * is a GtkApplication (whose accelerators need no menu item), and the items of the menu models
   * it exports on the session bus (org.gtk.Menus), with their `accel`. Undefined where the platform
   * cannot tell; throws where an exported model did not answer.
   */
  appBindings?(windowId: number): Promise<AppBindings | undefined>;
  /**
   * When a window's app last said one of its elements changed (an event: a state, a property, its
   * children), as Date.now(); undefined where the platform does not hear its events.
   */
  lastChangeOf?(windowId: number): number | undefined;
}

export interface AppBindings {
  gtkApplication: boolean;
  items: ExportedItem[];
  /** The chords a GtkApplication's shortcuts window lists, with their titles (gtk-shortcuts.ts). */
  shortcuts: ListedShortcut[];
  /** Whether a submenu of an exported model stayed empty: it fills only as it opens. */
  partial: boolean;
}

export interface PointerLocator {
  /** The top-level window under the pointer, if the platform can tell. */
  windowUnderPointer(): Promise<number | undefined>;
  /**
   * The menus open on screen as the display places them (X11: override-redirect windows typed as
   * menus), whether or not an app's tree shows them; undefined where the platform cannot tell.
   */
  openMenus?(): Promise<Rect[] | undefined>;
}

/** Optional: searching done by the app itself, where that is safe and faster than reading the tree. */
export interface CandidateMatcher {
  /**
   * Handles of the elements below a window (or an element) with any of `roles` and all of `states`,
   * in document order; `undefined` when this platform or app has no fast, safe way to ask.
   */
  matchCandidates?(
    scope: { windowId: number } | { handle: string },
    filter: { roles: string[]; states: string[] },
    timeoutMs: number,
  ): Promise<string[] | undefined>;
  /**
   * The row and column of the table cell an element is, or sits in (a link in a cell), where the
   * toolkit says (the TableCell interface); undefined otherwise.
   */
  cellPosition?(handle: string): Promise<{ row: number; column: number } | undefined>;
  /**
   * The roles and names of an element's ancestors, nearest first, at most `levels` of them, up to
   * its window (a frame inside a window, a dock panel, is an ancestor like any other).
   */
  ancestorsOf?(handle: string, levels: number): Promise<Ancestor[]>;
  /**
   * Whether the app of an element reports `showing` (GTK 4.8 does not), as its last read showed;
   * `undefined` when not known yet.
   */
  reportsShowing?(handle: string): boolean | undefined;
}

export interface AccessibilityBackend
  extends WindowLister,
    TreeReader,
    PointerLocator,
    ElementReader,
    ElementActor,
    CandidateMatcher {
  readonly name: string;
  /** True once the connection under it is gone; the caller connects a new backend. */
  readonly closed: boolean;
  close(): Promise<void>;
}

/**
 * What code above the platform reads with: the backend without its acting capability. The acting
 * one (ElementActor) comes only from the gate (tools/guard.ts), once a call is allowed.
 */
export type AccessibilityReader = Omit<AccessibilityBackend, keyof ElementActor>;

/** The codes a platform's errors say of themselves: core/errors.ts's ErrorCode holds each. */
export type CodedErrorCode =
  | "window_not_found"
  | "not_accessible"
  | "element_gone"
  | "timeout"
  | "unsupported_pattern"
  | "read_only"
  | "action_failed"
  | "index_out_of_range"
  | "unsupported_platform"
  | "hands_unavailable"
  | "ocr_unavailable"
  | "invalid_params"
  | "invalid_config"
  | "backend_unavailable"
  | "refused";

/**
 * An error that says what it means to the caller: its code, the next step, and details, beside its
 * own message; the reply's error is made of them as they stand (core/errors.ts), so a new error says
 * its own next step where it is defined.
 */
export abstract class CodedError extends Error {
  abstract readonly code: CodedErrorCode;
  abstract readonly next: string;
  /** What the caller reads: the message, where a class adds nothing. */
  get said(): string {
    return this.message;
  }
  get details(): Record<string, unknown> | undefined {
    return undefined;
  }
}

/** What every read of a window with no accessible tree says: it is pixels, and what reads pixels. */
export const PIXELS_ONLY_WINDOW =
  "Until then the window is pixels only: read_screen_text and find_text read it, and click, type_text and key act at a point (judged as committing, since deskhand cannot read what they hit).";

export class WindowNotFound extends CodedError {
  override readonly name = "WindowNotFound";
  readonly code = "window_not_found";
  readonly next = "Call `windows` to see what is open.";
  constructor(
    readonly windowId: number,
    detail = "it is not open, or is not a top-level window",
  ) {
    super(`window ${windowId}: ${detail}`);
  }
}

export class WindowNotAccessible extends CodedError {
  override readonly name = "WindowNotAccessible";
  readonly code = "not_accessible";
  readonly next = `${PIXELS_ONLY_WINDOW} Run \`deskhand doctor\` for the toolkit's switch.`;
  override get details() {
    return { pixels_only: true };
  }
  constructor(
    readonly windowId: number,
    readonly detail: string,
  ) {
    super(`window ${windowId} has no accessible tree: ${detail}`);
  }
}

export class ElementGone extends CodedError {
  override readonly name = "ElementGone";
  readonly code = "element_gone";
  readonly next = "Take a new snapshot.";
  constructor(
    readonly handle: string,
    readonly detail: string,
  ) {
    super(`the element is gone: ${detail}`);
  }
}

/** The element's application did not answer in time: busy or hung (a stopped process answers nothing). */
export class AppNotResponding extends CodedError {
  override readonly name = "AppNotResponding";
  readonly code = "timeout";
  readonly next =
    "Wait and call again; if it stays so, the app is hung (or stopped): a new snapshot will not help.";
  override get said(): string {
    return `${this.message}; nothing was done`;
  }
  constructor(
    readonly app: string,
    readonly waitedMs: number,
  ) {
    super(`${app} did not answer within ${waitedMs} ms: it is busy or hung`);
  }
}

/**
 * A wait that ended with no answer: the peer (an X server, a bus, a compositor) may only be slow, as
 * on a loaded machine, so what waited says how long rather than that it is broken.
 */
export class NoAnswerError extends Error {
  override readonly name = "NoAnswerError";
  constructor(
    message: string,
    readonly waitedMs: number,
  ) {
    super(message);
  }
}

/** How long the wait that threw `error` went unanswered; undefined for any other failure. */
export function waitedFor(error: unknown): number | undefined {
  const waited = (error as { waitedMs?: unknown } | null | undefined)?.waitedMs;
  return typeof waited === "number" ? waited : undefined;
}

/** The platform's accessibility stack cannot be reached: no display, no session bus, no AT-SPI bus. */
export class BackendUnavailable extends CodedError {
  override readonly name: string = "BackendUnavailable";
  readonly code = "backend_unavailable";
  readonly next: string = "Run `deskhand doctor` to see what is missing.";
}

export type ScrollAmount =
  | "no_amount"
  | "small_increment"
  | "small_decrement"
  | "large_increment"
  | "large_decrement";

/** An action through the element's own accessibility interfaces. No input is synthesized. */
export type SemanticAction =
  | { kind: "invoke" }
  | { kind: "toggle" }
  | { kind: "set_value"; text: string }
  | { kind: "set_range"; value: number }
  | { kind: "focus" }
  | {
      kind: "select";
      option?: string | undefined;
      row?: number | undefined;
      column?: number | undefined;
      /** For a row: replace the selection (the default) or add to it. */
      mode?: "replace" | "add" | undefined;
    }
  | { kind: "expand" }
  | { kind: "collapse" }
  | { kind: "scroll_into_view" }
  | { kind: "scroll"; horizontal: ScrollAmount; vertical: ScrollAmount };

export interface ActionReport {
  /** Which interface and call carried it, e.g. `Action.DoAction("click")`. */
  route: string;
  /** `completed`: the call returned. `unknown`: it did not answer in time (a modal dialog, a hang). */
  outcome: "completed" | "unknown";
  /** What the toolkit returned, when it returned something (some return true and do nothing). */
  returned?: unknown;
  /** Whether the effect was read back (a selected option reads selected); absent when not checked. */
  seen?: boolean;
  detail?: string;
  /** After selecting a row: the table's selected rows, as it reports them (the first 20). */
  selection?: { rows: number[]; total: number };
  /** After a scroll: each bar asked to move, with its value before, to be read again (its Value). */
  scrollBars?: { axis: "horizontal" | "vertical"; handle: string; before: number; wanted: number }[];
  /**
   * Nothing was done, and these keys on the element would do it as a person does: no call of the
   * toolkit tells a page of the change (a web page's drop-down, whose change event only keys fire).
   */
  keys?: { key: "Down" | "Up"; count: number };
}

export interface TableCell {
  row: number;
  column: number;
  /** null: the cell has no text interface. undefined with `unreadable`: it did not answer. */
  text: string | null;
  unreadable?: boolean;
  /** The cell's own text was empty or held U+FFFC: its text was read from its children. */
  fromChildren?: boolean;
}

export interface TableRead {
  rows: number;
  columns: number;
  headers: (string | null)[];
  /** Columns whose header's text was read from its children (a sort button in the header). */
  headersFromChildren?: number[];
  cells: TableCell[];
  /**
   * A sheet too wide to read across (a spreadsheet's 16,384 columns): each row was read up to its
   * first run of this many empty cells after its last value, and no further.
   */
  rowsEndAtEmpty?: number;
  /** With rowsEndAtEmpty: the most cells read of any one row, max_cells shared among the rows. */
  rowShare?: number;
}

/** Where an element's text caret is, and what of its text is selected (character offsets). */
export interface TextCaret {
  caret: number;
  /** CharacterCount: the whole text's length. */
  length: number;
  /** Selected ranges, end exclusive; empty ones left out. */
  selections: { start: number; end: number }[];
}

export interface ElementReader {
  /** One element re-read now with every detail, for verification, receipts and element_info. */
  describe(handle: string, options: { maxText: number; windowId?: number }): Promise<RawNode>;
  /** A slice of the element's text, or `null` when it has no text interface at all. */
  readText(handle: string, start: number, length: number): Promise<{ text: string; length: number } | null>;
  /** The element's caret and selections, or `null` when it has no text interface. */
  readCaret(handle: string): Promise<TextCaret | null>;
  /** The element's object attributes (GTK's "placeholder-text", a page's "placeholder"); {} where none. */
  readAttributes?(handle: string): Promise<Record<string, string>>;
  /**
   * The language the element's own content declares (a web page's `lang`, as "es" or "pt_BR");
   * undefined where it declares none, or the toolkit reports only its process's locale.
   */
  readLanguage?(handle: string): Promise<string | undefined>;
  readTable(handle: string, rowStart: number, rowCount: number, maxCells: number): Promise<TableRead>;
}

export interface ElementActor {
  /** `node`: the element as just verified, so it need not be read again. */
  perform(
    handle: string,
    action: SemanticAction,
    options: { timeoutMs: number; node?: RawNode },
  ): Promise<ActionReport>;
  /** Moves the text caret (which also ends any selection); what the toolkit returned. */
  placeCaret(handle: string, offset: number, options: { timeoutMs: number }): Promise<boolean>;
}

/** The element lacks the interface or action asked for; `supported` lists what it has. */
export class UnsupportedAction extends CodedError {
  override readonly name = "UnsupportedAction";
  readonly code = "unsupported_pattern";
  readonly next =
    "Use an action the element supports (listed); where it shows on screen, the click tool presses it as a person would (a menu title opens so); or use another element.";
  override get details() {
    return { supported: this.supported };
  }
  constructor(
    message: string,
    readonly supported: string[],
  ) {
    super(message);
  }
}

export class ReadOnlyElement extends CodedError {
  override readonly name = "ReadOnlyElement";
  readonly code = "read_only";
  readonly next = "Pick an editable element; this one cannot be changed.";
}

/** The toolkit refused the action, or it cannot apply (disabled, no such option). */
export class ActionRejected extends CodedError {
  override readonly name = "ActionRejected";
  readonly code = "action_failed";
  readonly next = "Re-read the element; the action did not apply as asked.";
}

/** A row, column or index past what the element has; nothing was done. */
export class OutOfRange extends CodedError {
  override readonly name = "OutOfRange";
  readonly code = "index_out_of_range";
  readonly next = "Read the element's size (read_table) and ask within it.";
}

/** An element's ancestor, as ancestorsOf reads it. */
export interface Ancestor {
  handle: string;
  role: string;
  name: string | undefined;
  /** It is the element's own window, a child of its app: nothing above it groups anything. */
  topLevel?: true;
}
