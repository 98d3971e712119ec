// The screencopy frame read as RGBA: wl_shm's XRGB/ARGB lie in memory as B, G, R, X on a
// little-endian machine and XBGR/ABGR as R, G, B, X; a y-inverted frame is flipped; a stride wider
// than the row is skipped; a format deskhand does not read, or a short frame, is an error.
import assert from "node:assert/strict";
import { it } from "node:test";
import { frameToRgba } from "../../src/platform/wayland/screencopy.js";

// Two rows of two pixels, stride 12 (4 bytes of padding a row): red, green / blue, white, as B G R X.
const bgrx = Buffer.from([
  0, 0, 255, 0, 0, 255, 0, 0, 9, 9, 9, 9, 255, 0, 0, 0, 255, 255, 255, 0, 9, 9, 9, 9,
]);
const pixels = (data: Buffer) => [...data];

it("reads XRGB8888 (B, G, R, X in memory) as RGBA, skipping the stride's padding", () => {
  const image = frameToRgba(bgrx, { format: 1, width: 2, height: 2, stride: 12 }, false);
  assert.deepEqual([image.width, image.height], [2, 2]);
  assert.deepEqual(pixels(image.data), [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255]);
});

it("flips a y-inverted frame, and reads XBGR8888 (R, G, B, X) without swapping", () => {
  const flipped = frameToRgba(bgrx, { format: 0, width: 2, height: 2, stride: 12 }, true);
  assert.deepEqual(
    pixels(flipped.data).slice(0, 8),
    [0, 0, 255, 255, 255, 255, 255, 255],
    "the blue row first",
  );
  const rgbx = frameToRgba(bgrx, { format: 0x34324258, width: 2, height: 2, stride: 12 }, false);
  assert.deepEqual(pixels(rgbx.data).slice(0, 4), [0, 0, 255, 255], "R, G, B as they lie");
});

it("refuses a format it does not read and a frame shorter than its size", () => {
  assert.throws(
    () => frameToRgba(bgrx, { format: 0x36314752, width: 2, height: 2, stride: 12 }, false),
    /format/,
  );
  assert.throws(
    () => frameToRgba(bgrx.subarray(0, 20), { format: 1, width: 2, height: 2, stride: 12 }, false),
    /shorter/,
  );
});
