// GNOME Shell as deskhand reads it, without a Shell: which compositor an environment names, the
// extension's two forms (each passes Node's syntax check, and only the token-bearing service is in
// them), the extension's windows turned into deskhand's, Qt's own title bar measured from the sizes, a
// scaled screen's pixels averaged to one a point, and what a GNOME sandbox refuses.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { renderWindows } from "../../src/core/render.js";
import { titleBarInset } from "../../src/platform/atspi/csd.js";
import { boxShift } from "../../src/platform/atspi/popup-places.js";
import { gnomeRefuses } from "../../src/platform/sandbox/start-gnome.js";
import { waylandCompositor } from "../../src/platform/wayland/compositor.js";
import {
  extensionMetadata,
  extensionSource,
  extensionVersion,
  formFor,
} from "../../src/platform/wayland/gnome-extension.js";
import { perPoint } from "../../src/platform/wayland/gnome-hands.js";
import {
  type ShellWindow,
  shellClientWindows,
  shellFrontWindow,
} from "../../src/platform/wayland/gnome-shell.js";
import { windowNumber } from "../../src/platform/wayland/kwin.js";

const window = (over: Partial<ShellWindow>): ShellWindow => ({
  id: 1,
  pid: 10,
  title: "",
  windowClass: "app",
  frame: { x: 10, y: 20, width: 100, height: 80 },
  buffer: { x: 0, y: 0, width: 120, height: 110 },
  stacking: 0,
  active: false,
  minimized: false,
  x11: false,
  menu: false,
  ...over,
});

