// Snapshots of real apps: tables paged through the Table interface, filters, cursors, and a password
// that never leaves deskhand even when the field holds one.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { isDeepStrictEqual } from "node:util";
import { SNAPSHOT_DEFAULTS } from "../../src/core/limits.js";
import { RefStore } from "../../src/core/refs.js";
import { renderSnapshot } from "../../src/core/render.js";
import { PASSWORD_MARKER, type SnapshotPage, SnapshotStore } from "../../src/core/snapshot.js";
import type { AtspiBackend } from "../../src/platform/atspi/backend.js";
import { parseHandle } from "../../src/platform/atspi/reader.js";
import { DBusConnection } from "../../src/platform/dbus.js";
import { createContext } from "../../src/tools/context.js";
import type { ToolName } from "../../src/tools/registry.js";
import { connect, HANG_MS, startExtraSwingApp, TITLES, toolCaller, windowTitled } from "./helpers.js";

describe("snapshots of real apps", () => {
  let backend: AtspiBackend;
  let snapshots: SnapshotStore;
  before(async () => {
    backend = await connect();
    snapshots = new SnapshotStore(async () => backend, new RefStore("while-verified"));
  });
  after(() => backend.close());

  it("the default Swing snapshot pages the 200-row table instead of walking its 800 cells", async () => {
    const swing = await windowTitled(backend, TITLES.swing);
    const page = await snapshots.take({ kind: "window", id: swing.id }, SNAPSHOT_DEFAULTS);
    const table = page.elements.find((e) => e.role === "table" && e.name === "Inventory table");
    assert.ok(table, "the table is in the snapshot");
    assert.deepEqual(table.cut, { reason: "table", rows: 200, columns: 4, rowsRead: 5, columnsRead: 4 });
    assert.ok(page.truncatedBy.includes("tableRows"));
    const cells = page.elements.filter(
      (e) => e.depth === table.depth + 1 && page.elements.indexOf(e) > page.elements.indexOf(table),
    );
    assert.deepEqual(
      cells.slice(0, 4).map((c) => c.name),
      ["1", "Item 1", "0", "1.00"],
    );
    assert.ok(page.counts.read < 200, `read ${page.counts.read} nodes, not the 876 of a full walk`);
    assert.match(await renderSnapshot(page), /… table 200×4, first 5 rows shown: read_table pages the rest/);
  });

  it("a password typed into the field never appears in a snapshot", async () => {
    const swing = await windowTitled(backend, TITLES.swing);
    const page = await snapshots.take({ kind: "window", id: swing.id }, SNAPSHOT_DEFAULTS);
    const field = page.elements.find((e) => e.role === "password text")!;
    const secret = "correct-horse-7391";
    // Test setup: put a secret in the field through the app's own EditableText interface.
    const entry = snapshots.refs.lookup(field.ref);
    const { bus, path } = parseHandle(entry.handle);
    const { getAccessibilityBusAddress, openSessionBus } = await import("../../src/platform/atspi/bus.js");
    const session = await openSessionBus(process.env.DBUS_SESSION_BUS_ADDRESS, 2000);
    const a11y = await DBusConnection.open(await getAccessibilityBusAddress(session, 2000));
    session.close();
    try {
      const [ok] = await a11y.call(
        {
          destination: bus,
          path,
          iface: "org.a11y.atspi.EditableText",
          member: "SetTextContents",
          signature: "s",
          body: [secret],
        },
        3000,
      );
      assert.equal(ok, true, "the app took the secret");
      const [length] = await a11y.call(
        {
          destination: bus,
          path,
          iface: "org.freedesktop.DBus.Properties",
          member: "Get",
          signature: "ss",
          body: ["org.a11y.atspi.Text", "CharacterCount"],
        },
        3000,
      );
      assert.equal((length as [unknown, number[]])[1][0], secret.length, "the field holds it");
    } finally {
      a11y.close();
    }
    const after = await snapshots.take(
      { kind: "window", id: swing.id },
      { ...SNAPSHOT_DEFAULTS, maxText: 10_000 },
    );
    assert.equal(after.elements.find((e) => e.role === "password text")!.value, PASSWORD_MARKER);
    assert.ok(!JSON.stringify(after).includes(secret));
    assert.ok(!(await renderSnapshot(after)).includes(secret));
  });

  it("visibleOnly leaves out the pages GTK3 is not showing; onlyInteractive leaves out scaffolding", async () => {
    const gtk3 = await windowTitled(backend, TITLES.gtk3);
    const everything = await snapshots.take(
      { kind: "window", id: gtk3.id },
      { ...SNAPSHOT_DEFAULTS, maxNodes: 5000, maxDepth: 64 },
    );
    const visible = await snapshots.take(
      { kind: "window", id: gtk3.id },
      { ...SNAPSHOT_DEFAULTS, maxNodes: 5000, maxDepth: 64, visibleOnly: true },
    );
    assert.ok(visible.counts.hidden > 0, "some of the factory's pages are hidden");
    assert.equal(visible.counts.inScope + visible.counts.hidden, everything.counts.inScope);
    assert.ok(visible.elements.slice(1).every((e) => e.states?.includes("showing")));
    const interactive = await snapshots.take(
      { kind: "window", id: gtk3.id },
      { ...SNAPSHOT_DEFAULTS, maxNodes: 5000, maxDepth: 64, onlyInteractive: true },
    );
    assert.ok(!interactive.elements.slice(1).some((e) => e.role === "filler" || e.role === "panel"));
    assert.ok(interactive.elements.some((e) => e.role === "check box" && e.name === "checkbutton"));
  });

  it("pages of a cut snapshot add up to the whole tree, under one snapshot id", async () => {
    const gtk4 = await windowTitled(backend, TITLES.gtk4);
    const limits = { ...SNAPSHOT_DEFAULTS, maxDepth: 64 };
    const whole = await snapshots.take({ kind: "window", id: gtk4.id }, { ...limits, maxNodes: 5000 });
    let page = await snapshots.take({ kind: "window", id: gtk4.id }, { ...limits, maxNodes: 200 });
    const seen = [...page.elements];
    while (page.cursor) {
      page = await snapshots.continue(page.cursor);
      seen.push(...page.elements);
    }
    assert.ok(seen.length > 800);
    assert.deepEqual(
      seen.map((e) => `${e.depth} ${e.role} ${e.name}`),
      whole.elements.map((e) => `${e.depth} ${e.role} ${e.name}`),
    );
  });

  it("an element that is not showing gets no bounds rather than stale ones", async () => {
    const gtk3 = await windowTitled(backend, TITLES.gtk3);
    const page = await snapshots.take(
      { kind: "window", id: gtk3.id },
      { ...SNAPSHOT_DEFAULTS, maxNodes: 5000, maxDepth: 64 },
    );
    const shown = page.elements.filter(
      (e) => e.states?.includes("showing") && e.interfaces?.includes("Component"),
    );
    const hidden = page.elements.filter((e) => !e.states?.includes("showing"));
    assert.ok(shown.length > 50 && hidden.length > 10);
    assert.ok(
      shown.every((e) => e.bounds !== null),
      "every showing element has bounds",
    );
    assert.ok(
      hidden.every((e) => e.bounds === null),
      "no hidden element has bounds",
    );
    assert.ok(
      page.elements.every((e) => !e.unread?.includes("bounds")),
      "null bounds are not failures",
    );
  });

  it("bounds are in screen coordinates and inside the window", async () => {
    for (const title of Object.values(TITLES)) {
      const window = await windowTitled(backend, title);
      const page = await snapshots.take(
        { kind: "window", id: window.id },
        { ...SNAPSHOT_DEFAULTS, maxDepth: 3 },
      );
      const frame = page.elements[0]!.bounds!;
      const rect = window.rect!;
      assert.ok(
        frame.x >= rect.x - 1 && frame.y >= rect.y - 40,
        `${title}: frame ${JSON.stringify(frame)} vs window ${JSON.stringify(rect)}`,
      );
      assert.ok(
        frame.x + frame.width <= rect.x + rect.width + 1,
        `${title}: frame within the window's width`,
      );
    }
  });
});

