// Several monitors of different sizes (issue 38), as `deskhand sandbox --monitors 2` makes them: under
// X11 two RandR monitors of one root window, the second to the right; under Wayland two sway outputs,
// the second left of the first at a negative origin and at another scale. An app on the second
// monitor is listed there, `doctor` names both screens, and a click by ref and one at the centre
// `find_text` gives each press their own button, read back from the app's own log.
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { launchApp } from "../../src/platform/sandbox/apps.js";
import { Desktop } from "../../src/platform/sandbox/desktop.js";
import type { DesktopOptions } from "../../src/platform/sandbox/starting.js";
import { SwayIpc } from "../../src/platform/wayland/sway.js";
import type { ToolContext } from "../../src/tools/context.js";
import {
  type Element,
  findWaiting,
  gatedContext,
  HANG_MS,
  pressLogged,
  toolCaller,
  windowId,
} from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "deskhand-monitors-"));

interface Layout {
  name: string;
  options: DesktopOptions;
  /** Whether a window's rectangle lies on the second monitor. */
  onSecond: (r: { x: number; y: number; width: number }) => boolean;
  /** What doctor says of the two screens. */
  doctor: RegExp;
}

const LAYOUTS: Layout[] = [
  {
    name: "X11, a second monitor of another size to the right",
    options: { monitors: 2 },
    onSecond: (r) => r.x >= 1280,
    doctor: /monitors: DESKHAND-1 1280x1024@0,0 \(primary\); DESKHAND-2 1024x768@1280,0/,
  },
  {
    name: "Wayland, a second output left of a scaled first, at a negative origin",
    options: { monitors: 2, wayland: true, scale: 2, width: 2560, height: 2048 },
    onSecond: (r) => r.x + r.width <= 0,
    doctor: /outputs: HEADLESS-1 1280x1024@0,0 scale 2; HEADLESS-2 1024x768@-1024,0 scale 1/,
  },
];

for (const layout of LAYOUTS) {
  describe(`several monitors: ${layout.name}`, () => {
    const title = `Monitors ${process.pid}`;
    const log = join(dir, `${layout.options.wayland ? "wayland" : "x11"}.log`);
    let desktop: Desktop;
    let context: ToolContext;
    let call: ReturnType<typeof toolCaller>;
    let id: number;
    before(async () => {
      desktop = await Desktop.start(layout.options);
      const env = desktop.info.env;
      const app = `/usr/bin/python3 test/fixtures/dialogs/gtk3_labels.py '${title}' '${log}' Alpha Beta Gamma`;
      // X11: the app places itself on the second monitor; sway puts it where it is told.
      await launchApp(desktop, layout.options.wayland ? app : `env WINDOW_AT=1400,100 ${app}`, HANG_MS);
      if (layout.options.wayland) {
        const ipc = await SwayIpc.open(env.SWAYSOCK!, 2000);
        // The app's tree can register before sway knows its title: the move is asked again a while.
        const move = `[title="${title}"] move container to output HEADLESS-2, focus output HEADLESS-2`;
        for (const deadline = Date.now() + HANG_MS / 4; ; await sleep(100)) {
          const moved = await ipc.command(move).then(
            () => true,
            (error: Error) => {
              if (Date.now() > deadline) throw error;
              return false;
            },
          );
          if (moved) break;
        }
        ipc.close();
      }
      context = gatedContext(dir, undefined, env);
      call = toolCaller(context);
      id = await windowId(call, title);
    });
    after(async () => {
      await context?.close();
      await desktop?.stop();
    });

    it("lists the window on the second monitor, and doctor names both", async () => {
      let rect = { x: 0, y: 0, width: 0 };
      for (const deadline = Date.now() + HANG_MS; Date.now() < deadline; await sleep(200)) {
        const listed = await call("windows", {});
        rect = listed.data.windows.find((w: { id: number }) => w.id === id).rect;
        if (layout.onSecond(rect)) break;
      }
      assert.ok(layout.onSecond(rect), `the window is at ${JSON.stringify(rect)}`);
      const doctor = await call("doctor", {});
      assert.match(doctor.text ?? "", layout.doctor);
    });

    it("a click by ref and one at the centre find_text gives land on their buttons", async () => {
      const beta = (await findWaiting(
        call,
        title,
        { role: "push button", name: "Beta" },
        HANG_MS,
      )) as Element;
      const clicked = await call("click", { ref: beta.ref, intent: "Press Beta" });
      assert.equal(clicked.data?.status, "done", clicked.text ?? JSON.stringify(clicked.error));
      await pressLogged(log, "Beta");
      const seen = await call("find_text", { text: "Gamma", of: { kind: "window", window: { id } } });
      const match = seen.data?.matches?.[0];
      assert.ok(match, seen.text ?? JSON.stringify(seen.error));
      const at = await call("click", {
        at: { space: "global", x: match.centre.x, y: match.centre.y },
        intent: "Press Gamma",
      });
      assert.equal(at.data?.status, "done", at.text ?? JSON.stringify(at.error));
      await pressLogged(log, "Gamma");
    });
  });
}
