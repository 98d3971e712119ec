// When an attempt's last input went out. The waits after it (a window that may open, the focus that
// may move) count from then: the checks an input makes once its keys are sent (the field read back,
// the menu seen) spend that time already, and waiting it again after them only made each key slower.
import type { Hands } from "../../platform/hands.js";
import type { ActingSurfaces } from "../acting.js";

/** The hands' methods that send input or change a window: each one's end is a send. */
const SENDS = new Set<keyof Hands>([
  "move",
  "click",
  "drag",
  "wheel",
  "chord",
  "type",
  "buttonDown",
  "buttonUp",
  "keyDown",
  "keyUp",
  "paste",
  "activate",
  "minimize",
  "hide",
  "show",
  "closeWindow",
]);

/**
 * `hands` and the acting surfaces as they are, noting when each send ended: a send by the hands, or
 * any call on the acting backend (an accessibility action, a text written, a focus grabbed; its
 * reads, rare there, only move the mark later). `lastSent` is undefined until one has.
 */
export function notingSends(
  hands: Hands,
  acting: ActingSurfaces,
): { hands: Hands; acting: ActingSurfaces; lastSent: () => number | undefined } {
  let last: number | undefined;
  const note = <T extends object>(target: T, sends: (property: PropertyKey) => boolean): T =>
    new Proxy(target, {
      get(object, property) {
        const value = Reflect.get(object, property, object);
        if (typeof value !== "function") return value;
        if (!sends(property)) return value.bind(object);
        return (...args: unknown[]) => {
          const noteNow = () => {
            last = Date.now();
          };
          let result: unknown;
          try {
            result = value.apply(object, args);
          } catch (error) {
            noteNow();
            throw error;
          }
          // A send that fails is noted too: part of it may have gone out. A method that answers at
          // once (the backend's reportsShowing) answers as it does.
          if (typeof (result as PromiseLike<unknown> | undefined)?.then !== "function") {
            noteNow();
            return result;
          }
          return Promise.resolve(result).finally(noteNow);
        };
      },
    });
  const byHands = (property: PropertyKey) => SENDS.has(property as keyof Hands);
  return {
    hands: note(hands, byHands),
    acting: {
      hands: async () => note(await acting.hands(), byHands),
      backend: async () => note(await acting.backend(), () => true),
    },
    lastSent: () => last,
  };
}

/** How long since the last send, in ms: 0 where none was noted (nothing is credited then). */
export function sinceSent(lastSent: number | undefined, now = Date.now()): number {
  return lastSent === undefined ? 0 : Math.max(0, now - lastSent);
}