describe("a small Swing window of an app with more", () => {
  it("is read again with its own calls, not the app's whole cache, with the same elements", async () => {
    const backend = await connect();
    const extra = await startExtraSwingApp(backend);
    const context = createContext({ refLifetime: "while-verified" });
    const caller = toolCaller(context);
    const call = async (name: ToolName, input: Record<string, unknown>) => {
      const result = await caller(name, input);
      assert.ok(result.ok, JSON.stringify(result.error));
      return result.data;
    };
    try {
      const opened = await call("act", {
        find: { target: { kind: "window", id: extra.windowId }, role: "push button", name: "Open dialog" },
        action: { kind: "invoke" },
        waitMs: 500,
      });
      const dialog = opened.windows_appeared.find((w: { title: string }) => w.title === "Confirm");
      assert.ok(dialog, JSON.stringify(opened.windows_appeared));
      const target = { kind: "window", id: dialog.id };
      // The first read goes through the app's cache (its main window's 120 elements and more); the
      // dialog's 5 then tell the next read that its own calls cost less.
      const first = await call("snapshot", { target, format: "json" });
      const second = await call("snapshot", { target, format: "json" });
      assert.match(first.method, /^cache/);
      // Or, a second after the last input, through the app's cache kept from the first read.
      assert.match(second.method, /^(per-node calls|kept cache)/);
      const shown = (page: { elements: Record<string, unknown>[] }) =>
        page.elements.map(({ ref: _ref, ...element }) => element);
      assert.deepEqual(shown(second), shown(first));
      const cancel = second.elements.find((e: { name: string }) => e.name === "Cancel");
      assert.ok(cancel, "the dialog's Cancel button is read");
      const closed = await call("act", { ref: cancel.ref, action: { kind: "invoke" }, waitMs: 500 });
      assert.deepEqual(
        closed.windows_disappeared.map((w: { title: string }) => w.title),
        ["Confirm"],
      );
    } finally {
      extra.kill();
      await context.close();
      await backend.close();
    }
  });
});

