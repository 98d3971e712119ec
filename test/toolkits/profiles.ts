// One profile per toolkit app: how to start it, and where each capability of the contract suite is
// exercised in it. A capability the toolkit lacks is a named skip with its reason, or an expected
// refusal that deskhand must give with a reason.
import type { ToolName } from "../../src/tools/registry.js";
export type Capability =
  | "snapshot"
  | "find"
  | "invoke"
  | "set_value"
  | "toggle_select"
  | "read_text"
  | "typing"
  | "screenshot"
  | "table_cells"
  | "field_labels";

// In the order they run: read_text before set_value and typing change the text it reads.
export const CAPABILITIES: Capability[] = [
  "snapshot",
  "find",
  "read_text",
  "invoke",
  "set_value",
  "toggle_select",
  "typing",
  "screenshot",
  "table_cells",
  "field_labels",
];

export interface Query {
  role?: string;
  value_contains?: string;
  name?: string;
  name_contains?: string;
  states?: string[];
  /** Among the matches, the one to use. */
  pick?: (match: {
    name: string | null;
    value?: string;
    states: string[] | null;
    bounds: { width: number; height: number } | null;
  }) => boolean;
}

/** What set_value writes; typing then types TYPED_KEYS over it, so each proves its own effect. */
export const SET_TEXT = "deskhand é ✓";
export const TYPED_KEYS = "typed Ω ✓";
/** An empty field on screen, or the one an earlier capability of this run filled. */
const emptyOrOurs = (m: { value?: string; bounds: { width: number } | null }) =>
  (m.value === "" || m.value === SET_TEXT || m.value === TYPED_KEYS) && (m.bounds?.width ?? 0) > 0;

export interface Profile {
  /** The ledger's column heading. */
  label: string;
  app: string;
  title: string;
  /** Seconds to wait after registration for the app to fill its window (pages load, cells draw). */
  settleMs?: number;
  find: Query;
  /** Invoke this and re-read `effect` until it holds. */
  /** `undo`: invoke once more afterwards (a popover left open would take the later clicks). */
  invoke: { target: Query; effect: Query | { opens: string }; undo?: boolean } | { skip: string };
  /** A click (real input) before typing: puts the field on screen (a tab). */
  beforeTyping?: Query;
  /** A text field for set_value and typing. */
  text: Query | { skip: string };
  /** Where deskhand must refuse set_value (the toolkit has no route for it), and why. */
  setValueRefused?: string;
  toggle:
    | { kind: "toggle"; target: Query }
    | { kind: "select_option"; target: Query; option: string; effect: Query }
    | { kind: "select_cell"; target: Query; row: number; column: number; cell: string }
    | { kind: "refused"; target: Query; why: string };
  readText: { target: Query; contains: string } | { skip: string };
  /** Typing into a table cell (LibreOffice): typed, then Enter, then read back through the Table. */
  typingCell?: { table: Query; cell: Query; row: number; column: number };
  /** A table whose first rows read_table reads, to say where its cells' text comes from. */
  table?: Query;
}

const web = (label: string, app: string, title: string): Profile => ({
  label,
  app,
  title,
  settleMs: 1500,
  find: { role: "push button", name: "Show greeting" },
  invoke: {
    target: { role: "push button", name: "Show greeting" },
    // Firefox shows the status text as the status bar's value, Chromium as a static child's.
    effect: { value_contains: "Hello" },
  },
  text: { role: "entry", name: "Name" },
  toggle: { kind: "toggle", target: { role: "check box", name: "Subscribe" } },
  readText: { target: { role: "paragraph" }, contains: "web fixture of the toolkit contract suite" },
  table: { role: "table", name: "Stock" },
});

