// The keymap's remaps reach the X server in as few changes as touch only its own keycodes: every
// change makes each client reload its keymap, and GTK3 held back input while it did; a key that is
// not deskhand's is never rewritten, since the server would re-derive its XKB types (Keymap#change).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { X11Connection } from "../../src/platform/x11/connection.js";
import { Keymap } from "../../src/platform/x11/keymap.js";

const WIDTH = 2;

/** An X server's keyboard mapping for keycodes 8–15; 8, 11, 12 and 14 have no symbols. */
function server() {
  const rows = [
    [0, 0],
    [0x61, 0x41],
    [0x62, 0x42],
    [0, 0],
    [0, 0],
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
  it("borrows neighbouring spare keycodes in one change and touches no other key", async () => {
    const { x, rows, changes } = server();
    const keymap = await Keymap.load(x);
    assert.deepEqual(keymap.spareKeycodes(), [8, 11, 12, 14]);
    const before = rows.map((row) => [...row]);
    await keymap.assign(x, [
      { keycode: 14, keysym: 0x10065e5 },
      { keycode: 11, keysym: 0x1000e9 },
      { keycode: 12, keysym: 0x10000e8 },
      { keycode: 8, keysym: 0x1002713 },
    ]);
    assert.deepEqual(changes, [
      { first: 8, count: 1 },
      { first: 11, count: 2 },
      { first: 14, count: 1 },
    ]);
    assert.deepEqual(rows[3], [0x1000e9, 0x1000e9]);
    assert.deepEqual(rows[4], [0x10000e8, 0x10000e8]);
    for (const keycode of [9, 10, 13, 15])
      assert.deepEqual(rows[keycode - 8], before[keycode - 8], `keycode ${keycode} untouched`);
    assert.deepEqual(keymap.find(0x10065e5), { keycode: 14, shifted: false });
    assert.deepEqual(keymap.spareKeycodes(), []);
  });

  it("gives borrowed keycodes back the same way", async () => {
    const { x, rows, changes } = server();
    const keymap = await Keymap.load(x);
    await keymap.assign(x, [
      { keycode: 11, keysym: 0x1000e9 },
      { keycode: 12, keysym: 0x10065e5 },
    ]);
    await keymap.clear(x, [12, 11]);
    assert.deepEqual(changes, [
      { first: 11, count: 2 },
      { first: 11, count: 2 },
    ]);
    assert.deepEqual(rows[3], [0, 0]);
    assert.deepEqual(rows[4], [0, 0]);
    assert.deepEqual(keymap.spareKeycodes(), [8, 11, 12, 14]);
  });

  it("asks nothing of the server when there is nothing to change", async () => {
    const { x, changes } = server();
    const keymap = await Keymap.load(x);
    await keymap.assign(x, []);
    await keymap.clear(x, []);
    assert.deepEqual(changes, []);
  });
});
