import assert from "node:assert/strict";
import { it } from "node:test";
import { LineSplitter } from "../../src/frontends/lines.js";

it("splits lines across chunks", () => {
  const splitter = new LineSplitter(100);
  assert.deepEqual(splitter.push(Buffer.from('{"a":')), []);
  const events = splitter.push(Buffer.from('1}\n{"b":2}\n{"c"'));
  assert.deepEqual(
    events.map((e) => (e.kind === "line" ? e.bytes.toString() : e.kind)),
    ['{"a":1}', '{"b":2}'],
  );
  assert.deepEqual(
    splitter.end().map((e) => (e.kind === "line" ? e.bytes.toString() : e.kind)),
    ['{"c"'],
  );
});

it("drops an over-long line without holding it, and reports its length", () => {
  const splitter = new LineSplitter(10);
  const events = [
    ...splitter.push(Buffer.alloc(8, 97)),
    ...splitter.push(Buffer.alloc(1000, 98)),
    ...splitter.push(Buffer.from("c\nok\n")),
  ];
  assert.deepEqual(events[0], {
    kind: "oversized",
    length: 1009,
    head: `${"a".repeat(8)}${"b".repeat(248)}`,
    tail: `${"b".repeat(255)}c`,
  });
  assert.equal(events[1]?.kind === "line" && events[1].bytes.toString(), "ok");
});
