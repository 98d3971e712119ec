// The acting surfaces (input, window changes, accessibility actions) sit behind this key on a tool's
// context. Only the context that holds them (context.ts) and the gate that hands them out once a call
// is allowed (guard.ts) may import it: the layer test checks that, and the context's own `backend()`
// and `hands()` are typed to read only. A tool that acts without the gate does not compile.
import type { Hands } from "../platform/hands.js";
import type { AccessibilityBackend } from "../platform/types.js";

export const ACTING: unique symbol = Symbol("deskhand.acting");

export interface ActingSurfaces {
  backend(): Promise<AccessibilityBackend>;
  hands(): Promise<Hands>;
}
