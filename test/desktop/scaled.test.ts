// Apps that scale themselves on an unscaled X screen while their accessible extents stay in their
// own unscaled pixels (issue 38): Qt with QT_SCALE_FACTOR=1.5 draws a 565×421 frame as an 848×632
// window. deskhand reads the factor from the frame against the window manager's rectangle, so what
// it shows and where it clicks are the screen's: a click by ref and one at the element's shown
// centre press that very button, read back from the app's own log. GTK 3 at GDK_SCALE=2 is read from
// its frame's first child, its content: its frame holds the window manager's decorations. The same
// apps run in desktops of their own made as `sandbox --scale 2` and `--dpi 100` make them, the last
// with Qt scaling itself from the dots per inch, unrounded, as KDE apps do (×100/96), and typed into.
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { launchApp } from "../../src/platform/sandbox/apps.js";
import { Desktop } from "../../src/platform/sandbox/desktop.js";
import type { ToolContext } from "../../src/tools/context.js";
import {
  centre,
  type Element,
  findWaiting,
  gatedContext,
  HANG_MS,
  loggedLines,
  pressLogged,
  type StartedApp,
  startApp,
  toolCaller,
  windowId,
} from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "deskhand-scaled-"));

interface Kit {
  name: string;
  script: string;
  /** What the app is started with in this desktop. */
  env?: Record<string, string>;
  /** A desktop of its own, made as `deskhand sandbox --scale` or `--dpi` makes one. */
  sandbox?: { scale?: number; dpi?: number };
  /** The factor the app scales itself by. */
  factor: number;
}

const KITS: Kit[] = [
  {
    name: "Qt 5 at QT_SCALE_FACTOR=1.5",
    script: "qt_labels.py",
    env: { QT_SCALE_FACTOR: "1.5" },
    factor: 1.5,
  },
  { name: "GTK 3 at GDK_SCALE=2", script: "gtk3_labels.py", env: { GDK_SCALE: "2" }, factor: 2 },
  { name: "Qt 5 in a sandbox at --scale 2", script: "qt_labels.py", sandbox: { scale: 2 }, factor: 2 },
  { name: "GTK 3 in a sandbox at --scale 2", script: "gtk3_labels.py", sandbox: { scale: 2 }, factor: 2 },
  // As a KDE app does: Qt's own scaling from the screen's dots per inch, unrounded (100/96).
  {
    name: "Qt 5 scaling itself by the dpi, at --dpi 100",
    script: "qt_labels.py",
    sandbox: { dpi: 100 },
    env: { QT_ENABLE_HIGHDPI_SCALING: "1", QT_SCALE_FACTOR_ROUNDING_POLICY: "PassThrough" },
    factor: 100 / 96,
  },
  {
    name: "Qt 5 scaling itself by the dpi, at --dpi 144",
    script: "qt_labels.py",
    sandbox: { dpi: 144 },
    env: { QT_ENABLE_HIGHDPI_SCALING: "1", QT_SCALE_FACTOR_ROUNDING_POLICY: "PassThrough" },
    factor: 1.5,
  },
];

for (const kit of KITS) {
  describe(`an app that scales itself: ${kit.name}`, () => {
    const title = `Scaled ${kit.script} ${process.pid}`;
    const log = join(dir, `${kit.name.replace(/\W+/g, "-")}.log`);
    const field = kit.script.startsWith("qt") ? ["=Note"] : [];
    const command = [
      "/usr/bin/python3",
      `test/fixtures/dialogs/${kit.script}`,
      title,
      log,
      "Alpha",
      "Beta",
      "Gamma",
      ...field,
    ];
    let desktop: Desktop | undefined;
    let context: ToolContext;
    let call: ReturnType<typeof toolCaller>;
    let app: StartedApp | undefined;
    let id: number;
    before(async () => {
      if (kit.sandbox) {
        // A screen of more pixels, as a scale is set on: the app keeps its size in points.
        desktop = await Desktop.start({ ...kit.sandbox, width: 2560, height: 2048 });
        const env = Object.entries(kit.env ?? {}).map(([k, v]) => `${k}=${v}`);
        await launchApp(desktop, ["env", ...env, ...command].map((a) => `'${a}'`).join(" "), HANG_MS);
        context = gatedContext(dir, undefined, desktop.info.env);
      } else {
        context = gatedContext(dir);
        app = startApp(command, { ...process.env, ...kit.env });
      }
      call = toolCaller(context);
      id = await windowId(call, title);
    });
    after(async () => {
      app?.kill();
      await context.close();
      await desktop?.stop();
    });
    it("its buttons are shown inside its window, and clicks by ref and at a shown point land on them", async () => {
      const listed = await call("windows", {});
      const window = listed.data.windows.find((w: { id: number }) => w.id === id);
      const rect = window.rect;
      // The factor read from the frame against the window: the app did scale itself.
      assert.ok(
        Math.abs(window.extentsScale - kit.factor) < 0.01,
        `scaled ×${window.extentsScale}, not ×${kit.factor}`,
      );
      assert.match(listed.text ?? "", /app scales itself ×\d/);
      // doctor names the mapping and where it came from.
      const doctor = await call("doctor", { probe: true });
      assert.match(
        doctor.text ?? "",
        new RegExp(`mapping: [^\n]*×${Number(kit.factor.toFixed(3))}[^\n]*Read from each frame`),
      );
      const inside = (b: Element["bounds"]) =>
        b.x >= rect.x &&
        b.y >= rect.y &&
        b.x + b.width <= rect.x + rect.width &&
        b.y + b.height <= rect.y + rect.height;
      const button = async (name: string) =>
        (await findWaiting(call, title, { role: "push button", name }, HANG_MS)) as Element;
      const beta = await button("Beta");
      const gamma = await button("Gamma");
      for (const shown of [beta, gamma])
        assert.ok(
          inside(shown.bounds),
          `${JSON.stringify(shown.bounds)} lies in the window ${JSON.stringify(rect)}`,
        );
      for (const [name, where] of [
        ["Beta", { ref: beta.ref }],
        ["Gamma", { at: centre(gamma), window: { id } }],
      ] as const) {
        const clicked = await call("click", { ...where, intent: `Press ${name}` });
        assert.equal(clicked.data?.status, "done", clicked.text ?? JSON.stringify(clicked.error));
        await pressLogged(log, name);
      }
    });

    if (kit.script.startsWith("qt"))
      it("types into its field by ref, and the field reads back what was typed", async () => {
        const note = (await findWaiting(call, title, { role: "text", name: "Note" }, HANG_MS)) as Element;
        const typed = await call("type_text", { ref: note.ref, text: "scaled ok", intent: "Write a note" });
        assert.equal(typed.data?.status, "done", typed.text ?? JSON.stringify(typed.error));
        await pressLogged(log, "Note=scaled ok");
      });
  });
}

