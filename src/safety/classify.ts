// What raises a level or needs a person: buttons that commit, chords that end sessions or close things.
// Matching is deliberately broad: a false alarm costs a confirmation, a miss costs the user's work.
import { type Chord, chordText } from "../platform/keys.js";
import type { SafetyLevel } from "./levels.js";

const PRESSABLE_ROLES = new Set([
  "push button",
  "button",
  "toggle button",
  "menu item",
  "link",
  "default button",
]);

// Whole words, any case. Kin of OK/Save/Send/Delete/Submit, in English: the toolkits' stock labels.
const COMMITTING_WORDS =
  /\b(ok|okay|save|send|delete|submit|apply|confirm|yes|remove|discard|erase|format|pay|buy|purchase|order|publish|post|overwrite|replace|finish|install|uninstall|reset|destroy|drop|empty|sign out|log ?out|quit|exit|close|accept|agree|commit|merge|deploy|transfer|shut ?down|restart|reboot)\b/i;

export interface TargetFacts {
  role?: string | undefined;
  name?: string | undefined;
}

/** Why a target commits, or undefined when it does not look like it. */
export function commitReason(target: TargetFacts): string | undefined {
  const role = target.role?.toLowerCase();
  const name = target.name?.replace(/[_&]/g, "").trim();
  if (!role || !name || !PRESSABLE_ROLES.has(role)) return undefined;
  const word = COMMITTING_WORDS.exec(name)?.[0];
  return word ? `a ${role} named ${JSON.stringify(name)} ("${word}" commits)` : undefined;
}

/** The level the target itself carries: L3 for a committing button, otherwise none (L1). */
export function targetLevel(target: TargetFacts | undefined): SafetyLevel {
  return target && commitReason(target) ? "L3" : "L1";
}

const DANGEROUS_CHORDS = [
  "ctrl+alt+Backspace",
  "ctrl+alt+Delete",
  "alt+F4",
  "ctrl+q",
  "ctrl+w",
  "super+l",
  "ctrl+shift+q",
  "ctrl+shift+w",
  "ctrl+alt+F1",
  "ctrl+alt+F2",
];

/** Chords that end a session, lock the screen or close windows without asking. */
export function dangerousChord(chord: Chord): string | undefined {
  const text = chordText(chord).toLowerCase();
  return DANGEROUS_CHORDS.find((dangerous) => dangerous.toLowerCase() === text);
}
