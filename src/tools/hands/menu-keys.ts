// Keys in an open menu: a letter presses the item whose mnemonic it is, Enter and space the selected
// item. Whether a menu is open, in the tree or only on screen (Qt leaves its popups out).

import { closesItsPopup } from "../../core/flatten.js";
import { bindingChords, type Chord } from "../../platform/keys.js";
import { MENU_ITEM_ROLES } from "../../platform/roles.js";
import type { RawNode } from "../../platform/types.js";
import { normalizeLabel } from "../../safety/committing-words.js";
import type { ToolContext } from "../context.js";
import { MENU_ROLES, shownIn } from "./facts.js";
import { readWhole, type WindowRead } from "./window-read.js";

/**
 * The items of the menus open in the window: menu items on screen inside a menu (a menu bar's
 * titles are not in one). A closed menu's items do not show (GTK 3, Qt), or are not in the tree
 * at all (GTK 4's popovers), and a combo box that says its list is closed holds none open (Firefox's
 * `<select>`, whose chosen option claims to show).
 */
export function openMenuItems(read: WindowRead): RawNode[] {
  const shown = shownIn(read);
  const items: RawNode[] = [];
  const walk = (node: RawNode, inMenu: boolean) => {
    if (inMenu && MENU_ITEM_ROLES.has(node.role) && shown(node)) items.push(node);
    if (closesItsPopup(node)) return;
    for (const child of node.children) walk(child, inMenu || MENU_ROLES.has(node.role));
  };
  walk(read.root, false);
  return items;
}

/**
 * Whether a menu is open in the window: items of a menu on screen, or a popup menu window the
 * display shows that the tree leaves out (Qt's). Undefined where the tree shows none and the
 * display cannot list its popups (sway): a Qt menu may be open there. A read, after a key judged
 * to open one.
 */
export async function menuOpen(context: ToolContext, windowId: number): Promise<boolean | undefined> {
  const read = await readWhole(context, windowId).catch(() => undefined);
  if (read && openMenuItems(read).length > 0) return true;
  const popups = await (await context.backend()).openMenus?.().catch(() => undefined);
  return popups === undefined ? undefined : popups.length > 0;
}

/** Why a key or a click into a menu or popup that no accessible tree shows cannot be judged. */
export const UNREAD_MENU =
  "a menu or popup is open on screen that its app leaves out of its accessible tree (Qt's popup menus, a GTK 4 entry's completion list), and it takes the keys and clicks in it: what they press there cannot be read; close it with Escape (the popup takes it before its window does), or act on the element by ref";

/**
 * The letter that presses an item of an open menu: the mnemonic its toolkit reports (GTK's bare
 * "t", Qt's "Alt+A"), else the one its label marks ("_Delete"); undefined where nothing says.
 */
function mnemonicOf(node: RawNode): string | undefined {
  for (const binding of node.keyBindings ?? [])
    for (const { chord, bare } of bindingChords(binding)) {
      const alone = bare || (chord.modifiers.length === 1 && chord.modifiers[0] === "alt");
      if (alone && chord.key?.kind === "char") return chord.key.char.toLowerCase();
    }
  return /(?:^|[^_&])[_&]([\p{L}\p{N}])/u.exec(node.name ?? "")?.[1]?.toLowerCase();
}

/**
 * The letters that reach an open menu: a letter or digit pressed alone, with shift or with alt, or
 * each typed one. In a menu a letter presses the item whose mnemonic it is.
 */
export function menuLetters(chord: Chord | undefined, text: string | undefined): string[] {
  if (text !== undefined) return [...new Set([...text.toLowerCase()].filter((c) => /[\p{L}\p{N}]/u.test(c)))];
  const key = chord?.key;
  const plain = chord?.modifiers.every((m) => m === "shift" || m === "alt") ?? false;
  return key?.kind === "char" && plain && /[\p{L}\p{N}]/u.test(key.char) ? [key.char.toLowerCase()] : [];
}

/**
 * What keys press in an open menu: a letter presses the item whose mnemonic it is (an item with
 * none known, any whose label holds the letter); Enter and space press the selected item.
 */
export function openMenuPresses(
  items: RawNode[],
  letters: string[],
  activates: boolean,
): { node: RawNode; via: string }[] {
  const presses: { node: RawNode; via: string }[] = [];
  for (const node of items) {
    const mnemonic = mnemonicOf(node);
    const label = normalizeLabel(node.name ?? "").toLowerCase();
    const letter = letters.find((l) => (mnemonic ? mnemonic === l : label.includes(l)));
    if (letter)
      presses.push({
        node,
        via: mnemonic
          ? `the open menu's mnemonic ${letter}`
          : `a possible mnemonic in the open menu (none reported): ${letter}`,
      });
    else if (activates && (["selected", "focused", "armed"] as const).some((s) => node.states?.includes(s)))
      presses.push({ node, via: "the selected item of the open menu" });
  }
  return presses;
}
