// Screenshots of the screen, a window, a verified element or a region: PNG, shrunk to max_width, with the
// image_space block that maps its pixels back to global points for `at: {space: "image"}`.
import { z } from "zod";
import { distinctColours, downscale, encodePng, type ImageSpace, scaleFor } from "../../core/image.js";
import { defineTool, READ_ONLY } from "../tool.js";
import { captureSchema, resolveCapture } from "./capture.js";

export const screenshotTool = defineTool({
  name: "screenshot",
  title: "Screenshot",
  description:
    "A PNG of the screen, a window, an element or a region. Its image_space, passed back in `at`, clicks a pixel.",
  level: "L1",
  annotations: READ_ONLY,
  input: z.object({
    of: captureSchema.default({ kind: "screen" }),
    max_width: z.number().int().min(16).max(8192).default(1280),
    raise: z.boolean().default(true).describe("Raise the window first"),
  }),
  async handler(context, input) {
    const hands = await context.hands();
    const { region, subject, focus } = await resolveCapture(context, input.of, input.raise);
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
