// The Wayland keyboard's parts that need no compositor: the keymap text and where each character is
// in it, text cut into pieces of at most twelve spare characters, control characters refused before
// anything is sent, the session's input lock (taken, waited for, freed when its owner is killed),
// and a connection that cannot pass descriptors makes no keyboard and says why.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { describe, it } from "node:test";
import { HandsUnavailable } from "../../src/platform/hands.js";
import { WaylandKeyboard } from "../../src/platform/wayland/keyboard.js";
import {
  keymapText,
  pieceStroke,
  SPARE_KEYS,
  typingPieces,
  usStroke,
} from "../../src/platform/wayland/keymap.js";
import { lockName, takeInputLock } from "../../src/platform/wayland/typist-lock.js";
import type { WaylandConnection } from "../../src/platform/wayland/wire.js";

describe("the Wayland keymap", () => {
  it("is pc+us, with characters outside it on the spare keys as their code points", () => {
    const plain = keymapText();
    assert.match(plain, /xkb_symbols \{ include "pc\+us\+inet\(evdev\)"\n {2}\};/);
    assert.doesNotMatch(plain, /override/);
    const swapped = keymapText(["é", "日", "😀"]);
    assert.match(swapped, /override key <FK13> \{ \[ U00E9 \] \};/);
    assert.match(swapped, /override key <FK14> \{ \[ U65E5 \] \};/);
    assert.match(swapped, /override key <FK15> \{ \[ U1F600 \] \};/, "a character beyond the BMP is one key");
    assert.throws(() => keymapText(Array.from({ length: 13 }, (_, i) => String.fromCodePoint(0x3b1 + i))));
  });

  it("finds us characters on their keys, shifted where the layout has them on the second level", () => {
    assert.deepEqual(usStroke("a"), { code: 30, shift: false });
    assert.deepEqual(usStroke("A"), { code: 30, shift: true });
    assert.deepEqual(usStroke("+"), { code: 13, shift: true });
    assert.deepEqual(usStroke("{"), { code: 26, shift: true });
    assert.deepEqual(usStroke("\n"), { code: 28, shift: false }, "a newline is Enter");
    assert.equal(usStroke("é"), undefined);
  });

  it("cuts text into pieces of at most twelve spare characters, in order, and refuses control characters", () => {
    const greek = "αβγδεζηθικλμν"; // 13 distinct
    const pieces = typingPieces(`a${greek}αb`);
    assert.equal(pieces.length, 2);
    assert.equal(pieces[0]!.spares.length, SPARE_KEYS.length);
    // The repeated α comes after ν, in the second piece, where it is no spare yet: it gets one there.
    assert.deepEqual(pieces[1]!.spares, ["ν", "α"]);
    assert.equal(pieces.map((p) => p.chars.join("")).join(""), `a${greek}αb`, "nothing lost or reordered");
    assert.deepEqual(pieces[1]!.chars, ["ν", "α", "b"]);
    assert.deepEqual(pieceStroke("β", pieces[0]!.spares), { code: SPARE_KEYS[1]!.code, shift: false });
    assert.throws(() => typingPieces("ok\u0007"), /U\+0007 is a control character/);
  });
});

describe("the Wayland keyboard without descriptors", () => {
  it("is not made, and says why, when the connection cannot pass its keymap", async () => {
    const wl = {
      noDescriptors: "this Node (v0) has no IPC pipe binding",
      globals: new Map([["zwp_virtual_keyboard_manager_v1", { name: 1, version: 1 }]]),
    } as unknown as WaylandConnection;
    await assert.rejects(
      WaylandKeyboard.open(wl, { time: () => 0, autoReleaseMs: 10_000, timeoutMs: 100 }),
      (error: Error) =>
        error instanceof HandsUnavailable &&
        /keymap passed as a file descriptor: this Node/.test(error.message),
    );
  });
});

describe("the Wayland input lock", () => {
  const name = lockName(`/tmp/deskhand-lock-test-${process.pid}`);

  it("lets one holder in at a time; the next waits, then gets it", async () => {
    const release = await takeInputLock(name, 1000, "test");
    await assert.rejects(
      takeInputLock(name, 100, "test"),
      /another deskhand has held the input lock on test/,
    );
    const waiting = takeInputLock(name, 2000, "test");
    setTimeout(release, 100);
    (await waiting)();
  });

  it("is free the moment its holder is killed", async () => {
    const holder = spawn(
      process.execPath,
      [
        "-e",
        `require("node:net").createServer().listen({ path: ${JSON.stringify(name)}, exclusive: true }, () => console.log("held"))`,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    await new Promise<void>((resolve) => holder.stdout!.on("data", () => resolve()));
    await assert.rejects(takeInputLock(name, 100, "test"));
    holder.kill("SIGKILL");
    await new Promise((resolve) => holder.once("exit", resolve));
    (await takeInputLock(name, 1000, "test"))();
  });
});
