// The element a press at a point would press, as a ref: what sits there (or one of the few around
// it: a button around its icon) that offers an action that presses. A client that names a point and
// asks for a press (Daimon's main_press, AXPress of the button at a point) is served through that
// action, as on macOS; where nothing there offers one, the caller falls back to a real click.

import { inside } from "../core/rects.js";
import type { ToolContext } from "./context.js";
import { findToolSchema, searchUntil } from "./find.js";
import { resolvePlace } from "./hands/place.js";
import type { PlacedElement } from "./hands/placed.js";
import type { PointInput } from "./hands/schemas.js";

/** Action names that press (the backend's invoke). */
const PRESSES = /^(click|press|activate|jump|invoke|push)$/i;
/** How far up from the element at the point a pressable one is looked for. */
const AROUND = 3;

export interface Pressable {
  ref: string;
  role: string;
  name: string | undefined;
}

export async function pressableAt(
  context: ToolContext,
  at: PointInput,
  windowHint?: number,
): Promise<Pressable | undefined> {
  const hands = await context.hands();
  const place = await resolvePlace(context, hands, { at }, windowHint);
  if (!place.element || place.windowId === undefined) return undefined;
  const backend = await context.backend();
  const candidates: PlacedElement[] = [place.element, ...(place.ancestors ?? []).slice(0, AROUND)];
  for (const candidate of candidates) {
    if (!candidate.handle) continue;
    const node = await backend
      .describe(candidate.handle, { maxText: 0, windowId: place.windowId })
      .catch(() => undefined);
    if (!node?.actions?.some((a) => PRESSES.test(a))) continue;
    // A ref for it, by find in its window: the match whose bounds hold the point, the smallest.
    const query = findToolSchema.parse({
      target: { kind: "window", id: place.windowId },
      role: node.role,
      ...(node.name ? { name: node.name } : {}),
    });
    const found = await searchUntil(context, query, 50, 0, "leave_out");
    const holding = found.matches.filter((m) => m.bounds && inside(place.point, m.bounds));
    const area = (m: (typeof holding)[number]) => m.bounds!.width * m.bounds!.height;
    const match = holding.sort((a, b) => area(a) - area(b))[0];
    return match ? { ref: match.ref, role: match.role, name: match.name ?? undefined } : undefined;
  }
  return undefined;
}
