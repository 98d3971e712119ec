// What Enter and space press from the focus: the focused element itself, an open popup's chosen
// item, a window's default button, a web form's submit button, what a composer sends, or the
// field's own action, which no toolkit reports (a field that only searches or moves a view commits
// nothing). Read from the window just before the keys go; nothing is acted on to find out.

import { placeholderOf } from "../../core/value.js";
import { bindingChords } from "../../platform/keys.js";
import { everyNode } from "../../platform/nodes.js";
import { EDITABLE_ROLES, MENU_ITEMS, roleSet, TYPED_TEXT_ROLES } from "../../platform/roles.js";
import type { RawNode } from "../../platform/types.js";
import {
  BUTTON_ROLES,
  COMMAND_ROLES,
  DIALOG_ROLES,
  PRESSABLE_ROLES,
  type TargetFacts,
} from "../../safety/classify.js";
import { committingMeaning } from "../../safety/meanings.js";
import type { ToolContext } from "../context.js";
import { BINDINGS_READ, childTexts, shownIn, type WindowFacts } from "./facts.js";
import { searches, searchesInBar } from "./find-bar.js";
import { CELL_REFERENCE, SPREADSHEETS } from "./sheet-cells.js";
import type { WindowRead } from "./window-read.js";

const POPUP_HOLDERS = roleSet("menu", "popup menu", "combo box");
const CHOICE_ROLES = roleSet(...MENU_ITEMS, "list item");

/**
 * The item an open popup (a combo box's list, a menu) has chosen: GTK 3 grabs the keyboard for it
 * and reports no focus anywhere, so Enter and space press that item. The deepest, where a submenu
 * is open.
 */
export function openPopupChoice(read: WindowRead): RawNode | undefined {
  const shown = shownIn(read);
  return read.nodes
    .filter((n) => CHOICE_ROLES.has(n.role) && n.states?.includes("selected") && shown(n))
    .filter((n) =>
      pathTo(read.root, n)
        .slice(0, -1)
        .some((holder) => POPUP_HOLDERS.has(holder.role)),
    )
    .at(-1);
}

type Activation = { node?: RawNode; via: string } | { unreadable: string; via: string };

/** A text field of many lines: Enter there types a line break (a composer, an editor). */
const multiLine = (facts: TargetFacts) =>
  facts.states?.includes("multi line") || facts.role === "document text" || facts.role === "paragraph";

/** The elements from the root down to `node`, `node` last; empty when it is not in the tree. */
export function pathTo(root: RawNode, node: RawNode): RawNode[] {
  if (root === node) return [root];
  for (const child of root.children) {
    const path = pathTo(child, node);
    if (path.length > 0) return [root, ...path];
  }
  return [];
}

/** The keys judged by what has the focus: Enter (with `modified`, ctrl+Enter and the like) and space. */
export interface ActivationKeys {
  enter: boolean;
  space: boolean;
  /** Enter held with ctrl, alt or super: a composer's "send" where plain Enter is a line break. */
  modified?: boolean;
}

/**
 * What Enter or space presses, from the focused element: a pressable one is pressed itself; Enter
 * in a text of many lines types a line break unless something may send it (below); Enter anywhere
 * else activates the window's default button, or, where none is reported, what the field itself
 * runs (below). `node` undefined: the focused element itself (a ref's facts).
 */
export async function activationPresses(
  context: ToolContext,
  windowId: number,
  read: WindowRead,
  window: WindowFacts,
  focused: TargetFacts,
  focusedNode: RawNode | undefined,
  keys: ActivationKeys,
): Promise<Activation[]> {
  const shown = shownIn(read);
  const shownDefault = (n: RawNode) => !!n.states?.includes("is default") && shown(n);
  if (focused.role !== undefined && PRESSABLE_ROLES.has(focused.role)) {
    const itself: Activation = { via: "the focused element" };
    if (!keys.enter) return [itself];
    // Enter on a focused control may press the window's default button instead: a Qt dialog's button
    // that is not auto-default, its check and radio buttons, Swing's Metal look. Both are judged.
    const defaults = read.nodes.filter(
      (n) => shownDefault(n) && n !== focusedNode && n.name !== focused.name,
    );
    return [
      itself,
      ...defaults.map((node) => ({ node, via: "the default button, which Enter may press instead" })),
    ];
  }
  if (!keys.enter) return [];
  const editable = focused.role !== undefined && EDITABLE_ROLES.has(focused.role);
  if (editable && multiLine(focused)) return composerSends(context, windowId, read, focusedNode, keys);
  // A web form's default (its submit button) is pressed by Enter in that form's fields only: Enter
  // in a field outside it (a page's search box) leaves it alone. Where the field cannot be placed,
  // every default counts.
  const formOf = (node: RawNode) => pathTo(read.root, node).findLast((n) => n.role === "form");
  const ownForm = focusedNode && pathTo(read.root, focusedNode).length > 0 ? formOf(focusedNode) : null;
  const defaults = read.nodes.filter(
    (n) => shownDefault(n) && (ownForm === null || formOf(n) === undefined || formOf(n) === ownForm),
  );
  if (defaults.length > 0) return defaults.map((node) => ({ node, via: "the default button" }));
  // GTK 4.8 reports no default button: in a dialog, Enter may press any of its buttons.
  if (DIALOG_ROLES.has(window.role ?? ""))
    return read.nodes
      .filter((n) => BUTTON_ROLES.has(n.role) && shown(n))
      .map((node) => ({ node, via: "a possible default button (the toolkit reports none)" }));
  if (!editable) return [];
  return fieldActivation(context, windowId, read, { facts: focused, node: focusedNode }, shown);
}

