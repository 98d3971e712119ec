// KWin as deskhand reads it, without a KWin: which compositor an environment names, the script's
// windows turned into deskhand's (stacking, minimized ones with no place, menus apart, UUIDs as
// stable numbers), the D-Bus call that carries ScreenShot2's descriptor (decoded back by the same
// library), QImage's ARGB32 as RGBA, the desktop file's grant, and typed text cut at the keymap.
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { describe, it } from "node:test";
import { waylandCompositor } from "../../src/platform/wayland/compositor.js";
import { encodeCall, socketPathOf, variantMap } from "../../src/platform/wayland/dbus-fd.js";
import {
  frontWindow,
  type KWinWindow,
  kwinClientWindows,
  windowNumber,
} from "../../src/platform/wayland/kwin.js";
import { grantText } from "../../src/platform/wayland/kwin-grant.js";
import { fromArgb32 } from "../../src/platform/wayland/kwin-hands.js";
import { runsBy } from "../../src/tools/hands/outside-keymap.js";

const require = createRequire(import.meta.url);
const { unmarshall } = require("@homebridge/dbus-native/lib/message");

const window = (over: Partial<KWinWindow>): KWinWindow => ({
  uuid: "{0}",
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

describe("KWin", () => {
  it("is the compositor where the desktop says KDE, sway where SWAYSOCK is set", () => {
    assert.equal(waylandCompositor({ XDG_CURRENT_DESKTOP: "KDE" }), "kwin");
    assert.equal(waylandCompositor({ XDG_CURRENT_DESKTOP: "ubuntu:KDE" }), "kwin");
    assert.equal(waylandCompositor({ SWAYSOCK: "/run/sway.sock", XDG_CURRENT_DESKTOP: "KDE" }), "sway");
    assert.equal(waylandCompositor({ XDG_CURRENT_DESKTOP: "XFCE" }), undefined);
    assert.equal(waylandCompositor({}), undefined);
  });

  it("lists windows bottom to top at their surface, minimized ones with no place, menus apart", () => {
    const listed = kwinClientWindows([
      window({ uuid: "{b}", title: "Top", stacking: 5, x11: true }),
      window({ uuid: "{a}", title: "Bottom", stacking: 1 }),
      window({ uuid: "{m}", title: "Menu", stacking: 9, menu: true }),
      window({ uuid: "{h}", title: "Hidden", stacking: 3, minimized: true }),
    ]);
    assert.deepEqual(
      listed.map((w) => [w.title, w.stackIndex, w.rect?.width ?? null, w.xwayland ?? false]),
      [
        ["Bottom", 0, 120, false],
        ["Hidden", 1, null, false],
        ["Top", 2, 120, true],
      ],
    );
    assert.equal(listed[0]!.id, windowNumber("{a}"));
  });

  it("takes an open popup's app window, not the popup, for the window in front", () => {
    const main = window({ uuid: "{main}", pid: 7, stacking: 2 });
    const other = window({ uuid: "{other}", pid: 8, stacking: 3 });
    const popup = window({ uuid: "{pop}", pid: 7, stacking: 9, menu: true, active: true });
    assert.equal(frontWindow([main, other, popup]), windowNumber("{main}"));
    assert.equal(frontWindow([main, { ...other, active: true }]), windowNumber("{other}"));
    assert.equal(frontWindow([main, other]), undefined);
  });

  it("names a UUID by the same positive 31-bit number each time, and different ones apart", () => {
    const uuid = "{24f01883-f07d-4099-8689-8a331a52800b}";
    assert.equal(windowNumber(uuid), windowNumber(uuid));
    assert.ok(windowNumber(uuid) > 0 && windowNumber(uuid) < 2 ** 31);
    const many = new Set(Array.from({ length: 2000 }, (_, i) => windowNumber(`{${i}-uuid}`)));
    assert.equal(many.size, 2000);
  });

  it("encodes a call with one descriptor that the D-Bus library decodes back", () => {
    const encoded = encodeCall(
      {
        destination: "org.kde.KWin",
        path: "/org/kde/KWin/ScreenShot2",
        iface: "org.kde.KWin.ScreenShot2",
        member: "CaptureArea",
        signature: "iiuua{sv}h",
        body: [-5, 7, 300, 200, [["native-resolution", ["b", true]]], 0],
        file: "/dev/null",
      },
      42,
    );
    // The library reads no `h`; on the wire it is a `u`, so the header's signature is read as one.
    const at = encoded.indexOf("iiuua{sv}h") + 9;
    assert.equal(String.fromCharCode(encoded[at]!), "h");
    const message = unmarshall(
      Buffer.concat([encoded.subarray(0, at), Buffer.from("u"), encoded.subarray(at + 1)]),
    );
    assert.equal(message.serial, 42);
    assert.equal(message.member, "CaptureArea");
    assert.equal(message.signature, "iiuua{sv}u");
    // Header field 9, UNIX_FDS, a `u` of 1: one descriptor goes with the message.
    assert.ok(encoded.includes(Buffer.from([9, 1, 0x75, 0, 1, 0, 0, 0])), "the header counts one descriptor");
    assert.deepEqual(message.body.slice(0, 4), [-5, 7, 300, 200]);
    assert.deepEqual(variantMap(message.body[4]), { "native-resolution": true });
    assert.equal(message.body[5], 0, "the descriptor's index");
  });

  it("reads the socket of a unix:path bus address, and none of an abstract one", () => {
    assert.equal(socketPathOf("unix:path=/run/user/1000/bus"), "/run/user/1000/bus");
    assert.equal(socketPathOf("unix:abstract=/tmp/x,guid=1;unix:path=/tmp/b%20us"), "/tmp/b us");
    assert.equal(socketPathOf("unix:abstract=/tmp/dbus-1"), undefined);
  });

  it("turns QImage's ARGB32 rows (B, G, R, A in memory, padded) into RGBA", () => {
    const stride = 12;
    const bytes = Buffer.alloc(stride * 2);
    bytes.set([1, 2, 3, 255, 4, 5, 6, 255], 0);
    bytes.set([7, 8, 9, 255, 10, 11, 12, 255], stride);
    const image = fromArgb32(bytes, 2, 2, stride);
    assert.deepEqual([...image.data], [3, 2, 1, 255, 6, 5, 4, 255, 9, 8, 7, 255, 12, 11, 10, 255]);
  });

  it("grants fake input and ScreenShot2 to one executable", () => {
    const text = grantText("/usr/bin/node");
    assert.match(text, /^Exec=\/usr\/bin\/node$/m);
    assert.match(text, /^X-KDE-Wayland-Interfaces=org_kde_kwin_fake_input$/m);
    assert.match(text, /^X-KDE-DBUS-Restricted-Interfaces=org\.kde\.KWin\.ScreenShot2$/m);
  });

  it("cuts typed text where the keymap's characters meet others", () => {
    const us = (c: string) => /[ -~]/.test(c);
    assert.deepEqual(runsBy("ab Zoë 日本!", us), [
      { text: "ab Zo", keys: true },
      { text: "ë", keys: false },
      { text: " ", keys: true },
      { text: "日本", keys: false },
      { text: "!", keys: true },
    ]);
    assert.deepEqual(runsBy("", us), []);
  });
});
