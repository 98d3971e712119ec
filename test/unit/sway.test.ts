// Sway's IPC as deskhand speaks it: the i3-ipc framing both ways, a reply past the bound refused,
// the tree turned into windows (surface origin = rect + window_rect, the scratchpad as not visible,
// floating windows marked), and which session an environment is.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { sessionKind } from "../../src/platform/desktops.js";
import { frame, IPC, type SwayNode, swayWindows, unframe } from "../../src/platform/wayland/sway.js";

describe("sway IPC", () => {
  it("frames a request and reads a reply back, whole or in pieces", () => {
    const message = frame(IPC.command, "[con_id=6] focus");
    assert.equal(message.subarray(0, 6).toString(), "i3-ipc");
    assert.equal(message.readUInt32LE(6), 16);
    assert.equal(message.readUInt32LE(10), 0);
    const two = Buffer.concat([frame(IPC.getTree, '{"id":1}'), frame(IPC.getVersion, "{}")]);
    assert.equal(unframe(two.subarray(0, 10)), undefined, "an incomplete header waits");
    assert.equal(unframe(two.subarray(0, 20)), undefined, "an incomplete body waits");
    const first = unframe(two)!;
    assert.deepEqual([first.type, first.payload], [IPC.getTree, '{"id":1}']);
    const second = unframe(first.rest)!;
    assert.deepEqual([second.type, second.payload, second.rest.length], [IPC.getVersion, "{}", 0]);
  });

  it("refuses what is not i3-ipc, and a reply past its bound", () => {
    assert.throws(() => unframe(Buffer.from("HTTP/1.1 200 OK\r\n")), /not an i3-ipc message/);
    const huge = frame(IPC.getTree);
    huge.writeUInt32LE(64 << 20, 6);
    assert.throws(() => unframe(huge), /past the/);
  });

  it("turns the tree into windows where their surfaces are", () => {
    const rect = (x: number, y: number, width: number, height: number) => ({ x, y, width, height });
    const tree: SwayNode = {
      id: 1,
      type: "root",
      rect: rect(0, 0, 1280, 800),
      nodes: [
        {
          id: 3,
          type: "workspace",
          rect: rect(0, 0, 1280, 800),
          nodes: [
            {
              id: 6,
              type: "con",
              name: "wl-gtk3",
              pid: 30612,
              app_id: "gtk3app.py",
              focused: true,
              visible: true,
              rect: rect(427, 25, 427, 775),
              window_rect: rect(2, 0, 423, 773),
            },
            { id: 7, type: "con", name: "split", rect: rect(854, 0, 426, 800), nodes: [] },
          ],
          floating_nodes: [
            {
              id: 9,
              type: "floating_con",
              name: "Dialog",
              pid: 31000,
              app_id: null,
              window_properties: { class: "Xmessage" },
              shell: "xwayland",
              visible: false,
              rect: rect(100, 80, 300, 200),
              window_rect: rect(2, 25, 296, 173),
            },
          ],
        },
      ],
    };
    assert.deepEqual(swayWindows(tree), [
      {
        id: 6,
        title: "wl-gtk3",
        pid: 30612,
        app: "gtk3app.py",
        windowClass: "gtk3app.py",
        rect: rect(429, 25, 423, 773),
        focused: true,
        visible: true,
        floating: false,
        xwayland: false,
      },
      {
        id: 9,
        title: "Dialog",
        pid: 31000,
        app: null,
        windowClass: "Xmessage",
        rect: rect(102, 105, 296, 173),
        focused: false,
        visible: false,
        floating: true,
        xwayland: true,
      },
    ]);
  });

  it("tells a Wayland session from an X11 one", () => {
    assert.equal(sessionKind({ WAYLAND_DISPLAY: "wayland-1" }), "wayland");
    assert.equal(
      sessionKind({ WAYLAND_DISPLAY: "wayland-0", DISPLAY: ":0", XDG_SESSION_TYPE: "wayland" }),
      "wayland",
    );
    assert.equal(sessionKind({ WAYLAND_DISPLAY: "wayland-0", DISPLAY: ":1" }), "x11", "an X sandbox inside");
    assert.equal(sessionKind({ DISPLAY: ":0" }), "x11");
    assert.equal(sessionKind({}), "none");
  });
});