/** How far up from a text of many lines a button counts as beside it (its pane, its box, their box). */
const BESIDE_LEVELS = 3;
/** The classes of data/meanings.json whose words send: money or data leaves. */
const SENDING = new Set(["money leaves", "data leaves the app"]);

/**
 * Whether a button or link reads as sending: its words mean money or data leaves ("Send", "Post",
 * "Envoyer", "Pay"); with `unnamedToo`, one that says nothing at all (a composer's arrow icon).
 */
function sendsLike(node: RawNode, unnamedToo: boolean): boolean {
  const labels = [node.name, node.description, ...childTexts(node)].filter((l): l is string => !!l?.trim());
  if (labels.length === 0) return unnamedToo;
  return labels.some((label) => SENDING.has(committingMeaning(label)?.what ?? ""));
}

/**
 * What Enter may send from a text of many lines (a chat composer, a web `<textarea>`): a command
 * the app binds to the key; in a web form, the form's buttons; a sending button beside it ("Send",
 * an unnamed arrow). ctrl+Enter, which toolkits never report, may press any sending button or link
 * of the window; a window not read whole may hold one.
 */
async function composerSends(
  context: ToolContext,
  windowId: number,
  read: WindowRead,
  focusedNode: RawNode | undefined,
  keys: ActivationKeys,
): Promise<Activation[]> {
  const shown = shownIn(read);
  const commands = read.nodes.filter((n) => COMMAND_ROLES.has(n.role) && !BUTTON_ROLES.has(n.role));
  const backend = await context.backend();
  await backend.enrich(commands, { ...BINDINGS_READ, windowId });
  const found: Activation[] = commands
    .filter((n) => bindsEnter(n, !!keys.modified))
    .map((node) => ({ node, via: "the command the app binds to Enter" }));
  const path = focusedNode ? pathTo(read.root, focusedNode) : [];
  const form = path.findLast((n) => n.role === "form");
  if (form) found.push(...buttonsIn(form, shown).map((node) => ({ node, via: "the form's submit button" })));
  // The window itself is not beside the text: its buttons are a dialog's, not a composer's. A word
  // processor's document (its toolkit says "document text": Writer's page) takes Enter as a new
  // paragraph; the buttons beside its page are its sidebar's and rulers', which nothing sends.
  const document = path.some((n) => n.role === "document text");
  const beside =
    form || document
      ? []
      : path
          .slice(1, -1)
          .slice(-BESIDE_LEVELS)
          .flatMap((n) => n.children.filter((c) => !path.includes(c)))
          .flatMap((n) => buttonsIn(n, shown))
          .filter((n) => sendsLike(n, true));
  for (const node of new Set(beside)) found.push({ node, via: "a sending button beside the text" });
  if (!keys.modified) return found;
  if (!read.complete)
    return [
      ...found,
      {
        unreadable: "the window was not read whole, so what ctrl+Enter sends cannot be ruled out",
        via: "unknown",
      },
    ];
  const pressed = new Set(found.map((f) => ("node" in f ? f.node : undefined)));
  const sends = read.nodes.filter(
    (n) =>
      (BUTTON_ROLES.has(n.role) || n.role === "link") && shown(n) && !pressed.has(n) && sendsLike(n, false),
  );
  for (const node of sends)
    found.push({ node, via: "a sending button of the window, which ctrl+Enter may press" });
  return found;
}

