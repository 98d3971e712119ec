// Selectors with AND semantics: every field given must hold. role, name, description, text and the
// `_contains` fields fold case (Unicode-aware); accessible_id is exact and case-sensitive; every state
// given must be present.

import type { State } from "../platform/roles.js";
import { PASSWORD_ROLE, type RawNode } from "../platform/types.js";
import { shownValue } from "./value.js";

export interface Selector {
  role?: string | undefined;
  name?: string | undefined;
  name_contains?: string | undefined;
  value_contains?: string | undefined;
  description?: string | undefined;
  accessible_id?: string | undefined;
  states?: State[] | undefined;
  /** The name, or for an unnamed field the label beside it (inferred by position). */
  label?: string | undefined;
  /** Part of what a person reads on it, wherever the app keeps it: name, label, value or description. */
  text?: string | undefined;
}

/** Where a selector's `text` was found on an element. */
export type TextPlace = "name" | "label" | "value" | "description";

/** Case folding for matching: compatibility-normalised, then lower-cased without a locale. */
export function fold(text: string): string {
  return text.normalize("NFKC").toLowerCase();
}

export type MatchResult = "match" | "no" | "unreadable";

/** Fields a selector needs beyond the structure read. */
export function needsDetails(selector: Selector): { value: boolean; accessibleId: boolean } {
  return {
    value: selector.value_contains !== undefined || selector.text !== undefined,
    accessibleId: selector.accessible_id !== undefined,
  };
}

/** What an element shows as its value or text, never a password's. */
const valueShown = (node: RawNode) => (node.role === PASSWORD_ROLE ? undefined : shownValue(node));

/**
 * Where `text` is on the element, first place first (name, label, value, description); undefined
 * where it is in none that was read. "unread" where it is in none, and a place was not read.
 */
export function textPlace(node: RawNode, text: string): TextPlace | "unread" | undefined {
  const wanted = fold(text);
  const places: [TextPlace, string | undefined][] = [
    ["name", node.name],
    ["label", node.inferredLabel],
    ["value", valueShown(node)],
    ["description", node.description],
  ];
  const found = places.find(([, v]) => v !== undefined && fold(v).includes(wanted));
  if (found) return found[0];
  const unread = ["name", "value", "text", "description"].some((f) => node.unread.includes(f));
  return unread ? "unread" : undefined;
}

/**
 * "unreadable" when a field the selector names was not reported by the app: such a candidate is neither
 * a match nor a miss, and is listed as such.
 */
export function matches(node: RawNode, selector: Selector): MatchResult {
  let unreadable = false;
  const check = (value: string | undefined, test: (v: string) => boolean): boolean => {
    if (value === undefined) {
      unreadable = true;
      return true;
    }
    return test(value);
  };
  if (selector.role !== undefined && fold(node.role) !== fold(selector.role)) return "no";
  if (selector.name !== undefined && !check(node.name, (v) => fold(v) === fold(selector.name!))) return "no";
  if (
    selector.name_contains !== undefined &&
    !check(node.name, (v) => fold(v).includes(fold(selector.name_contains!)))
  ) {
    return "no";
  }
  if (selector.label !== undefined) {
    // What a label names is the field beside it, not the label itself.
    if (node.role === "label" || node.role === "static") return "no";
    const wanted = fold(selector.label.trim());
    const own = node.name?.trim() ? fold(node.name.trim()) : undefined;
    const inferred = node.inferredLabel ? fold(node.inferredLabel) : undefined;
    if (own !== wanted && inferred !== wanted) return "no";
  }
  if (
    selector.description !== undefined &&
    !check(node.description, (v) => fold(v) === fold(selector.description!))
  ) {
    return "no";
  }
  if (selector.states !== undefined) {
    if (node.states === undefined) unreadable = true;
    else if (!selector.states.every((s) => node.states!.includes(s))) return "no";
  }
  if (selector.accessible_id !== undefined) {
    if (node.unread.includes("accessibleId")) unreadable = true;
    else if (node.accessibleId !== selector.accessible_id) return "no";
  }
  if (selector.value_contains !== undefined) {
    // What the element shows (an alert's words in its children too), never a password.
    const value = valueShown(node);
    if (value === undefined && (node.unread.includes("value") || node.unread.includes("text")))
      unreadable = true;
    else if (value === undefined || !fold(value).includes(fold(selector.value_contains))) return "no";
  }
  if (selector.text !== undefined) {
    const place = textPlace(node, selector.text);
    if (place === "unread") unreadable = true;
    else if (place === undefined) return "no";
  }
  return unreadable ? "unreadable" : "match";
}
