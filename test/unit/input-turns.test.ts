// One call at a time per process, then the display's lock: two runs at once do not interleave, a run
// inside one runs at once (it would otherwise wait for itself), and the lock is let go each time,
// also when the work throws.
import assert from "node:assert/strict";
import { it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { InputTurns } from "../../src/platform/input-turns.js";

it("input turns: one run at a time, nested runs at once, the lock let go after each", async () => {
  const events: string[] = [];
  let held = 0;
  const turns = new InputTurns(async () => {
    held++;
    events.push("lock");
    return () => {
      held--;
      events.push("unlock");
    };
  });
  const piece = (name: string) =>
    turns.run(async () => {
      events.push(`${name} start`);
      assert.equal(turns.inside, true);
      await turns.run(async () => events.push(`${name} nested`));
      await sleep(20);
      events.push(`${name} end`);
    });
  await Promise.all([piece("a"), piece("b")]);
  assert.deepEqual(events, [
    "lock",
    "a start",
    "a nested",
    "a end",
    "unlock",
    "lock",
    "b start",
    "b nested",
    "b end",
    "unlock",
  ]);
  await assert.rejects(
    turns.run(async () => Promise.reject(new Error("boom"))),
    /boom/,
  );
  assert.equal(held, 0, "the lock was let go after the failure too");
  assert.equal(turns.inside, false);
});
