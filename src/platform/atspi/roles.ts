// AT-SPI role numbers (AtspiRole in at-spi2-core 2.46) mapped to the names pyatspi and Orca use.
// Index = the number GetRole returns. Generated once from Atspi.Role value nicks, "-" read as " ".
const atspiRoleNames: readonly string[] = [
  "invalid", "accelerator label", "alert", "animation", "arrow", "calendar", "canvas", "check box",
  "check menu item", "color chooser", "column header", "combo box", "date editor", "desktop icon",
  "desktop frame", "dial", "dialog", "directory pane", "drawing area", "file chooser", "filler",
  "focus traversable", "font chooser", "frame", "glass pane", "html container", "icon", "image",
  "internal frame", "label", "layered pane", "list", "list item", "menu", "menu bar", "menu item",
  "option pane", "page tab", "page tab list", "panel", "password text", "popup menu", "progress bar",
  "push button", "radio button", "radio menu item", "root pane", "row header", "scroll bar", "scroll pane",
  "separator", "slider", "spin button", "split pane", "status bar", "table", "table cell",
  "table column header", "table row header", "tearoff menu item", "terminal", "text", "toggle button",
  "tool bar", "tool tip", "tree", "tree table", "unknown", "viewport", "window", "extended", "header",
  "footer", "paragraph", "ruler", "application", "autocomplete", "editbar", "embedded", "entry", "chart",
  "caption", "document frame", "heading", "page", "section", "redundant object", "form", "link",
  "input method window", "table row", "tree item", "document spreadsheet", "document presentation",
  "document text", "document web", "document email", "comment", "list box", "grouping", "image map",
  "notification", "info bar", "level bar", "title bar", "block quote", "audio", "video", "definition",
  "article", "landmark", "log", "marquee", "math", "rating", "timer", "static", "math fraction",
  "math root", "subscript", "superscript", "description list", "description term", "description value",
  "footnote", "content deletion", "content insertion", "mark", "suggestion", "push button menu",
  "last defined",
];

export function roleName(role: number): string {
  return atspiRoleNames[role] ?? `unknown role ${role}`;
}

export function roleNumber(name: string): number | undefined {
  const index = atspiRoleNames.indexOf(name);
  return index < 0 ? undefined : index;
}
