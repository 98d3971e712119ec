// The hands tests' Wayland twins (issue 28), on a headless sway that deskhand's own sandbox starts
// (`Desktop.start({ wayland: true })`), with GTK 3 apps on it and no X server: deskhand's virtual
// keyboard types Unicode and chords, its virtual pointer drags, scrolls and clicks in image space, the
// gate judges keys and points as on X11, held input is let go after 10 s, and sway reads back
// focus, hiding and showing. Every effect is re-read from the app over AT-SPI.
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { decodePng, distinctColours } from "../../src/core/image.js";
import { launchApp } from "../../src/platform/sandbox/apps.js";
import { Desktop } from "../../src/platform/sandbox/desktop.js";
import { openWaylandHands, ppmToRgba } from "../../src/platform/wayland/hands.js";
import { WaylandScreencopy } from "../../src/platform/wayland/screencopy.js";
import { SwayIpc, swayWindows } from "../../src/platform/wayland/sway.js";
import type { SafetyLevel } from "../../src/safety/levels.js";
import { callTool } from "../../src/tools/call.js";
import { createContext, type ToolContext } from "../../src/tools/context.js";
import { type ToolName, toolNamed } from "../../src/tools/registry.js";
import { CASES, everyRouteRefused } from "./gate-dialogs.js";
import { clipboardBothWays, HANG_MS, toolCaller } from "./helpers.js";

const EDITOR = "Wayland Editor";
const SCALE = "Wayland Scale";

type Match = {
  ref: string;
  role: string;
  name: string | null;
  value?: string;
  states: string[];
  bounds: any;
};

