// The keymap deskhand's Wayland keyboard uploads, and where each key is in it. The keyboard is its
// own (zwp_virtual_keyboard_v1): its keymap is xkeyboard-config's pc+us, which every Debian has
// (xkb-data), and keys are evdev codes in it. A character the us layout lacks goes on one of twelve
// spare keys (F13–F24, which nobody types) in a swapped keymap, then the plain keymap comes back;
// measured on sway: 24 swapped characters in a row arrived in order in GTK3 and Qt5, with no settle.
import type { Key, Modifier, NamedKey } from "../keys.js";

const PLAIN_SYMBOLS = "pc+us+inet(evdev)";

/** The spare keys, as xkb names them and as evdev codes (the xkb keycode less 8). */
export const SPARE_KEYS = Array.from({ length: 12 }, (_, i) => ({ name: `FK${13 + i}`, code: 183 + i }));

/** The keymap text, with `spares` (characters) on the spare keys in order; NUL-terminated as sent. */
export function keymapText(spares: string[] = []): string {
  if (spares.length > SPARE_KEYS.length)
    throw new Error(`${spares.length} characters at once; the keymap has ${SPARE_KEYS.length} spare keys`);
  const overrides = spares.map(
    (char, i) => `    override key <${SPARE_KEYS[i]!.name}> { [ ${keysymName(char)} ] };\n`,
  );
  return [
    "xkb_keymap {",
    '  xkb_keycodes { include "evdev+aliases(qwerty)" };',
    '  xkb_types { include "complete" };',
    '  xkb_compat { include "complete" };',
    `  xkb_symbols { include "${PLAIN_SYMBOLS}"`,
    ...overrides.map((line) => line.trimEnd()),
    "  };",
    "};",
    "",
  ].join("\n");
}

/** xkb's name for a character's keysym: U and its code point (xkbcommon maps Latin-1 to itself). */
function keysymName(char: string): string {
  const code = char.codePointAt(0)!;
  if (code < 0x20 || (code >= 0x7f && code < 0xa0))
    throw new Error(
      `U+${code.toString(16).toUpperCase().padStart(4, "0")} is a control character: no key types it`,
    );
  return `U${code.toString(16).toUpperCase().padStart(4, "0")}`;
}

export interface Stroke {
  /** The evdev code. */
  code: number;
  /** Pressed with shift held (the character is on the key's second level). */
  shift: boolean;
}

const NAMED_CODES: Record<NamedKey, number> = {
  Enter: 28,
  Tab: 15,
  Escape: 1,
  Space: 57,
  Backspace: 14,
  Delete: 111,
  Insert: 110,
  Home: 102,
  End: 107,
  PageUp: 104,
  PageDown: 109,
  Up: 103,
  Down: 108,
  Left: 105,
  Right: 106,
  F1: 59,
  F2: 60,
  F3: 61,
  F4: 62,
  F5: 63,
  F6: 64,
  F7: 65,
  F8: 66,
  F9: 67,
  F10: 68,
  F11: 87,
  F12: 88,
};

/** The modifier keys (the left ones) and their bits in the modifiers request, as pc's compat sets them. */
export const MODIFIER_KEYS: Record<Modifier, { code: number; mask: number }> = {
  shift: { code: 42, mask: 1 },
  ctrl: { code: 29, mask: 4 },
  alt: { code: 56, mask: 8 },
  super: { code: 125, mask: 64 },
};

// The us layout's printable keys: each row's evdev codes, its plain and its shifted characters.
const US_ROWS: [number, string, string][] = [
  [2, "1234567890-=", "!@#$%^&*()_+"],
  [16, "qwertyuiop[]", "QWERTYUIOP{}"],
  [30, "asdfghjkl;'`", 'ASDFGHJKL:"~'],
  [43, "\\zxcvbnm,./", "|ZXCVBNM<>?"],
];
const US = new Map<string, Stroke>();
for (const [first, plain, shifted] of US_ROWS)
  [...plain].forEach((char, i) => {
    US.set(char, { code: first + i, shift: false });
    US.set(shifted[i]!, { code: first + i, shift: true });
  });
US.set(" ", { code: NAMED_CODES.Space, shift: false });
US.set("\n", { code: NAMED_CODES.Enter, shift: false });
US.set("\r", { code: NAMED_CODES.Enter, shift: false });
US.set("\t", { code: NAMED_CODES.Tab, shift: false });

/** Where a character is in the plain keymap; undefined when it needs a spare key. */
export function usStroke(char: string): Stroke | undefined {
  return US.get(char);
}

export function keyStroke(key: Key): Stroke | undefined {
  return key.kind === "named" ? { code: NAMED_CODES[key.name], shift: false } : usStroke(key.char);
}

/**
 * A text cut into pieces, each typed with one keymap: the characters of a piece outside the us
 * layout number at most twelve (the spare keys), in the order they first come.
 */
export function typingPieces(text: string): { chars: string[]; spares: string[] }[] {
  const pieces: { chars: string[]; spares: string[] }[] = [];
  let piece = { chars: [] as string[], spares: [] as string[] };
  for (const char of text) {
    if (!usStroke(char) && !piece.spares.includes(char)) {
      keysymName(char); // A control character is refused before anything is typed.
      if (piece.spares.length === SPARE_KEYS.length) {
        pieces.push(piece);
        piece = { chars: [], spares: [] };
      }
      piece.spares.push(char);
    }
    piece.chars.push(char);
  }
  if (piece.chars.length) pieces.push(piece);
  return pieces;
}

/** A character's stroke in a piece: the us layout's, or its spare key's. */
export function pieceStroke(char: string, spares: string[]): Stroke {
  const us = usStroke(char);
  if (us) return us;
  return { code: SPARE_KEYS[spares.indexOf(char)]!.code, shift: false };
}
