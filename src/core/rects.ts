// Rectangles in global points: what two share, and what holds several. One home for the arithmetic
// the pixel readers, the overlay rule and password blanking all need.
import type { Rect } from "../platform/types.js";

/** Whether a point lies in a rectangle (its right and bottom edges outside it). */
export function inside(point: { x: number; y: number }, rect: Rect): boolean {
  return (
    point.x >= rect.x && point.y >= rect.y && point.x < rect.x + rect.width && point.y < rect.y + rect.height
  );
}

/** The rectangle two share, or undefined when they do not overlap. */
export function intersection(a: Rect, b: Rect): Rect | undefined {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const right = Math.min(a.x + a.width, b.x + b.width);
  const bottom = Math.min(a.y + a.height, b.y + b.height);
  return right > x && bottom > y ? { x, y, width: right - x, height: bottom - y } : undefined;
}

/** The smallest rectangle holding every box. */
export function union(boxes: Rect[]): Rect {
  const x = Math.min(...boxes.map((b) => b.x));
  const y = Math.min(...boxes.map((b) => b.y));
  const right = Math.max(...boxes.map((b) => b.x + b.width));
  const bottom = Math.max(...boxes.map((b) => b.y + b.height));
  return { x, y, width: right - x, height: bottom - y };
}
