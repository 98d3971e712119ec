// Window management: focus, minimize, hide (all the app's windows), show, close. Each answer is read
// back from the window manager. Closing is L3 and not reversible: it needs a person.
import { z } from "zod";
import { defineInputTool } from "../input-tool.js";
import { viewSchema } from "../view.js";
import { pressesNothing } from "./attempt.js";
import { closingFacts } from "./closing.js";
import { resolveWindowSpec } from "./place.js";
import { INPUT } from "./pointer.js";
import { intentSchema, windowSchema } from "./schemas.js";

const FOCUS_WORDS = {
  front: "is now in front",
  not_front: "is not in front",
  unknown: "cannot say whether it is in front",
} as const;

type WindowAction = "focus" | "minimize" | "hide" | "show" | "close";
/** The level of each action, declared once: the listing's range and the gate both read it. */
const levelOf = (action: WindowAction) => (action === "close" ? "L3" : "L1");

export const windowTool = defineInputTool({
  name: "window",
  group: "hands",
  title: "Manage a window",
  description:
    "focus, minimize, hide (the app's windows), show or close a window, read back from the window manager.",
  level: levelOf("focus"),
  highest: levelOf("close"),
  annotations: INPUT,
  input: z.object({
    action: z.enum(["focus", "minimize", "hide", "show", "close"]),
    window: windowSchema,
    intent: intentSchema,
    view: viewSchema,
  }),
  async plan(context, input) {
    const window = await resolveWindowSpec(context, input.window);
    const closing = input.action === "close";
    return {
      step: input.action,
      // Closing is input (L2) that commits (L3) where the window may lose what it holds (closing.ts).
      nominal: closing ? "L2" : levelOf(input.action),
      intent: input.intent,
      // Closing is as reversible as what it presses says: not, where it may lose what it holds.
      reversible: closing ? undefined : true,
      windowId: window.id,
      // Closing runs the window's close; the rest only moves or shows windows.
      presses: closing
        ? await closingFacts(context, window.id, window.title)
        : pressesNothing(`${input.action === "focus" ? "focuses" : `${input.action}s`} a window`),
      ensureFocus: false,
      async execute(h) {
        switch (input.action) {
          case "focus": {
            const truth = await h.activate(window.id);
            return { window: window.id, focus: FOCUS_WORDS[truth] };
          }
          case "minimize":
            return { window: window.id, ...(await h.minimize(window.id)) };
          case "hide":
            return { window: window.id, ...(await h.hide(window.id)) };
          case "show": {
            const shown = await h.show(window.id);
            return { window: window.id, windows: shown.windows, focus: FOCUS_WORDS[shown.focus] };
          }
          case "close":
            return { window: window.id, ...(await h.closeWindow(window.id)) };
        }
      },
      describe: (r) => {
        const verdict =
          input.action === "focus" || input.action === "show"
            ? `: window ${r.focus}`
            : input.action === "minimize"
              ? `: minimized ${r.minimized}`
              : input.action === "hide"
                ? `: hidden ${r.hidden}`
                : `: closed ${r.closed}`;
        return `${input.action} window ${window.id} ${JSON.stringify(window.title)}${verdict}`;
      },
    };
  },
});
