// The AT-SPI bus restarting under deskhand, in a desktop of its own (killing the shared one's bus would
// take the other tests' apps with it): a clean answer while it is down, then a new connection and the
// apps started since, with no restart of deskhand.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ownDesktop, toolCaller } from "./helpers.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the accessibility bus restarts", () => {
  const own = ownDesktop();

  it("answers cleanly while the bus is down, then reconnects and sees apps started since", {
    timeout: 90_000,
  }, async () => {
    const { desktop, context } = own;
    const call = toolCaller(context);
    const first = await call("windows", {});
    assert.ok(first.ok, JSON.stringify(first.error));
    assert.ok(
      first.data.windows.some((w: { accessible: boolean }) => w.accessible),
      "gtk3 is readable",
    );

    // The launcher and the bus daemon it started share a process group.
    const launcher = desktop.info.pids["at-spi-bus-launcher"];
    assert.ok(launcher, `the launcher's pid is known: ${JSON.stringify(desktop.info.pids)}`);
    process.kill(-launcher, "SIGKILL");
    await sleep(500);
    // Either the bus is still down (backend_unavailable), or the call already reconnected to a new,
    // empty bus where the old app is not registered (not_accessible). Both are clean and say why.
    const down = await call("snapshot", { target: { kind: "title", glob: "gtk3*" }, maxDepth: 2 });
    assert.equal(down.ok, false);
    assert.ok(
      ["backend_unavailable", "not_accessible"].includes(down.error.code),
      JSON.stringify(down.error),
    );
    assert.match(down.error.message, /accessibility bus/);
    if (down.error.code === "not_accessible")
      assert.match(
        down.error.tree_incomplete?.[0]?.reason ?? "",
        /has not registered yet/,
        "the unknown tree is named as such",
      );

    // The next calls connect anew: GetAddress bus-activates a new launcher and bus. An app started
    // now registers there.
    const again = await call("windows", {});
    assert.ok(again.ok, JSON.stringify(again.error));
    desktop.spawn("app-swing-after-restart", "gtk4-widget-factory", []);
    let seen = false;
    for (let i = 0; i < 100 && !seen; i++) {
      await sleep(200);
      const listed = await call("windows", {});
      seen =
        listed.ok &&
        listed.data.windows.some(
          (w: { title: string; accessible: boolean }) => w.title === "GTK Widget Factory" && w.accessible,
        );
    }
    assert.ok(seen, "the app started after the restart is listed and readable");
    const snap = await call("snapshot", {
      target: { kind: "title", glob: "GTK Widget Factory" },
      maxDepth: 3,
    });
    assert.ok(snap.ok, JSON.stringify(snap.error));
    assert.ok(snap.data.elements.length > 3);
  });
});
