// The value an element shows, one judgement for every reply that shows one (snapshot, find, receipts,
// value_contains): its Value, else its own text, a marker for a password field, and for a message
// region (an alert, a status line) the words of what is in it.

import { MESSAGE_ROLES, roleSet, SET_TEXT_ROLES } from "../platform/roles.js";
import { type AccessibilityReader, PASSWORD_ROLE, type RawNode } from "../platform/types.js";
import { credentialRanges, secretField, withMarkers } from "./credentials.js";

export const PASSWORD_MARKER = "<hidden: password field>";
/** What a field's value shows where it holds a card number or a key: that part is kept out of replies. */
export const CREDENTIAL_MARKER = "<hidden: card number or key>";
/** A field whose name says it takes a one-time code, a PIN or a security code: its value is kept out. */
export const CODE_MARKER = "<hidden: code field>";

/**
 * The hint a field shows while empty ("DD/MM/YYYY", "Search…"), from its object attributes: GTK's
 * "placeholder-text", a web page's "placeholder".
 */
export function placeholderOf(attributes: Record<string, string> | undefined): string | undefined {
  const said = attributes?.["placeholder-text"] ?? attributes?.placeholder;
  return said?.trim() ? said : undefined;
}

/** Fields typed into on one line (an entry, a web input, a combo box's text). */
const FIELD_ROLES = roleSet("text", "entry", "editbar", "combo box", "spin button");

/**
 * A field's value as a reply may show it: a secret typed into it never comes back (issue 54: secrets
 * stay out of every journal line, recording and reply). A field named for a code shows a marker; a
 * card number or a key in any field, found by its look as the journal finds it, is replaced by one.
 * Text in a document, a terminal or a label is shown as it is (a digest in an editor is data).
 */
function fieldValue(node: RawNode, value: string): string {
  const ranges = secretRanges(node, value);
  if (ranges.length === 0) return value;
  if (secretField(node.name, node.description)) return CODE_MARKER;
  return withMarkers(value, ranges, CREDENTIAL_MARKER);
}

/**
 * The parts of a field's text that are secrets, [start, end): all of it in a field named for a
 * code, else each card number or key found by its look; none outside a one-line field.
 */
export function secretRanges(
  node: Pick<RawNode, "role" | "name" | "description" | "interfaces" | "states">,
  text: string,
): [number, number][] {
  if (!FIELD_ROLES.has(node.role) || text === "") return [];
  if (secretField(node.name, node.description) && takesText(node)) return [[0, text.length]];
  return credentialRanges(text);
}

/** Whether a value shown in a reply had a secret taken out (it cannot be compared with what was set). */
export const hidesSecret = (value: string | undefined): boolean =>
  value === PASSWORD_MARKER || value === CODE_MARKER || !!value?.includes(CREDENTIAL_MARKER);

/**
 * Whether a text can be set into the element (a field): it has EditableText, and it says it is
 * editable or is a field by its role. Firefox gives EditableText to everything on a page, buttons
 * and paragraphs too, and setting it there returns true and changes nothing.
 */
export function takesText(node: {
  role: string;
  interfaces?: readonly string[] | null | undefined;
  states?: readonly string[] | null | undefined;
}): boolean {
  if (!(node.interfaces ?? []).includes("EditableText") || node.role === "label") return false;
  return (node.states ?? []).includes("editable") || SET_TEXT_ROLES.has(node.role);
}

/**
 * The value an element shows: its Value, else its text; a marker for a password field, for a field
 * named for a code, and for a card number or a key in a field (fieldValue). With
 * `skipNameEcho`, text that only repeats the name (a label's), or is empty, is left out where the
 * element is no field.
 */
export function shownValue(node: RawNode, skipNameEcho = false): string | undefined {
  const value = rawShownValue(node, skipNameEcho);
  return value === undefined ? undefined : fieldValue(node, value);
}

function rawShownValue(node: RawNode, skipNameEcho: boolean): string | undefined {
  if (node.role === PASSWORD_ROLE) return PASSWORD_MARKER;
  if (node.value !== undefined) return node.value;
  if (MESSAGE_ROLES.has(node.role) && !ownText(node.text)) return messageText(node);
  // A closed combo box that says no value of its own (LibreOffice's, a page's <select>) shows the
  // item its list reports selected, where the read holds that list.
  if (node.role === "combo box" && !ownText(node.text)) {
    const chosen = selectedChoice(node);
    if (chosen !== undefined) return chosen;
  }
  if (node.text === undefined) return undefined;
  // Web engines and LibreOffice put U+FFFC where a child object sits in a container's text; a text
  // made only of those says nothing the children do not.
  if (onlyPlaceholders(node.text)) return undefined;
  // A field's text is what was typed, whatever it says; elsewhere, text that repeats the name (a
  // label's, a web button's) or is empty (Firefox's icon buttons) says nothing.
  const own = node.text.trim();
  if (skipNameEcho && !takesText(node) && (own === "" || own === (node.name ?? "").trim())) return undefined;
  // Mixed with text ("Name ￼" in a label holding its field), the placeholders say nothing either.
  return node.text.includes("\uFFFC") ? node.text.replace(/\s*\uFFFC/gu, "") : node.text;
}