/** The buttons on screen in a subtree. */
function buttonsIn(root: RawNode, shown: (n: RawNode) => boolean): RawNode[] {
  const found: RawNode[] = [];
  const walk = (n: RawNode) => {
    if (BUTTON_ROLES.has(n.role) && shown(n)) found.push(n);
    n.children.forEach(walk);
  };
  walk(root);
  return found;
}

/** Whether an element's key binding is Enter as an accelerator (GTK 3's ";;Return"), plain or modified. */
function bindsEnter(node: RawNode, modified: boolean): boolean {
  return (node.keyBindings ?? []).some((binding) =>
    bindingChords(binding).some(
      (b) =>
        !b.bare &&
        b.chord.modifiers.some((m) => m !== "shift") === modified &&
        b.chord.key?.kind === "named" &&
        b.chord.key.name === "Enter",
    ),
  );
}

/** Words naming a field whose Enter only moves a view: a line or page to go to, a spreadsheet's Name Box. */
const MOVES_VIEW =
  /\b(go ?to (line|page)|jump to (line|page)|line number|page number|name ?box|cell reference)\b/i;
/** A page or zoom entry moves the view when it holds a number ("3", "3 of 10", "150%") or nothing. */
const NUMBERED_VIEW = /\b(page|pages|zoom)\b/i;
const NUMBER_SHOWN = /^\s*(\d+([.,]\d+)?\s*(%|(of|\/)\s*\d+)?)?\s*$/;

/**
 * Enter in a single-line field with no default button runs the field's own action: a web form's
 * implicit submission, or what the app connected to it (GTK's activate, Qt's returnPressed, a Swing
 * action), which no toolkit reports. A form is judged by its buttons, a form of one field and no
 * button by that field. A field that searches or filters (by its name, label, description or
 * placeholder), or is a find bar's (find-bar.ts), or only moves a view (a spin button, a page or line
 * entry, a spreadsheet's Name Box holding a cell reference) commits nothing; anything else cannot be
 * read.
 */
async function fieldActivation(
  context: ToolContext,
  windowId: number,
  read: WindowRead,
  { facts: focused, node: focusedNode }: { facts: TargetFacts; node: RawNode | undefined },
  shown: (n: RawNode) => boolean,
): Promise<Activation[]> {
  const path = focusedNode ? pathTo(read.root, focusedNode) : [];
  const form = path.findLast((n) => n.role === "form");
  if (form) {
    const inForm = buttonsIn(form, shown);
    if (inForm.length > 0) return inForm.map((node) => ({ node, via: "the form's submit button" }));
    // A form of one field that searches sends only the words to search for (a site's search box).
    const fields = everyNode(form).filter((n) => TYPED_TEXT_ROLES.has(n.role) && shown(n));
    const alone = fields.length === 1 && fields[0] === focusedNode;
    if (alone && (await onlySearchesOrMoves(context, read, focused, focusedNode))) return [];
    return [
      {
        unreadable:
          "Enter in a web form's field submits the form, and the form shows no button to judge the submission by, so what it sends cannot be read",
        via: "the form's implicit submission",
      },
    ];
  }
  if (focused.role === "spin button" || (await onlySearchesOrMoves(context, read, focused, focusedNode)))
    return [];
  if (await searchesInBar(context, path, windowId)) return [];
  return [
    {
      unreadable:
        "Enter in a single-line field runs the field's own action (GTK's activate, Qt's returnPressed, a Swing action, a page's script), which the app does not report, and the window has no default button; press the button that does it instead",
      via: "the field's own action",
    },
  ];
}

/** Whether a single-line field only searches, filters or moves a view, by what it is named or holds. */
async function onlySearchesOrMoves(
  context: ToolContext,
  read: WindowRead,
  focused: TargetFacts,
  node: RawNode | undefined,
): Promise<boolean> {
  const backend = await context.backend();
  const [attributes, text] = node
    ? await Promise.all([
        backend.readAttributes?.(node.handle).catch(() => undefined),
        backend.readText(node.handle, 0, 40).catch(() => null),
      ])
    : [undefined, null];
  const placeholder = placeholderOf(attributes);
  const labels = [focused.name, node?.inferredLabel, focused.description, placeholder].filter(
    (l): l is string => !!l,
  );
  const holds = text?.text.trim() ?? "";
  if (labels.some((l) => searches(l) || MOVES_VIEW.test(l))) return true;
  if (labels.some((l) => NUMBERED_VIEW.test(l)) && NUMBER_SHOWN.test(holds)) return true;
  // LibreOffice names its Name Box nowhere: a cell reference in a spreadsheet's window is one.
  return CELL_REFERENCE.test(holds) && read.nodes.some((n) => SPREADSHEETS.has(n.role));
}
