import { PRESSABLE_ROLES, type TargetFacts } from "../../safety/classify.js";
import type { ToolContext } from "../context.js";
import { pressFacts } from "./facts.js";
import type { ResolvedPlace } from "./placed.js";

/** How the pointer meets a place: which button, once or twice, a press or a drag's drop. */
export interface PlaceInputKind {
  button?: "left" | "right" | "middle";
  count?: 1 | 2;
  drop?: boolean;
}

/**
 * What a press at a resolved place would press: the element there, every pressable element holding
 * it (a click on a button's icon presses the button) and every other pressable element on screen at
 * the point (a button under an overlay). A double click presses each twice; a drop lands on each
 * named element there too (a trash or folder view). A point whose element could not be read is
 * judged as unreadable, never as nothing.
 */
export async function placeFacts(
  context: ToolContext,
  place: ResolvedPlace,
  kind: PlaceInputKind = {},
): Promise<TargetFacts[]> {
  if (place.how === "unknown")
    return [{ unreadable: place.unknownBecause ?? "the point could not be probed" }];
  if (!place.element) return [];
  const ancestors = place.ancestors ?? [];
  const around = [...ancestors, ...(place.beneath ?? [])];
  // The window itself takes no drop by its name: its title names a document, not what takes it.
  const root = ancestors.at(-1) ?? place.element;
  const judged = [
    place.element,
    ...around.filter((e) => PRESSABLE_ROLES.has(e.role) || (kind.drop && e.name && e !== root)),
  ];
  const facts = await Promise.all(
    judged.map(async (e) => ({
      ...(await pressFacts(context, e, place.windowId)),
      ...(kind.count === 2 ? { twice: true } : {}),
      ...(kind.drop && e !== root ? { dropped: true } : {}),
    })),
  );
  // A middle click pastes the selection where it lands; in a terminal, its line breaks run.
  const terminal = [place.element, ...ancestors].find((e) => e.role === "terminal");
  if (kind.button === "middle" && terminal)
    facts.unshift({
      ...terminal,
      runs: "pastes the selection into a terminal, where a line break in it runs a command",
    });
  return facts;
}
