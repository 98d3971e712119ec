// The platform vocabulary every layer above speaks: the role names a backend reports, as AT-SPI names
// them (at-spi2-core 2.46, the names pyatspi and Orca use). A backend maps its own into these inside
// its own folder (atspi/roles.ts); code above names roles only through `roleSet`, so a misspelled
// role, or one no backend ever sends, is a compile error.
// In AT-SPI's own order (AtspiRole, "invalid" = 0 to "last defined"): atspi/roles.ts reads a role
// number as an index here.
export const ROLES = [
  "invalid",
  "accelerator label",
  "alert",
  "animation",
  "arrow",
  "calendar",
  "canvas",
  "check box",
  "check menu item",
  "color chooser",
  "column header",
  "combo box",
  "date editor",
  "desktop icon",
  "desktop frame",
  "dial",
  "dialog",
  "directory pane",
  "drawing area",
  "file chooser",
  "filler",
  "focus traversable",
  "font chooser",
  "frame",
  "glass pane",
  "html container",
  "icon",
  "image",
  "internal frame",
  "label",
  "layered pane",
  "list",
  "list item",
  "menu",
  "menu bar",
  "menu item",
  "option pane",
  "page tab",
  "page tab list",
  "panel",
  "password text",
  "popup menu",
  "progress bar",
  "push button",
  "radio button",
  "radio menu item",
  "root pane",
  "row header",
  "scroll bar",
  "scroll pane",
  "separator",
  "slider",
  "spin button",
  "split pane",
  "status bar",
  "table",
  "table cell",
  "table column header",
  "table row header",
  "tearoff menu item",
  "terminal",
  "text",
  "toggle button",
  "tool bar",
  "tool tip",
  "tree",
  "tree table",
  "unknown",
  "viewport",
  "window",
  "extended",
  "header",
  "footer",
  "paragraph",
  "ruler",
  "application",
  "autocomplete",
  "editbar",
  "embedded",
  "entry",
  "chart",
  "caption",
  "document frame",
  "heading",
  "page",
  "section",
  "redundant object",
  "form",
  "link",
  "input method window",
  "table row",
  "tree item",
  "document spreadsheet",
  "document presentation",
  "document text",
  "document web",
  "document email",
  "comment",
  "list box",
  "grouping",
  "image map",
  "notification",
  "info bar",
  "level bar",
  "title bar",
  "block quote",
  "audio",
  "video",
  "definition",
  "article",
  "landmark",
  "log",
  "marquee",
  "math",
  "rating",
  "timer",
  "static",
  "math fraction",
  "math root",
  "subscript",
  "superscript",
  "description list",
  "description term",
  "description value",
  "footnote",
  "content deletion",
  "content insertion",
  "mark",
  "suggestion",
  "push button menu",
  "last defined",
] as const;

export type Role = (typeof ROLES)[number];

/** A group of roles (pressable, text fields, wrappers...): its names checked by the compiler. */
export function roleSet(...roles: Role[]): ReadonlySet<string> {
  return new Set(roles);
}

/** A menu's items, plain, checked or one of a group. */
export const MENU_ITEMS = [
  "menu item",
  "check menu item",
  "radio menu item",
] as const satisfies readonly Role[];
export const MENU_ITEM_ROLES = roleSet(...MENU_ITEMS);
/** Roles of a grid of cells read through the Table interface. */
export const TABLE_ROLES = roleSet("table", "tree table");

// Text fields, by what each judgement needs of them: one list each, so that they differ only where
// they say why.
const ONE_LINE_FIELDS = ["text", "entry", "password text", "editbar"] as const satisfies readonly Role[];
const TYPED_FIELDS = [...ONE_LINE_FIELDS, "document text", "paragraph"] as const satisfies readonly Role[];

/** One-line fields: a dialog's file name, a form's entry (a password field among them). */
export const ONE_LINE_TEXT_ROLES = roleSet(...ONE_LINE_FIELDS);

/** What a person types words into, whose content is what was typed: a one-line field or a document. */
export const TYPED_TEXT_ROLES = roleSet(...TYPED_FIELDS);

/** Fields that take typing: the typed ones, and a spin button, which holds a number. */
export const EDITABLE_ROLES = roleSet(...TYPED_FIELDS, "spin button");

