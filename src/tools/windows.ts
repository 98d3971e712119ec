import { z } from "zod";
import { WINDOWS_CEILING, WINDOWS_DEFAULT_LIMIT } from "../core/limits.js";
import { renderWindows } from "../core/render.js";
import { rememberWindows } from "./context.js";
import { defineTool, READ_ONLY } from "./tool.js";

export const windowsTool = defineTool({
  name: "windows",
  group: "read",
  title: "List windows",
  description:
    "Top-level windows, front to back: id, title, app, pid, rect, focus. 'no accessible tree': use read_screen_text.",
  level: "L1",
  annotations: READ_ONLY,
  input: z.object({
    limit: z.number().int().min(1).max(WINDOWS_CEILING).default(WINDOWS_DEFAULT_LIMIT),
  }),
  async handler(context, input) {
    const all = await (await context.backend()).listWindows();
    // Seen now: the next acting reply tells only what changed after this list.
    rememberWindows(context, all);
    const windows = all.slice(0, input.limit);
    const truncated = all.length > windows.length;
    return {
      data: {
        windows,
        truncated,
        total: all.length,
        limit: { inForce: input.limit, ceiling: WINDOWS_CEILING },
      },
      text: renderWindows(windows, truncated, all.length),
    };
  },
});
