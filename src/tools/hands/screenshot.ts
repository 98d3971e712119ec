// Screenshots of the screen, a window or a verified element: PNG, shrunk to max_width, with the
// image_space block that maps its pixels back to global points for `at: {space: "image"}`.
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { DeskhandError } from "../../core/errors.js";
import { distinctColours, downscale, encodePng, type ImageSpace, scaleFor } from "../../core/image.js";
import { verifyRef } from "../../core/verify.js";
import type { Rect } from "../../platform/types.js";
import { refSchema } from "../schemas.js";
import { defineTool, READ_ONLY } from "../tool.js";
import type { FocusReport } from "./attempt.js";
import { resolveWindowSpec } from "./place.js";
import { windowSchema } from "./schemas.js";

function clip(rect: Rect, screen: { width: number; height: number }): Rect | undefined {
  const x = Math.max(0, rect.x);
  const y = Math.max(0, rect.y);
  const right = Math.min(screen.width, rect.x + rect.width);
  const bottom = Math.min(screen.height, rect.y + rect.height);
  return right > x && bottom > y ? { x, y, width: right - x, height: bottom - y } : undefined;
}

const REPAINT_MS = 200;

export const screenshotTool = defineTool({
  name: "screenshot",
  title: "Screenshot",
  description:
    "A PNG of the whole screen, a window, or a verified element, shrunk to max_width (the scale is reported). A " +
    "window is raised first, since a covered window shows what covers it. The reply's image_space block, passed " +
    'back as `at: {space: "image", ...}` with a pixel, clicks that pixel.',
  level: "L1",
  annotations: READ_ONLY,
  input: z.object({
    of: z
      .discriminatedUnion("kind", [
        z.object({ kind: z.literal("screen") }),
        z.object({ kind: z.literal("window"), window: windowSchema }),
        z.object({ kind: z.literal("element"), ref: refSchema }),
      ])
      .default({ kind: "screen" }),
    max_width: z.number().int().min(16).max(8192).default(1280),
    raise: z.boolean().default(true).describe("Bring a window (or an element's window) to the front first"),
  }),
  async handler(context, input) {
    const hands = await context.hands();
    const screen = hands.screenSize();
    let region: Rect | undefined = { x: 0, y: 0, ...screen };
    let windowId: number | undefined;
    let subject = "the screen";
    if (input.of.kind === "window") {
      const window = await resolveWindowSpec(context, input.of.window);
      windowId = window.id;
      subject = `window ${window.id} ${JSON.stringify(window.title)}`;
      region = window.rect ? clip(window.rect, screen) : undefined;
    } else if (input.of.kind === "element") {
      const { entry, node } = await verifyRef(await context.backend(), context.refs, input.of.ref);
      windowId = entry.fingerprint.windowId ?? undefined;
      subject = `${input.of.ref} (${node.role} ${JSON.stringify(node.name ?? "")})`;
      region = node.bounds ? clip(node.bounds, screen) : undefined;
    }
    if (!region)
      throw new DeskhandError(
        "not_clickable",
        `${subject} has no area on screen to capture`,
        "Snapshot it to see its bounds.",
      );
    let focus: FocusReport | undefined;
    if (input.raise && windowId !== undefined && (await hands.activeWindow()) !== windowId) {
      const truth = await hands.activate(windowId);
      // A window just raised paints its newly exposed parts after the Expose events reach it.
      if (truth === "front") await sleep(REPAINT_MS);
      focus = {
        window: windowId,
        result: truth === "front" ? "is now in front" : truth === "not_front" ? "is not" : "cannot say",
      };
    }
    const started = Date.now();
    const scale = scaleFor(region.width, input.max_width);
    const image = downscale(await hands.capture(region), scale);
    const png = encodePng(image);
    const imageSpace: ImageSpace = { display: 0, max_width: input.max_width, region };
    const colours = distinctColours(image, 2);
    const data = {
      of: subject,
      width: image.width,
      height: image.height,
      scale,
      image_space: imageSpace,
      png_bytes: png.length,
      capture_ms: Date.now() - started,
      ...(colours < 2
        ? { warning: "the image is one flat colour: the area may be covered, blank or not drawn yet" }
        : {}),
      ...(focus ? { focus } : {}),
    };
    return {
      data,
      text:
        `screenshot of ${subject}: ${image.width}×${image.height} px, scale ${scale.toFixed(3)}, region ` +
        `${region.x},${region.y} ${region.width}×${region.height}${data.warning ? `; ${data.warning}` : ""}` +
        `${focus ? `; window ${focus.window} ${focus.result}` : ""}`,
      image: { mimeType: "image/png", data: png },
    };
  },
});