/**
 * Fields a text is set into whatever states they report: a document or paragraph must say it is
 * editable (Firefox gives EditableText to everything on a page, and setting it there does nothing).
 */
export const SET_TEXT_ROLES = roleSet(...ONE_LINE_FIELDS, "spin button", "combo box", "terminal");

/** Fields a label beside them names: one-line fields and the controls that pick a value. A document is not. */
export const LABELLED_FIELD_ROLES = roleSet(...ONE_LINE_FIELDS, "spin button", "combo box", "slider");

/**
 * Roles whose text is their content, read even where unnamed: fields, paragraphs, terminals, captions.
 * Not a password field (its text is never read) nor a document (read in pages, by read_text).
 */
export const TEXT_CONTENT_ROLES = roleSet(
  "text",
  "entry",
  "editbar",
  "spin button",
  "paragraph",
  "terminal",
  "caption",
  "static",
);

/**
 * Fields that are one text with one caret: typing goes at its end, and the whole is re-read. Not a
 * paragraph (a part of a document) nor an editbar (LibreOffice's shows the cell, not the typing).
 */
const ONE_CARET = ["text", "entry", "password text", "spin button", "document text"] as const;
export const ONE_CARET_ROLES = roleSet(...ONE_CARET);

/** Fields whose own text is what was typed into them once the app has taken it: one-caret fields and a terminal. */
export const SHOWS_TYPED_ROLES = roleSet(...ONE_CARET, "terminal");

/** Roles of a top-level window's own element: nothing above one groups anything in it. */
export const WINDOW_ROLES = roleSet(
  "frame",
  "window",
  "dialog",
  "alert",
  "file chooser",
  "color chooser",
  "font chooser",
);

/**
 * Regions that announce a message (an alert, a status line, a notification): what they say is the
 * text of everything in them, which a page often puts in child paragraphs, not in their own text.
 */
export const MESSAGE_ROLES = roleSet("alert", "notification", "status bar", "info bar", "tool tip");

/** Where a click gives the keyboard focus for typing after it: an editable field, a terminal, a cell, a combo box. */
export const CLICK_TO_FOCUS_ROLES = roleSet(
  ...TYPED_FIELDS,
  "spin button",
  "terminal",
  "table cell",
  "combo box",
);

/** The states a backend reports, as AT-SPI names them (AtspiStateType order: atspi/states.ts reads bits). */
export const STATES = [
  "invalid",
  "active",
  "armed",
  "busy",
  "checked",
  "collapsed",
  "defunct",
  "editable",
  "enabled",
  "expandable",
  "expanded",
  "focusable",
  "focused",
  "has tooltip",
  "horizontal",
  "iconified",
  "modal",
  "multi line",
  "multiselectable",
  "opaque",
  "pressed",
  "resizable",
  "selectable",
  "selected",
  "sensitive",
  "showing",
  "single line",
  "stale",
  "transient",
  "vertical",
  "visible",
  "manages descendants",
  "indeterminate",
  "required",
  "truncated",
  "animated",
  "invalid entry",
  "supports autocompletion",
  "selectable text",
  "is default",
  "visited",
  "checkable",
  "has popup",
  "read only",
  "last defined",
] as const;

export type State = (typeof STATES)[number];

/**
 * The interfaces an element offers, by AT-SPI's short names (org.a11y.atspi.Text is "Text"). A
 * backend maps its own (UIA patterns, AX attributes) onto what they let deskhand do.
 */
export const INTERFACES = [
  "Accessible",
  "Action",
  "Application",
  "Collection",
  "Component",
  "Document",
  "EditableText",
  "Hyperlink",
  "Hypertext",
  "Image",
  "Selection",
  "Table",
  "TableCell",
  "Text",
  "Value",
] as const;

export type Interface = (typeof INTERFACES)[number];

const STATE_NAMES: ReadonlySet<string> = new Set(STATES);

/**
 * Whether an item can be selected within its parent: it says so, or its states were not read. Kate's
 * page tabs say not, and their tab bar has no Selection.
 */
export const saysSelectable = (states: readonly string[] | null | undefined): boolean =>
  states == null || states.includes("selectable");

/** Whether a name (a caller's, say) is one of the vocabulary's states. */
export function isState(name: string): name is State {
  return STATE_NAMES.has(name);
}