describe("a Java app's cache kept between reads", () => {
  it("is used while nothing changed; a change the app makes on its own is read, and kept anew", async () => {
    const backend = await connect();
    const extra = await startExtraSwingApp(backend);
    const store = new SnapshotStore(async () => backend, new RefStore("while-verified"));
    // Every page of a read, as one.
    const read = async (): Promise<SnapshotPage> => {
      let page = await store.take({ kind: "window", id: extra.windowId }, SNAPSHOT_DEFAULTS);
      const elements = [...page.elements];
      while (page.cursor) {
        page = await store.continue(page.cursor);
        elements.push(...page.elements);
      }
      return { ...page, elements };
    };
    const shown = (page: SnapshotPage) => page.elements.map(({ ref: _ref, ...element }) => element);
    // What the two changes below touch: a state, two names (Swing says a button's new text only as
    // visible data changed) on two children that swap places (the names still read Alpha, Beta), and
    // the status label's description.
    const facts = (page: SnapshotPage) => ({
      checked:
        page.elements
          .find((e) => e.role === "check box" && e.name === "Subscribe")
          ?.states?.includes("checked") ?? false,
      buttons: page.elements
        .filter((e) => e.role === "push button" && /^(Alpha|Beta)/.test(e.name ?? ""))
        .map((e) => e.name),
      status: page.elements.find((e) => e.role === "label" && e.name === "Status")?.description,
    });
    const before = { checked: false, buttons: ["Alpha", "Beta"], status: undefined };
    const after = { checked: true, buttons: ["Alpha (moved)", "Beta (moved)"], status: "Reordered" };
    // Reads until `done` holds (the app's events come a moment after its change), bounded.
    const readUntil = async (done: (page: SnapshotPage) => boolean) => {
      let page = await read();
      for (const deadline = Date.now() + HANG_MS; !done(page) && Date.now() < deadline; page = await read())
        await sleep(200);
      return page;
    };
    const { getAccessibilityBusAddress, openSessionBus } = await import("../../src/platform/atspi/bus.js");
    const session = await openSessionBus(process.env.DBUS_SESSION_BUS_ADDRESS, 2000);
    const a11y = await DBusConnection.open(await getAccessibilityBusAddress(session, 2000));
    session.close();
    try {
      // The first read through the cache is kept once the app's events are heard (a second after
      // connecting), and used a second after this process's last input.
      const first = await readUntil((page) => /^cache/.test(page.method));
      const kept = await readUntil((page) => /^kept cache/.test(page.method));
      assert.match(kept.method, /^kept cache/);
      assert.deepEqual(shown(kept), shown(first));
      assert.deepEqual(facts(kept), before);
      // Changes deskhand did not make: the check box and the Reorder button pressed on a connection
      // of the test's own.
      for (const [role, name] of [
        ["check box", "Subscribe"],
        ["push button", "Reorder"],
      ]) {
        const element = kept.elements.find((e) => e.role === role && e.name === name)!;
        const { bus, path } = parseHandle(store.refs.lookup(element.ref).handle);
        await a11y.call(
          {
            destination: bus,
            path,
            iface: "org.a11y.atspi.Action",
            member: "DoAction",
            signature: "i",
            body: [0],
          },
          3000,
        );
      }
      const changed = await readUntil((page) => isDeepStrictEqual(facts(page), after));
      assert.deepEqual(facts(changed), after, "the app's changes are read");
      // The cache its events dropped is read again and kept: the kept one says what is now.
      const keptAgain = await readUntil((page) => /^kept cache/.test(page.method));
      assert.match(keptAgain.method, /^kept cache/);
      assert.deepEqual(facts(keptAgain), after);
    } finally {
      a11y.close();
      extra.kill();
      await backend.close();
    }
  });
});