/** The name of the item a combo box's list (its child, or the child itself) reports selected. */
function selectedChoice(box: RawNode): string | undefined {
  const items = box.children.flatMap((c) => (c.children.length > 0 ? c.children : [c]));
  return items.find((i) => i.states?.includes("selected") && i.name)?.name;
}

/** A text made only of U+FFFC (and spaces): where children sit, saying nothing itself. An empty text is a value. */
function onlyPlaceholders(text: string): boolean {
  return /^[\s\uFFFC]*\uFFFC[\s\uFFFC]*$/u.test(text);
}

/** Whether a text says something of its own: not empty, nor only U+FFFC where children sit. */
function ownText(text: string | undefined): boolean {
  return text !== undefined && !/^[\s\uFFFC]*$/u.test(text);
}

/** Characters of a message region's text gathered from its children. */
const MESSAGE_CHARS = 1000;

/**
 * An alert's or a status line's message, where its own text only marks its children (a page's
 * `<div role="alert"><p>…</p></div>`): their texts in reading order, each U+FFFC replaced by the
 * child it stands for. Undefined when the children were not read.
 */
function messageText(node: RawNode): string | undefined {
  if (node.children.length === 0) return node.text === undefined ? undefined : "";
  return spoken(node).replace(/\s+/gu, " ").trim().slice(0, MESSAGE_CHARS);
}

/**
 * Reads the parts of an element found without its children (a search the app answered, one element
 * described) where they are what it shows: a message region's words (a few levels, a few dozen
 * elements), a closed combo box's list (the item it holds).
 */
export async function readShownParts(
  backend: AccessibilityReader,
  node: RawNode,
  options: { windowId: number | null; timeoutMs: number },
): Promise<void> {
  if (node.value !== undefined || ownText(node.text) || node.children.length > 0) return;
  if (node.role === "combo box") return readChoices(backend, node, options.timeoutMs);
  if (!MESSAGE_ROLES.has(node.role)) return;
  const structure = {
    maxDepth: 4,
    tableRows: 0,
    walkTables: false,
    nodeCeiling: 60,
    timeoutMs: options.timeoutMs,
  };
  const read = await backend.readSubtree(node.handle, structure).catch(() => undefined);
  if (!read) return;
  const inside: RawNode[] = [];
  const collect = (n: RawNode) => {
    for (const child of n.children) {
      inside.push(child);
      collect(child);
    }
  };
  collect(read.root);
  if (inside.length === 0) return;
  await backend
    .enrich(inside, {
      maxText: MESSAGE_CHARS,
      timeoutMs: options.timeoutMs,
      accessibleIds: false,
      actions: false,
      ...(options.windowId === null ? {} : { windowId: options.windowId }),
    })
    .catch(() => undefined);
  node.children = read.root.children;
}

/** Options a closed combo box's list holds at most, read to find the one it shows. */
const CHOICES_READ = 500;

/**
 * A closed combo box found without its list (a search the app answered), whose value is its list's
 * selected item (Firefox's HTML select): its list read, two levels, so that its value says it.
 */
async function readChoices(backend: AccessibilityReader, box: RawNode, timeoutMs: number): Promise<void> {
  const structure = { maxDepth: 2, tableRows: 0, walkTables: false, nodeCeiling: CHOICES_READ, timeoutMs };
  const read = await backend.readSubtree(box.handle, structure).catch(() => undefined);
  if (read) box.children = read.root.children;
}

/** What a person reads in an element and everything in it (a password field: nothing). */
function spoken(node: RawNode): string {
  if (node.role === PASSWORD_ROLE) return "";
  if (node.value !== undefined) return node.value;
  if (node.text?.includes("\uFFFC")) {
    let child = 0;
    return node.text.replace(/\uFFFC/gu, () => {
      const next = node.children[child++];
      return next ? ` ${spoken(next)} ` : "";
    });
  }
  if (ownText(node.text)) return node.text!;
  if (node.children.length > 0) return node.children.map(spoken).join(" ");
  return node.name ?? "";
}
