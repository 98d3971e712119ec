import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { SNAPSHOT_CEILINGS, SNAPSHOT_DEFAULTS } from "../../src/core/limits.js";
import { RefStore } from "../../src/core/refs.js";
import { renderSnapshot } from "../../src/core/render.js";
import { PASSWORD_MARKER, SnapshotStore } from "../../src/core/snapshot.js";
import { FakeBackend } from "../../src/platform/fake/backend.js";
import { fakeDesktop } from "./fake-desktop.js";

function store(lifetime: "latest-snapshot" | "while-verified" = "latest-snapshot") {
  const backend = new FakeBackend(fakeDesktop());
  return { backend, snapshots: new SnapshotStore(async () => backend, new RefStore(lifetime)) };
}

describe("snapshot", () => {
  it("echoes the limits in force with their ceilings", async () => {
    const { snapshots } = store();
    const page = await snapshots.take({ kind: "focused" }, { ...SNAPSHOT_DEFAULTS, maxDepth: 3 });
    assert.equal(page.limits.inForce.maxDepth, 3);
    assert.deepEqual(page.limits.ceilings, SNAPSHOT_CEILINGS);
    assert.equal(page.windows[0]?.title, "Fake Fixture");
  });

  it("names every cut: tableRows for the paged table, maxNodes with a cursor", async () => {
    const { snapshots } = store();
    const page = await snapshots.take({ kind: "window", id: 1 }, { ...SNAPSHOT_DEFAULTS, maxNodes: 5 });
    assert.deepEqual(page.truncatedBy.sort(), ["maxNodes", "maxText"], "cuts on this page are named");
    assert.equal(page.cursor, "s1@5");
    assert.equal(page.elements.length, 5);
    const all = await snapshots.take({ kind: "window", id: 1 }, { ...SNAPSHOT_DEFAULTS });
    assert.ok(all.truncatedBy.includes("tableRows"));
    assert.ok(all.truncatedBy.includes("maxText"), "the 500-character text was cut at maxText");
    const table = all.elements.find((e) => e.role === "table")!;
    assert.deepEqual(table.cut, { reason: "table", rows: 200, columns: 4, rowsRead: 5, columnsRead: 4 });
    assert.equal(all.elements.filter((e) => e.role === "table cell").length, 20);
  });

  it("pages through the same read with cursors, and the pages add up to the whole", async () => {
    const { snapshots } = store("while-verified");
    const limits = { ...SNAPSHOT_DEFAULTS, maxNodes: 4, tableRows: 2 };
    const whole = await snapshots.take({ kind: "window", id: 1 }, { ...limits, maxNodes: 1000 });
    let page = await snapshots.take({ kind: "window", id: 1 }, limits);
    const seen = [...page.elements];
    while (page.cursor) {
      const next = await snapshots.continue(page.cursor);
      assert.equal(next.snapshotId, page.snapshotId, "a cursor continues the same snapshot");
      page = next;
      seen.push(...page.elements);
    }
    assert.deepEqual(
      seen.map((e) => [e.role, e.name, e.depth]),
      whole.elements.map((e) => [e.role, e.name, e.depth]),
    );
  });

  it("refuses a cursor from a replaced snapshot under the latest-snapshot rule", async () => {
    const { snapshots } = store();
    const first = await snapshots.take({ kind: "window", id: 1 }, { ...SNAPSHOT_DEFAULTS, maxNodes: 3 });
    await snapshots.take({ kind: "window", id: 2 }, SNAPSHOT_DEFAULTS);
    await assert.rejects(
      snapshots.continue(first.cursor!),
      (e: Error & { code?: string }) =>
        e.code === "invalid_cursor" && /s1 was replaced by s2/.test(e.message),
    );
    // Only the current snapshot is kept under this rule; one never taken is not "replaced".
    await assert.rejects(snapshots.continue("s9@3"), /s9 is not kept/);
    await assert.rejects(snapshots.continue("nonsense"), /cursors look like/);
  });

  it("hides a password field's content behind a marker", async () => {
    const { snapshots } = store();
    const page = await snapshots.take({ kind: "window", id: 1 }, SNAPSHOT_DEFAULTS);
    const password = page.elements.find((e) => e.role === "password text")!;
    assert.equal(password.value, PASSWORD_MARKER);
    assert.ok(!JSON.stringify(page).includes("hunter2"));
    assert.ok(!(await renderSnapshot(page)).includes("hunter2"));
  });

  it("lists a field the app failed to report as unread, never as empty or false", async () => {
    const { snapshots } = store();
    const page = await snapshots.take({ kind: "window", id: 1 }, SNAPSHOT_DEFAULTS);
    const checkbox = page.elements.find((e) => e.name === "Subscribe")!;
    assert.equal(checkbox.states, null);
    assert.deepEqual(checkbox.unread, ["states"]);
    assert.match(await renderSnapshot(page), /check box "Subscribe" \[ref=s1:e\d+\] \{unread: states\}/);
  });

  it("visibleOnly drops what is not showing; onlyInteractive drops scaffolding but keeps its children", async () => {
    const { snapshots } = store();
    const visible = await snapshots.take(
      { kind: "window", id: 1 },
      { ...SNAPSHOT_DEFAULTS, visibleOnly: true },
    );
    assert.ok(!visible.elements.some((e) => e.name === "Hidden"));
    assert.equal(visible.counts.hidden, 1);
    const interactive = await snapshots.take(
      { kind: "window", id: 1 },
      { ...SNAPSHOT_DEFAULTS, onlyInteractive: true },
    );
    assert.ok(!interactive.elements.some((e) => e.role === "panel"));
    const button = interactive.elements.find((e) => e.name === "Open dialog")!;
    assert.equal(button.depth, 1, "the panel's children move up a level");
  });

  it("resolves every scope, and says plainly when nothing matches", async () => {
    const { snapshots } = store();
    const byTitle = await snapshots.take({ kind: "title", glob: "Fake *" }, SNAPSHOT_DEFAULTS);
    assert.equal(byTitle.windows[0]?.id, 1);
    const pointer = await snapshots.take({ kind: "pointer" }, SNAPSHOT_DEFAULTS);
    assert.equal(pointer.windows[0]?.id, 2);
    const process = await snapshots.take({ kind: "process", pid: 200 }, SNAPSHOT_DEFAULTS);
    assert.equal(process.windows[0]?.title, "Other");
    const desktop = await snapshots.take({ kind: "desktop" }, SNAPSHOT_DEFAULTS);
    assert.deepEqual(
      desktop.windows.map((w) => w.id),
      [1, 2],
      "windows without a tree are left out of desktop",
    );
    const button = desktop.elements.find((e) => e.name === "Open dialog")!;
    const subtree = await snapshots.take({ kind: "element", ref: button.ref }, SNAPSHOT_DEFAULTS);
    assert.equal(subtree.elements[0]?.name, "Open dialog");
    await assert.rejects(snapshots.take({ kind: "title", glob: "*" }, SNAPSHOT_DEFAULTS), /3 windows match/);
    await assert.rejects(
      snapshots.take({ kind: "window", id: 42 }, SNAPSHOT_DEFAULTS),
      (e: Error & { code?: string }) => e.code === "window_not_found",
    );
    // A title that matches but for case: said, with the windows open now, that one first.
    await assert.rejects(
      snapshots.take({ kind: "title", glob: "*other*" }, SNAPSHOT_DEFAULTS),
      (e: Error) => {
        assert.match(
          e.message,
          /no open window matches title "\*other\*" \(1 would, ignoring case\); open now: 2 "Other", 1 "Fake Fixture"/,
        );
        return true;
      },
    );
    await assert.rejects(
      snapshots.take({ kind: "window", id: 3 }, SNAPSHOT_DEFAULTS),
      (
        e: Error & {
          code?: string;
          next?: string;
          details?: { tree_incomplete?: { reason: string; fix: string }[] };
        },
      ) =>
        e.code === "not_accessible" &&
        /has not registered yet/.test(e.details?.tree_incomplete?.[0]?.reason ?? "") &&
        /deskhand doctor/.test(e.details?.tree_incomplete?.[0]?.fix ?? "") &&
        // Meanwhile it is a pixels-only surface, and the reply names what reads it.
        /pixels only: read_screen_text and find_text read it/.test(e.next ?? ""),
      "a window without a tree is an unknown tree, named with the fix and the pixel tools, never an empty one",
    );
  });

  it("renders one line per element, indented, with the cut spelled out", async () => {
    const { snapshots } = store();
    const page = await snapshots.take({ kind: "window", id: 1 }, { ...SNAPSHOT_DEFAULTS, tableRows: 1 });
    const text = await renderSnapshot(page);
    assert.match(text, /^# snapshot s1 · window 1 "Fake Fixture" · elements 1–\d+ of \d+/);
    assert.match(text, /\n- frame "Fake Fixture" \[ref=s1:e1\]/);
    assert.match(text, /\n {4}- push button "Open dialog" \[ref=s1:e3\]/);
    assert.match(text, /… table 200×4, first 1 rows shown: read_table pages the rest/);
    assert.match(text, /# truncated_by: .*tableRows/);
  });
});
