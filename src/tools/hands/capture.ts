// What a screenshot or a text recognition captures: the screen, a window (raised first, since a covered
// window shows what covers it), a verified element, or a region in global points or in a screenshot's
// pixels. One place for both tools, so they capture alike.
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { DeskhandError } from "../../core/errors.js";
import { imageToGlobal } from "../../core/image.js";
import { verifyRef } from "../../core/verify.js";
import type { Rect } from "../../platform/types.js";
import type { ToolContext } from "../context.js";
import { activateWindow, FOCUS_WORDS } from "../guard.js";
import { refSchema } from "../schemas.js";
import type { FocusReport } from "./attempt.js";
import { resolveWindowSpec } from "./place.js";
import { regionSchema, windowSchema } from "./schemas.js";

export const captureSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("screen") }).strict(),
  z.object({ kind: z.literal("window"), window: windowSchema }).strict(),
  z.object({ kind: z.literal("element"), ref: refSchema }).strict(),
  z
    .object({
      kind: z.literal("region"),
      ...regionSchema.shape,
      image_space: z
        .object({
          display: z.number().int().min(0),
          max_width: z.number().int().min(16),
          region: regionSchema,
        })
        .strict()
        .optional()
        .describe("For screenshot pixels: its image_space"),
    })
    .strict()
    .describe("global points, or pixels with image_space"),
]);
export type CaptureInput = z.output<typeof captureSchema>;

export interface CaptureSubject {
  region: Rect;
  subject: string;
  windowId?: number;
  /** What the window's app drew itself larger by, where it scales itself (WindowInfo.extentsScale). */
  scale?: number;
  focus?: FocusReport;
}

function clip(rect: Rect, screen: Rect): Rect | undefined {
  const x = Math.max(screen.x, rect.x);
  const y = Math.max(screen.y, rect.y);
  const right = Math.min(screen.x + screen.width, rect.x + rect.width);
  const bottom = Math.min(screen.y + screen.height, rect.y + rect.height);
  return right > x && bottom > y ? { x, y, width: right - x, height: bottom - y } : undefined;
}

const REPAINT_MS = 200;

/** The area to capture, on screen; the window raised first when asked and not in front already. */
export async function resolveCapture(
  context: ToolContext,
  of: CaptureInput,
  raise: boolean,
): Promise<CaptureSubject> {
  const hands = await context.hands();
  const screen = await hands.screen();
  let region: Rect | undefined = screen;
  let windowId: number | undefined;
  let subject = "the screen";
  let scale: number | undefined;
  if (of.kind === "window") {
    const window = await resolveWindowSpec(context, of.window);
    windowId = window.id;
    scale = window.extentsScale;
    subject = `window ${window.id} ${JSON.stringify(window.title)}`;
    region = window.rect ? clip(window.rect, screen) : undefined;
  } else if (of.kind === "element") {
    const { entry, node } = await verifyRef(await context.backend(), context.refs, of.ref);
    windowId = entry.fingerprint.windowId ?? undefined;
    subject = `${of.ref} (${node.role} ${JSON.stringify(node.name ?? "")})`;
    region = node.bounds ? clip(node.bounds, screen) : undefined;
  } else if (of.kind === "region") {
    const { image_space: space, x, y, width, height } = of;
    const topLeft = space ? imageToGlobal({ x, y }, space) : { x, y };
    const bottomRight = space
      ? imageToGlobal({ x: x + width, y: y + height }, space)
      : { x: x + width, y: y + height };
    const global = { ...topLeft, width: bottomRight.x - topLeft.x, height: bottomRight.y - topLeft.y };
    subject = `region ${global.x},${global.y} ${global.width}×${global.height}`;
    region = clip(global, screen);
  }
  if (!region)
    throw new DeskhandError(
      "not_clickable",
      `${subject} has no area on screen to capture`,
      of.kind === "region" ? "Give a region inside the screen." : "Snapshot it to see its bounds.",
    );
  let focus: FocusReport | undefined;
  if (raise && windowId !== undefined && (await hands.activeWindow()) !== windowId) {
    const truth = await activateWindow(context, { id: windowId }, "screenshot", null);
    // A window just raised paints its newly exposed parts after the Expose events reach it.
    if (truth === "front") await sleep(REPAINT_MS);
    focus = {
      window: windowId,
      result: FOCUS_WORDS[truth],
    };
  }
  return {
    region,
    subject,
    ...(windowId === undefined ? {} : { windowId }),
    ...(scale ? { scale } : {}),
    ...(focus ? { focus } : {}),
  };
}