// Where the evidence disagrees (the frame matches its window at no scale), no place is guessed: the
// window says so, its elements carry no bounds, and a click by ref is refused naming both boxes,
// with nothing pressed; its accessibility action still presses.
describe("an app whose frame disagrees with its window", () => {
  const title = `Disagreeing frame ${process.pid}`;
  const log = join(dir, "disagreeing.log");
  let context: ToolContext;
  let call: ReturnType<typeof toolCaller>;
  let app: StartedApp;
  let id: number;
  before(async () => {
    context = gatedContext(dir);
    app = startApp(
      ["/usr/bin/python3", "test/fixtures/dialogs/gtk3_labels.py", title, log, "Alpha", "Beta"],
      {
        ...process.env,
        FRAME_DISAGREES: "1",
      },
    );
    call = toolCaller(context);
    id = await windowId(call, title);
  });
  after(async () => {
    app.kill();
    await context.close();
  });
  it("shows no place, refuses a click by ref, and still presses by the action", async () => {
    const listed = await call("windows", {});
    const window = listed.data.windows.find((w: { id: number }) => w.id === id);
    assert.match(window.extentsDisagree ?? "", /its frame reads \d+x\d+@-?\d+,\d+ against the window's/);
    assert.match(listed.text ?? "", /places disagree with the screen/);
    const doctor = await call("doctor", { probe: true });
    assert.match(doctor.text ?? "", /warn probe · mapping: [^\n]*none: its frame reads/);
    const beta = (await findWaiting(call, title, { role: "push button", name: "Beta" }, HANG_MS)) as Element;
    assert.equal(beta.bounds ?? null, null, "a guessed place is shown");
    const clicked = await call("click", { ref: beta.ref, intent: "Press Beta" });
    assert.equal(clicked.error?.code, "not_clickable", clicked.text ?? JSON.stringify(clicked.data));
    assert.match(clicked.error.message, /no place on the screen: its frame reads/);
    await sleep(500);
    assert.deepEqual(loggedLines(log), [], "something was pressed");
    const pressed = await call("act", { ref: beta.ref, action: { kind: "invoke" }, intent: "Press Beta" });
    assert.equal(pressed.error, undefined, JSON.stringify(pressed.error));
    await pressLogged(log, "Beta");
  });
});

// A KDE app as it runs: KCalc (KF5) at the dots per inch the X server reports, Xvfb's own 100 and a
// sandbox's 144. It draws its fonts larger and keeps its extents the screen's, so nothing is scaled
// and nothing disagrees: buttons clicked by ref and keys typed by ref give the sums, read back from
// its display (a frame named by what it shows).
for (const dpi of [undefined, 144]) {
  describe(`a KDE app, KCalc, at ${dpi ?? "Xvfb's default"} dpi`, () => {
    let desktop: Desktop;
    let context: ToolContext;
    let call: ReturnType<typeof toolCaller>;
    let id: number;
    before(async () => {
      desktop = await Desktop.start(dpi ? { dpi, width: 2560, height: 2048 } : {});
      await launchApp(desktop, "kcalc", HANG_MS);
      context = gatedContext(dir, undefined, desktop.info.env);
      call = toolCaller(context);
      id = await windowId(call, "KCalc");
    });
    after(async () => {
      await context?.close();
      await desktop?.stop();
    });
    const display = async (shows: string) => {
      for (const deadline = Date.now() + HANG_MS; Date.now() < deadline; await sleep(100)) {
        const found = await call("find", { target: { kind: "window", id }, role: "frame", name: shows });
        if (found.data?.total === 1) return found.data.matches[0] as Element;
      }
      assert.fail(`KCalc never showed ${shows}`);
    };
    it("clicks its buttons by ref and types into it by ref: the display shows the sums", async () => {
      const listed = await call("windows", {});
      const window = listed.data.windows.find((w: { id: number }) => w.id === id);
      assert.equal(window.extentsDisagree, undefined, window.extentsDisagree);
      for (const name of ["7", "+", "2", "="]) {
        const button = (await findWaiting(call, "KCalc", { role: "push button", name }, HANG_MS)) as Element;
        const clicked = await call("click", { ref: button.ref, intent: `Press ${name}` });
        assert.equal(clicked.data?.status, "done", clicked.text ?? JSON.stringify(clicked.error));
      }
      const nine = await display("9");
      // The display is a frame named by what it shows, with no text to read back: typing into it is
      // sent, not verified; its new name says what it took.
      const typed = await call("type_text", { ref: nine.ref, text: "6*7=", intent: "Multiply" });
      assert.equal(typed.data?.status, "unverified", typed.text ?? JSON.stringify(typed.error));
      await display("42");
    });
  });
}