describe("GNOME Shell", () => {
  it("is the compositor where the desktop says GNOME (ubuntu:GNOME too), KWin's where it says KDE", () => {
    assert.equal(waylandCompositor({ XDG_CURRENT_DESKTOP: "GNOME" }), "gnome");
    assert.equal(waylandCompositor({ XDG_CURRENT_DESKTOP: "ubuntu:GNOME" }), "gnome");
    assert.equal(waylandCompositor({ XDG_CURRENT_DESKTOP: "KDE" }), "kwin");
    assert.equal(waylandCompositor({ XDG_CURRENT_DESKTOP: "XFCE" }), undefined);
  });

  it("builds both extension forms, each valid to Node's parser, each checking the caller's token", () => {
    const dir = mkdtempSync(join(tmpdir(), "deskhand-ext-"));
    try {
      for (const [form, file] of [
        ["gnome43", "extension.js"],
        ["esm", "extension.mjs"],
      ] as const) {
        const source = extensionSource(form);
        writeFileSync(join(dir, file), source);
        execFileSync(process.execPath, ["--check", join(dir, file)]);
        assert.match(source, /given !== token/, `${form} refuses callers without the token`);
        assert.ok(source.includes(extensionVersion()), `${form} says its version`);
        const meta = JSON.parse(extensionMetadata(form));
        assert.equal(meta.uuid, "deskhand@deskhand.dev");
        assert.deepEqual(meta["shell-version"].includes("43"), form === "gnome43");
      }
      assert.match(
        extensionSource("gnome43"),
        /^const \{ Gio, GLib, Clutter, Meta, Shell, St \} = imports\.gi;/,
      );
      assert.match(extensionSource("esm"), /export default class DeskhandExtension extends Extension/);
      assert.deepEqual(
        [formFor(43), formFor(44), formFor(45), formFor(47)],
        ["gnome43", "gnome43", "esm", "esm"],
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("lists windows bottom to top at their frame, minimized ones with no place, menus apart", () => {
    const listed = shellClientWindows([
      window({ id: 7, title: "top", stacking: 2 }),
      window({ id: 8, title: "menu", stacking: 3, menu: true }),
      window({ id: 9, title: "bottom", stacking: 0, minimized: true }),
    ]);
    assert.deepEqual(
      listed.map((w) => [w.title, w.stackIndex, w.rect]),
      [
        ["bottom", 0, null],
        ["top", 1, { x: 10, y: 20, width: 100, height: 80 }],
      ],
    );
    assert.equal(listed[1]!.id, windowNumber("7"));
  });

  it("says a scaled screen's factor as the screen's, not as an app that scales itself", () => {
    const [listed] = shellClientWindows([{ ...window({ id: 7, title: "Doubled", stacking: 1 }), scale: 2 }]);
    assert.equal(listed!.extentsScale, 2);
    const line = renderWindows(
      [
        {
          ...listed!,
          app: "gedit",
          focused: false,
          accessible: true,
          extentsScaledBy: listed!.extentsScaledBy,
        },
      ],
      false,
      1,
    );
    assert.match(line, /\(the screen's scale ×2\)/);
    assert.doesNotMatch(line, /app scales itself/);
  });

  it("takes an open popup's app window for the window in front", () => {
    const windows = [
      window({ id: 1, pid: 5, stacking: 0 }),
      window({ id: 2, pid: 5, stacking: 1 }),
      window({ id: 3, pid: 5, stacking: 2, menu: true, active: true }),
    ];
    assert.equal(shellFrontWindow(windows), windowNumber("2"));
    assert.equal(shellFrontWindow([window({ id: 4, active: true })]), windowNumber("4"));
    assert.equal(shellFrontWindow([window({ id: 4 })]), undefined);
  });

  it("finds Qt's own title bar from the sizes: a border on three sides, the bar on top", () => {
    const visible = { x: 100, y: 50, width: 646, height: 453 };
    assert.deepEqual(titleBarInset({ width: 640, height: 420 }, visible), { x: 3, y: 30 });
    assert.deepEqual(titleBarInset({ width: 646, height: 423 }, visible), { x: 0, y: 30 });
    // No bar on top, an odd border, or more than any title bar: no inset is guessed.
    assert.equal(titleBarInset({ width: 640, height: 447 }, visible), null);
    assert.equal(titleBarInset({ width: 641, height: 420 }, visible), null);
    assert.equal(titleBarInset({ width: 646, height: 200 }, visible), null);
  });

  it("averages a scaled screen's pixels to one a point, and leaves a picture at one a point as it is", () => {
    const data = Buffer.alloc(4 * 2 * 4);
    // Two by four pixels: the left point's four pixels 0, 40, 80, 120; the right's all 200.
    for (const [i, v] of [0, 40, 200, 200, 80, 120, 200, 200].entries()) data.fill(v, i * 4, i * 4 + 4);
    const image = perPoint({ width: 4, height: 2, data }, 2, 1);
    assert.deepEqual([image.width, image.height, image.data[0], image.data[4]], [2, 1, 60, 200]);
    const same = { width: 2, height: 1, data: Buffer.alloc(8) };
    assert.equal(perPoint(same, 2, 1), same);
  });

  it("a GNOME sandbox refuses several screens, a fractional scale and XWayland, each with the way that works", () => {
    assert.equal(gnomeRefuses({}), undefined);
    assert.equal(gnomeRefuses({ scale: 2 }), undefined);
    assert.match(gnomeRefuses({ monitors: 2 }) ?? "", /one screen/);
    assert.match(gnomeRefuses({ scale: 1.5 }) ?? "", /whole scale.*--wayland or --kde/);
    assert.match(gnomeRefuses({ xwayland: true }) ?? "", /--wayland --xwayland/);
  });
});

describe("a menu's items under Wayland", () => {
  it("are placed in the one open popup whose frame has their box's size", () => {
    // GNOME 43's File menu, measured: four items from (6, 31), a popup of 219×104 at (119, 160).
    const items: [number, number, number, number][] = [
      [6, 31, 219, 26],
      [6, 57, 219, 26],
      [6, 83, 219, 26],
      [6, 109, 219, 26],
    ];
    const popup = { x: 119, y: 160, width: 219, height: 104 };
    assert.deepEqual(boxShift(items, [{ x: 0, y: 0, width: 40, height: 300 }, popup]), { x: 113, y: 129 });
    // Two popups of that size, or none: no place is trusted.
    assert.equal(boxShift(items, [popup, { ...popup, x: 400 }]), null);
    assert.equal(boxShift(items, [{ ...popup, height: 300 }]), null);
    assert.equal(boxShift([], [popup]), null);
  });
});