export const PROFILES: Record<string, Profile> = {
  gtk3: {
    label: "GTK3",
    app: "gtk3-widget-factory",
    title: "gtk3-widget-factory",
    find: { role: "radio button", name: "Page 2" },
    invoke: {
      target: { role: "toggle button", name: "Menu" },
      effect: { role: "toggle button", name: "Menu", states: ["checked"] },
      undo: true,
    },
    text: { role: "text", states: ["editable", "showing"], pick: emptyOrOurs },
    toggle: { kind: "toggle", target: { role: "check box", states: ["showing", "sensitive"] } },
    readText: {
      target: { role: "text", states: ["editable", "showing"], pick: (m) => m.value === "entry" },
      contains: "entry",
    },
  },
  gtk2: {
    label: "GTK 2 (gtk-demo)",
    app: "gtk-demo",
    title: "GTK+ Code Demos",
    find: { role: "tree table" },
    // A row's own action opens the demo it names, in a window of its own.
    invoke: { target: { role: "table cell", name: "Button Boxes" }, effect: { opens: "Button Boxes" } },
    text: { skip: "gtk-demo's main window has no field that takes text: its Info view is read-only" },
    toggle: { kind: "select_cell", target: { role: "tree table" }, row: 3, column: 0, cell: "Button Boxes" },
    // The Info page says what the selected demo is; the first row is selected at start.
    readText: { target: { role: "text", states: ["showing"] }, contains: "Application main window" },
    table: { role: "tree table" },
  },
  gtk4: {
    label: "GTK4",
    app: "gtk4-widget-factory",
    title: "GTK Widget Factory",
    find: { role: "push button", name: "togglebutton" },
    invoke: {
      target: { role: "push button", name: "togglebutton" },
      effect: { role: "push button", name: "togglebutton", states: ["pressed"] },
    },
    // GTK 4's entries are unnamed (it passes "GtkEntry" through, which deskhand drops).
    text: { role: "text", states: ["editable", "showing"], pick: emptyOrOurs },
    toggle: {
      kind: "refused",
      target: {
        role: "check box",
        pick: (m) => (m.bounds?.width ?? 0) > 0 && !m.states?.includes("checked"),
      },
      why: "GTK 4.8 check boxes expose no actions: deskhand refuses toggle with unsupported_pattern; a click (synthetic input) works",
    },
    readText: {
      target: { role: "text", states: ["editable", "showing"], pick: (m) => m.value === "entry" },
      contains: "entry",
    },
  },
  swing: {
    label: "Java Swing",
    table: { role: "table" },
    app:
      "java -Djavax.accessibility.assistive_technologies=org.GNOME.Accessibility.AtkWrapper " +
      "-cp build/fixtures:/usr/share/java/java-atk-wrapper.jar DeskhandFixture",
    title: "Deskhand Fixture",
    find: { role: "push button", name: "Alpha" },
    invoke: {
      target: { role: "push button", name: "Alpha" },
      effect: { role: "label", name: "Status", pick: () => true },
    },
    text: { role: "text", name: "Name" },
    toggle: { kind: "toggle", target: { role: "check box", name: "Subscribe" } },
    readText: { target: { role: "text", name: "Notes" }, contains: "Second line" },
  },
  qt: {
    label: "Qt 5",
    app: "/usr/lib/x86_64-linux-gnu/qt5/examples/widgets/widgets/styles/styles",
    title: "Styles",
    find: { role: "push button", name: "Default Push Button" },
    // Pressing the "Text Edit" tab puts its text edit on screen (Qt reports no "selected" state on
    // tabs, so the effect is the text edit showing). Typing, later, needs it there.
    invoke: {
      target: { role: "page tab", name: "Text Edit" },
      effect: { role: "text", states: ["showing"] },
    },
    text: { role: "text" },
    // The toggle push button starts checked.
    toggle: { kind: "toggle", target: { role: "check box", name: "Toggle Push Button" } },
    readText: { target: { role: "text", pick: () => true }, contains: "Twinkle" },
  },
  firefox: web("Firefox ESR", "test/fixtures/web/firefox", "Deskhand Web Form*Firefox*"),
  chromium: {
    ...web("Chromium", "test/fixtures/web/chromium", "Deskhand Web Form*Chromium*"),
    setValueRefused:
      "Chromium's text inputs expose no EditableText: deskhand refuses set_value with unsupported_pattern; type_text works",
  },
  calc: {
    label: "LibreOffice Calc",
    app: "soffice --calc --norestore --nologo",
    title: "*LibreOffice Calc",
    settleMs: 1000,
    table: { role: "table", name_contains: "Sheet1" },
    find: { role: "table", name_contains: "Sheet1" },
    invoke: {
      skip: "Calc's cells and sheet have no invoke action; cells are selected (select) or typed into",
    },
    text: { skip: "Calc's cells have no EditableText: text goes in by typing (see typing)" },
    toggle: {
      kind: "select_cell",
      target: { role: "table", name_contains: "Sheet1" },
      row: 2,
      column: 2,
      cell: "C3",
    },
    readText: { skip: "a cell's text is read through the Table interface (read_table), proven under typing" },
    typingCell: {
      table: { role: "table", name_contains: "Sheet1" },
      cell: { role: "table cell", name: "B2" },
      row: 1,
      column: 1,
    },
  },
};

type Call = (
  tool: ToolName,
  input: Record<string, unknown>,
) => Promise<{ data: any; text?: string | undefined }>;

/** The web fixture's status line, as the page set it last. */
export async function webStatus(call: Call, target: { kind: string; glob: string }): Promise<string> {
  const found = await call("find", { target, role: "status bar", name: "Status", include_off_screen: true });
  const ref = found.data.matches[0].ref;
  const snapshot = await call("snapshot", { target: { kind: "element", ref }, format: "full" });
  return snapshot.text ?? "";
}
