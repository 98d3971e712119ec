// What an element offers to an agent, in the protocol's action names, derived from what the element
// itself advertises: its interfaces, action names, role and states. Nothing is promised beyond that.

import { roleSet, saysSelectable } from "../platform/roles.js";
import { flipsState } from "../platform/types.js";
import { isInteractiveRole } from "./flatten.js";
import type { SnapshotElement } from "./snapshot.js";
import { takesText } from "./value.js";

// Items are selected within their parent, where they say they can be (the backend's own rule); a
// cell by its row, a combo box by its option, a container with Selection by its child.
const SELECT_ITEM_ROLES = roleSet("list item", "page tab", "tree item", "menu item");
const SELECT_ROLES = roleSet("table cell", "combo box");
const SCROLL_ROLES = roleSet("scroll pane", "scroll bar", "viewport");

export function affordances(element: SnapshotElement): string[] {
  const actions = new Set<string>();
  const interfaces = element.interfaces ?? [];
  const states = element.states ?? [];
  const named = (element.actions ?? []).map((a) => a.toLowerCase());
  const readOnly = states.includes("read only") || (!states.includes("editable") && element.role === "label");
  if (flipsState(element.role, [], named) && named.length > 0) actions.add("toggle");
  else if (named.some((a) => /^(click|press|activate|jump|open|invoke)$/.test(a))) actions.add("invoke");
  if (takesText(element) && !readOnly) actions.add("set_value");
  if (interfaces.includes("Value") && !readOnly) actions.add("set_range");
  const item = SELECT_ITEM_ROLES.has(element.role) && saysSelectable(element.states);
  if (item || SELECT_ROLES.has(element.role) || interfaces.includes("Selection")) actions.add("select");
  if (states.includes("expandable")) actions.add(states.includes("expanded") ? "collapse" : "expand");
  if (SCROLL_ROLES.has(element.role)) actions.add("scroll");
  if (states.includes("focusable")) actions.add("focus");
  if (element.bounds && element.bounds.width > 0 && element.bounds.height > 0) actions.add("click");
  return [...actions];
}

/**
 * Targets are elements with something to do besides being clicked at, and controls that can only be
 * clicked (GTK 4.8's check boxes expose no actions).
 */
export function isTarget(element: SnapshotElement): boolean {
  const offered = affordances(element);
  return (
    offered.some((a) => a !== "click" && a !== "focus") ||
    (element.actions?.length ?? 0) > 0 ||
    (offered.includes("click") && isInteractiveRole(element.role))
  );
}
