// The hands' twins on KDE Plasma (compositor-suite.ts) on a headless KWin that deskhand's own sandbox
// starts (`Desktop.start({ kde: true })`): KWin's scripts give the windows, its fake input clicks,
// types, drags and turns the wheel, ScreenShot2 gives the pixels. What only KDE has: the grant, and a
// screen scaled by 2.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { diagnose } from "../../src/platform/diagnostics.js";
import { launchApp } from "../../src/platform/sandbox/apps.js";
import { Desktop } from "../../src/platform/sandbox/desktop.js";
import { KWinScripting, windowNumber } from "../../src/platform/wayland/kwin.js";
import { openKWinHands } from "../../src/platform/wayland/kwin-hands.js";
import { createContext, type ToolContext } from "../../src/tools/context.js";
import { compositorHandsSuite } from "./compositor-suite.js";
import { HANG_MS, toolCaller } from "./helpers.js";

compositorHandsSuite({
  name: "KDE Plasma (KWin, Wayland)",
  compositor: "KWin",
  prefix: "KDE",
  file: "kde",
  start: () => Desktop.start({ kde: true }),
  async truth(env) {
    const kwin = await KWinScripting.open(env, 5000);
    return {
      windows: async () => (await kwin.windows()).map((w) => ({ ...w, id: windowNumber(w.uuid) })),
      close: () => kwin.close(),
    };
  },
  hands: "openKWinHands",
  handsModule: "kwin-hands",
  more({ env: envOf }) {
    it("doctor says what KWin grants, and without the grant the hands say how to get it", async () => {
      const env = envOf();
      const checks = await diagnose(env);
      const session = Object.fromEntries(
        checks.filter((c) => c.section === "session").map((c) => [c.name, `${c.status}: ${c.value}`]),
      );
      for (const name of ["KWin", "grant", "pointer and keys", "screenshots", "text outside the keymap"])
        assert.match(session[name] ?? "", /^ok: /, `${name}: ${JSON.stringify(session)}`);
      // Without the desktop file KWin offers deskhand no fake input (it notices the change by itself).
      rmSync(join(env.XDG_DATA_HOME!, "applications", "deskhand.desktop"));
      let refused: Error | undefined;
      for (const deadline = Date.now() + HANG_MS / 2; !refused && Date.now() < deadline; await sleep(250)) {
        refused = await openKWinHands(env).then(
          async (hands) => void (await hands.close()),
          (error: Error) => error,
        );
      }
      assert.match(refused?.message ?? "", /no fake input.*deskhand setup kde/, String(refused));
    });
  },
});

describe("hands on KDE Plasma on a screen scaled by 2", () => {
  const dir = mkdtempSync(join(tmpdir(), "deskhand-kde-scaled-"));
  const log = join(dir, "qt.log");
  let desktop: Desktop;
  let context: ToolContext;
  before(async () => {
    desktop = await Desktop.start({ kde: true, scale: 2, width: 2560, height: 2048 });
    await launchApp(
      desktop,
      `/usr/bin/python3 test/fixtures/dialogs/qt_buttons.py 'Scaled Qt' ${log} ${join(dir, "v")}`,
      60_000,
    );
    context = createContext({
      refLifetime: "while-verified",
      env: {
        ...desktop.info.env,
        DESKHAND_AUDIT: join(dir, "audit.jsonl"),
        DESKHAND_CONFIG: join(dir, "none.json"),
      },
    });
  });
  after(async () => {
    await context?.close();
    await desktop?.stop();
  });

  it("the screen is KWin's points, a screenshot has a pixel per point, and a Qt click by ref lands", async () => {
    const call = toolCaller(context);
    const shot = await call("screenshot", { of: { kind: "window", window: { title: "Scaled Qt" } } });
    assert.ok(shot.ok, JSON.stringify(shot.error));
    const region = shot.data.image_space.region;
    assert.equal(shot.data.width, region.width, "one pixel per point");
    const found = await call("find", {
      target: { kind: "title", glob: "Scaled Qt" },
      role: "push button",
      name: "Alpha",
    });
    const clicked = await call("click", { ref: found.data.matches[0].ref, intent: "Press Alpha" });
    assert.equal(clicked.data.status, "done", clicked.text);
    const deadline = Date.now() + HANG_MS / 4;
    while (!(existsSync(log) && /Alpha/.test(readFileSync(log, "utf8"))) && Date.now() < deadline)
      await sleep(100);
    assert.match(readFileSync(log, "utf8"), /Alpha/, "the Qt app logged the press");
  });
});