describe("a hung app", () => {
  it("does not hold up listing windows or reading another app's window", async () => {
    const backend = await connect();
    const extra = await startExtraSwingApp(backend);
    try {
      process.kill(extra.pid, "SIGSTOP");
      const snapshots = new SnapshotStore(async () => backend, new RefStore("latest-snapshot"));
      const gtk3 = await windowTitled(backend, TITLES.gtk3); // The first listing waits out the hung app once.
      // Each round ends, with the hung app still listed and gtk3 read (the time a round takes beside a
      // hung app is a measurement, not a bound a loaded machine keeps).
      const rounds: number[] = [];
      let windows: Awaited<ReturnType<typeof backend.listWindows>> = [];
      let page: Awaited<ReturnType<typeof snapshots.take>> | undefined;
      for (let round = 0; round < 3; round++) {
        const started = Date.now();
        windows = await backend.listWindows();
        page = await snapshots.take({ kind: "window", id: gtk3.id }, { ...SNAPSHOT_DEFAULTS, maxDepth: 4 });
        rounds.push(Date.now() - started);
      }
      assert.ok(
        windows.some((w) => w.id === extra.windowId),
        "the hung app's window is still listed",
      );
      assert.ok((page?.elements.length ?? 0) > 5);
      assert.ok(
        Math.max(...rounds) < HANG_MS,
        `listing and reading gtk3 took ${rounds.join(", ")} ms while another app hung`,
      );
    } finally {
      process.kill(extra.pid, "SIGCONT");
      extra.kill();
      await backend.close();
    }
  });
});

