// What raises a level or needs a person: presses that commit, chords that reach the window manager
// or close things. L3 means the press sends data out of the app, destroys it, cannot be undone in
// the app, or closes a window holding unsaved work. Each rule is one row of docs/safety.md.
// A false alarm costs a confirmation; a miss costs the user's work: what cannot be read counts as
// committing.
import { type Chord, chordText } from "../platform/keys.js";
import type { SafetyLevel } from "./levels.js";
import { endsInEllipsis, labelIs, matchLabel, normalizeLabel } from "./vocabulary.js";

/** Roles a press (click, Enter, space, an action) activates. */
export const PRESSABLE_ROLES = new Set([
  "push button",
  "button",
  "toggle button",
  "default button",
  "menu item",
  "check menu item",
  "radio menu item",
  "link",
  "check box",
  "radio button",
  "list item",
  "tree item",
  "icon",
  "page tab",
  "table cell",
]);
export const BUTTON_ROLES = new Set(["push button", "button", "toggle button", "default button"]);
export const DIALOG_ROLES = new Set(["dialog", "alert", "file chooser", "color chooser", "font chooser"]);

export interface TargetFacts {
  role?: string | undefined;
  name?: string | undefined;
  description?: string | undefined;
  states?: string[] | undefined;
  /** The top-level window holding it, when it was read. */
  window?:
    | {
        role?: string | undefined;
        states?: string[] | undefined;
        /** Whether any editable field in it holds text; undefined: not read. */
        holdsInput?: boolean | undefined;
      }
    | undefined;
  /** Why what the input will hit could not be read: it then counts as committing. */
  unreadable?: string | undefined;
}

/**
 * Whether judging the target needs to know if its window holds input (a dialog's "Close"): asked of
 * the rules themselves, so that the answer cannot drift from them.
 */
export function needsInputCheck(target: TargetFacts): boolean {
  const window = target.window;
  if (!window || window.holdsInput !== undefined || !DIALOG_ROLES.has(window.role ?? "")) return false;
  const judged = (holdsInput: boolean) => pressReason({ ...target, window: { ...window, holdsInput } });
  return judged(true) !== judged(false);
}

/** Why pressing the target commits, as a clause ("it presses …"), or undefined when it does not. */
export function commitReason(target: TargetFacts): string | undefined {
  if (target.unreadable) return `deskhand cannot tell what it would press (${target.unreadable})`;
  const reason = pressReason(target);
  return reason ? `it presses ${reason}` : undefined;
}

function pressReason(target: TargetFacts): string | undefined {
  const role = target.role?.toLowerCase();
  if (!role || !PRESSABLE_ROLES.has(role)) return undefined;
  const windowRole = target.window?.role;
  const inDialog = DIALOG_ROLES.has(windowRole ?? "");
  const label = normalizeLabel(target.name || target.description || "");
  const what = `a ${role} named ${JSON.stringify(label)}`;
  if (!label)
    return inDialog && BUTTON_ROLES.has(role)
      ? `an unnamed ${role} in a ${windowRole}: what it does cannot be read`
      : undefined;
  // GNOME, Apple and Windows guidelines: an ellipsis means more input is asked before anything happens.
  if (endsInEllipsis(label)) return undefined;
  if (labelIs(label, "cancels")) return undefined;
  const words = matchLabel(label);
  if (words.commits) return `${what} ("${words.commits}" commits)`;
  if (words.closes) {
    if (inDialog && target.window?.holdsInput === false) return undefined;
    return inDialog
      ? `${what} closes a ${windowRole}${target.window?.holdsInput ? " holding input" : " whose fields could not be read"}`
      : `${what} closes a window that may hold unsaved work`;
  }
  // A find bar's "Replace All" edits the document, and the app's undo reverts it; in an alert
  // ("A file named … already exists") "Replace" overwrites a file.
  if (words.edits)
    return windowRole === "alert" ? `${what} in an alert ("${words.edits}" overwrites)` : undefined;
  if (windowRole === "alert" && BUTTON_ROLES.has(role)) return `${what} answers an alert`;
  if (inDialog && target.states?.includes("is default") && target.window?.states?.includes("modal"))
    return `${what} is the default button of a modal ${windowRole}`;
  return undefined;
}

/** The level the target itself carries: L3 for one that commits, otherwise none (L1). */
export function targetLevel(target: TargetFacts | undefined): SafetyLevel {
  return target && commitReason(target) ? "L3" : "L1";
}

/** Roles whose value a wheel turn changes: the wheel over them is input (L2), not a scroll. */
const VALUE_ROLES = new Set(["slider", "spin button", "combo box", "dial"]);

export function wheelChangesValue(role: string | undefined): boolean {
  return role !== undefined && VALUE_ROLES.has(role.toLowerCase());
}

/**
 * Chords that end a session, lock the screen, close windows or tabs, or reach the window manager
 * (openbox's default bindings among them): each line says why.
 */
export const DANGEROUS_CHORDS: Record<string, string> = {
  "ctrl+alt+Backspace": "kills the X server",
  "ctrl+alt+Delete": "logs out or reboots",
  "alt+F4": "closes the window",
  "ctrl+F4": "closes the document or tab",
  "shift+alt+F4": "closes the window",
  "ctrl+q": "quits the application",
  "ctrl+w": "closes the document, tab or window",
  "ctrl+shift+q": "quits or logs out",
  "ctrl+shift+w": "closes every tab or window",
  "super+l": "locks the screen",
  "alt+space": "opens the window manager's window menu (Close, Kill)",
  "super+e": "runs a program (openbox's default binding)",
  "super+d": "shows the desktop, hiding every window",
  "alt+Escape": "sends the window to the back",
  "alt+Print": "runs a program (openbox's default binding)",
  ...Object.fromEntries(
    Array.from({ length: 12 }, (_, i) => [`ctrl+alt+F${i + 1}`, "switches to a virtual terminal"]),
  ),
};

/** Why a chord is dangerous, or undefined. */
export function dangerousChord(chord: Chord): string | undefined {
  const text = chordText(chord).toLowerCase();
  const hit = Object.entries(DANGEROUS_CHORDS).find(([c]) => c.toLowerCase() === text);
  return hit ? `${hit[0]} ${hit[1]}` : undefined;
}
