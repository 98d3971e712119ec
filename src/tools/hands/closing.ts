// What closing a window loses, judged by what it holds: a window with nothing a person made or chose
// in it (a help viewer, an information window, a demo's list) closes with nothing lost, and asks no
// one; one holding text typed into a field, a document, a canvas, a terminal or a choice, or
// marked modified in its title, or one that cannot be read whole, may lose it: closing it commits.
// A dialog's close is its Cancel: only typed text, a terminal or an embedded window count there.
import { type Role, roleSet } from "../../platform/roles.js";
import { DIALOG_ROLES, type TargetFacts } from "../../safety/classify.js";
import type { ToolContext } from "../context.js";
import { readWhole } from "./window-read.js";

/** Controls that hold a value a person set or chose: closing their window loses it. */
export const SETS_A_VALUE: Role[] = [
  "check box",
  "radio button",
  "combo box",
  "slider",
  "spin button",
  "dial",
];

const CHOICES = roleSet(...SETS_A_VALUE);
/** Roles whose element holds what a person made or chose, whatever its states say. */
const HOLDS_WORK = roleSet(...SETS_A_VALUE, "drawing area", "canvas", "terminal", "embedded");
/**
 * What a dialog holds that its close loses: closing a dialog is its Cancel (Escape's), so its choices
 * were never applied and a picture in it (LibreOffice's Tip of the Day) is no one's work; a terminal
 * or another program's window in it still is, and so is text typed into its fields.
 */
const DIALOG_HOLDS_WORK = roleSet("terminal", "embedded");
/** A title that says its document has unsaved changes: "*notes.txt", "notes.txt * — KWrite", "(modified)". */
const MODIFIED = /^\s*\*|\s\*(\s|$)|\*\s*$|•|[([](modified|changed|unsaved)[)\]]/i;

/** Why closing the window may lose something, or undefined where it holds nothing to lose. */
async function mayLose(context: ToolContext, windowId: number, title: string): Promise<string | undefined> {
  if (MODIFIED.test(title)) return "its title marks unsaved changes";
  const read = await readWhole(context, windowId).catch(() => undefined);
  if (!read?.complete) return "it could not be read whole, so what it holds cannot be told";
  const dialog = DIALOG_ROLES.has(read.root.role) || !!read.root.states?.includes("modal");
  const held = read.nodes.find((n) => (dialog ? DIALOG_HOLDS_WORK : HOLDS_WORK).has(n.role));
  if (held) return `it holds a ${held.role}${held.name ? ` "${held.name}"` : ""}`;
  const backend = await context.backend();
  // A spin button's number is a choice, as a check box's is (a dialog's close is its Cancel; a main
  // window's was judged above): what was typed counts, not what was set.
  const typed = read.nodes.filter((n) => n.states?.includes("editable") && !CHOICES.has(n.role));
  for (const node of typed) {
    const text = await backend.readText(node.handle, 0, 1).catch(() => null);
    // A field that cannot be read may hold anything; an empty one holds nothing.
    if (!text || text.length > 0) return `its ${node.role}${node.name ? ` "${node.name}"` : ""} holds text`;
  }
  return undefined;
}

/** What closing a window presses: the window's close, committing where it may lose what it holds. */
export async function closingFacts(
  context: ToolContext,
  windowId: number,
  title: string,
): Promise<TargetFacts[]> {
  const why = await mayLose(context, windowId, title);
  return why
    ? [{ role: "frame", name: title, runs: `closes the window, and what it holds unsaved (${why})` }]
    : [
        {
          nothing:
            "closes a window that holds nothing a person made or chose: no text in a field, no document, canvas or choice, no unsaved mark",
        },
      ];
}
