// What an input lands on, as place.ts resolves it and the gate's facts read it: kept apart from both,
// so that neither depends on the other for it.
import type { Verified } from "../../core/verify.js";
import type { Point } from "../../platform/hands.js";

export interface PlacedElement {
  role: string;
  name: string | undefined;
  description?: string | undefined;
  states?: string[] | undefined;
  /** To read what it shows besides its name (facts.ts). */
  handle?: string | undefined;
  /** It holds the menu a press opens (a menu title). */
  opensMenu?: boolean | undefined;
}

export interface ResolvedPlace {
  point: Point;
  ref?: string;
  /** What verifying the ref found besides "unchanged": it moved, or was found again under a new handle. */
  verified?: Pick<Verified, "moved" | "refound">;
  /** The verified element's handle, to re-read it afterwards. */
  handle?: string;
  /** Where the point lies from the element's centre: its shown part's centre (pressPoint). */
  fromCentre?: Point;
  /** What is there: verified (from the ref), probed (hit-test), or unknown (could not be read). */
  element: PlacedElement | undefined;
  /** For a probed point: the elements holding the hit, nearest first (a button around its icon). */
  ancestors?: PlacedElement[];
  /** For a probed point: the other elements on screen there, deepest first (a button under an overlay). */
  beneath?: PlacedElement[];
  how: "verified" | "probed" | "unknown";
  /** Why a point could not be probed. */
  unknownBecause?: string;
  /** Where the tree is silent (a pixels-only surface, a window with no tree): the word read under the point. */
  pixelWord?: { text: string; cached: boolean };
  windowId: number | undefined;
}
