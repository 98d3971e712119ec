// The hands on real apps: XTEST input, screenshots, window management and the safety gate. Every effect
// is re-read from the app (AT-SPI values, the Swing fixture's status label) or from the X server itself.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { decodePng, distinctColours } from "../../src/core/image.js";
import type { Hands } from "../../src/platform/hands.js";
import { charKeysym } from "../../src/platform/keysyms.js";
import { X11Connection } from "../../src/platform/x11/connection.js";
import { openX11Hands } from "../../src/platform/x11/hands.js";
import { Keymap } from "../../src/platform/x11/keymap.js";
import type { SafetyLevel } from "../../src/safety/levels.js";
import { callTool } from "../../src/tools/call.js";
import { createContext, type ToolContext } from "../../src/tools/context.js";
import { type ToolName, toolNamed } from "../../src/tools/registry.js";
import { HANG_MS, TITLES, toolCaller } from "./helpers.js";

type Match = {
  ref: string;
  role: string;
  name: string | null;
  value?: string;
  states: string[] | null;
  bounds: any;
};

const dir = mkdtempSync(join(tmpdir(), "deskhand-hands-"));
const journalPath = join(dir, "audit.jsonl");
const journal = () =>
  readFileSync(journalPath, "utf8")
    .split("\n")
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l));

function contextWith(options: { ceiling?: SafetyLevel; config?: object } = {}): ToolContext {
  const configPath = join(dir, `config-${Math.random().toString(36).slice(2)}.json`);
  if (options.config) writeFileSync(configPath, JSON.stringify(options.config));
  return createContext({
    refLifetime: "while-verified",
    env: { ...process.env, DESKHAND_AUDIT: journalPath, DESKHAND_CONFIG: configPath },
    ...(options.ceiling ? { ceiling: options.ceiling } : {}),
  });
}

