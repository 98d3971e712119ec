// Where a window's extents start under Wayland when it is not the window's origin: a floating GTK 3
// window's own shadow (margins from its frame's children, hidden children ignored), and an X11 app
// under XWayland whose idea of its place is stale (shifted to sway's, or no place when that does not fit).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { AtspiApp } from "../../src/platform/atspi/app.js";
import { shadowMargins, xwaylandShift } from "../../src/platform/atspi/csd.js";

const HIDDEN = -2147483648;

/** An app whose frame at "/f" has the given extents and children ("/c0", "/c1", …). */
function app(frame: number[], children: number[][]): AtspiApp {
  return {
    async call(path: string, _iface: string, member: string) {
      if (member === "GetChildren") return [children.map((_, i) => [":1.1", `/c${i}`])];
      if (path === "/f") return [frame];
      return [children[Number(path.slice(2))]];
    },
  } as unknown as AtspiApp;
}

describe("places under Wayland", () => {
  it("reads a floating GTK 3 window's shadow from its frame's children, as measured on sway", async () => {
    const gtk = app(
      [0, 0, 1467, 784],
      [
        [26, 23, 1415, 47],
        [26, 70, 1415, 685],
        [HIDDEN, HIDDEN, 1, 1],
      ],
    );
    assert.deepEqual(
      await shadowMargins(gtk, "/f", { x: 50, y: 50, width: 1415, height: 732 }, 100),
      [26, 26, 23, 29],
    );
    // A tiled window is its frame: no shadow. Content bigger than its tile starts at the corner: no shadow.
    assert.equal(
      await shadowMargins(
        app([0, 0, 636, 997], [[0, 0, 636, 997]]),
        "/f",
        { x: 0, y: 0, width: 636, height: 997 },
        100,
      ),
      null,
    );
    assert.equal(
      await shadowMargins(
        app([0, 0, 1391, 997], [[0, 0, 1391, 997]]),
        "/f",
        { x: 0, y: 0, width: 316, height: 997 },
        100,
      ),
      null,
    );
  });

  it("shifts an XWayland window's stale extents to where sway shows it, and gives up places that do not fit", async () => {
    const java = app([-1, -1, -1, -1], [[45, 65, 750, 590]]);
    assert.deepEqual(await xwaylandShift(java, "/f", { x: 2, y: 25, width: 636, height: 997 }, 100), {
      x: -43,
      y: -40,
    });
    // Two children that cannot both start inside the window once shifted: no place is trusted.
    const odd = app(
      [-1, -1, -1, -1],
      [
        [45, 65, 100, 100],
        [2000, 65, 100, 100],
      ],
    );
    assert.equal(await xwaylandShift(odd, "/f", { x: 2, y: 25, width: 636, height: 997 }, 100), null);
    assert.equal(
      await xwaylandShift(app([-1, -1, -1, -1], []), "/f", { x: 2, y: 25, width: 636, height: 997 }, 100),
      null,
    );
  });
});
