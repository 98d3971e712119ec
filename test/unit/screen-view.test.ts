// The screen view and `since`, on the fake backend: what is folded, merged and dropped, that the counts
// add up to the whole tree, and that a diff names what was added, removed and changed.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { snapshotSince } from "../../src/core/changes.js";
import { SNAPSHOT_DEFAULTS } from "../../src/core/limits.js";
import { RefStore } from "../../src/core/refs.js";
import { renderSnapshot } from "../../src/core/render.js";
import { SnapshotStore } from "../../src/core/snapshot.js";
import { FakeBackend, type FakeDesktop, type FakeElement } from "../../src/platform/fake/backend.js";
import type { State } from "../../src/platform/roles.js";
import { snapshotTool } from "../../src/tools/snapshot.js";

const SHOWN: State[] = ["enabled", "visible", "showing"];
const HIDDEN: State[] = ["enabled", "visible"];

function desktop(): { desktop: FakeDesktop; bold: FakeElement; field: FakeElement; notes: FakeElement } {
  const item = (name: string): FakeElement => ({ role: "menu item", name, states: HIDDEN });
  const bold: FakeElement = { role: "check box", name: "Bold", states: SHOWN };
  const field: FakeElement = {
    role: "text",
    name: "Name",
    text: "Ada",
    states: [...SHOWN, "editable"],
    interfaces: ["Accessible", "Component", "Text", "EditableText"],
  };
  const notes: FakeElement = { role: "panel", name: "Notes", states: SHOWN, children: [] };
  const root: FakeElement = {
    role: "frame",
    name: "Editor",
    states: SHOWN,
    children: [
      {
        role: "menu bar",
        states: SHOWN,
        children: [
          { role: "menu", name: "File", states: SHOWN, children: [item("New"), item("Open"), item("Save")] },
        ],
      },
      // A wrapper: unnamed, one child.
      {
        role: "filler",
        states: SHOWN,
        children: [
          {
            role: "push button",
            name: "4",
            states: SHOWN,
            children: [{ role: "label", name: "4", states: SHOWN }],
          },
        ],
      },
      { role: "separator", states: SHOWN },
      bold,
      field,
      notes,
      // A hidden page with three elements inside.
      {
        role: "panel",
        name: "Page 2",
        states: HIDDEN,
        children: [{ role: "panel", states: HIDDEN, children: [item("a"), item("b")] }],
      },
    ],
  };
  return {
    desktop: {
      windows: [
        {
          id: 1,
          title: "Editor",
          pid: 1,
          app: "fake",
          rect: { x: 0, y: 0, width: 800, height: 600 },
          focused: true,
          root,
        },
      ],
    },
    bold,
    field,
    notes,
  };
}

function store(lifetime: "latest-snapshot" | "while-verified" = "while-verified") {
  const made = desktop();
  const backend = new FakeBackend(made.desktop);
  return { ...made, backend, snapshots: new SnapshotStore(async () => backend, new RefStore(lifetime)) };
}

/** One window holding `root` on the fake desktop, read in `view` and rendered. */
async function rendered(
  root: FakeElement,
  view: "screen" | "full",
  rect = { x: 0, y: 0, width: 400, height: 300 },
): Promise<string> {
  const title = root.name ?? "T";
  const backend = new FakeBackend({
    windows: [{ id: 1, title, pid: 1, app: "fake", rect, focused: true, root }],
  });
  const snapshots = new SnapshotStore(async () => backend, new RefStore("while-verified"));
  return renderSnapshot(await snapshots.take({ kind: "window", id: 1 }, SNAPSHOT_DEFAULTS, view));
}

