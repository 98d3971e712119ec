// The hands tests' twins on a full desktop's compositor (issue 42): KDE Plasma's KWin and GNOME Shell,
// each headless in deskhand's own sandbox, with GTK 3, GTK 4 and Qt apps on it and no X server. The
// compositor gives the windows, its input clicks, types, drags and turns the wheel, its pixels come
// back, text outside the keymap is written into the field, held input is let go after 10 s and after a
// kill, and two real jobs (a GTK 4 Save As by real clicks, a GTK 3 file dialog) write their files.
// Every effect is re-read from the app over AT-SPI, from the compositor, or from the disk.
// kde.test.ts and gnome.test.ts run it, each with what only its desktop has.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { decodePng, distinctColours } from "../../src/core/image.js";
import { launchApp } from "../../src/platform/sandbox/apps.js";
import type { Desktop } from "../../src/platform/sandbox/desktop.js";
import type { Rect } from "../../src/platform/types.js";
import type { SafetyLevel } from "../../src/safety/levels.js";
import { callTool } from "../../src/tools/call.js";
import { createContext, type ToolContext } from "../../src/tools/context.js";
import { type ToolName, toolNamed } from "../../src/tools/registry.js";
import { clipboardBothWays, HANG_MS, toolCaller } from "./helpers.js";

type Match = {
  ref: string;
  role: string;
  name: string | null;
  value?: string;
  states: string[];
  bounds: any;
};

/** A window as the compositor itself reports it: deskhand's number for it, and its surface. */
export interface TruthWindow {
  id: number;
  title: string;
  pid: number;
  buffer: Rect;
  active: boolean;
  minimized: boolean;
}

export interface Truth {
  windows(): Promise<TruthWindow[]>;
  close(): void;
}

/** What a desk-specific test is given: the suite's desktop, caller and waits. */
export interface SuiteTools {
  env(): NodeJS.ProcessEnv;
  desktop(): Desktop;
  call(tool: ToolName, input: Record<string, unknown>, on?: ToolContext): Promise<any>;
  one(title: string, query: Record<string, unknown>, on?: ToolContext): Promise<Match>;
  becomes(read: () => Promise<string | undefined>, expected: RegExp): Promise<string | undefined>;
  contextWith(options?: { ceiling?: SafetyLevel; config?: object }): ToolContext;
  editor: string;
  /** The editor's own record of the last thing it did. */
  status(): Promise<string>;
}

export interface Desk {
  /** "KDE Plasma (KWin, Wayland)". */
  name: string;
  /** "KWin": who is asked for the truth. */
  compositor: string;
  /** Window titles start with it. */
  prefix: string;
  /** Folder and file names start with it. */
  file: string;
  start(): Promise<Desktop>;
  truth(env: NodeJS.ProcessEnv): Promise<Truth>;
  /** The hands' opener and its module under src/platform/wayland, for a process killed holding a key. */
  hands: string;
  handsModule: string;
  more?(tools: SuiteTools): void;
}

