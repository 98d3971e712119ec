// Screen pixels through GetImage on the root window. Without a compositor the root shows what is on
// screen, so a covered window reads as whatever covers it: callers raise a window before capturing it.
import type { RgbaImage, ScreenCapture } from "../hands.js";
import type { Rect } from "../types.js";
import type { X11Connection } from "./connection.js";

export class X11Capture implements ScreenCapture {
  constructor(private readonly x: X11Connection) {}

  /** X11's root window: every monitor lies in it, from its origin. */
  async screen(): Promise<Rect> {
    return { x: 0, y: 0, ...this.x.screenSize };
  }

  async capture(region: Rect): Promise<RgbaImage> {
    const { depth, data } = await this.x.rootImage(region);
    if (depth !== 24 && depth !== 32)
      throw new Error(`the screen has depth ${depth}; only 24 and 32 are read`);
    const pixels = region.width * region.height;
    if (data.length < pixels * 4)
      throw new Error(`GetImage returned ${data.length} bytes for ${pixels} pixels`);
    // 32 bits a pixel, BGRX in memory (little-endian server): swap to RGBA with full alpha.
    const rgba = Buffer.allocUnsafe(pixels * 4);
    for (let i = 0; i < pixels * 4; i += 4) {
      rgba[i] = data[i + 2]!;
      rgba[i + 1] = data[i + 1]!;
      rgba[i + 2] = data[i]!;
      rgba[i + 3] = 255;
    }
    return { width: region.width, height: region.height, data: rgba };
  }
}
