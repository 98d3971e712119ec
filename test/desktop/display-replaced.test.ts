// The X server replaced under a running deskhand, in a desktop of its own: Xvfb, openbox and the app
// killed, a new Xvfb started on the same display with a new window manager and app. The same context
// (what a server keeps between calls) must find the new server: its windows listed, read and seen.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { launchApp } from "../../src/platform/sandbox/apps.js";
import { X11Connection } from "../../src/platform/x11/connection.js";
import { ownDesktop, toolCaller, within } from "./helpers.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, ms: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(100);
  }
}

const processGone = (pid: number) =>
  until(`process ${pid} gone`, within(10_000), async () => {
    try {
      process.kill(pid, 0);
      return undefined;
    } catch {
      return true;
    }
  });

describe("the X server replaced on the same display", () => {
  const own = ownDesktop();

  it("is found again by the same context: windows, snapshot and screenshot answer from the new server", {
    timeout: 120_000,
  }, async () => {
    const { desktop, context } = own;
    const call = toolCaller(context);
    const first = await call("windows", {});
    assert.ok(first.ok, JSON.stringify(first.error));
    const oldWindow = first.data.windows.find((w: { title: string }) => w.title === "gtk3-widget-factory");
    assert.ok(oldWindow?.accessible, JSON.stringify(first.data.windows));
    assert.ok((await call("screenshot", {})).ok, "hands connected to the first server");

    const display = desktop.info.display;
    const { Xvfb: xvfb, openbox } = desktop.info.pids;
    assert.ok(xvfb && openbox, JSON.stringify(desktop.info.pids));
    for (const pid of [openbox, xvfb]) process.kill(-pid, "SIGKILL");
    await Promise.all([processGone(xvfb), processGone(openbox)]);

    // A call while no server is there says so, rather than answering an empty desktop.
    const down = await call("windows", {});
    if (!down.ok) {
      assert.equal(down.error.code, "backend_unavailable");
      assert.match(down.error.message, /closed/, "it says the connection it had closed");
      assert.match(down.error.message, /X (display|server)/, JSON.stringify(down.error));
    } else assert.fail(`answered with no X server: ${JSON.stringify(down.data)}`);

    desktop.spawn("Xvfb-again", "Xvfb", [
      display,
      "-screen",
      "0",
      "1024x768x24",
      "-nolisten",
      "tcp",
      "+extension",
      "XTEST",
      "-noreset",
    ]);
    const x = await until("the new X server", within(15_000), () => X11Connection.open(display, 1000));
    try {
      desktop.spawn("openbox-again", "openbox", ["--sm-disable"]);
      await until("openbox on the new server", within(15_000), async () =>
        (await x.cardinals(x.root, "_NET_SUPPORTING_WM_CHECK")) ? true : undefined,
      );
      await x.setStringProperty(x.root, "AT_SPI_BUS", desktop.info.accessibilityBusAddress);
    } finally {
      x.close();
    }
    const app = await launchApp(desktop, "gtk3-widget-factory", 60_000);

    // The new window: listed by the same context, with its new pid, readable.
    const listed = await until("the new window listed", within(20_000), async () => {
      const answer = await call("windows", {});
      const found = answer.ok
        ? answer.data.windows.find((w: { pid: number; accessible: boolean }) => w.pid === app.registeredPid)
        : undefined;
      return found?.accessible ? found : undefined;
    });
    assert.equal(listed.title, "gtk3-widget-factory");
    const snap = await call("snapshot", { target: { kind: "window", id: listed.id }, maxDepth: 3 });
    assert.ok(snap.ok, JSON.stringify(snap.error));
    assert.ok(snap.data.elements.length > 3, "the new window's tree is read");
    // The hands too: the new screen is 1024×768, the old one was 1280×1024.
    const shot = await call("screenshot", {});
    assert.ok(shot.ok, JSON.stringify(shot.error));
    assert.deepEqual([shot.data.width, shot.data.height], [1024, 768], JSON.stringify(shot.data));
  });
});