describe("the Wayland wire", () => {
  it("encodes a request: header, words, fixed point and a padded string", async () => {
    const { encode, decode, readString } = await import("../../src/platform/wayland/wire.js");
    const message = encode(3, 0, [{ u: 7 }, { s: "wl_seat" }, { u: 2 }, { o: 9 }]);
    assert.equal(message.readUInt32LE(0), 3, "the object");
    assert.equal(message.readUInt32LE(4) & 0xffff, 0, "the opcode");
    assert.equal(message.readUInt32LE(4) >>> 16, message.length, "the size");
    assert.equal(message.length, 8 + 4 + 4 + 8 + 4 + 4, '"wl_seat\\0" is 8 bytes, already a multiple of 4');
    const { value, next } = readString(message.subarray(8), 4);
    assert.deepEqual([value, next], ["wl_seat", 16]);
    assert.equal(encode(1, 2, [{ fixed: -1.5 }]).readInt32LE(8), -384, "24.8 fixed point");
    assert.equal(encode(1, 0, [{ s: "abcd" }]).length, 8 + 4 + 8, '"abcd\\0" pads to 8');
    const two = Buffer.concat([message, encode(5, 1, [])]);
    const first = decode(two)!;
    assert.deepEqual([first.event.object, first.event.opcode, first.event.body.length], [3, 0, 24]);
    assert.deepEqual([decode(first.rest)!.event.object, decode(first.rest)!.rest.length], [5, 0]);
    assert.equal(decode(two.subarray(0, 12)), undefined, "an incomplete event waits");
  });

  it("reads grim's PPM as RGBA", async () => {
    const { ppmToRgba } = await import("../../src/platform/wayland/hands.js");
    const ppm = Buffer.concat([Buffer.from("P6\n2 1\n255\n"), Buffer.from([255, 0, 0, 0, 128, 255])]);
    assert.deepEqual(ppmToRgba(ppm), {
      width: 2,
      height: 1,
      data: Buffer.from([255, 0, 0, 255, 0, 128, 255, 255]),
    });
    assert.throws(() => ppmToRgba(Buffer.from("P5\n2 1\n255\n")), /binary PPM/);
    assert.throws(() => ppmToRgba(Buffer.from("P6\n2 2\n255\nabc")), /shorter/);
  });
});

describe("sway's stacking", () => {
  it("puts floating windows above tiles, focused or not, for the window list and a covered point", async () => {
    const { stackedWindows } = await import("../../src/platform/wayland/sway.js");
    const { windowsAtPoint } = await import("../../src/platform/window-source.js");
    const rect = (x: number, y: number, width: number, height: number) => ({ x, y, width, height });
    const view = (id: number, extra: Partial<SwayNode>): SwayNode => ({
      id,
      type: "con",
      name: `w${id}`,
      pid: 100 + id,
      visible: true,
      rect: rect(0, 0, 640, 800),
      ...extra,
    });
    const tree: SwayNode = {
      id: 1,
      type: "workspace",
      rect: rect(0, 0, 1280, 800),
      nodes: [
        view(2, { focused: true }),
        view(3, { rect: rect(640, 0, 640, 800) }),
        view(4, { visible: false }),
      ],
      floating_nodes: [view(5, { type: "floating_con", rect: rect(500, 300, 300, 200) })],
    };
    const stacked = stackedWindows(tree);
    assert.deepEqual(
      stacked.map((w) => [w.id, w.stackIndex]),
      [
        [4, 0],
        [3, 1],
        [2, 2],
        [5, 3],
      ],
      "the scratchpad's window is at the bottom; the floating one stays above the focused tile",
    );
    assert.equal(stacked[0]!.rect, null, "a hidden window has no place on screen and covers nothing");
    assert.equal(
      windowsAtPoint(stacked, { x: 700, y: 350 })[0]?.id,
      5,
      "the floating dialog covers the tile",
    );
    assert.equal(
      windowsAtPoint(stacked, { x: 550, y: 350 })[0]?.id,
      5,
      "focus does not lift the tile over it",
    );
    assert.equal(windowsAtPoint(stacked, { x: 100, y: 100 })[0]?.id, 2);
    assert.equal(windowsAtPoint(stacked, { x: 900, y: 700 })[0]?.id, 3);
  });
});
