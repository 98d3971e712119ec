// Whether an element is on screen, as its states tell it: the one judgement behind the reader's
// folding, find and the gate (core/flatten.ts isShown, which adds the element's area and closed
// popups) and the backend's choice to read an element's bounds at all (atspi/enrich.ts).

/**
 * `showing` says yes. A toolkit that never reports it (GTK 4.8) is told by `visible`, and then by the
 * element's area once read ("by area"). States not read say nothing against it.
 */
export function shownByStates(
  states: readonly string[] | undefined,
  toolkitReportsShowing: boolean,
): boolean | "by area" {
  if (states === undefined || states.includes("showing")) return true;
  if (toolkitReportsShowing || !states.includes("visible")) return false;
  return "by area";
}