export function compositorHandsSuite(desk: Desk): void {
  const EDITOR = `${desk.prefix} Editor`;
  const SCALE = `${desk.prefix} Scale`;
  const QT = `${desk.prefix} Qt`;

  describe(`hands on ${desk.name}`, () => {
    const dir = mkdtempSync(join(tmpdir(), `deskhand-${desk.file}-`));
    const folder = mkdtempSync(join(tmpdir(), `deskhand-${desk.file}-saved-`));
    const qtLog = join(dir, "qt.log");
    let desktop: Desktop;
    let env: NodeJS.ProcessEnv;
    let context: ToolContext;
    let truth: Truth;
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
      desktop = await desk.start();
      env = desktop.info.env;
      await launchApp(desktop, `/usr/bin/python3 test/fixtures/dialogs/gtk3_editor.py '${EDITOR}'`, 60_000);
      await launchApp(desktop, `zenity --scale --title='${SCALE}' --value=50`, 60_000);
      await launchApp(
        desktop,
        `/usr/bin/python3 test/fixtures/dialogs/qt_buttons.py '${QT}' ${qtLog} ${join(dir, "victim")}`,
        60_000,
      );
      truth = await desk.truth(env);
      context = contextWith();
    });
    after(async () => {
      for (const made of contexts) await made.close();
      truth?.close();
      await desktop?.stop();
    });

    const call = (tool: ToolName, input: Record<string, unknown>, on = context) =>
      toolCaller(on)(tool, input);
    const search = (title: string, query: Record<string, unknown>, on = context) =>
      call("find", { target: { kind: "title", glob: title }, limit: 50, ...query }, on);
    const find = async (title: string, query: Record<string, unknown>): Promise<Match[]> => {
      const result = await search(title, query);
      assert.ok(result.ok, JSON.stringify(result.error));
      return result.data.matches;
    };
    /** The first match, waited for: a window just opened registers its tree on its own time. */
    const one = async (title: string, query: Record<string, unknown>, on = context): Promise<Match> => {
      const deadline = Date.now() + HANG_MS;
      for (;;) {
        const result = await search(title, query, on);
        const match = result.ok ? (result.data.matches[0] as Match | undefined) : undefined;
        if (match) return match;
        if (Date.now() > deadline) {
          const windows = (await truth.windows()).map((w) => w.title);
          assert.fail(
            `${JSON.stringify(query)} is in ${title}: ${JSON.stringify(result.error)}; ${desk.compositor} has ${JSON.stringify(windows)}`,
          );
        }
        await sleep(150);
      }
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
    /** The titled window as the compositor itself reports it, waited for. */
    const shownWindow = async (title: string): Promise<TruthWindow> => {
      const deadline = Date.now() + HANG_MS;
      for (;;) {
        const window = (await truth.windows()).find((w) => w.title === title);
        if (window || Date.now() > deadline) return window!;
        await sleep(100);
      }
    };
    /** A value once it matches, or the last one read after a while: apps apply input on their own time. */
    const becomes = async (read: () => Promise<string | undefined>, expected: RegExp) => {
      const deadline = Date.now() + HANG_MS / 4;
      let value = await read();
      while (!expected.test(value ?? "") && Date.now() < deadline) {
        await sleep(100);
        value = await read();
      }
      return value;
    };

    it("lists each window with the compositor's pid, place and stacking, and focus, minimize and show read back", async () => {
      const listed = (await call("windows", {})).data.windows as {
        id: number;
        title: string;
        pid: number;
        rect: { x: number; y: number; width: number; height: number };
      }[];
      for (const title of [EDITOR, SCALE, QT]) {
        const truth = await shownWindow(title);
        const mine = listed.find((w) => w.title === title);
        assert.ok(mine, `${title} is listed: ${JSON.stringify(listed)}`);
        assert.equal(mine.id, truth.id);
        assert.equal(mine.pid, truth.pid);
        assert.deepEqual(mine.rect, truth.buffer, `its place is the surface ${desk.compositor} shows`);
      }
      const focused = await call("window", {
        action: "focus",
        window: { title: SCALE },
        intent: "Work there",
      });
      assert.equal(focused.data.result.focus, "is now in front", focused.text);
      assert.equal((await shownWindow(SCALE)).active, true, `${desk.compositor} has it active`);
      const hidden = await call("window", {
        action: "minimize",
        window: { title: SCALE },
        intent: "Put it away",
      });
      assert.ok(hidden.ok, JSON.stringify(hidden.error));
      assert.equal((await shownWindow(SCALE)).minimized, true, `${desk.compositor} has it minimized`);
      const shown = await call("window", {
        action: "show",
        window: { title: SCALE },
        intent: "Bring it back",
      });
      assert.equal(shown.data.result.focus, "is now in front", shown.text);
      const back = await shownWindow(SCALE);
      assert.deepEqual([back.minimized, back.active], [false, true]);
    });

    it("a screenshot matches the window's place; an image-space click lands on the button it shows", async () => {
      await call("window", { action: "focus", window: { title: EDITOR }, intent: "Work in the editor" });
      const window = await shownWindow(EDITOR);
      const shot = await call("screenshot", {
        of: { kind: "window", window: { title: EDITOR } },
        max_width: 400,
      });
      assert.ok(shot.ok, JSON.stringify(shot.error));
      const space = shot.data.image_space;
      assert.deepEqual(
        [space.region.x, space.region.y, space.region.width, space.region.height],
        [window.buffer.x, window.buffer.y, window.buffer.width, window.buffer.height],
      );
      const button = await one(EDITOR, { role: "push button", name: "Replace All" });
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

    it("text is read from the window's pixels, and a word found there is where the button is", async () => {
      const found = await call("find_text", {
        text: "Replace",
        match: "contains",
        of: { kind: "window", window: { title: EDITOR } },
      });
      assert.ok(found.ok, JSON.stringify(found.error));
      const button = await one(EDITOR, { role: "push button", name: "Replace All" });
      const b = button.bounds;
      const centre = found.data.matches.map((m: { centre: { x: number; y: number } }) => m.centre);
      assert.ok(
        centre.some(
          (c: { x: number; y: number }) =>
            c.x >= b.x && c.x < b.x + b.width && c.y >= b.y && c.y < b.y + b.height,
        ),
        `"Replace" read at ${JSON.stringify(centre)}, the button at ${JSON.stringify(b)}`,
      );
    });

    it("the element's picture is drawn, at its size", async () => {
      const button = await one(EDITOR, { role: "push button", name: "Replace All" });
      const result = await callTool(context, toolNamed("screenshot"), {
        of: { kind: "element", ref: button.ref },
      });
      assert.ok(result.ok, result.ok ? "" : JSON.stringify(result.error.toJSON()));
      const image = decodePng(result.output.image!.data);
      assert.equal(image.width, button.bounds.width);
      assert.ok(distinctColours(image) > 4, "the button is drawn, not a flat colour");
    });

    it("types Zoë 日本 ✓: keys for what the keymap has, the rest written into the field; ctrl+a selects", async () => {
      const first = await one(EDITOR, { role: "text", name: "First" });
      const typed = await call("type_text", {
        ref: first.ref,
        text: "Zoë 日本 ✓ ok",
        clear: true,
        intent: "Fill it",
      });
      assert.equal(typed.data.status, "done", typed.text);
      assert.equal(typed.data.result.written_as_text, 4, typed.text);
      assert.equal((await one(EDITOR, { role: "text", name: "First" })).value, "Zoë 日本 ✓ ok");
      const more = await call("type_text", { ref: first.ref, text: " and Ω", intent: "Add to it" });
      assert.equal(more.data.result.read_back, "exact", more.text);
      await call("key", { key: "ctrl+a", window: { title: EDITOR }, intent: "Select it all" });
      await call("type_text", { text: "Replaced", intent: "Type over it" });
      assert.equal(
        await becomes(async () => (await one(EDITOR, { role: "text", name: "First" })).value, /^Replaced$/),
        "Replaced",
      );
    });

    it("the clipboard: deskhand's text pasted by GTK's ctrl+v, GTK's ctrl+c read back", () =>
      clipboardBothWays(call, () => one(EDITOR, { role: "text", name: "First" }), becomes));

    it("ctrl+s is judged as Save: refused, then pre-approved it lands", async () => {
      const window = { title: EDITOR };
      const before = await status();
      const refused = await call("key", { key: "ctrl+s", window, intent: "Save" });
      assert.equal(refused.data.status, "refused", refused.text);
      await sleep(300);
      assert.equal(await status(), before, "nothing was saved");
      const approved = contextWith({
        config: { preapprove: [{ reason: "any", tool: "key", window: `${desk.prefix}*` }] },
      });
      const saved = await call("key", { key: "ctrl+s", window, intent: "Save" }, approved);
      assert.equal(saved.data.status, "done", saved.text);
      assert.equal(await becomes(status, /^Saved$/), "Saved");
    });

    it("a drag moves a GTK3 scale, and the wheel turns it", async () => {
      await call("window", { action: "focus", window: { title: SCALE }, intent: "Work there" });
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
      const wheeled = await call("wheel", {
        at: knob,
        direction: "down",
        notches: 3,
        intent: "Turn it back",
      });
      assert.equal(wheeled.data?.status, "done", wheeled.text ?? JSON.stringify(wheeled.error));
      const after = await becomes(
        async () => (await one(SCALE, { role: "slider" })).value,
        new RegExp(`^(?!${moved}$)`),
      );
      assert.notEqual(Number(after), moved, `the wheel turned it from ${moved} to ${after}`);
    });

    it("a Qt button and a GTK 4 header bar's button are clicked by ref where they are", async () => {
      await call("window", { action: "focus", window: { title: QT }, intent: "Work there" });
      const alpha = await one(QT, { role: "push button", name: "Alpha" });
      const clicked = await call("click", { ref: alpha.ref, intent: "Press Alpha" });
      assert.equal(clicked.data.status, "done", clicked.text);
      const logged = await becomes(
        async () => (existsSync(qtLog) ? readFileSync(qtLog, "utf8") : ""),
        /Alpha/,
      );
      assert.match(logged ?? "", /Alpha/, "the Qt app logged the press");

      const HEADER = `${desk.prefix} Header Four`;
      await launchApp(
        desktop,
        `/usr/bin/python3 test/fixtures/dialogs/gtk4_headerbar.py '${HEADER}'`,
        60_000,
      );
      await shownWindow(HEADER);
      const button = await one(HEADER, { role: "push button", name: "Count 0" });
      const pressed = await call("click", { ref: button.ref, intent: "Count once" });
      assert.equal(pressed.data.status, "done", pressed.text);
      const counted = await becomes(
        async () =>
          (await find(HEADER, { role: "push button", name_contains: "Count" }))[0]?.name ?? undefined,
        /^Count 1$/,
      );
      assert.equal(counted, "Count 1", "the click landed on the button");
      const closer = contextWith({
        config: { preapprove: [{ reason: "any", tool: "window.close", window: HEADER }] },
      });
      const closed = await call(
        "window",
        { action: "close", window: { title: HEADER }, intent: "Done with it" },
        closer,
      );
      assert.equal(closed.data?.status, "done", closed.text ?? JSON.stringify(closed.error));
      const gone = await becomes(
        async () => String((await truth.windows()).some((w) => w.title === HEADER)),
        /^false$/,
      );
      assert.equal(gone, "false", `${desk.compositor} has it closed`);
    });

    it("a held key is let go after 10 s with no further call: shift held types A, then a", {
      timeout: 40_000,
    }, async () => {
      const autonomous = contextWith({ ceiling: "L4" });
      const found = await call(
        "find",
        { target: { kind: "title", glob: EDITOR }, role: "text", name: "Second" },
        autonomous,
      );
      const second = found.data.matches[0] as Match;
      await call("act", { ref: second.ref, action: { kind: "set_value", text: "" } }, autonomous);
      const held = await call(
        "raw_input",
        { primitive: { kind: "key_down", key: "shift" }, intent: "Hold shift" },
        autonomous,
      );
      assert.equal(held.data.status, "done", held.text);
      const since = Date.now();
      const typed = await call(
        "type_text",
        { ref: second.ref, text: "a", intent: "Type with shift held" },
        autonomous,
      );
      // The field holds "A" where "a" was typed: the reply says so, and is no success.
      assert.equal(typed.data?.status, "error", typed.text ?? JSON.stringify(typed.error));
      assert.match(
        typed.text ?? "",
        /did not arrive: "a" \(typed at 1\); from character 0 it holds "A" where "a" should be/,
      );
      assert.equal((await one(EDITOR, { role: "text", name: "Second" })).value, "A", "shift was held");
      await sleep(13_000 - (Date.now() - since));
      await call("type_text", { ref: second.ref, text: "a", intent: "Type after the release" }, autonomous);
      assert.equal((await one(EDITOR, { role: "text", name: "Second" })).value, "Aa", "shift was let go");
    });

    it("a deskhand killed while it holds shift leaves nothing held for the next", async () => {
      const second = await one(EDITOR, { role: "text", name: "Second" });
      await call("act", { ref: second.ref, action: { kind: "set_value", text: "" } });
      const holder = spawn(
        process.execPath,
        [
          "--import",
          "tsx",
          "--input-type=module",
          "-e",
          `const { ${desk.hands} } = await import("./src/platform/wayland/${desk.handsModule}.ts");
           const hands = await ${desk.hands}(process.env);
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
      const next = contextWith();
      const found = await call(
        "find",
        { target: { kind: "title", glob: EDITOR }, role: "text", name: "Second" },
        next,
      );
      const typed = await call(
        "type_text",
        { ref: found.data.matches[0].ref, text: "b", intent: "Type after the kill" },
        next,
      );
      assert.equal(typed.data.status, "done", typed.text);
      assert.equal((await one(EDITOR, { role: "text", name: "Second" })).value, "b");
    });

    it("a GTK 3 menu opened by real clicks: File, then its item Save As…, which the editor records", async () => {
      await call("window", { action: "focus", window: { title: EDITOR }, intent: "Work in the editor" });
      const file = await one(EDITOR, { role: "menu", name: "File" });
      const opened = await call("click", { ref: file.ref, intent: "Open the File menu" });
      assert.equal(opened.data.status, "done", opened.text);
      const item = await one(EDITOR, { role: "menu item", name: "Save As…" });
      const clicked = await call("click", { ref: item.ref, intent: "Open Save As to look" });
      assert.equal(clicked.data.status, "done", clicked.text);
      assert.equal(
        await becomes(status, /^Save As asked$/),
        "Save As asked",
        `the item was activated: ${opened.text} / ${JSON.stringify(item.bounds)} / ${clicked.text}`,
      );
    });

    /** A saver fixture launched and in front, and a context whose person approved its Save As. */
    const saverApp = async (fixture: string, title: string) => {
      await launchApp(
        desktop,
        `/usr/bin/python3 test/fixtures/dialogs/${fixture}.py '${title}' ${folder}`,
        60_000,
      );
      const saver = contextWith({ config: { preapprove: [{ reason: "any", window: "Save As" }] } });
      const on = (tool: ToolName, input: Record<string, unknown>) => call(tool, input, saver);
      await shownWindow(title);
      await on("window", { action: "focus", window: { title }, intent: "Work in the saver" });
      return { on, saver };
    };
    /** Names the file in the Save As dialog by typing, presses Save by a real click: the file on disk. */
    const nameAndSave = async ({ on, saver }: Awaited<ReturnType<typeof saverApp>>, file: string) => {
      const name = await one("Save As", { role: "text", value_contains: "untitled" }, saver);
      const typed = await on("type_text", {
        ref: name.ref,
        text: file,
        clear: true,
        intent: "Name the file",
      });
      assert.equal(typed.data.status, "done", typed.text);
      const save = await one("Save As", { role: "push button", name_contains: "Save" }, saver);
      const saved = await on("click", { ref: save.ref, intent: "Save the report" });
      assert.equal(saved.data.status, "done", saved.text);
      const path = join(folder, file);
      const deadline = Date.now() + HANG_MS;
      while (!existsSync(path) && Date.now() < deadline) await sleep(100);
      assert.equal(readFileSync(path, "utf8"), "the document");
    };

    it("a Save As by real clicks in GTK 4: its button, a name typed, Save clicked: the file is on disk", async () => {
      const TITLE = `${desk.prefix} Saver Four`;
      const app = await saverApp("gtk4_save", TITLE);
      const { on } = app;
      const button = await one(TITLE, { role: "push button", name_contains: "Save As" }, app.saver);
      const opened = await on("click", { ref: button.ref, intent: "Open Save As" });
      assert.equal(opened.data.status, "done", opened.text);
      await nameAndSave(app, `${desk.file}-gtk4.txt`);
    });

    it("a GTK 3 file dialog from its menu: named and confirmed by a real click: the file is on disk", async () => {
      const TITLE = `${desk.prefix} Saver`;
      const app = await saverApp("gtk3_save", TITLE);
      const { on } = app;
      const item = await one(
        TITLE,
        { role: "menu item", name: "Save As…", include_off_screen: true },
        app.saver,
      );
      const opened = await on("act", { ref: item.ref, action: { kind: "invoke" }, intent: "Open Save As" });
      assert.ok(opened.ok, JSON.stringify(opened.error));
      await nameAndSave(app, `${desk.file}-report.txt`);
    });

    desk.more?.({
      env: () => env,
      desktop: () => desktop,
      call,
      one,
      becomes,
      contextWith,
      editor: EDITOR,
      status,
    });
  });
}
