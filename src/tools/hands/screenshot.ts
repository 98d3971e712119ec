// Screenshots of the screen, a window, a verified element or a region: PNG, shrunk to max_width, with the
// image_space block that maps its pixels back to global points for `at: {space: "image"}`.
import { z } from "zod";
import { distinctColours, downscale, encodePng, type ImageSpace, scaleFor } from "../../core/image.js";
import { drawMarks, toImageBox } from "../../core/marks.js";
import type { RgbaImage } from "../../platform/hands.js";
import type { Rect } from "../../platform/types.js";
import type { ToolContext } from "../context.js";
import { recallMarks } from "../pixels-view.js";
import { defineTool, READ_ONLY } from "../tool.js";
import { captureSchema, resolveCapture } from "./capture.js";

/** Draws the numbered boxes of an observe's targets onto the image, in its pixels. */
function markImage(context: ToolContext, image: RgbaImage, which: string, region: Rect, scale: number) {
  const { marks, ageMs } = recallMarks(context, which);
  const inImage = marks.map((m) => ({ index: m.index, box: toImageBox(m.box, region, scale) }));
  const drawn = drawMarks(image, inImage);
  return { of: which, drawn, targets: marks.length, age_ms: ageMs };
}

function marksLine(m: { of: string; drawn: number; targets: number; age_ms: number }): string {
  const outside = m.targets - m.drawn;
  return `marks: the indices of observe ${m.of} (read ${Math.round(m.age_ms / 1000)} s ago): ${m.drawn} drawn${outside ? `, ${outside} outside the image` : ""}`;
}

export const screenshotTool = defineTool({
  name: "screenshot",
  group: "pixels",
  title: "Screenshot",
  description:
    "A PNG of the screen, a window, an element or a region. Its image_space, passed back in `at`, clicks a pixel.",
  level: "L1",
  annotations: READ_ONLY,
  input: z.object({
    of: captureSchema.default({ kind: "screen" }),
    max_width: z.number().int().min(16).max(8192).default(1280),
    raise: z.boolean().default(true).describe("Raise the window first"),
    marks: z.string().optional().describe("An observe's snapshotId: number its targets"),
  }),
  async handler(context, input) {
    const hands = await context.hands();
    const { region, subject, focus } = await resolveCapture(context, input.of, input.raise);
    const started = Date.now();
    const scale = scaleFor(region.width, input.max_width);
    const image = downscale(await hands.capture(region), scale);
    const marked =
      input.marks === undefined ? undefined : markImage(context, image, input.marks, region, scale);
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
      ...(marked ? { marks: marked } : {}),
    };
    return {
      data,
      text:
        `screenshot of ${subject}: ${image.width}×${image.height} px, scale ${scale.toFixed(3)}, region ` +
        `${region.x},${region.y} ${region.width}×${region.height}${data.warning ? `; ${data.warning}` : ""}` +
        `${focus ? `; window ${focus.window} ${focus.result}` : ""}` +
        `${marked ? `\n${marksLine(marked)}` : ""}`,
      image: { mimeType: "image/png", data: png },
    };
  },
});