describe("the screen view", () => {
  it("folds what is not on screen, merges wrappers and echoes, drops separators, and the counts add up", async () => {
    const { snapshots } = store();
    const page = await snapshots.take({ kind: "window", id: 1 }, SNAPSHOT_DEFAULTS, "screen");
    const text = await renderSnapshot(page);
    assert.match(text, /- menu "File" \[ref=s1:e\d+\] · closed, 3 items/, "a closed menu is one line");
    assert.match(text, /- panel "Page 2" \[ref=s1:e\d+\] · hidden, 3 inside/, "a hidden page is one line");
    assert.doesNotMatch(text, /menu item/, "no item of a closed menu is a line");
    const lines = text.split("\n").filter((l) => !l.startsWith("#"));
    assert.ok(
      !lines.some((l) => /label "4"|filler|separator/.test(l)),
      "echo, wrapper and separator are not lines",
    );
    assert.match(text, /^ - push button "4"/m, "the wrapper's child takes its place, one level up");
    const full = await snapshots.take({ kind: "window", id: 1 }, SNAPSHOT_DEFAULTS, "full");
    const { counts } = page;
    const inFolds = page.elements.reduce((n, e) => n + (e.fold?.elements ?? 0), 0);
    assert.equal(
      counts.inScope + inFolds + counts.merged + counts.separators,
      full.counts.inScope,
      "every element of the full tree is a line, inside a fold, merged, or a dropped separator",
    );
    assert.match(text, /7 elements not on screen folded into 2 lines/);
  });

  it("a control holding the same control (GTK 4's menu button) is one line: the one that takes the focus", async () => {
    const inner: FakeElement = {
      role: "push button",
      name: "View",
      states: [...SHOWN, "focusable"],
      actions: ["click"],
      interfaces: ["Accessible", "Action"],
    };
    const text = await rendered(
      {
        role: "frame",
        name: "Editor",
        states: SHOWN,
        children: [{ role: "push button", name: "View", states: SHOWN, children: [inner] }],
      },
      "screen",
    );
    const lines = text.split("\n").filter((l) => /push button "View"/.test(l));
    assert.equal(lines.length, 1, text);
    assert.doesNotMatch(lines[0]!, / in push button/, text);
    // Open, it holds its menu beside the button it draws: still one button, and the menu's item.
    const open = await rendered(
      {
        role: "frame",
        name: "Editor",
        states: SHOWN,
        children: [
          {
            role: "push button",
            name: "View",
            states: [...SHOWN, "expanded"],
            children: [
              { ...inner, states: [...SHOWN, "focusable", "pressed"] },
              {
                role: "menu",
                states: SHOWN,
                children: [{ role: "menu item", name: "Zoom In", states: SHOWN, actions: ["click"] }],
              },
            ],
          },
        ],
      },
      "screen",
    );
    assert.equal(open.split("\n").filter((l) => /push button "View"/.test(l)).length, 1, open);
    assert.match(open, /menu item "Zoom In"/, open);
  });

  it("a value keeps its line breaks, written \\n, as observe writes them", async () => {
    const notes: FakeElement = {
      role: "text",
      name: "Message",
      text: "Dear Ann,\nsee you  soon",
      states: [...SHOWN, "editable", "multi line"],
      interfaces: ["Accessible", "Component", "Text", "EditableText"],
    };
    const text = await rendered({ role: "frame", name: "Mail", states: SHOWN, children: [notes] }, "screen");
    assert.match(text, /text "Message" \[ref=[^\]]+\] = "Dear Ann,\\nsee you soon"/, text);
  });

  it("a page cut by maxNodes says the call that continues it, and that call is snapshot's own", async () => {
    const { snapshots } = store();
    const page = await snapshots.take(
      { kind: "window", id: 1 },
      { ...SNAPSHOT_DEFAULTS, maxNodes: 3 },
      "full",
    );
    const text = await renderSnapshot(page);
    const said = /# more: \d+ elements; continue with target (\{.*\})$/m.exec(text)?.[1];
    assert.ok(said, text);
    const input = snapshotTool.input.parse({ target: JSON.parse(said) });
    assert.deepEqual(input.target, { kind: "cursor", cursor: page.cursor });
    const next = await snapshots.continue(page.cursor!);
    assert.equal(next.snapshotId, page.snapshotId);
  });

  it("a folded ref, snapshotted, is read whole", async () => {
    const { snapshots } = store();
    const page = await snapshots.take({ kind: "window", id: 1 }, SNAPSHOT_DEFAULTS, "screen");
    const menu = page.elements.find((e) => e.role === "menu")!;
    const inside = await snapshots.take({ kind: "element", ref: menu.ref }, SNAPSHOT_DEFAULTS, "screen");
    assert.deepEqual(
      inside.elements.filter((e) => e.role === "menu item").map((e) => e.name),
      ["New", "Open", "Save"],
    );
  });
});

describe("long names", () => {
  it("a path keeps its end, where its file name is; other text keeps its start", async () => {
    const folder =
      "/tmp/deskhand-print-3kM7EE/reports/2026/december/minutes-of-the-weekly-meeting/drafts/for-the-board/quarterly-review/";
    const button = (name: string): FakeElement => ({ role: "push button", name, states: SHOWN });
    const prose = `Remember ${"to bring the minutes of the weekly meeting ".repeat(4)}`;
    const root: FakeElement = {
      role: "frame",
      name: "T",
      states: SHOWN,
      children: [button(`${folder}minutes-print.pdf`), button(prose)],
    };
    const text = await rendered(root, "full");
    assert.match(
      text,
      /push button "\/tmp\/deskhand-print-[^"]*…[^"]*\/quarterly-review\/minutes-print\.pdf"/,
      text,
    );
    assert.match(text, /push button "Remember to bring [^"]*…"/, text);
  });
});

