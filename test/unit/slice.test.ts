// Long work lets the event loop turn: a timer set before it fires before it ends. Each check fails
// if the work runs to its end in one go (the timer would fire only after it).
import assert from "node:assert/strict";
import { it } from "node:test";
import { flatten } from "../../src/core/flatten.js";
import { SLICE_MS, settleInSlices, startAll } from "../../src/platform/slice.js";
import type { RawNode } from "../../src/platform/types.js";

function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

/** Whether a timer set now fires before `work` ends. */
async function timerFiresDuring(work: () => Promise<unknown>): Promise<boolean> {
  let fired = false;
  setTimeout(() => {
    fired = true;
  }, 0);
  let firedBeforeEnd = false;
  await work().then(() => {
    firedBeforeEnd = fired;
  });
  return firedBeforeEnd;
}

it("startAll lets timers run between starts and keeps the order of results", async () => {
  let results: number[] = [];
  const during = await timerFiresDuring(async () => {
    results = await startAll(
      Array.from({ length: 60 }, (_, i) => i),
      async (i) => {
        busy(0.5);
        return i * 2;
      },
    );
  });
  assert.ok(during, `60 starts of 0.5 ms ran in one turn (slice ${SLICE_MS} ms)`);
  assert.deepEqual(
    results,
    Array.from({ length: 60 }, (_, i) => i * 2),
  );
});

it("startAll rejects as Promise.all does, and a rejection while others wait is not unhandled", async () => {
  let unhandled = 0;
  const count = () => unhandled++;
  process.on("unhandledRejection", count);
  try {
    await assert.rejects(
      startAll([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], async (i) => {
        busy(1);
        if (i === 1) throw new Error("the second failed");
        return i;
      }),
      /the second failed/,
    );
    await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(unhandled, 0);
  } finally {
    process.off("unhandledRejection", count);
  }
});

it("settleInSlices keeps the order and lets timers run in a flood of settlements", async () => {
  const order: number[] = [];
  const during = await timerFiresDuring(
    () =>
      new Promise<void>((done) => {
        for (let i = 0; i < 100; i++) {
          settleInSlices(() => {
            busy(0.2);
            order.push(i);
            if (i === 99) done();
          });
        }
      }),
  );
  assert.ok(during, "100 settlements of 0.2 ms ran in one turn");
  assert.deepEqual(
    order,
    Array.from({ length: 100 }, (_, i) => i),
  );
});

it("laying out a 30,000-element read lets timers run part way", async () => {
  const node = (i: number, children: RawNode[] = []): RawNode => ({
    handle: `:1.1/n${i}`,
    role: i % 2 ? "push button" : "panel",
    name: `element ${i}`,
    description: undefined,
    states: ["visible", "showing"],
    interfaces: [],
    childCount: children.length,
    indexInParent: 0,
    children,
    unread: [],
  });
  let n = 0;
  const rows = Array.from({ length: 300 }, () =>
    node(
      n++,
      Array.from({ length: 100 }, () => node(n++)),
    ),
  );
  const root = node(n++, rows);
  let entries = 0;
  const during = await timerFiresDuring(async () => {
    entries = (await flatten([{ node: root, windowId: 1 }], { visibleOnly: false, onlyInteractive: false }))
      .entries.length;
  });
  assert.equal(entries, 30_301);
  assert.ok(during, "flatten ran to its end in one turn");
});
