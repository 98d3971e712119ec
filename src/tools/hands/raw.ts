// The raw primitives, L4 only: press or release a mouse button or a key and leave it so. Whatever is
// held is released by the hands themselves after 10 s if no release follows.
import { z } from "zod";
import { chordText, parseChord } from "../../platform/keys.js";
import { defineInputTool } from "../input-tool.js";
import { pressesNothing } from "./attempt.js";
import { keyEffect } from "./key-effect.js";
import { chordSchema } from "./keyboard.js";
import { resolvePlace } from "./place.js";
import { placeFacts } from "./place-facts.js";
import { buttonSchema, INPUT } from "./pointer.js";
import { intentSchema, pointOrRefShape, pointRule } from "./schemas.js";

const pointerFields = { ...pointOrRefShape, button: buttonSchema };

export const rawInputTool = defineInputTool({
  name: "raw_input",
  group: "raw",
  title: "Raw input",
  description: "mouse_down/mouse_up at a ref or point, key_down/key_up. What is held is released after 10 s.",
  level: "L4",
  annotations: INPUT,
  readsWindows: false,
  input: z.object({
    primitive: z.discriminatedUnion("kind", [
      z.object({ kind: z.literal("mouse_down"), ...pointerFields }).refine(...pointRule),
      z.object({ kind: z.literal("mouse_up"), ...pointerFields }).refine(...pointRule),
      z.object({ kind: z.literal("key_down"), key: chordSchema }),
      z.object({ kind: z.literal("key_up"), key: chordSchema }),
    ]),
    intent: intentSchema,
  }),
  async plan(context, input) {
    const hands = await context.hands();
    const p = input.primitive;
    if (p.kind === "mouse_down" || p.kind === "mouse_up") {
      const place = await resolvePlace(context, hands, p);
      return {
        intent: input.intent,
        reversible: true,
        place,
        // A press presses what it lands on; a release ends it there, as a drop (most toolkits act on it).
        presses: await placeFacts(context, place, { button: p.button, drop: p.kind === "mouse_up" }),
        ensureFocus: false,
        async execute(h) {
          if (p.kind === "mouse_down") await h.buttonDown(place.point, p.button);
          else await h.buttonUp(place.point, p.button);
          return {
            primitive: p.kind,
            button: p.button,
            point: place.point,
            held: h.held(),
            auto_release_ms: h.autoReleaseMs,
          };
        },
        describe: () => `${p.kind} ${p.button} at (${place.point.x}, ${place.point.y})`,
      };
    }
    const chord = parseChord(p.key);
    // A key goes down where the focus is, and presses what it is bound to there; a release or a
    // modifier alone presses nothing more.
    const presses =
      p.kind === "key_down" && chord.key
        ? (await keyEffect(context, { windowId: await hands.activeWindow(), chord })).presses
        : pressesNothing(p.kind === "key_up" ? "releases a key" : "holds a modifier");
    return {
      intent: input.intent,
      reversible: true,
      ensureFocus: false,
      chord,
      presses,
      async execute(h) {
        if (p.kind === "key_down") await h.keyDown(chord);
        else await h.keyUp(chord);
        return { primitive: p.kind, key: chordText(chord), held: h.held(), auto_release_ms: h.autoReleaseMs };
      },
      describe: () => `${p.kind} ${chordText(chord)}`,
    };
  },
});
