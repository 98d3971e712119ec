// Key names and characters as X keysyms, the numbers XKB keymaps use on X11 and Wayland alike: the
// X11 keymap, the Wayland keyboard's own keymap and GNOME's extension all speak them.
import type { Key, Modifier, NamedKey } from "./keys.js";

const NAMED_KEYSYMS: Record<NamedKey, number> = {
  Enter: 0xff0d,
  Tab: 0xff09,
  Escape: 0xff1b,
  Space: 0x20,
  Backspace: 0xff08,
  Delete: 0xffff,
  Insert: 0xff63,
  Home: 0xff50,
  End: 0xff57,
  PageUp: 0xff55,
  PageDown: 0xff56,
  Up: 0xff52,
  Down: 0xff54,
  Left: 0xff51,
  Right: 0xff53,
  F1: 0xffbe,
  F2: 0xffbf,
  F3: 0xffc0,
  F4: 0xffc1,
  F5: 0xffc2,
  F6: 0xffc3,
  F7: 0xffc4,
  F8: 0xffc5,
  F9: 0xffc6,
  F10: 0xffc7,
  F11: 0xffc8,
  F12: 0xffc9,
};

export const MODIFIER_KEYSYMS: Record<Modifier, number> = {
  ctrl: 0xffe3,
  shift: 0xffe1,
  alt: 0xffe9,
  super: 0xffeb,
};

/** The keysym of one character: Latin-1 maps to itself, the rest of Unicode to 0x01000000 + code point. */
export function charKeysym(char: string): number {
  if (char === "\n" || char === "\r") return NAMED_KEYSYMS.Enter;
  if (char === "\t") return NAMED_KEYSYMS.Tab;
  const code = char.codePointAt(0)!;
  if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff)) return code;
  return 0x01000000 + code;
}

export function keyKeysym(key: Key): number {
  return key.kind === "named" ? NAMED_KEYSYMS[key.name] : charKeysym(key.char);
}
