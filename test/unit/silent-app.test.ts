// An app that left a call unanswered (stopped, hung) is given a shorter bound on its next calls
// (AtspiApp.call): one hang costs a tool call one full bound, not one per read. Any answer, or ten
// seconds without another unanswered call, gives calls their own bound again.
import assert from "node:assert/strict";
import { it } from "node:test";
import { AtspiApp } from "../../src/platform/atspi/app.js";
import { type DBusConnection, type DBusMethodCall, DBusTimeoutError } from "../../src/platform/dbus.js";

/** A bus on which the app answers or not, as `answers` says; it records each call's bound. */
function bus() {
  const bounds: number[] = [];
  let answers = false;
  const a11y = {
    call: async (message: DBusMethodCall, timeoutMs: number) => {
      bounds.push(timeoutMs);
      if (!answers) throw new DBusTimeoutError(message, timeoutMs);
      return [1];
    },
  } as unknown as DBusConnection;
  return { a11y, bounds, answer: (yes: boolean) => (answers = yes) };
}

const ask = (app: AtspiApp, timeoutMs = 3000) =>
  app.call("/a/1", "org.a11y.atspi.Accessible", "GetRole", timeoutMs);

it("after an unanswered call, the next waits at most 1 s; one answered gives the full bound back", async () => {
  const { a11y, bounds, answer } = bus();
  const app = new AtspiApp(":1.9", "/a/root", a11y, undefined);
  await assert.rejects(ask(app), DBusTimeoutError);
  const second = await ask(app).catch((error) => error);
  assert.ok(second instanceof DBusTimeoutError);
  assert.equal(second.timeoutMs, 1000, "the error names what was waited");
  await assert.rejects(ask(app, 500), DBusTimeoutError);
  answer(true);
  assert.deepEqual(await ask(app), [1]);
  assert.deepEqual(await ask(app), [1]);
  assert.deepEqual(bounds, [3000, 1000, 500, 1000, 3000], "a shorter bound of its own is kept");
});

it("ten seconds after the last unanswered call, a call has its own bound again", async (t) => {
  t.mock.timers.enable({ apis: ["Date"], now: 1_000_000 });
  const { a11y, bounds } = bus();
  const app = new AtspiApp(":1.9", "/a/root", a11y, undefined);
  await assert.rejects(ask(app), DBusTimeoutError);
  t.mock.timers.tick(9_000);
  await assert.rejects(ask(app), DBusTimeoutError);
  t.mock.timers.tick(9_000);
  await assert.rejects(ask(app), DBusTimeoutError, "still silent: the last unanswered was 9 s ago");
  t.mock.timers.tick(10_001);
  await assert.rejects(ask(app), DBusTimeoutError);
  assert.deepEqual(bounds, [3000, 1000, 1000, 3000]);
});
