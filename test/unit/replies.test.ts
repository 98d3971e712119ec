// What acting replies say, on the fake backend and hands (issue 35): a window that came after a
// reply is said at the start of the next call, once; typing by ref into a field that another element
// took the focus from sends no keys; a field typed but unreadable is "typed, not verified" and done;
// a toggle that flipped only its group's checked states is followed by a real click.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { FakeElement, FakeWindow } from "../../src/platform/fake/backend.js";
import type { State } from "../../src/platform/roles.js";
import { callTool } from "../../src/tools/call.js";
import { type ToolName, toolNamed } from "../../src/tools/registry.js";
import { fakeContext } from "./fake-desktop.js";

const dir = mkdtempSync(join(tmpdir(), "deskhand-replies-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const rect = { x: 0, y: 0, width: 400, height: 300 };
const shown: State[] = ["enabled", "sensitive", "showing", "visible"];
const field = (name: string, y: number, states: State[] = ["focusable", "editable"]): FakeElement => ({
  role: "text",
  name,
  text: "",
  states: [...shown, ...states],
  interfaces: ["Accessible", "Component", "Text", "EditableText"],
  bounds: { x: 20, y, width: 200, height: 24 },
});

function desktop(children: FakeElement[], react?: Parameters<typeof fakeContext>[0]["react"]) {
  const window: FakeWindow = {
    id: 7,
    title: "Form",
    pid: 11,
    app: "fake",
    rect,
    focused: true,
    root: { role: "frame", name: "Form", bounds: rect, children },
  };
  const windows = [window];
  const made = fakeContext({
    windows,
    hands: { windows: [{ id: 7, rect }], active: 7 },
    dir,
    ...(react ? { react } : {}),
  });
  const call = async (tool: ToolName, input: Record<string, unknown>) => {
    const result = await callTool(made.context, toolNamed(tool), input);
    assert.ok(result.ok, JSON.stringify(!result.ok && result.error));
    return result.output as { text: string; data: Record<string, any> };
  };
  const ref = async (name: string) => {
    const found = await call("find", { target: { kind: "title", glob: "Form" }, name });
    return (found.data.matches as { ref: string }[])[0]!.ref;
  };
  return { ...made, windows, window, call, ref };
}

describe("replies say what changed", () => {
  it("a window that came after a reply starts the next call's reply, once", async () => {
    const { context, windows, call, ref } = desktop([field("Name", 40)]);
    try {
      const name = await ref("Name");
      const first = await call("act", { ref: name, action: { kind: "focus" } });
      assert.doesNotMatch(first.text, /since your last action or window list/);
      windows.push({ id: 8, title: "Came late", pid: 11, app: "fake", rect });
      const next = await call("key", { key: "Left", window: { id: 7 }, intent: "Move the caret" });
      assert.match(
        next.text,
        /^since your last action or window list: window appeared: 8 "Came late"\ndone: pressed Left/,
      );
      assert.deepEqual(next.data.since_last_action.windows_appeared, [
        { id: 8, title: "Came late", app: "fake" },
      ]);
      const again = await call("act", { ref: name, action: { kind: "focus" } });
      assert.doesNotMatch(again.text, /since your last action or window list/, again.text);
      // A window the agent has listed since is no news to it.
      windows.push({ id: 9, title: "Listed", pid: 11, app: "fake", rect });
      await call("windows", {});
      const listed = await call("act", { ref: name, action: { kind: "focus" } });
      assert.doesNotMatch(listed.text, /Listed/, listed.text);
      // Nor is one a wait saw come.
      windows.push({ id: 10, title: "Waited for", pid: 11, app: "fake", rect });
      await call("wait", { condition: { kind: "window", title: "Waited*" }, timeout_ms: 1000 });
      const waited = await call("act", { ref: name, action: { kind: "focus" } });
      assert.doesNotMatch(waited.text, /Waited for/, waited.text);
    } finally {
      await context.close();
    }
  });

  it("typing by ref where another field took the focus over its centre: refused, no key sent", async () => {
    // "Cover" lies over the middle of "Name" and has the focus: the click went to it.
    const cover: FakeElement = {
      ...field("Cover", 40, ["focusable", "editable", "focused"]),
      bounds: { x: 100, y: 44, width: 40, height: 16 },
    };
    // Its toolkit grants no accessibility focus (GTK 4.8), so the field is clicked.
    const { context, hands, call, ref } = desktop([field("Name", 40), cover], (element, action) => {
      if (action.kind === "focus") element.states = element.states?.filter((s) => s !== "focused");
    });
    try {
      const reply = await call("type_text", {
        ref: await ref("Name"),
        text: "hidden",
        intent: "Fill the name",
      });
      assert.equal(reply.data.status, "refused", reply.text);
      assert.match(
        reply.text,
        /gave the keyboard focus to text "Cover", which lies over s\d+:e\d+[a-z]{2}; nothing was typed/,
      );
      assert.ok(!hands.sent.some((s) => s.startsWith("type")), hands.sent.join("; "));
    } finally {
      await context.close();
    }
  });

  it("typing by ref into a field that cannot take the focus: refused naming what has it, no key sent", async () => {
    const { context, hands, call, ref } = desktop([
      field("First", 10, ["focusable", "editable", "focused"]),
      field("Locked", 40, ["editable"]),
    ]);
    try {
      const reply = await call("type_text", { ref: await ref("Locked"), text: "astray", intent: "Fill it" });
      assert.equal(reply.data.status, "refused", reply.text);
      assert.match(reply.text, /does not take the keyboard focus; text "First" has it/);
      assert.ok(!hands.sent.some((s) => s.startsWith("type")), hands.sent.join("; "));
    } finally {
      await context.close();
    }
  });

  it("typing into the focus names the focused element the text shows in, not another that keeps the focus", async () => {
    const find: FakeElement = { ...field("Find", 10, ["focusable", "editable", "focused"]), text: "needle" };
    const tab: FakeElement = {
      role: "page tab",
      name: "Page 1",
      states: [...shown, "focusable", "focused"],
      bounds: { x: 20, y: 80, width: 60, height: 20 },
    };
    const { context, call } = desktop([find, tab]);
    try {
      const typed = await call("type_text", { text: "needle", window: { id: 7 }, intent: "Search" });
      assert.match(
        typed.text,
        /^done: typed 6 character\(s\) into the focused text "Find" of window "Form"; it reads back containing it/,
      );
    } finally {
      await context.close();
    }
  });

  it("fill_form into a field typed but unreadable: typed, not verified, and done", async () => {
    const canvas: FakeElement = {
      role: "canvas",
      name: "Keys",
      states: [...shown, "focusable"],
      interfaces: ["Accessible", "Component"],
      actions: ["focus"],
      bounds: { x: 20, y: 80, width: 200, height: 40 },
    };
    const { context, hands, call, ref } = desktop([canvas]);
    try {
      const filled = await call("fill_form", { fields: [{ ref: await ref("Keys"), value: "abc" }] });
      assert.equal(filled.data.status, "done", filled.text);
      assert.equal(filled.data.fields[0].set, "typed, not verified");
      assert.match(filled.text, /typed, not verified: the keys went in/);
      assert.match(filled.text, /0 of 1 fields set and read back; 1 typed, not verified/);
      assert.ok(hands.sent.includes("type 3 characters"), hands.sent.join("; "));
    } finally {
      await context.close();
    }
  });
});

describe("a toggle in an exclusive group", () => {
  const button = (name: string, checked: boolean): FakeElement => ({
    role: "check box",
    name,
    states: [...shown, "focusable", ...(checked ? (["checked"] as State[]) : [])],
    interfaces: ["Accessible", "Component", "Action"],
    actions: ["toggle"],
    bounds: { x: 20, y: name === "Audio" ? 20 : 60, width: 80, height: 24 },
  });
  const page = (name: string, showing: boolean): FakeElement => ({
    role: "label",
    name,
    states: showing ? shown : ["enabled"],
    bounds: { x: 150, y: 20, width: 100, height: 20 },
  });
  /** The group's exclusivity; `turns`: the toggle also turns the page, as a click would. */
  const sections = (turns: boolean, exclusive = true) => {
    const audio = button("Audio", true);
    const pages = [page("Audio settings", true), page("Video settings", false)];
    const made = desktop(
      [audio, button("Video", false), { role: "panel", bounds: rect, children: pages }],
      (element, action) => {
        if (action.kind !== "toggle" || element.name !== "Video" || !exclusive) return;
        audio.states = audio.states!.filter((s) => s !== "checked");
        if (turns) {
          pages[0]!.states = ["enabled"];
          pages[1]!.states = shown;
        }
      },
    );
    return made;
  };

  it("that changed nothing else is pressed with a real click, which the reply says", async () => {
    const { context, hands, call, ref } = sections(false);
    try {
      const toggled = await call("act", { ref: await ref("Video"), action: { kind: "toggle" } });
      assert.match(toggled.text, /via fake toggle, then a real click/, toggled.text);
      assert.match(toggled.text, /changed only the checked state of its group/);
      assert.ok(
        hands.sent.some((s) => s.startsWith("click left 1 at 60,72")),
        hands.sent.join("; "),
      );
    } finally {
      await context.close();
    }
  });

  it("of plain check boxes (the other stays checked) is left as it is: no click", async () => {
    const { context, hands, call, ref } = sections(false, false);
    try {
      const toggled = await call("act", { ref: await ref("Video"), action: { kind: "toggle" } });
      assert.doesNotMatch(toggled.text, /real click/, toggled.text);
      assert.deepEqual(hands.sent, []);
    } finally {
      await context.close();
    }
  });

  it("that turned the page too is left as it is: no click", async () => {
    const { context, hands, call, ref } = sections(true);
    try {
      const toggled = await call("act", { ref: await ref("Video"), action: { kind: "toggle" } });
      assert.doesNotMatch(toggled.text, /real click/, toggled.text);
      assert.deepEqual(hands.sent, []);
    } finally {
      await context.close();
    }
  });
});