describe("hands on real apps", () => {
  let context: ToolContext;
  let probe: Hands;
  before(async () => {
    context = contextWith();
    probe = await openX11Hands({ display: process.env.DISPLAY });
  });
  after(async () => {
    await context.close();
    await probe.close();
  });

  const call = (tool: ToolName, input: Record<string, unknown>, on = context) => toolCaller(on)(tool, input);
  const find = async (glob: string, query: Record<string, unknown>): Promise<Match[]> => {
    const result = await call("find", {
      target: { kind: "title", glob },
      limit: 50,
      include_off_screen: true,
      ...query,
    });
    assert.ok(result.ok, JSON.stringify(result.error));
    return result.data.matches;
  };
  const one = async (glob: string, query: Record<string, unknown>): Promise<Match> => {
    const matches = await find(glob, query);
    assert.ok(matches[0], `${JSON.stringify(query)} is in ${glob}`);
    return matches[0];
  };
  /** The Swing fixture's own record of the last thing it saw. */
  const swingStatus = async () => {
    const result = await call("snapshot", {
      target: { kind: "title", glob: TITLES.swing },
      maxDepth: 40,
      maxNodes: 2000,
      format: "json",
    });
    assert.ok(result.ok);
    return result.data.elements.find((e: { name: string }) => e.name === "Status").description as string;
  };
  /**
   * The status once it matches, or the last one seen after 3 s. Java applies a click on its own
   * time: in one run of about ten, "Pressed Beta" showed more than 200 ms after the click.
   */
  const statusBecomes = async (expected: RegExp): Promise<string> => {
    const deadline = Date.now() + HANG_MS;
    let status = await swingStatus();
    while (!expected.test(status) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = await swingStatus();
    }
    return status;
  };
  const invoke = async (name: string) => {
    // The act tests' "Reorder" renames the buttons to "Beta (moved)" and "Alpha (moved)".
    const button = await one(TITLES.swing, { role: "push button", name_contains: name });
    const result = await call("act", { ref: button.ref, action: { kind: "invoke" } });
    assert.ok(result.ok, JSON.stringify(result.error));
  };

  it("types é 日本 ✓ into the Swing Name field and a GTK3 entry, re-read through AT-SPI", async () => {
    const text = "é 日本 ✓";
    const name = await one(TITLES.swing, { role: "text", name: "Name" });
    const typed = await call("type_text", {
      ref: name.ref,
      text,
      clear: true,
      intent: "Fill the name field",
    });
    assert.equal(typed.data.status, "done", typed.text);
    assert.ok(typed.data.result.remapped_keys >= 3, "the characters missing from the keymap were remapped");
    assert.equal((await one(TITLES.swing, { role: "text", name: "Name" })).value, text);

    const entries = await find(TITLES.gtk3, { role: "text", states: ["editable", "showing"] });
    const entry = entries.find((e) => e.value === "");
    assert.ok(entry, "an empty GTK3 entry");
    const gtk = await call("type_text", { ref: entry.ref, text, intent: "Fill a GTK entry" });
    assert.equal(gtk.data.status, "done", gtk.text);
    assert.equal(gtk.data.result.after.value, text, "the receipt re-read it");
    const reread = (await find(TITLES.gtk3, { role: "text", states: ["editable", "showing"] })).find(
      (e) => e.bounds?.y === entry.bounds.y,
    );
    assert.equal(reread?.value, text);
    // Leave the entry as it was for the other tests.
    await call("type_text", { ref: reread!.ref, text: "x", clear: true, intent: "Empty the entry again" });
    await call("key", { key: "Backspace", intent: "Empty the entry" });
  });

  it("the clipboard: deskhand's text pasted by Swing's ctrl+v, and Swing's ctrl+c read by deskhand", async () => {
    const intent = "Move a text through the clipboard";
    const text = "Zoë 42 ✓ clip";
    const written = await call("clipboard", { text, intent });
    assert.equal(written.data.status, "done", written.text);
    const name = await one(TITLES.swing, { role: "text", name: "Name" });
    await call("act", { ref: name.ref, action: { kind: "set_value", text: "" }, intent });
    const pasted = await call("key", { key: "ctrl+v", ref: name.ref, intent });
    assert.equal(pasted.data.status, "done", pasted.text);
    assert.equal((await one(TITLES.swing, { role: "text", name: "Name" })).value, text, "Swing pasted it");

    await call("act", { ref: name.ref, action: { kind: "set_value", text: "copied by Swing" }, intent });
    await call("key", { key: "ctrl+a", ref: name.ref, intent });
    await call("key", { key: "ctrl+c", ref: name.ref, intent });
    const read = await call("clipboard", { intent });
    assert.equal(read.data.result.text, "copied by Swing", read.text);
    assert.match(read.text ?? "", /read the clipboard \(15 characters\):\ncopied by Swing/);
    await call("act", { ref: name.ref, action: { kind: "set_value", text: "" }, intent });
  });

  it("text typed where the focus is, a read-only field, is said as gone to it, not as lost, with its window named", async () => {
    const serial = await one(TITLES.swing, { role: "text", name: "Serial" });
    const focused = await call("act", { ref: serial.ref, action: { kind: "focus" } });
    assert.ok(focused.ok, JSON.stringify(focused.error));
    const typed = await call("type_text", {
      text: "abc",
      window: { title: TITLES.swing },
      intent: "Type where the focus is",
    });
    assert.equal(typed.data.status, "unverified", typed.text);
    assert.match(typed.text ?? "", /read-only: it takes no typed text/);
    assert.match(
      typed.text ?? "",
      new RegExp(`of window ${JSON.stringify(TITLES.swing).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`),
    );
    assert.doesNotMatch(typed.text ?? "", /did not arrive/);
    assert.equal((await one(TITLES.swing, { role: "text", name: "Serial" })).value, "DH-0042");
  });

  it("borrowed keycodes stay mapped between calls and go back when deskhand closes", async (t) => {
    const x = await X11Connection.open(process.env.DISPLAY!, 2000);
    t.after(() => x.close());
    const server = async () => Keymap.load(x);
    const text = "ŧ ŋ";
    const keysyms = [...text].filter((c) => c !== " ").map(charKeysym);
    const spareBefore = (await server()).spareKeycodes();
    for (const keysym of keysyms)
      assert.equal((await server()).find(keysym), undefined, "not in the keymap yet");
    const own = contextWith();
    try {
      const caller = toolCaller(own);
      // Refs belong to the context that handed them out: each deskhand finds the entry itself.
      const entryIn = async (by: typeof call) =>
        (
          (
            await by("find", {
              target: { kind: "title", glob: TITLES.gtk3 },
              role: "text",
              states: ["editable", "showing"],
              limit: 50,
            })
          ).data.matches as Match[]
        ).find((e) => e.value === "");
      const entry = await entryIn(caller);
      assert.ok(entry, "an empty GTK3 entry");
      const first = await caller("type_text", { ref: entry.ref, text, intent: "Fill a GTK entry" });
      assert.equal(first.data.status, "done", first.text);
      assert.equal(first.data.result.after.value, text);
      assert.equal(first.data.result.remapped_keys, 2);
      const during = await server();
      for (const keysym of keysyms) assert.ok(during.find(keysym), `keysym ${keysym} is on a spare keycode`);
      const again = await caller("type_text", {
        ref: entry.ref,
        text,
        intent: "Fill a GTK entry",
        clear: true,
      });
      assert.equal(again.data.result.remapped_keys, 0, "the second call reuses the borrowed keycodes");
      assert.equal(again.data.result.after.value, text);
      // Another deskhand (the suite's own context) reads the server's keymap, not a stale copy: it
      // types with the keycodes this one borrowed and remaps nothing.
      await caller("type_text", { ref: entry.ref, text: "x", clear: true, intent: "Empty the entry again" });
      await caller("key", { key: "Backspace", intent: "Empty the entry" });
      const theirs = await entryIn(call);
      assert.ok(theirs);
      const shared = await call("type_text", {
        ref: theirs.ref,
        text: "ŧ",
        clear: true,
        intent: "Fill a GTK entry",
      });
      assert.equal(shared.data.result.remapped_keys, 0, shared.text);
      assert.equal(shared.data.result.after.value, "ŧ");
      await caller("type_text", { ref: entry.ref, text: "x", clear: true, intent: "Empty the entry again" });
      await caller("key", { key: "Backspace", intent: "Empty the entry" });
    } finally {
      await own.close();
    }
    const afterClose = await server();
    for (const keysym of keysyms) assert.equal(afterClose.find(keysym), undefined, "given back on close");
    assert.deepEqual(afterClose.spareKeycodes(), spareBefore, "every spare keycode is spare again");
    // The other deskhand borrows for itself now that the keycode went back.
    const entry = (await find(TITLES.gtk3, { role: "text", states: ["editable", "showing"] })).find(
      (e) => e.value === "",
    )!;
    const alone = await call("type_text", { ref: entry.ref, text: "ŧ", intent: "Fill a GTK entry" });
    assert.equal(alone.data.result.remapped_keys, 1, alone.text);
    assert.equal(alone.data.result.after.value, "ŧ");
    await call("type_text", { ref: entry.ref, text: "x", clear: true, intent: "Empty the entry again" });
    await call("key", { key: "Backspace", intent: "Empty the entry" });
  });

  it("a chord opens a Swing menu through its mnemonic, and an accelerator runs its action", async () => {
    const swing = await call("windows", {});
    const window = swing.data.windows.find((w: { title: string }) => w.title === TITLES.swing);
    const opened = await call("key", {
      key: "alt+f",
      window: { id: window.id },
      intent: "Open the File menu",
    });
    assert.equal(opened.data.status, "done", opened.text);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const file = await one(TITLES.swing, { role: "menu", name: "File" });
    assert.ok(file.states?.includes("selected"), `File is open: ${file.states}`);
    const quit = await one(TITLES.swing, { role: "menu item", name: "Open" });
    assert.ok(quit.states?.includes("showing"), "its items are on screen");
    await call("key", { key: "Escape", window: { id: window.id }, intent: "Close the menu" });
    await call("key", { key: "Escape", window: { id: window.id }, intent: "Close the menu bar" });

    const accelerated = await call("key", {
      key: "ctrl+n",
      window: { id: window.id },
      intent: "New document",
    });
    assert.equal(accelerated.data.status, "done");
    assert.equal(await statusBecomes(/^New document$/), "New document");
  });

  it("a drag moves a GTK3 scale", async () => {
    const slider = (await find(TITLES.gtk3, { role: "slider", states: ["showing"] })).find(
      (s) => s.bounds && s.bounds.width > s.bounds.height,
    );
    assert.ok(slider);
    const original = Number(slider.value);
    // The knob goes to the middle first, where the scale's centre is, so the drag starts on it: a
    // press on the trough beside it pages or warps by GTK's settings.
    await call("act", { ref: slider.ref, action: { kind: "set_range", value: 50 } });
    const b = slider.bounds;
    const dragged = await call("drag", {
      from: { ref: slider.ref },
      to: { at: { space: "global", x: Math.round(b.x + b.width * 0.9), y: Math.round(b.y + b.height / 2) } },
      window: { title: TITLES.gtk3 },
      intent: "Move the scale to the right",
    });
    assert.equal(dragged.data.status, "done", dragged.text);
    assert.ok(Number(dragged.data.result.after.value) > 65, `the receipt re-read ${dragged.text}`);
    const after = (await find(TITLES.gtk3, { role: "slider", states: ["showing"] })).find(
      (s) => s.bounds?.y === b.y,
    );
    assert.ok(Number(after?.value) > 65, `the scale moved from 50 to ${after?.value}`);
    await call("act", { ref: after!.ref, action: { kind: "set_range", value: original } });
  });

  it("a drag or click on a point another window covers is refused, and nothing moves", async () => {
    const windows = (await call("windows", {})).data.windows as Array<{
      id: number;
      title: string;
      rect: any;
    }>;
    const swing = windows.find((w) => w.title === TITLES.swing)!;
    const slider = (await find(TITLES.gtk3, { role: "slider", states: ["showing"] })).find(
      (s) => s.bounds && s.bounds.width > s.bounds.height,
    )!;
    const b = slider.bounds;
    const r = swing.rect;
    const from = { x: Math.round(b.x + b.width / 2), y: Math.round(b.y + b.height / 2) };
    const to = { x: r.x + r.width + 20, y: from.y };
    assert.ok(from.x > r.x && from.x < r.x + r.width && from.y > r.y && from.y < r.y + r.height);
    assert.ok(to.x < b.x + b.width, "the drop point is on the scale, beside the Swing window");
    assert.equal(await probe.activate(swing.id), "front");
    const status = await swingStatus();

    const dragged = await call("drag", {
      from: { at: { space: "global", ...from } },
      to: { at: { space: "global", ...to } },
      window: { title: TITLES.gtk3 },
      ensure_focus: false,
      intent: "Move the scale to the right",
    });
    assert.equal(dragged.data.status, "refused", dragged.text);
    assert.match(
      dragged.data.reason,
      new RegExp(`\\(${from.x}, ${from.y}\\) is covered by window ${swing.id}`),
    );
    const clicked = await call("click", {
      at: { space: "global", ...from },
      window: { title: TITLES.gtk3 },
      ensure_focus: false,
      intent: "Press the scale",
    });
    assert.equal(clicked.data.status, "refused", clicked.text);
    assert.match(clicked.data.reason, /is covered by window/);
    assert.match(clicked.data.reason, /bring it to the front first/, "the reason names what to do next");

    const again = (await find(TITLES.gtk3, { role: "slider", states: ["showing"] })).find(
      (s) => s.bounds?.y === b.y,
    );
    assert.equal(again?.value, slider.value, "the scale did not move");
    assert.equal(await swingStatus(), status, "the Swing window saw nothing");
    assert.equal(await probe.activeWindow(), swing.id, "nothing was brought forward");
  });

  it("the wheel scrolls the Swing table", async () => {
    const tabs = await one(TITLES.swing, { role: "page tab list" });
    assert.ok((await call("act", { ref: tabs.ref, action: { kind: "select", option: "Table" } })).ok);
    try {
      const bar = async () =>
        (await find(TITLES.swing, { role: "scroll bar", states: ["showing"] })).find(
          (s) => s.bounds.height > 100,
        );
      const before = await bar();
      // The act tests may have scrolled it to the bottom: scroll back up then.
      const direction = Number(before?.value) > 0 ? "up" : "down";
      // The table is 200 rows tall, its centre far off screen: the wheel goes over its visible rows.
      const at = { space: "global", x: before!.bounds.x - 150, y: before!.bounds.y + 60 };
      const wheel = await call("wheel", {
        at,
        window: { title: TITLES.swing },
        direction,
        notches: 5,
        intent: "Scroll the table",
      });
      assert.equal(wheel.data?.status, "done", wheel.text ?? JSON.stringify(wheel.error));
      assert.equal(
        wheel.data.target.window.title,
        TITLES.swing,
        "the probe found the window under the point",
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      const moved = Number((await bar())?.value) - Number(before?.value);
      assert.ok(
        direction === "down" ? moved > 0 : moved < 0,
        `the table's scroll bar moved ${direction} (${moved})`,
      );
    } finally {
      const again = await one(TITLES.swing, { role: "page tab list" });
      await call("act", { ref: again.ref, action: { kind: "select", option: "Form" } });
      await new Promise((resolve) => setTimeout(resolve, 300)); // let the form repaint
    }
  });

  it("an element's screenshot decodes to the element's size and is not blank", async () => {
    const alpha = await one(TITLES.swing, { role: "push button", name_contains: "Alpha" });
    const result = await callTool(context, toolNamed("screenshot"), {
      of: { kind: "element", ref: alpha.ref },
    });
    assert.ok(result.ok);
    const image = decodePng(result.output.image!.data);
    assert.equal(image.width, alpha.bounds.width);
    assert.equal(image.height, alpha.bounds.height);
    assert.ok(distinctColours(image) > 4, "the button is drawn, not a flat colour");
  });

  it("an image-space click lands on the right button, as the app's state shows", async () => {
    const windows = await call("windows", {});
    const window = windows.data.windows.find((w: { title: string }) => w.title === TITLES.swing);
    const shot = await call("screenshot", {
      of: { kind: "window", window: { id: window.id } },
      max_width: 400,
    });
    const space = shot.data.image_space;
    assert.ok(shot.data.scale < 1, "the image was shrunk, so the mapping matters");
    const beta = await one(TITLES.swing, { role: "push button", name_contains: "Beta" });
    const pixel = {
      x: Math.round((beta.bounds.x + beta.bounds.width / 2 - space.region.x) * shot.data.scale),
      y: Math.round((beta.bounds.y + beta.bounds.height / 2 - space.region.y) * shot.data.scale),
    };
    const clicked = await call("click", { at: { space: "image", ...pixel, ...space }, intent: "Press Beta" });
    assert.equal(clicked.data.status, "done", clicked.text);
    assert.match(clicked.data.target.name, /^Beta/, "the probe saw the button under the point");
    const global = clicked.data.result.point;
    assert.ok(Math.abs(global.x - (beta.bounds.x + beta.bounds.width / 2)) < 4, "the global point is echoed");
    assert.match(await statusBecomes(/^Pressed Beta/), /^Pressed Beta/);
  });

  it("a click at a point lands there even after someone else moved the pointer away", async () => {
    const beta = await one(TITLES.swing, { role: "push button", name_contains: "Beta" });
    const alpha = await one(TITLES.swing, { role: "push button", name_contains: "Alpha" });
    const at = {
      space: "global",
      x: Math.round(beta.bounds.x + beta.bounds.width / 2),
      y: Math.round(beta.bounds.y + beta.bounds.height / 2),
    };
    const first = await call("click", { at, intent: "Press Beta" });
    assert.equal(first.data.status, "done", first.text);
    assert.match(await statusBecomes(/^Pressed Beta/), /^Pressed Beta/);
    // Someone else (here, another X connection) puts the pointer on Alpha; the status then says
    // Alpha through its accessibility action, so only a press on Beta can make it say Beta again.
    await invoke("Alpha");
    assert.match(await statusBecomes(/^Pressed Alpha/), /^Pressed Alpha/);
    await probe.move({
      x: Math.round(alpha.bounds.x + alpha.bounds.width / 2),
      y: Math.round(alpha.bounds.y + alpha.bounds.height / 2),
    });
    const second = await call("click", { at, intent: "Press Beta again" });
    assert.equal(second.data.status, "done", second.text);
    assert.match(await statusBecomes(/^Pressed Beta/), /^Pressed Beta/, "the press went to Beta, not Alpha");
  });

  it("a window that is active but covered is brought forward and clicked, not refused as covered", async (t) => {
    const windows = (await call("windows", {})).data.windows as Array<{ id: number; title: string }>;
    const swing = windows.find((w) => w.title === TITLES.swing)!;
    const gtk3 = windows.find((w) => w.title === TITLES.gtk3)!;
    const alpha = await one(TITLES.swing, { role: "push button", name_contains: "Alpha" });
    const centre = {
      x: Math.round(alpha.bounds.x + alpha.bounds.width / 2),
      y: Math.round(alpha.bounds.y + alpha.bounds.height / 2),
    };
    assert.equal(await probe.activate(swing.id), "front");
    // The GTK 3 window goes on top without taking the focus, as a window of another app can.
    const x = await X11Connection.open(process.env.DISPLAY!);
    try {
      await x.clientMessage(gtk3.id, "_NET_RESTACK_WINDOW", [2, 0, 0]);
    } finally {
      x.close();
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(await probe.activeWindow(), swing.id, "Swing is still the active window");
    if ((await probe.windowAt(centre)) !== gtk3.id)
      return t.skip("the GTK 3 window does not cover Alpha here");
    await invoke("Beta");
    const clicked = await call("click", { ref: alpha.ref, intent: "Press Alpha" });
    assert.equal(clicked.data.status, "done", clicked.text);
    assert.match(await statusBecomes(/^Pressed Alpha/), /^Pressed Alpha/);
  });

  it("an L3 press without confirmation is refused and the app shows nothing happened; pre-approved, it lands", async () => {
    await invoke("Alpha");
    assert.match(await statusBecomes(/^Pressed Alpha/), /^Pressed Alpha/);
    const save = await one(TITLES.swing, { role: "push button", name: "Save" });
    const clicked = await call("click", { ref: save.ref, intent: "Save the document" });
    assert.equal(clicked.data.status, "refused");
    assert.equal(clicked.data.level, "L3");
    assert.match(clicked.data.reason, /confirmation/);
    // What would allow it, and only what the caller said (nothing about reversibility was declared).
    assert.match(
      clicked.data.reason,
      /The rule that would allow it for this element: \{"reason":"any","tool":"click","window":"Deskhand[^}]*","element":"Save"\}/,
    );
    assert.match(clicked.data.reason, /it commits, so it is taken as not reversible/);
    assert.doesNotMatch(clicked.data.reason, /declared/);
    const invoked = await call("act", { ref: save.ref, action: { kind: "invoke" } });
    assert.equal(invoked.error?.code, "refused", "act is gated the same way");
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.match(await swingStatus(), /^Pressed Alpha/, "nothing happened");

    const approved = contextWith({
      config: {
        preapprove: [
          { reason: "validation", window: "Deskhand*" },
          { reason: "irreversible", tool: "click", window: "Deskhand*" },
        ],
      },
    });
    try {
      const ref = (
        await toolCaller(approved)("find", {
          target: { kind: "title", glob: TITLES.swing },
          role: "push button",
          name: "Save",
        })
      ).data.matches[0].ref;
      const done = await call("click", { ref, intent: "Save the document" }, approved);
      assert.equal(done.data.status, "done", done.text);
      assert.equal(done.data.confirmed_by, "preapproval");
      // The gate shows in the reply: the level, and the rules that allowed it, as the config has them.
      assert.match(
        done.text ?? "",
        /\ngate: L3, pre-approved by \{"reason":"validation","window":"Deskhand\*"\} and \{"reason":"irreversible","tool":"click","window":"Deskhand\*"\}/,
      );
      assert.equal(await statusBecomes(/^Saved from tool bar$/), "Saved from tool bar");
    } finally {
      await approved.close();
    }
  });

  it("with the ceiling at L1 a click is refused and nothing happens", async () => {
    await invoke("Beta");
    const low = contextWith({ ceiling: "L1" });
    try {
      const alpha = (
        await toolCaller(low)("find", {
          target: { kind: "title", glob: TITLES.swing },
          role: "push button",
          name_contains: "Alpha",
        })
      ).data.matches[0];
      const refused = await call("click", { ref: alpha.ref, intent: "Press Alpha" }, low);
      assert.equal(refused.data.status, "refused");
      assert.match(refused.data.reason, /above the ceiling L1 \(set by flag\)/);
      const hovered = await call("hover", { ref: alpha.ref, intent: "Point at Alpha" }, low);
      assert.equal(hovered.data.status, "done", "L1 actions still pass");
    } finally {
      await low.close();
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.match(await swingStatus(), /^Pressed Beta/);
  });

  it("a held button and key are released after 10 s, as the X server shows", {
    timeout: 30_000,
  }, async () => {
    const refused = await call("raw_input", {
      primitive: { kind: "key_down", key: "shift" },
      intent: "Hold shift",
    });
    assert.equal(refused.data.status, "refused", "L4 is above the default ceiling");
    const autonomous = contextWith({ ceiling: "L4" });
    try {
      const status = await one(TITLES.swing, { role: "label", name: "Status" });
      const at = { space: "global", x: status.bounds.x + 5, y: status.bounds.y + 5 };
      const started = Date.now();
      const down = await call(
        "raw_input",
        { primitive: { kind: "mouse_down", at }, intent: "Hold the button" },
        autonomous,
      );
      assert.equal(down.data.status, "done", down.text);
      assert.equal(down.data.result.auto_release_ms, 10_000);
      await call(
        "raw_input",
        { primitive: { kind: "key_down", key: "shift" }, intent: "Hold shift" },
        autonomous,
      );
      // Each hold's 10 s starts inside its own call: the button's no sooner than `started`, the
      // key's no later than now. Two calls took over 1.5 s on a loaded machine.
      const lastHeld = Date.now();
      const held = await probe.serverHeld();
      assert.deepEqual(held.buttons, ["left"], "the server holds the left button");
      assert.ok(held.keycodes.length > 0, "the server holds a key");
      // Asked 2 s early, and the release waited for well past its 10 s: a loaded machine runs both late.
      await new Promise((resolve) => setTimeout(resolve, 8_000 - (Date.now() - started)));
      assert.deepEqual((await probe.serverHeld()).buttons, ["left"], "still held before 10 s");
      let released = await probe.serverHeld();
      const deadline = lastHeld + 10_000 + 20_000;
      while (released.buttons.length + released.keycodes.length > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        released = await probe.serverHeld();
      }
      assert.deepEqual(released, { buttons: [], keycodes: [] }, "released with no further call");
    } finally {
      await autonomous.close();
    }
  });

  it("focus, minimize and show read the truth back from the window manager", async () => {
    const windows = await call("windows", {});
    const gtk4 = windows.data.windows.find((w: { title: string }) => w.title === TITLES.gtk4);
    const minimized = await call("window", {
      action: "minimize",
      window: { id: gtk4.id },
      intent: "Get it out of the way",
    });
    assert.equal(minimized.data.result.minimized, true, minimized.text);
    const restored = await call("window", {
      action: "show",
      window: { id: gtk4.id },
      intent: "Bring it back",
    });
    assert.equal(restored.data.result.focus, "is now in front", restored.text);
    // hide: every window of the app, as the window manager's WM_STATE shows.
    const hidden = await call("window", { action: "hide", window: { id: gtk4.id }, intent: "Hide the app" });
    assert.equal(hidden.data.result.hidden, true, hidden.text);
    assert.deepEqual(hidden.data.result.windows, [gtk4.id]);
    const shown = await call("window", { action: "show", window: { id: gtk4.id }, intent: "Bring it back" });
    assert.equal(shown.data.result.focus, "is now in front", shown.text);
    assert.equal(await probe.activeWindow(), gtk4.id);
    const swing = windows.data.windows.find((w: { title: string }) => w.title === TITLES.swing);
    const focused = await call("window", {
      action: "focus",
      window: { title: TITLES.swing },
      intent: "Work in Swing",
    });
    assert.equal(focused.data.result.focus, "is now in front");
    assert.equal(await probe.activeWindow(), swing.id);
    const close = await call("window", { action: "close", window: { id: gtk4.id }, intent: "Close it" });
    assert.equal(close.data.status, "refused", "closing needs a person");
    // Its reason says why, and says only what the caller said: it declared nothing.
    assert.match(close.data.reason, /closes the window, and what it holds unsaved/);
    assert.doesNotMatch(close.data.reason, /declared not reversible/);
  });

  it("an unknown key name is an error naming it, and nothing is sent", async () => {
    const before = journal().length;
    const bad = await call("key", { key: "ctrl+shfit+p", intent: "Open the palette" });
    assert.equal(bad.error.code, "invalid_params");
    assert.match(bad.error.message, /unknown key name "shfit"/);
    assert.equal(journal().length, before, "nothing was attempted");
  });

  it("the journal has an attempt and an outcome line per action, and typed text never appears in it", async () => {
    const secret = "s3cr3t-Ω-pass";
    const before = journal().length;
    const password = await one(TITLES.swing, { role: "password text" });
    const typed = await call("type_text", {
      ref: password.ref,
      text: secret,
      clear: true,
      intent: `Type ${secret} as the password`,
    });
    assert.equal(typed.data.status, "done", typed.text);
    assert.notEqual(typed.data.result.after.value, secret, "the password is not read back either");
    const save = await one(TITLES.swing, { role: "push button", name: "Save" });
    await call("click", { ref: save.ref, intent: "Save it" });
    await call("key", { key: "Tab", intent: "Move on" });
    const name = await one(TITLES.swing, { role: "text", name: "Name" });
    await call("act", { ref: name.ref, action: { kind: "set_value", text: secret }, intent: "Set the name" });
    const written = journal().slice(before);
    // An allowed attempt is two lines with one id: the attempt (no decision yet), then its outcome;
    // the refused click, refused before anything was done, is one line.
    const attempts = written.filter((l) => l.phase === "attempt");
    assert.deepEqual(
      attempts.map((a) => written.find((l) => l.phase === "outcome" && l.id === a.id)?.tool),
      attempts.map((a) => a.tool),
    );
    assert.ok(attempts.every((a) => a.decision === undefined && a.intent !== undefined));
    const lines = written.filter((l) => l.phase !== "attempt");
    assert.deepEqual(
      lines.map((l) => [l.tool, l.decision]),
      [
        ["type_text", "done"],
        ["click", "refused"],
        ["key", "done"],
        ["act.set_value", "done"],
      ],
    );
    for (const line of lines)
      for (const field of ["time", "tool", "level", "intent", "reversible", "target", "decision"])
        assert.ok(field in line, `${field} in ${JSON.stringify(line)}`);
    assert.equal(lines[0].text_length, [...secret].length);
    assert.equal(lines[1].reversible, false, "a press on a committing button defaults to not reversible");
    assert.equal(lines[2].reversible, true);
    assert.ok(!readFileSync(journalPath, "utf8").includes(secret), "the secret is nowhere in the journal");
    // "pass", a run of the password's letters, is left inside the word "password": masking keeps
    // the journal's own words (a run with a digit or a sign would go from inside a word too).
    assert.equal(lines[0].intent, "Type [typed text] as the password");
    await call("act", { ref: name.ref, action: { kind: "set_value", text: "" } });
  });
});
