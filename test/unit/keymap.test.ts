// The keymap's remaps reach the X server as one change: every change makes each client reload its
// keymap, and GTK3 held back input while it did (see Keymap#change).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { X11Connection } from "../../src/platform/x11/connection.js";
import { Keymap } from "../../src/platform/x11/keymap.js";

const WIDTH = 2;

/** An X server's keyboard mapping for keycodes 8–15; 8, 11 and 14 have no symbols. */
function server() {
  const rows = [
    [0, 0],
    [0x61, 0x41],
    [0x62, 0x42],
    [0, 0],
    [0x63, 0x43],
    [0x64, 0x44],
    [0, 0],
    [0x65, 0x45],
  ];
  const changes: Array<{ first: number; count: number }> = [];
  const x = {
    keycodeRange: { min: 8, max: 15 },
    keyboardMapping: async (first: number, count: number) =>
      rows.slice(first - 8, first - 8 + count).map((row) => [...row]),
    changeKeyboardMapping: async (first: number, per: number, keysyms: number[]) => {
      assert.equal(per, WIDTH);
      changes.push({ first, count: keysyms.length / per });
      for (let i = 0; i < keysyms.length / per; i++)
        rows[first - 8 + i] = keysyms.slice(i * per, i * per + per);
    },
  };
  return { x: x as unknown as X11Connection, rows, changes };
}

describe("keymap remaps", () => {
  it("borrows spare keycodes in one change, keeping the keys between as the server has them", async () => {
    const { x, rows, changes } = server();
    const keymap = await Keymap.load(x);
    assert.deepEqual(keymap.spareKeycodes(), [8, 11, 14]);
    // Someone else changed keycode 12 since the keymap was loaded: the change must not undo that.
    rows[4] = [0x78, 0x58];
    await keymap.assign(x, [
      { keycode: 8, keysym: 0x1000e9 },
      { keycode: 14, keysym: 0x10065e5 },
    ]);
    assert.deepEqual(changes, [{ first: 8, count: 7 }]);
    assert.deepEqual(rows[0], [0x1000e9, 0x1000e9]);
    assert.deepEqual(rows[6], [0x10065e5, 0x10065e5]);
    assert.deepEqual(rows[4], [0x78, 0x58], "keycode 12 as the server had it");
    assert.deepEqual(rows[1], [0x61, 0x41]);
    assert.deepEqual(keymap.find(0x10065e5), { keycode: 14, shifted: false });
    assert.deepEqual(keymap.find(0x78), { keycode: 12, shifted: false }, "the cache learnt the span");
  });

  it("gives borrowed keycodes back in one change", async () => {
    const { x, rows, changes } = server();
    const keymap = await Keymap.load(x);
    await keymap.assign(x, [
      { keycode: 11, keysym: 0x1000e9 },
      { keycode: 14, keysym: 0x10065e5 },
    ]);
    await keymap.clear(x, [11, 14]);
    assert.deepEqual(changes, [
      { first: 11, count: 4 },
      { first: 11, count: 4 },
    ]);
    assert.deepEqual(rows[3], [0, 0]);
    assert.deepEqual(rows[6], [0, 0]);
    assert.deepEqual(keymap.spareKeycodes(), [8, 11, 14]);
  });

  it("asks nothing of the server when there is nothing to change", async () => {
    const { x, changes } = server();
    const keymap = await Keymap.load(x);
    await keymap.assign(x, []);
    await keymap.clear(x, []);
    assert.deepEqual(changes, []);
  });
});
