// Key names and chords, validated before anything is sent: an unknown name is an error that names it.
// The names are platform-neutral; each input backend maps them to its own codes.
import { CodedError } from "./types.js";

export const MODIFIERS = ["ctrl", "shift", "alt", "super"] as const;
export type Modifier = (typeof MODIFIERS)[number];

const MODIFIER_ALIASES: Record<string, Modifier> = {
  ctrl: "ctrl",
  control: "ctrl",
  shift: "shift",
  alt: "alt",
  super: "super",
  win: "super",
  meta: "super",
};

/** Keys that move the caret, the selection or the view within what has the focus, and nothing else. */
export const MOVING_KEYS: ReadonlySet<string> = new Set([
  "Up",
  "Down",
  "Left",
  "Right",
  "Home",
  "End",
  "PageUp",
  "PageDown",
]);

const NAMED_KEYS = [
  "Enter",
  "Tab",
  "Escape",
  "Space",
  "Backspace",
  "Delete",
  "Insert",
  "Home",
  "End",
  "PageUp",
  "PageDown",
  "Up",
  "Down",
  "Left",
  "Right",
  "F1",
  "F2",
  "F3",
  "F4",
  "F5",
  "F6",
  "F7",
  "F8",
  "F9",
  "F10",
  "F11",
  "F12",
] as const;
export type NamedKey = (typeof NAMED_KEYS)[number];

const KEY_ALIASES: Record<string, NamedKey> = {
  return: "Enter",
  esc: "Escape",
  spacebar: "Space",
  del: "Delete",
  ins: "Insert",
  pgup: "PageUp",
  pgdn: "PageDown",
  arrowup: "Up",
  arrowdown: "Down",
  arrowleft: "Left",
  arrowright: "Right",
};
for (const name of NAMED_KEYS) KEY_ALIASES[name.toLowerCase()] = name;

/** A key: a named key, or one printable character (a letter is its lower case; shift is a modifier). */
export type Key = { kind: "named"; name: NamedKey } | { kind: "char"; char: string };

export interface Chord {
  modifiers: Modifier[];
  key: Key | null;
}

function parseModifier(text: string): Modifier | undefined {
  return MODIFIER_ALIASES[text.trim().toLowerCase()];
}

function parseKey(text: string): Key | undefined {
  const named = KEY_ALIASES[text.toLowerCase()];
  if (named) return { kind: "named", name: named };
  // A character by its X keysym name, as chords are often written ("ctrl+minus" zooms out).
  const character = KEYSYM_CHARS[text.toLowerCase()];
  if (character) return { kind: "char", char: character };
  const chars = [...text];
  if (chars.length !== 1) return undefined;
  const char = chars[0]!;
  // Control characters have named keys (Enter, Tab...) or none at all.
  if (/\p{C}/u.test(char) || char === " ") return char === " " ? { kind: "named", name: "Space" } : undefined;
  return { kind: "char", char: /\p{Lu}/u.test(char) ? char.toLowerCase() : char };
}

/**
 * The UTF-16 index of the first surrogate that is not half of a pair, if any: it is no character,
 * and no key types it (sent as one, it left a GTK entry refusing later input).
 */
export function loneSurrogateAt(text: string): number | undefined {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0xd800 || unit > 0xdfff) continue;
    const next = text.charCodeAt(i + 1);
    if (unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) i++;
    else return i;
  }
  return undefined;
}

/** Why text with a lone surrogate cannot be typed, or undefined when it can. */
export function loneSurrogateError(text: string): string | undefined {
  const at = loneSurrogateAt(text);
  if (at === undefined) return undefined;
  const unit = text.charCodeAt(at).toString(16).toUpperCase();
  return (
    `holds a lone UTF-16 surrogate (\\u${unit}) at index ${at}: half of a character, which no key types; ` +
    "send whole characters (both halves of the pair); nothing was typed"
  );
}

export class KeyNameError extends CodedError {
  override readonly name = "KeyNameError";
  readonly code = "invalid_params";
  readonly next = "Use one of the key names listed; nothing was sent.";
  constructor(
    readonly unknown: string,
    readonly chord: string,
  ) {
    super(
      `unknown key name ${JSON.stringify(unknown)} in ${JSON.stringify(chord)}; known: ctrl, shift, alt, super, ` +
        `${NAMED_KEYS.join(", ")}, one letter, digit or other character, or its X name ("plus" for +, "minus", "comma", "period", "slash", "equal")`,
    );
  }
}

/**
 * "ctrl+shift+p", "Alt+F4", "Enter", "ctrl+plus". Modifiers may also stand alone ("shift"). Extra
 * modifiers from a separate list are merged in. Throws KeyNameError naming the first unknown part.
 */
