// LibreOffice's gtk3 plugin draws a dialog's combo box itself: a box holding a GtkComboBox it hides
// (no items, no value), a hidden entry, and the toggle button a person sees and presses, unnamed, whose
// press opens the options in a popup window. That toggle button is the combo box: read as one, it is
// labelled by its place, selectable by opening its list, and its press is judged as opening a list.

import type { RawNode } from "../types.js";

const shown = (node: RawNode) => node.states?.includes("showing") === true;

/** The toggle button among a box's children that is the face of the hidden combo box beside it. */
function comboFace(children: RawNode[]): RawNode | undefined {
  const hidden = children.some((c) => c.role === "combo box" && c.states !== undefined && !shown(c));
  if (!hidden) return undefined;
  const faces = children.filter(
    (c) => c.role === "toggle button" && !c.name && (c.childCount ?? 0) === 0 && shown(c),
  );
  return faces.length === 1 ? faces[0] : undefined;
}

/** Reads the face of a hidden combo box among a node's children as the combo box it shows. */
export function markComboFace(children: RawNode[]): void {
  const face = comboFace(children);
  if (face) readAsCombo(face);
}

/**
 * The face as a combo box. Its value is drawn, never in the tree while its list is closed: it is
 * unread, so a search by value lists it as a candidate that could not be read, not as a miss.
 */
export function readAsCombo(face: RawNode): void {
  face.role = "combo box";
  if (!face.unread.includes("value")) face.unread.push("value");
}

/** Whether an element read alone may be such a face: its siblings decide (markComboFace). */
export const mayBeComboFace = (node: RawNode): boolean =>
  node.role === "toggle button" && !node.name && (node.childCount ?? 0) === 0;
