// A Java app's cache kept between reads (AtspiApp.readAndKeep, reader.ts keptCache): kept only where
// the app's events are heard and none named an element of it during its read; dropped by an event
// naming one of its elements, and by any action on the app; an event of an element it does not hold
// (a cell renderer, stamped as it is read) leaves it.
import assert from "node:assert/strict";
import { it } from "node:test";
import { AtspiApp } from "../../src/platform/atspi/app.js";
import type { DBusConnection } from "../../src/platform/dbus.js";

const a11y = { call: async () => [true] } as unknown as DBusConnection;
const items = () =>
  new Map<string, unknown>([
    ["/a/1", {}],
    ["/a/2", {}],
  ]);

function heardApp(): AtspiApp {
  const app = new AtspiApp(":1.9", "/a/root", a11y, undefined);
  app.changesHeardFrom = 0;
  return app;
}

it("kept cache: kept after a quiet read, dropped by an event naming one of its elements", async () => {
  const app = heardApp();
  const read = items();
  assert.equal(await app.readAndKeep(async () => read, true), read);
  assert.equal(app.kept, read);
  app.noteChange("/renderer/728");
  assert.equal(app.kept, read, "an element it does not hold leaves it");
  app.noteChange("/a/2");
  assert.equal(app.kept, undefined);
});

it("kept cache: not kept when an event named one of its elements during its read", async () => {
  const app = heardApp();
  await app.readAndKeep(async () => {
    app.noteChange("/a/1");
    return items();
  }, true);
  assert.equal(app.kept, undefined);
  await app.readAndKeep(async () => {
    app.noteChange("/elsewhere");
    return items();
  }, true);
  assert.notEqual(app.kept, undefined);
});

it("kept cache: not kept where events are not heard yet, nor when not asked to", async () => {
  const deaf = new AtspiApp(":1.9", "/a/root", a11y, undefined);
  await deaf.readAndKeep(async () => items(), true);
  assert.equal(deaf.kept, undefined, "no registration: nothing is kept");
  const early = heardApp();
  early.changesHeardFrom = Date.now() + 60_000;
  await early.readAndKeep(async () => items(), true);
  assert.equal(early.kept, undefined, "read before apps learn of the registration");
  const other = heardApp();
  await other.readAndKeep(async () => items(), false);
  assert.equal(other.kept, undefined);
});

it("kept cache: an action on the app drops it and is remembered", async () => {
  const app = heardApp();
  await app.readAndKeep(async () => items(), true);
  const before = Date.now();
  await app.act("/a/1", "org.a11y.atspi.Action", "DoAction", 1000, "i", [0]);
  assert.equal(app.kept, undefined);
  assert.ok(app.lastActedAt >= before);
});