export function parseChord(chord: string, extraModifiers: string[] = []): Chord {
  const parts = chord === "+" ? ["+"] : chord.split("+").map((p) => p.trim());
  if (parts.some((p) => p === "")) throw new KeyNameError("", chord);
  const modifiers = new Set<Modifier>();
  for (const extra of extraModifiers) {
    const modifier = parseModifier(extra);
    if (!modifier) throw new KeyNameError(extra, extraModifiers.join("+"));
    modifiers.add(modifier);
  }
  let key: Key | null = null;
  for (const [i, part] of parts.entries()) {
    const modifier = parseModifier(part);
    if (modifier) {
      modifiers.add(modifier);
      continue;
    }
    const parsed = i === parts.length - 1 ? parseKey(part) : undefined;
    if (!parsed) throw new KeyNameError(part, chord);
    key = parsed;
  }
  return { modifiers: MODIFIERS.filter((m) => modifiers.has(m)), key };
}

export function chordText(chord: Chord): string {
  const key = chord.key ? (chord.key.kind === "named" ? chord.key.name : chord.key.char) : undefined;
  return [...chord.modifiers, ...(key ? [key] : [])].join("+");
}

// X keysym names that accelerators use for characters (GTK's "<Control>plus"), and keypad keys,
// which count as their main-keyboard twins ("<Control>KP_Enter" is judged as ctrl+Enter).
const KEYSYM_CHARS: Record<string, string> = {
  plus: "+",
  minus: "-",
  equal: "=",
  comma: ",",
  period: ".",
  slash: "/",
  backslash: "\\",
  semicolon: ";",
  colon: ":",
  apostrophe: "'",
  quotedbl: '"',
  grave: "`",
  bracketleft: "[",
  bracketright: "]",
  braceleft: "{",
  braceright: "}",
  question: "?",
  exclam: "!",
  numbersign: "#",
  dollar: "$",
  percent: "%",
  asterisk: "*",
  ampersand: "&",
  underscore: "_",
  less: "<",
  greater: ">",
  at: "@",
  bar: "|",
  asciitilde: "~",
  asciicircum: "^",
  add: "+",
  subtract: "-",
  multiply: "*",
  divide: "/",
  decimal: ".",
};

/** A key as an accelerator names it: GTK keysyms ("Page_Up", "KP_Enter"), Qt's ("PgUp", "Del"). */
function bindingKey(text: string): Key | undefined {
  const name = text.replace(/^(kp_|keypad\s*|num\s*)/i, "");
  const char = KEYSYM_CHARS[name.toLowerCase()];
  if (char) return { kind: "char", char };
  return parseKey(name) ?? parseKey(name.toLowerCase()) ?? parseKey(name.replace(/_/g, "").toLowerCase());
}

const BINDING_MODIFIERS: Record<string, Modifier> = {
  control: "ctrl",
  ctrl: "ctrl",
  primary: "ctrl",
  shift: "shift",
  alt: "alt",
  mod1: "alt",
  meta: "alt",
  super: "super",
};

/**
 * The chords in an accessible action's key binding, as ATK and the Java wrapper give it:
 * "mnemonic;sequence;shortcut" parts such as "s;<Alt>f:s;<Control>s", or "<Alt>d" alone.
 * A sequence through menus ("<Alt>f:s") is no single chord and is skipped. Qt gives "Ctrl+Shift+Del",
 * GTK "<Primary>Delete", "F2", "<Control>KP_Enter". `bare` marks a character with no modifier: a
 * mnemonic that works only while its menu or dialog shows (a bare F-key or Delete is an accelerator).
 */
const QT_MNEMONIC = /^Alt\+\p{Ll}$/u;

export function bindingChords(binding: string): { chord: Chord; bare: boolean; mnemonic: boolean }[] {
  const chords: { chord: Chord; bare: boolean; mnemonic: boolean }[] = [];
  for (const part of binding.split(";")) {
    const text = part.trim();
    if (!text || text.includes(":")) continue;
    const modifiers = new Set<Modifier>();
    let rest = text.replace(/<([^>]+)>/g, (_, name: string) => {
      const modifier = BINDING_MODIFIERS[name.toLowerCase()];
      if (modifier) modifiers.add(modifier);
      return "";
    });
    // The Java wrapper's "ctrl S", "alt shift D"; Qt's "Ctrl+Shift+Del", "Num+Enter".
    const words = rest
      .replace(/\+\+$/, "+plus")
      .split(/(?<=.)[\s+]+/)
      .filter(Boolean);
    while (words.length > 1 && BINDING_MODIFIERS[words[0]!.toLowerCase()]) {
      modifiers.add(BINDING_MODIFIERS[words.shift()!.toLowerCase()]!);
    }
    rest = words.join("");
    const key = bindingKey(rest);
    if (!key) continue;
    const bare = modifiers.size === 0 && key.kind === "char";
    chords.push({
      chord: { modifiers: MODIFIERS.filter((m) => modifiers.has(m)), key },
      bare,
      // Qt writes a mnemonic as "Alt+" and the label's own letter ("Clos&e All": "Alt+e"), an
      // accelerator in upper case ("Alt+E"): a lower-case letter is a mnemonic.
      mnemonic: bare || QT_MNEMONIC.test(text),
    });
  }
  return chords;
}

/** Whether two chords press the same keys (shift folded into upper-case letters is not modelled). */
export function sameChord(a: Chord, b: Chord): boolean {
  return chordText(a).toLowerCase() === chordText(b).toLowerCase();
}
