// An attempt's waits after its input count from its last send (tools/hands/sends.ts): a send by the
// hands or any call on the acting backend moves the mark; what only reads does not.
import assert from "node:assert/strict";
import { it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import type { Hands } from "../../src/platform/hands.js";
import type { AccessibilityBackend } from "../../src/platform/types.js";
import { notingSends, sinceSent } from "../../src/tools/hands/sends.js";

class FakeHands {
  #pressed = 0;
  async chord() {
    await sleep(5);
    this.#pressed++;
  }
  async type(): Promise<{ remapped: number }> {
    throw new Error("the display is gone");
  }
  async activeWindow() {
    return 7;
  }
  get pressed() {
    return this.#pressed;
  }
}

it("notes the end of each send, by the hands or the acting backend, and never of a read", async () => {
  const hands = new FakeHands();
  const backend = { perform: async () => ({}), reportsShowing: () => false };
  const {
    hands: noted,
    acting,
    lastSent,
  } = notingSends(hands as unknown as Hands, {
    hands: async () => hands as unknown as Hands,
    backend: async () => backend as unknown as AccessibilityBackend,
  });
  assert.equal(await noted.activeWindow(), 7);
  assert.equal(lastSent(), undefined, "a read is no send");
  const before = Date.now();
  await noted.chord({ modifiers: [] } as never, 1);
  // The class's private field is reached through the proxy: methods run on the hands themselves.
  assert.equal((noted as unknown as FakeHands).pressed, 1);
  const chordEnded = lastSent();
  assert.ok(chordEnded !== undefined && chordEnded >= before + 4, "noted when the chord ended");
  await sleep(20);
  await assert.rejects(noted.type("x"), /the display is gone/);
  assert.ok(lastSent()! >= chordEnded + 15, "a send that failed may have gone out in part: noted");
  const typeEnded = lastSent()!;
  await sleep(20);
  await (await acting.backend()).perform("h", { kind: "invoke" } as never, { timeoutMs: 100 });
  assert.ok(lastSent()! >= typeEnded + 15, "an accessibility action is a send");
  // A method that answers at once still does, not with a promise.
  assert.equal((await acting.backend()).reportsShowing?.("h"), false);
});

it("credits the time since the last send, and nothing where none was noted", () => {
  assert.equal(sinceSent(undefined, 5000), 0);
  assert.equal(sinceSent(4600, 5000), 400);
  assert.equal(sinceSent(5100, 5000), 0, "a clock that stepped back credits nothing");
});