describe("hands on a Wayland desktop (sway)", () => {
  const dir = mkdtempSync(join(tmpdir(), "deskhand-wayland-hands-"));
  let desktop: Desktop;
  let env: NodeJS.ProcessEnv;
  let context: ToolContext;
  let ipc: SwayIpc;
  const contexts: ToolContext[] = [];

  const contextWith = (options: { ceiling?: SafetyLevel; config?: object } = {}) => {
    const config = join(dir, `config-${contexts.length}.json`);
    if (options.config) writeFileSync(config, JSON.stringify(options.config));
    const made = createContext({
      refLifetime: "while-verified",
      env: { ...env, DESKHAND_AUDIT: join(dir, "audit.jsonl"), DESKHAND_CONFIG: config },
      ...(options.ceiling ? { ceiling: options.ceiling } : {}),
    });
    contexts.push(made);
    return made;
  };

  before(async () => {
    desktop = await Desktop.start({ wayland: true });
    env = desktop.info.env;
    await launchApp(desktop, `/usr/bin/python3 test/fixtures/dialogs/gtk3_editor.py '${EDITOR}'`, 60_000);
    await launchApp(desktop, `zenity --scale --title='${SCALE}' --value=50`, 60_000);
    ipc = await SwayIpc.open(env.SWAYSOCK!, 2000);
    context = contextWith();
  });
  after(async () => {
    for (const made of contexts) await made.close();
    ipc?.close();
    await desktop?.stop();
  });

  const call = (tool: ToolName, input: Record<string, unknown>, on = context) => toolCaller(on)(tool, input);
  const find = async (title: string, query: Record<string, unknown>): Promise<Match[]> => {
    const result = await call("find", { target: { kind: "title", glob: title }, limit: 50, ...query });
    assert.ok(result.ok, JSON.stringify(result.error));
    return result.data.matches;
  };
  const one = async (title: string, query: Record<string, unknown>): Promise<Match> => {
    const [match] = await find(title, query);
    assert.ok(match, `${JSON.stringify(query)} is in ${title}`);
    return match;
  };
  /** The editor's own record of the last thing it did: its Status label's description. */
  const status = async () => {
    const result = await call("snapshot", {
      target: { kind: "title", glob: EDITOR },
      format: "json",
      maxDepth: 30,
    });
    return result.data.elements.find((e: { name: string }) => e.name === "Status").description as string;
  };
  /** The titled window in sway's tree, waited for: an app registers on the bus before sway maps it. */
  const sway = async (title: string) => {
    const deadline = Date.now() + HANG_MS;
    for (;;) {
      const window = swayWindows(await ipc.tree()).find((w) => w.title === title);
      if (window || Date.now() > deadline) return window!;
      await sleep(100);
    }
  };
  /** A value once it matches, or the last one read after 3 s: GTK applies input on its own time. */
  const becomes = async (read: () => Promise<string | undefined>, expected: RegExp) => {
    const deadline = Date.now() + HANG_MS;
    let value = await read();
    while (!expected.test(value ?? "") && Date.now() < deadline) {
      await sleep(100);
      value = await read();
    }
    return value;
  };

  it("types é 日本 ✓ and text beyond twelve spare keys into a GTK3 entry, re-read over AT-SPI", async () => {
    const first = await one(EDITOR, { role: "text", name: "First" });
    const text = "Zoë é 日本 ✓";
    const typed = await call("type_text", { ref: first.ref, text, clear: true, intent: "Fill the field" });
    assert.equal(typed.data.status, "done", typed.text);
    assert.ok(
      typed.data.result.remapped_keys >= 5,
      `the characters outside us went on spare keys: ${typed.text}`,
    );
    assert.equal((await one(EDITOR, { role: "text", name: "First" })).value, text);
    // More distinct characters than the twelve spare keys: the keymap is swapped between pieces.
    const greek = "αβγδεζηθικλμνξοπρστυφχψω ABC {+}";
    const long = await call("type_text", {
      ref: first.ref,
      text: greek,
      clear: true,
      intent: "Fill the field",
    });
    assert.equal(long.data.status, "done", long.text);
    assert.equal((await one(EDITOR, { role: "text", name: "First" })).value, greek);
  });

  it("the clipboard: deskhand's text pasted by GTK's ctrl+v, GTK's ctrl+c read back", () =>
    clipboardBothWays(call, () => one(EDITOR, { role: "text", name: "First" }), becomes));

  it("a mnemonic chord opens the File menu; ctrl+s is judged as Save: refused, then pre-approved it lands", async () => {
    const window = { title: EDITOR };
    const opened = await call("key", { key: "alt+f", window, intent: "Open the File menu" });
    assert.equal(opened.data.status, "done", opened.text);
    const file = await becomes(
      async () => (await one(EDITOR, { role: "menu", name: "File" })).states.join(" "),
      /selected/,
    );
    assert.match(file ?? "", /selected/, "the File menu is open");
    await call("key", { key: "Escape", window, intent: "Close the menu" });
    await call("key", { key: "Escape", window, intent: "Leave the menu bar" });

    const before = await status();
    const refused = await call("key", { key: "ctrl+s", window, intent: "Save" });
    assert.equal(refused.data.status, "refused", refused.text);
    await sleep(300);
    assert.equal(await status(), before, "nothing was saved");
    const approved = contextWith({
      config: { preapprove: [{ reason: "any", tool: "key", window: "Wayland*" }] },
    });
    const saved = await call("key", { key: "ctrl+s", window, intent: "Save" }, approved);
    assert.equal(saved.data.status, "done", saved.text);
    assert.equal(await becomes(status, /^Saved$/), "Saved");
  });

  it("a drag moves a GTK3 scale, and the wheel turns it", async () => {
    const slider = await one(SCALE, { role: "slider" });
    const b = slider.bounds;
    const knob = { space: "global", x: Math.round(b.x + b.width / 2), y: Math.round(b.y + b.height / 2) };
    const dragged = await call("drag", {
      from: { at: knob },
      to: { at: { ...knob, x: Math.round(b.x + b.width * 0.85) } },
      window: { title: SCALE },
      intent: "Move the scale to the right",
    });
    assert.equal(dragged.data?.status, "done", dragged.text ?? JSON.stringify(dragged.error));
    const moved = Number(
      await becomes(async () => (await one(SCALE, { role: "slider" })).value, /^(7|8|9)\d$/),
    );
    assert.ok(moved > 65, `the scale moved from 50 to ${moved}`);
    const wheeled = await call("wheel", { at: knob, direction: "down", notches: 3, intent: "Turn it back" });
    assert.equal(wheeled.data?.status, "done", wheeled.text ?? JSON.stringify(wheeled.error));
    const after = await becomes(
      async () => (await one(SCALE, { role: "slider" })).value,
      new RegExp(`^(?!${moved}$)`),
    );
    assert.notEqual(Number(after), moved, `the wheel turned it from ${moved} to ${after}`);
  });

  it("a screenshot matches the window's place; an image-space click lands on the button it shows", async () => {
    const window = await sway(EDITOR);
    const shot = await call("screenshot", {
      of: { kind: "window", window: { id: window.id } },
      max_width: 400,
    });
    assert.ok(shot.ok, JSON.stringify(shot.error));
    const space = shot.data.image_space;
    assert.deepEqual(
      [space.region.x, space.region.y, space.region.width, space.region.height],
      [window.rect.x, window.rect.y, window.rect.width, window.rect.height],
      "the picture is of sway's rectangle for the window",
    );
    const button = await one(EDITOR, { role: "push button", name: "Replace All" });
    const element = await callTool(context, toolNamed("screenshot"), {
      of: { kind: "element", ref: button.ref },
    });
    assert.ok(element.ok);
    const image = decodePng(element.output.image!.data);
    assert.equal(image.width, button.bounds.width);
    assert.ok(distinctColours(image) > 4, "the button is drawn, not a flat colour");
    const pixel = {
      x: Math.round((button.bounds.x + button.bounds.width / 2 - space.region.x) * shot.data.scale),
      y: Math.round((button.bounds.y + button.bounds.height / 2 - space.region.y) * shot.data.scale),
    };
    const clicked = await call("click", {
      at: { space: "image", ...pixel, ...space },
      intent: "Replace all",
    });
    assert.equal(clicked.data.status, "done", clicked.text);
    assert.equal(clicked.data.target.name, "Replace All", "the probe saw the button under the point");
    assert.equal(await becomes(status, /^Replaced 3$/), "Replaced 3");
  });

  it("on an output scaled by 2, a screenshot has a pixel per point and an image-space click lands", async () => {
    const before = (await sway(EDITOR)).rect;
    // Alone on the output: tiled beside the other window at half the width, the editor's content
    // would run past its tile's edge.
    await ipc.command(`[title="${EDITOR}"] fullscreen enable`);
    await ipc.command("output * scale 2");
    try {
      // sway places the window again in the output's smaller logical space.
      let window = await sway(EDITOR);
      for (let i = 0; i < 50 && window.rect.width === before.width; i++) {
        await sleep(100);
        window = await sway(EDITOR);
      }
      const shot = await callTool(context, toolNamed("screenshot"), {
        of: { kind: "window", window: { id: window.id } },
        max_width: 4000,
      });
      assert.ok(shot.ok, JSON.stringify(shot));
      const space = (shot.output.data as { image_space: { region: typeof window.rect } }).image_space;
      const image = decodePng(shot.output.image!.data);
      assert.deepEqual(
        [image.width, image.height],
        [space.region.width, space.region.height],
        "one pixel per point, though the output draws two",
      );
      const menu = await one(EDITOR, { role: "menu item", name: "Find/Replace…", include_off_screen: true });
      assert.ok((await call("act", { ref: menu.ref, action: { kind: "invoke" }, intent: "Mark" })).ok);
      assert.equal(await becomes(status, /asked/), "Find/Replace asked");
      // GTK lays the window out again at its new size on its own time.
      const inside = (b: Match) =>
        b.bounds.x + b.bounds.width <= space.region.x + space.region.width &&
        b.bounds.y + b.bounds.height <= space.region.y + space.region.height;
      let button = await one(EDITOR, { role: "push button", name: "Replace All" });
      for (let i = 0; i < 50 && !inside(button); i++) {
        await sleep(100);
        button = await one(EDITOR, { role: "push button", name: "Replace All" });
      }
      assert.ok(
        inside(button),
        `the button lies in the window: ${JSON.stringify([button.bounds, space.region])}`,
      );
      const pixel = {
        x: Math.round(button.bounds.x + button.bounds.width / 2 - space.region.x),
        y: Math.round(button.bounds.y + button.bounds.height / 2 - space.region.y),
      };
      const clicked = await call("click", {
        at: { space: "image", ...pixel, ...space },
        intent: "Replace all",
      });
      assert.equal(clicked.data?.status, "done", clicked.text ?? JSON.stringify(clicked.error));
      assert.equal(clicked.data.target.name, "Replace All", "the probe saw the button under the point");
      assert.match((await becomes(status, /^Replaced/)) ?? "", /^Replaced \d+$/);
    } finally {
      await ipc.command("output * scale 1");
      await ipc.command(`[title="${EDITOR}"] fullscreen disable`);
      for (let i = 0; i < 50 && (await sway(EDITOR)).rect.width !== before.width; i++) await sleep(100);
      // The apps draw again at the output's scale on their own time.
      await sleep(1000);
    }
  });

  it("on a second output left of the first (a negative origin), a click by ref and a screenshot land", async () => {
    const outputs = () => ipc.request<{ name: string; rect: { x: number } }[]>(3, "");
    const before = new Set((await outputs()).map((o) => o.name));
    await ipc.command("create_output");
    const added = (await outputs()).find((o) => !before.has(o.name))!.name;
    try {
      await ipc.command(`output ${added} resolution 800x600 position -800 0`);
      await ipc.command(`[title="${EDITOR}"] move container to output ${added}`);
      let window = await sway(EDITOR);
      for (let i = 0; i < 50 && window.rect.x >= 0; i++) {
        await sleep(100);
        window = await sway(EDITOR);
      }
      assert.ok(window.rect.x < 0, `the window is on the left output: ${JSON.stringify(window.rect)}`);
      const shot = await callTool(context, toolNamed("screenshot"), {
        of: { kind: "window", window: { id: window.id } },
        max_width: 4000,
      });
      assert.ok(shot.ok, JSON.stringify(shot));
      const region = (shot.output.data as { image_space: { region: typeof window.rect } }).image_space.region;
      assert.deepEqual(region, window.rect, "the picture is of the window where sway shows it");
      const image = decodePng(shot.output.image!.data);
      assert.deepEqual([image.width, image.height], [region.width, region.height]);
      assert.ok(distinctColours(image) > 4, "the window is drawn, not a flat colour");
      const menu = await one(EDITOR, { role: "menu item", name: "Find/Replace…", include_off_screen: true });
      assert.ok((await call("act", { ref: menu.ref, action: { kind: "invoke" }, intent: "Mark" })).ok);
      assert.equal(await becomes(status, /asked/), "Find/Replace asked");
      const button = await one(EDITOR, { role: "push button", name: "Replace All" });
      assert.ok(button.bounds.x < 0, `its place is on the left output: ${JSON.stringify(button.bounds)}`);
      const clicked = await call("click", { ref: button.ref, intent: "Replace all" });
      assert.equal(clicked.data?.status, "done", clicked.text ?? JSON.stringify(clicked.error));
      assert.match((await becomes(status, /^Replaced/)) ?? "", /^Replaced \d+$/);
    } finally {
      // Back beside the other window, on the workspace it came from.
      await ipc.command(`output ${added} disable`);
      await ipc.command(`[title="${EDITOR}"] move container to workspace number 1`);
      await ipc.command("workspace number 1");
      await ipc.command(`[title="${EDITOR}"] move left`);
      for (let i = 0; i < 50 && (await sway(EDITOR)).rect.x < 0; i++) await sleep(100);
      await sleep(500);
    }
  });

  it("deskhand's own screencopy gives grim's pixels for a window's region, and is what screenshots use", async () => {
    const copy = await WaylandScreencopy.open(env, 2000);
    assert.ok(typeof copy !== "string", `screencopy: ${copy}`);
    try {
      const rect = (await sway(SCALE)).rect;
      const region = {
        x: rect.x,
        y: rect.y,
        width: Math.min(rect.width, 600),
        height: Math.min(rect.height, 300),
      };
      const outputs = await ipc.request<{ name: string; rect: typeof rect; scale?: number }[]>(3);
      const ours = await copy.capture(region, outputs);
      const grim = ppmToRgba(
        execFileSync(
          "grim",
          ["-g", `${region.x},${region.y} ${region.width}x${region.height}`, "-t", "ppm", "-"],
          {
            env,
          },
        ),
      );
      assert.deepEqual([ours.width, ours.height], [grim.width, grim.height]);
      // Grey pixels read the same with red and blue swapped: the scale's blue fill tells them apart.
      let same = 0;
      let coloured = 0;
      let colouredSame = 0;
      for (let i = 0; i < grim.data.length; i += 4) {
        const equal = [0, 1, 2].every((c) => ours.data[i + c] === grim.data[i + c]);
        if (equal) same++;
        if (Math.abs(grim.data[i]! - grim.data[i + 2]!) > 40) {
          coloured++;
          if (equal) colouredSame++;
        }
      }
      const pixels = grim.width * grim.height;
      assert.ok(coloured >= 50, `${coloured} coloured pixels in the region`);
      assert.ok(same >= pixels * 0.999, `${same} of ${pixels} pixels the same`);
      assert.ok(colouredSame >= coloured * 0.99, `${colouredSame} of ${coloured} coloured pixels the same`);
    } finally {
      copy.close();
    }
    const hands = await openWaylandHands(env);
    try {
      assert.match(hands.name, /screencopy, else grim/);
    } finally {
      await hands.close();
    }
  });

  it("a held key is let go after 10 s with no further call: shift held types A, then a", {
    timeout: 30_000,
  }, async () => {
    // The same hands throughout: on Wayland each deskhand's keyboard holds its own keys.
    const autonomous = contextWith({ ceiling: "L4" });
    const found = await call(
      "find",
      { target: { kind: "title", glob: EDITOR }, role: "text", name: "First" },
      autonomous,
    );
    const first = found.data.matches[0] as Match;
    await call("act", { ref: first.ref, action: { kind: "set_value", text: "" } }, autonomous);
    const held = await call(
      "raw_input",
      { primitive: { kind: "key_down", key: "shift" }, intent: "Hold shift" },
      autonomous,
    );
    assert.equal(held.data.status, "done", held.text);
    const since = Date.now();
    const typed = await call(
      "type_text",
      { ref: first.ref, text: "a", intent: "Type with shift held" },
      autonomous,
    );
    // The field holds "A" where "a" was typed: the reply says so, and is no success.
    assert.equal(typed.data?.status, "error", typed.text ?? JSON.stringify(typed.error));
    assert.match(
      typed.text ?? "",
      /did not arrive: "a" \(typed at 1\); from character 0 it holds "A" where "a" should be/,
    );
    assert.equal((await one(EDITOR, { role: "text", name: "First" })).value, "A", "shift was held");
    // Released at 10 s; 3 s more, since a loaded machine runs the release late.
    await sleep(13_000 - (Date.now() - since));
    await call("type_text", { ref: first.ref, text: "a", intent: "Type after the release" }, autonomous);
    assert.equal((await one(EDITOR, { role: "text", name: "First" })).value, "Aa", "shift was let go");
  });

  it("a deskhand killed while it holds shift leaves nothing held for the next", async () => {
    const first = await one(EDITOR, { role: "text", name: "First" });
    const emptied = await call("act", { ref: first.ref, action: { kind: "set_value", text: "" } });
    assert.ok(emptied.ok, JSON.stringify(emptied.error));
    assert.equal((await one(EDITOR, { role: "text", name: "First" })).value, "");
    const holder = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "--input-type=module",
        "-e",
        `const { openWaylandHands } = await import("./src/platform/wayland/hands.ts");
         const hands = await openWaylandHands(process.env);
         await hands.keyDown({ modifiers: ["shift"], key: null });
         console.log("held");`,
      ],
      { env, stdio: ["ignore", "pipe", "inherit"] },
    );
    await new Promise<void>((resolve) =>
      holder.stdout!.on("data", (d) => /held/.test(String(d)) && resolve()),
    );
    holder.kill("SIGKILL");
    await new Promise((resolve) => holder.once("exit", resolve));
    const typed = await call("type_text", { ref: first.ref, text: "b", intent: "Type after the kill" });
    assert.equal(typed.data.status, "done", typed.text);
    assert.equal((await one(EDITOR, { role: "text", name: "First" })).value, "b");
  });

  it("a click on a point another window covers is refused, and nothing is pressed", async () => {
    const button = await one(EDITOR, { role: "push button", name: "Replace All" });
    const scale = await sway(SCALE);
    // The scale's window floats over the editor's button.
    await ipc.command(
      `[con_id=${scale.id}] floating enable, move position ${button.bounds.x - 20} ${button.bounds.y - 20}`,
    );
    try {
      const before = await status();
      const clicked = await call("click", { ref: button.ref, intent: "Replace all" });
      assert.equal(clicked.data.status, "refused", clicked.text);
      assert.match(clicked.text ?? "", /cover/i, clicked.text);
      await sleep(300);
      assert.equal(await status(), before, "nothing was pressed");
    } finally {
      await ipc.command(`[con_id=${scale.id}] floating disable`);
    }
  });

  it("a floating window that draws its own shadow is clicked where it is; a double click presses twice, a right click not at all", async () => {
    const HEADER = "Wayland Header";
    await launchApp(desktop, `/usr/bin/python3 test/fixtures/dialogs/gtk3_headerbar.py '${HEADER}'`, 60_000);
    const window = await sway(HEADER);
    await ipc.command(`[con_id=${window.id}] floating enable, move position 60 60`);
    // The shadow is inside the surface: the frame is bigger than the window sway draws.
    const listed = await becomes(async () => {
      const w = (await call("windows", {})).data.windows.find((x: { title: string }) => x.title === HEADER);
      return w ? `${w.rect.x},${w.rect.y}` : undefined;
    }, /^(?!60,60$)\d+,\d+$/);
    assert.notEqual(listed, "60,60", "the window's rectangle takes in its shadow, as X11's frame extents do");
    const check = await one(HEADER, { role: "check box", name: "Shadowed" });
    const visible = (await sway(HEADER)).rect;
    assert.ok(
      check.bounds.x >= visible.x && check.bounds.y >= visible.y,
      JSON.stringify([check.bounds, visible]),
    );
    const clicked = await call("click", { ref: check.ref, intent: "Tick it" });
    assert.equal(clicked.data.status, "done", clicked.text);
    const ticked = await becomes(
      async () => (await one(HEADER, { role: "check box", name: "Shadowed" })).states.join(" "),
      /checked/,
    );
    assert.match(ticked ?? "", /checked/, "the click landed on the check box");
    const button = await one(HEADER, { role: "push button", name: "Count 0" });
    await call("click", { ref: button.ref, intent: "Count once" });
    const counted = async (n: number) =>
      becomes(
        async () =>
          (await find(HEADER, { role: "push button", name_contains: "Count" }))[0]?.name ?? undefined,
        new RegExp(`^Count ${n}$`),
      );
    assert.equal(await counted(1), "Count 1");
    // A double click is two presses the button counts; a right click presses nothing it counts. What
    // the first press shows the second presses unread, so it needs a person (here a pre-approval).
    const again = await one(HEADER, { role: "push button", name: "Count 1" });
    const unasked = await call("click", { ref: again.ref, count: 2, intent: "Count twice" });
    assert.equal(unasked.data.status, "refused", unasked.text);
    const approved = contextWith({
      config: { preapprove: [{ reason: "any", tool: "click", window: HEADER }] },
    });
    const mine = await call(
      "find",
      { target: { kind: "title", glob: HEADER }, role: "push button", name: "Count 1" },
      approved,
    );
    const double = await call(
      "click",
      { ref: mine.data.matches[0].ref, count: 2, intent: "Count twice" },
      approved,
    );
    assert.equal(double.data.status, "done", double.text);
    assert.equal(await counted(3), "Count 3");
    const thrice = await one(HEADER, { role: "push button", name: "Count 3" });
    const right = await call("click", { ref: thrice.ref, button: "right", intent: "Right-click it" });
    assert.equal(right.data.status, "done", right.text);
    await sleep(300);
    assert.equal(await counted(3), "Count 3", "a right click is not a press");
    await ipc.command(`[con_id=${window.id}] kill`);
  });

  it("a floating GTK 4 window with a header bar is clicked where it is", async () => {
    // GTK 4 gives sway its window geometry without the shadow, and extents from that origin.
    const HEADER = "Wayland Header Four";
    await launchApp(desktop, `/usr/bin/python3 test/fixtures/dialogs/gtk4_headerbar.py '${HEADER}'`, 60_000);
    const window = await sway(HEADER);
    await ipc.command(`[con_id=${window.id}] floating enable, move position 90 70`);
    const placed = await becomes(async () => {
      const r = (await sway(HEADER)).rect;
      return `${r.x},${r.y}`;
    }, /^90,70$/);
    assert.equal(placed, "90,70");
    const button = await one(HEADER, { role: "push button", name: "Count 0" });
    const clicked = await call("click", { ref: button.ref, intent: "Count once" });
    assert.equal(clicked.data.status, "done", clicked.text);
    const counted = await becomes(
      async () => (await find(HEADER, { role: "push button", name_contains: "Count" }))[0]?.name ?? undefined,
      /^Count 1$/,
    );
    assert.equal(counted, "Count 1", "the click landed on the button");
    await ipc.command(`[con_id=${window.id}] kill`);
  });

  it("focus, hide and show read the truth back from sway", async () => {
    const editor = await sway(EDITOR);
    const hidden = await call("window", {
      action: "hide",
      window: { id: editor.id },
      intent: "Hide the app",
    });
    assert.equal(hidden.data.result.hidden, true, hidden.text);
    assert.equal((await sway(EDITOR)).visible, false, "sway has it in the scratchpad");
    const shown = await call("window", {
      action: "show",
      window: { id: editor.id },
      intent: "Bring it back",
    });
    assert.ok(shown.ok, JSON.stringify(shown.error));
    assert.equal(shown.data.result.focus, "is now in front", shown.text);
    assert.equal((await sway(EDITOR)).focused, true);
    const focused = await call("window", { action: "focus", window: { title: SCALE }, intent: "Work there" });
    assert.equal(focused.data.result.focus, "is now in front", focused.text);
    assert.equal((await sway(SCALE)).focused, true);
    const journal = readFileSync(join(dir, "audit.jsonl"), "utf8");
    assert.doesNotMatch(journal, /日本|αβγ/, "typed text never reaches the journal");
  });
  // The gate's tests on real dialogs, under Wayland: one language per toolkit (the X11 run has all).
  for (const c of CASES.filter((c) => `${c.kit} ${c.language}`.match(/^(zenity en|gtk4 de|qt ja)$/))) {
    it(`the gate: ${c.kit} in ${c.language}, no route presses the committing button; Cancel passes`, () =>
      everyRouteRefused(toolCaller(context), c, env));
  }
});
