// Screenshots as an agent gets them: scaled to a width ceiling, PNG-encoded, and with the mapping from
// image pixels back to global screen points, so a point picked in the image can be clicked.
import { PNG } from "pngjs";
import type { Point, RgbaImage } from "../platform/hands.js";
import type { Rect } from "../platform/types.js";

/** The image-space block: what a caller passes back with `space: "image"` to click a pixel of this image. */
export interface ImageSpace {
  display: number;
  max_width: number;
  region: Rect;
}

/** The factor from global points to image pixels: images wider than the ceiling are shrunk, never grown. */
export function scaleFor(regionWidth: number, maxWidth: number): number {
  return regionWidth > maxWidth ? maxWidth / regionWidth : 1;
}

export function imageToGlobal(point: Point, space: ImageSpace): Point {
  const scale = scaleFor(space.region.width, space.max_width);
  return {
    x: Math.round(space.region.x + point.x / scale),
    y: Math.round(space.region.y + point.y / scale),
  };
}

/** Area-averaging downscale: every source pixel counts, so thin text and lines survive shrinking. */
export function downscale(image: RgbaImage, scale: number): RgbaImage {
  if (scale >= 1) return image;
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  const out = Buffer.alloc(width * height * 4);
  const xRatio = image.width / width;
  const yRatio = image.height / height;
  for (let y = 0; y < height; y++) {
    const y0 = Math.floor(y * yRatio);
    const y1 = Math.max(y0 + 1, Math.floor((y + 1) * yRatio));
    for (let x = 0; x < width; x++) {
      const x0 = Math.floor(x * xRatio);
      const x1 = Math.max(x0 + 1, Math.floor((x + 1) * xRatio));
      let r = 0;
      let g = 0;
      let b = 0;
      for (let sy = y0; sy < y1; sy++) {
        let offset = (sy * image.width + x0) * 4;
        for (let sx = x0; sx < x1; sx++, offset += 4) {
          r += image.data[offset]!;
          g += image.data[offset + 1]!;
          b += image.data[offset + 2]!;
        }
      }
      const count = (y1 - y0) * (x1 - x0);
      const o = (y * width + x) * 4;
      out[o] = r / count;
      out[o + 1] = g / count;
      out[o + 2] = b / count;
      out[o + 3] = 255;
    }
  }
  return { width, height, data: out };
}

// Measured on a full 1280×1024 screen: pngjs's default Z_RLE strategy only matches runs one byte
// apart, so RGBA pixels barely compress (1.3 MB); the default strategy at level 3 with no row filter
// gives 126 KB in about 25 ms. Row filters cost more time than they save on flat UI colours.
export function encodePng(image: RgbaImage): Buffer {
  return PNG.sync.write(
    { width: image.width, height: image.height, data: image.data } as PNG,
    { deflateLevel: 3, deflateStrategy: 0, filterType: 0 } as never,
  );
}

export function decodePng(png: Buffer): RgbaImage {
  const decoded = PNG.sync.read(png);
  return { width: decoded.width, height: decoded.height, data: decoded.data };
}

/** How many distinct colours, up to `cap`: a blank or single-colour image has 1. */
export function distinctColours(image: RgbaImage, cap = 64): number {
  const seen = new Set<number>();
  for (let i = 0; i < image.data.length && seen.size < cap; i += 4) seen.add(image.data.readUInt32BE(i));
  return seen.size;
}