describe("runs of empty cells", () => {
  const cell = (name: string, text = ""): FakeElement => ({
    role: "table cell",
    name,
    text,
    states: SHOWN,
    interfaces: ["Accessible", "Component", "Text", "TableCell"],
  });
  async function screen(cells: FakeElement[]): Promise<string> {
    const root: FakeElement = {
      role: "frame",
      name: "T",
      states: SHOWN,
      children: [{ role: "table", states: SHOWN, children: cells }],
    };
    return rendered(root, "screen");
  }

  it("a cell whose name is its text (GTK's tree view) is not empty; one named by its position (Calc) is", async () => {
    const gtk = await screen([cell(""), cell("Print to File"), cell(""), cell("")]);
    assert.match(gtk, /table cell "Print to File"/, "the named cell is a line of its own");
    assert.doesNotMatch(gtk, /4 empty cells/);
    const calc = await screen([cell("A1"), cell("B1"), cell("C1"), cell("D1", "Alice")]);
    assert.match(calc, /3 empty cells "A1" … "C1"/);
    assert.match(calc, /table cell "D1"/);
  });
});

describe("since", () => {
  it("names what was added, removed and changed, and keeps unchanged refs", async () => {
    const { snapshots, backend, bold, field, notes } = store();
    const first = await snapshots.take({ kind: "window", id: 1 }, SNAPSHOT_DEFAULTS, "screen");
    const boldRef = first.elements.find((e) => e.name === "Bold")!.ref;
    bold.states = [...SHOWN, "checked"];
    field.text = "Grace";
    backend.replace("w1/5", {
      ...notes,
      children: [{ role: "label", name: "Saved at noon", states: SHOWN }],
    });
    const reply = await snapshotSince(snapshots, first.snapshotId, async () => {
      throw new Error("no fallback expected");
    });
    assert.equal(reply.kind, "changes");
    if (reply.kind !== "changes") return;
    const { report } = reply;
    assert.deepEqual(
      report.added.map((e) => e.name),
      ["Saved at noon"],
    );
    const changed = Object.fromEntries(report.changed.map((c) => [c.name, c.fields]));
    assert.deepEqual(changed.Bold, [{ field: "states", before: "", after: "checked" }]);
    assert.deepEqual(changed.Name, [{ field: "value", before: "Ada", after: "Grace" }]);
    assert.equal(
      report.changed.find((c) => c.name === "Bold")!.ref,
      boldRef,
      "an unchanged element keeps its ref",
    );
    assert.match(report.text, /^~ check box "Bold" \[ref=s1:e\d+\] states \+checked$/m);
    assert.match(report.text, /^\+ label "Saved at noon" \[ref=s2:e\d+\]$/m);

    backend.replace("w1/5", { ...notes, children: [] });
    const again = await snapshotSince(snapshots, report.snapshotId, async () => {
      throw new Error("no fallback expected");
    });
    assert.equal(again.kind, "changes");
    if (again.kind === "changes") {
      assert.deepEqual(
        again.report.removed.map((e) => e.name),
        ["Saved at noon"],
      );
      assert.match(again.report.text, /^- label "Saved at noon" \[ref=s2:e\d+\]$/m);
    }
  });

  it("falls back to the whole snapshot, saying why, when the earlier one is gone or refs do not outlive it", async () => {
    const { snapshots } = store();
    const fallback = () => snapshots.take({ kind: "window", id: 1 }, SNAPSHOT_DEFAULTS, "screen");
    const gone = await snapshotSince(snapshots, "s9", fallback);
    assert.equal(gone.kind, "snapshot");
    if (gone.kind === "snapshot") assert.match(gone.fallback, /s9 is not kept/);
    const latest = store("latest-snapshot");
    const first = await latest.snapshots.take({ kind: "window", id: 1 }, SNAPSHOT_DEFAULTS, "screen");
    const reply = await snapshotSince(latest.snapshots, first.snapshotId, () =>
      latest.snapshots.take({ kind: "window", id: 1 }, SNAPSHOT_DEFAULTS, "screen"),
    );
    assert.equal(reply.kind, "snapshot");
    if (reply.kind === "snapshot") assert.match(reply.fallback, /only the newest snapshot's refs/);
  });
});

describe("a closed popup that claims to show", () => {
  it("Qt's combo box list at 0×0, its items at the screen's corner, is folded closed, not listed", async () => {
    const item = (name: string, y: number): FakeElement => ({
      role: "list item",
      name,
      states: [...SHOWN, "selectable"],
      bounds: { x: 0, y, width: 756, height: 25 },
    });
    const combo: FakeElement = {
      role: "combo box",
      name: "Plain text",
      states: [...SHOWN, "focusable"],
      bounds: { x: 342, y: 778, width: 154, height: 25 },
      children: [
        {
          role: "list",
          states: SHOWN,
          bounds: { x: 0, y: 0, width: 0, height: 0 },
          children: [item("Plain text", 0), item("Whole words", 25)],
        },
      ],
    };
    const root: FakeElement = { role: "frame", name: "Kate", states: SHOWN, children: [combo] };
    const text = await rendered(root, "screen", { x: 0, y: 0, width: 1280, height: 1024 });
    assert.match(text, /combo box "Plain text" \[ref=s1:e\d+\][^\n]* · closed, 2 items/, text);
    assert.doesNotMatch(text, /list item/, text);
  });
});