describe("a blocked or stopped app", () => {
  it("a blocked Swing event thread does not stop reads (the ATK wrapper answers off it); it recovers", async () => {
    const context = createContext({ refLifetime: "while-verified" });
    const caller = toolCaller(context);
    const call = async (name: ToolName, input: Record<string, unknown>) => {
      const result = await caller(name, input);
      assert.ok(result.ok, JSON.stringify(result.error));
      return result.data;
    };
    try {
      // An extra fixture killed by an earlier test can take a moment to leave the window list.
      for (let i = 0; i < 50; i++) {
        const listed = (await call("windows", {})).windows as { title: string }[];
        if (listed.filter((w) => w.title === TITLES.swing).length === 1) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const swing = { kind: "title", glob: TITLES.swing };
      const blocked = await call("act", {
        find: { target: swing, role: "push button", name: "Block" },
        action: { kind: "invoke" },
        waitMs: 0,
        timeoutMs: 1000,
      });
      assert.ok(["completed", "unknown"].includes(blocked.action_outcome));
      const started = Date.now();
      const during = await call("snapshot", { target: swing, timeoutMs: 1000, format: "json" });
      assert.ok(Date.now() - started < HANG_MS, `the snapshot took ${Date.now() - started} ms`);
      assert.ok(during.elements.length > 10);
      await new Promise((resolve) => setTimeout(resolve, 3500));
      const after = await call("snapshot", { target: swing, format: "json" });
      assert.equal(
        after.elements.find((e: { name: string }) => e.name === "Status").description,
        "Unblocked",
      );
    } finally {
      await context.close();
    }
  });

  it("a stopped app's window returns in time with the timeout named; others are served; it recovers", async () => {
    const backend = await connect();
    const extra = await startExtraSwingApp(backend);
    const snapshots = new SnapshotStore(async () => backend, new RefStore("latest-snapshot"));
    try {
      process.kill(extra.pid, "SIGSTOP");
      const started = Date.now();
      const partial = await snapshots.take(
        { kind: "window", id: extra.windowId },
        { ...SNAPSHOT_DEFAULTS, timeoutMs: 1000 },
      );
      const took = Date.now() - started;
      assert.ok(took < HANG_MS, `the snapshot of the stopped window took ${took} ms`);
      assert.ok(partial.truncatedBy.includes("timeout"), `the cut is named: ${partial.truncatedBy}`);
      const gtk3 = await windowTitled(backend, TITLES.gtk3);
      const other = await snapshots.take(
        { kind: "window", id: gtk3.id },
        { ...SNAPSHOT_DEFAULTS, maxDepth: 3 },
      );
      assert.ok(other.elements.length > 5);
      process.kill(extra.pid, "SIGCONT");
      const whole = await snapshots.take({ kind: "window", id: extra.windowId }, SNAPSHOT_DEFAULTS);
      assert.ok(!whole.truncatedBy.includes("timeout"), "after SIGCONT a new read is whole");
      assert.ok(whole.elements.length > 50);
    } finally {
      process.kill(extra.pid, "SIGCONT");
      extra.kill();
      await backend.close();
    }
  });
});

describe("a dying or restarting app", () => {
  it("killed during reads: clean answers, never a crash; a restarted app is seen anew", async () => {
    const backend = await connect();
    const snapshots = new SnapshotStore(async () => backend, new RefStore("latest-snapshot"));
    // What deskhand holds on the bus, by the bus daemon's own count, before any app dies.
    await backend.listWindows();
    const footprint = await backend.busFootprint();
    assert.ok(footprint, "the accessibility bus daemon keeps statistics");
    try {
      const first = await startExtraSwingApp(backend);
      const limits = { ...SNAPSHOT_DEFAULTS, maxDepth: 64, maxNodes: 5000, walkTables: true };
      const reading = snapshots.take({ kind: "window", id: first.windowId }, limits).then(
        (page) => ({ ok: true as const, page }),
        (error: Error & { code?: string }) => ({ ok: false as const, error }),
      );
      setTimeout(() => first.kill(), 40);
      const outcome = await reading;
      if (outcome.ok) {
        // The read may finish first, or return what it could with the cut named.
        assert.ok(outcome.page.elements.length > 0);
      } else {
        assert.ok(
          // not_accessible: the app left the bus while its X window still stood, a true answer too.
          ["window_not_found", "element_gone", "not_accessible"].includes(
            outcome.error.code ?? outcome.error.name,
          ) || ["WindowNotFound", "ElementGone"].includes(outcome.error.name),
          `a clean error, not ${outcome.error.name}: ${outcome.error.message}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
      await assert.rejects(
        snapshots.take({ kind: "window", id: first.windowId }, SNAPSHOT_DEFAULTS),
        (e: Error & { code?: string }) => e.code === "window_not_found",
      );
      const second = await startExtraSwingApp(backend);
      try {
        assert.notEqual(second.pid, first.pid);
        const page = await snapshots.take({ kind: "window", id: second.windowId }, SNAPSHOT_DEFAULTS);
        assert.equal(page.elements[0]?.name, TITLES.swing, "the restarted app's window is read");
      } finally {
        second.kill();
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
      await backend.listWindows(); // lets the backend drop the dead apps' connections
      const afterwards = await backend.busFootprint();
      assert.equal(afterwards?.matchRules, footprint.matchRules, "no match rules leaked");
      assert.ok(
        afterwards!.listeners <= footprint.listeners,
        `no socket listeners leaked: ${JSON.stringify({ footprint, afterwards })}`,
      );
      assert.ok(afterwards!.apps <= footprint.apps, "the dead apps' connections are gone");
    } finally {
      await backend.close();
    }
  });
});
