// `deskhand serve` against real apps: every method of the protocol and every error code it can produce.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import type { AtspiBackend } from "../../src/platform/atspi/backend.js";
import { connect, NdjsonClient, startExtraSwingApp, TITLES, windowTitled } from "./helpers.js";

describe("ndjson on real apps", () => {
  let backend: AtspiBackend;
  let client: NdjsonClient;
  before(async () => {
    backend = await connect();
    client = new NdjsonClient();
  });
  after(async () => {
    client.end();
    await client.exited;
    await backend.close();
  });

  it("ping names the protocol, the methods and the current snapshot", async () => {
    const reply = await client.request(1, "ping");
    assert.equal(reply.ok, true);
    assert.equal(reply.result.protocolVersion, 1);
    assert.deepEqual(reply.result.methods.slice(0, 5), ["ping", "windows", "snapshot", "observe", "invoke"]);
    assert.equal(reply.result.methods.at(-1), "shutdown");
  });

  it("windows lists the three apps with hwnd, title, pid and rect", async () => {
    const reply = await client.request(2, "windows", { maxNodes: 100 });
    const titles = reply.result.windows.map((w: { title: string }) => w.title).sort();
    for (const title of Object.values(TITLES)) assert.ok(titles.includes(title), `${title} is listed`);
    const swing = reply.result.windows.find((w: { title: string }) => w.title === TITLES.swing);
    assert.equal(typeof swing.hwnd, "number");
    assert.ok(swing.pid > 0 && swing.rect.width > 0);
    const one = await client.request(3, "windows", { maxNodes: 1 });
    assert.equal(one.result.windows.length, 1);
    assert.equal(one.result.truncated, true);
  });

  it("snapshot reads each scope; a ref from an earlier snapshot is unknown_ref", async () => {
    const swing = await windowTitled(backend, TITLES.swing);
    const byHwnd = await client.request(4, "snapshot", { scope: "hwnd", hwnd: swing.id, maxNodes: 40 });
    assert.equal(byHwnd.ok, true);
    assert.equal(byHwnd.result.elements[0].name, TITLES.swing);
    assert.deepEqual(byHwnd.result.truncated_by.includes("maxNodes"), true);
    const button = byHwnd.result.elements.find((e: { name: string }) => e.name === "New");
    const byProcess = await client.request(5, "snapshot", { scope: "process", pid: swing.pid, maxDepth: 1 });
    assert.equal(byProcess.result.windows[0].id, swing.id);
    assert.ok(byProcess.result.truncated_by.includes("maxDepth"));
    for (const scope of ["foreground", "desktop", "cursor"]) {
      const reply = await client.request(`scope-${scope}`, "snapshot", { scope, maxDepth: 2, maxNodes: 20 });
      assert.equal(reply.ok, true, `${scope}: ${JSON.stringify(reply.error)}`);
      assert.ok(reply.result.elements.length > 0);
    }
    const stale = await client.request(6, "snapshot", { ref: button.ref });
    assert.equal(stale.ok, false);
    assert.equal(stale.error.code, "unknown_ref");
  });

  it("observe lists actionable targets in order, with refs and actions", async () => {
    const swing = await windowTitled(backend, TITLES.swing);
    const reply = await client.request(7, "observe", { scope: "hwnd", hwnd: swing.id, maxTargets: 50 });
    assert.equal(reply.ok, true);
    const labels: string[] = reply.result.visible;
    const openDialog = reply.result.targets.find((t: { label: string }) =>
      t.label.startsWith('push button "Open dialog"'),
    );
    assert.ok(openDialog, labels.join("\n"));
    assert.ok(openDialog.actions.includes("invoke"));
    // The document's label shape: the ref and the actions inside one bracket.
    assert.match(
      openDialog.label,
      /^push button "Open dialog" \[ref=s\d+:e\d+[a-z]{2}; actions=invoke(,\w+)*\]$/,
    );
    assert.ok(labels.includes(openDialog.label));
    assert.match(openDialog.ref, /^s\d+:e\d+[a-z]{2}$/);
    assert.deepEqual(
      reply.result.targets.map((t: { index: number }) => t.index),
      reply.result.targets.map((_: unknown, i: number) => i),
    );
    const withTree = await client.request(8, "observe", {
      scope: "hwnd",
      hwnd: swing.id,
      includeTree: true,
      maxTargets: 1,
    });
    assert.ok(withTree.result.tree.elements.length > 1);
    assert.ok(withTree.result.truncated_by.includes("maxTargets"));
  });

  it("acts through the protocol's action methods, with the protocol's error codes", async () => {
    const swing = await windowTitled(backend, TITLES.swing);
    // raw: every element, the table on its tab that is not showing too.
    const snap = await client.request("a1", "snapshot", {
      scope: "hwnd",
      hwnd: swing.id,
      maxDepth: 30,
      maxNodes: 1000,
      view: "raw",
    });
    const find = (predicate: (e: { role: string; name: string }) => boolean) =>
      snap.result.elements.find(predicate);
    const combo = find((e) => e.role === "combo box");
    const selected = await client.request("a2", "select", { ref: combo.ref, option: "Green", waitMs: 200 });
    assert.equal(selected.ok, true, JSON.stringify(selected));
    assert.equal(selected.result.after.name, "Green");
    const stale = await client.request("a3", "invoke", { ref: combo.ref });
    assert.equal(
      stale.error.code,
      "stale_element",
      "the combo box is now named Green: the old ref is refused",
    );
    // select on a radio button chooses it, as the document's SelectionItem does; then the first again.
    const small = find((e) => e.role === "radio button" && e.name === "Small");
    const chosen = await client.request("a3r", "select", { ref: small.ref });
    assert.equal(chosen.ok, true, JSON.stringify(chosen));
    assert.ok(chosen.result.after.states.includes("checked"), JSON.stringify(chosen.result.after));
    const medium = find((e) => e.role === "radio button" && e.name === "Medium");
    assert.equal((await client.request("a3m", "select", { ref: medium.ref })).ok, true);
    const status = find((e) => e.name === "Status");
    assert.equal(
      (await client.request("a4", "set_value", { ref: status.ref, value: "x" })).error.code,
      "unsupported_pattern",
    );
    const serial = find((e) => e.role === "text" && e.name === "Serial");
    assert.equal(
      (await client.request("a5", "set_value", { ref: serial.ref, value: "x" })).error.code,
      "read_only",
    );
    const name = find((e) => e.role === "text" && e.name === "Name");
    const typed = await client.request("a6", "set_value", { ref: name.ref, value: "via ndjson" });
    assert.equal(typed.result.after.value, "via ndjson");
    const focus = await client.request("a7", "focus", { ref: name.ref, waitMs: 0 });
    assert.equal(focus.ok, true, JSON.stringify(focus));
    assert.equal(
      (await client.request("a8", "set_range", { ref: name.ref, value: 3 })).error.code,
      "unsupported_pattern",
    );
    assert.equal(
      (await client.request("a9", "toggle", { ref: name.ref, waitMs: 9000 })).error.code,
      "invalid_params",
    );
    // The Java wrapper takes a Value and leaves a JSlider or JSpinner where it was: the arrow keys
    // step it there, and the value reads back.
    const volume = find((e) => e.role === "slider" && e.name === "Volume");
    const goal = Number(volume.value) + 5;
    const slid = await client.request("a8s", "set_range", { ref: volume.ref, value: goal });
    assert.equal(slid.ok, true, JSON.stringify(slid));
    assert.equal(Number(slid.result.after.value), goal, JSON.stringify(slid.result));
    const quantity = find((e) => e.role === "spin button" && e.name === "Quantity");
    const more = Number(quantity.value) + 2;
    const spun = await client.request("a8q", "set_range", { ref: quantity.ref, value: more });
    assert.equal(Number(spun.result?.after?.value), more, JSON.stringify(spun));
    // type_text of a number into the spinner sets its value, read back, where typing it timed out.
    const spunByKeys = await client.request("a8t", "type_text", {
      ref: quantity.ref,
      text: String(more + 1),
    });
    assert.equal(Number(spunByKeys.result?.after?.value), more + 1, JSON.stringify(spunByKeys));
    const table = find((e) => e.role === "table");
    // On a page not showing, the table has no place: the wheel is not turned, and the reply says why.
    const hidden = await client.request("a10h", "scroll", { ref: table.ref, vertical: "large_increment" });
    assert.notEqual(hidden.error?.code, "internal_error", JSON.stringify(hidden));
    if (hidden.result.effect === "not_seen")
      assert.match(hidden.result.detail, /wheel over it was not turned/);
    const tab = find((e) => e.role === "page tab" && e.name === "Table");
    assert.equal((await client.request("a10t", "select", { ref: tab.ref })).ok, true);
    // The Java wrapper accepts a scroll bar's new value and ignores it: the wheel turns over the part
    // of the table that shows (its centre is far below its pane), and the bar, read again, moved.
    const scrolled = await client.request("a10", "scroll", { ref: table.ref, vertical: "large_increment" });
    assert.equal(scrolled.result?.effect, "seen", JSON.stringify(scrolled));
    if (/\(reads/.test(scrolled.result.route)) assert.match(scrolled.result.route, /then the wheel over it/);
    const form = find((e) => e.role === "page tab" && e.name === "Form");
    assert.equal((await client.request("a10f", "select", { ref: form.ref })).ok, true);
  });

  it("focus_window brings a window to the front, read back from the window manager (deskhand's addition)", async () => {
    const swing = await windowTitled(backend, TITLES.swing);
    const front = await client.request("f1", "focus_window", {
      hwnd: swing.id,
      intent: "Bring the fixture forward",
    });
    assert.equal(front.ok, true, JSON.stringify(front));
    assert.equal(front.result.result.focus, "is now in front");
    assert.equal((await windowTitled(backend, TITLES.swing)).focused, true);
    const missing = await client.request("f2", "focus_window", { hwnd: 1, intent: "Bring nothing forward" });
    assert.equal(missing.ok, false);
    assert.notEqual(missing.error.code, "internal_error", JSON.stringify(missing));
    const noIntent = await client.request("f3", "focus_window", { hwnd: swing.id });
    assert.equal(noIntent.error.code, "invalid_params");
  });

  it("the document's views: raw is every element, control the screen, content what carries text", async () => {
    const swing = await windowTitled(backend, TITLES.swing);
    const read = (id: string, view: string) =>
      client.request(id, "snapshot", { scope: "hwnd", hwnd: swing.id, maxDepth: 30, maxNodes: 1000, view });
    const [raw, control, content] = [
      await read("v1", "raw"),
      await read("v2", "control"),
      await read("v3", "content"),
    ];
    assert.equal(raw.result.view, "raw");
    assert.ok(
      control.result.elements.length < raw.result.elements.length,
      "control folds what is off screen",
    );
    assert.ok(
      control.result.elements.some((e: { fold?: unknown }) => e.fold),
      "with the folds marked",
    );
    assert.ok(content.result.elements.length < control.result.elements.length);
    for (const e of content.result.elements as { name?: string; value?: string }[])
      assert.ok(e.name?.trim() || e.value?.trim(), JSON.stringify(e));
  });

  it("type_text without intent, as the document writes it: done, and journaled as given none", async () => {
    const swing = await windowTitled(backend, TITLES.swing);
    const snap = await client.request("t1", "snapshot", { scope: "hwnd", hwnd: swing.id, maxDepth: 30 });
    const notes = snap.result.elements.find(
      (e: { role: string; name: string }) => e.name === "Name" && e.role === "text",
    );
    const typed = await client.request("t2", "type_text", { ref: notes.ref, text: "w2t", clear: true });
    assert.equal(typed.ok, true, JSON.stringify(typed));
    const journal = readFileSync(process.env.DESKHAND_AUDIT!, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    assert.equal(journal.at(-1).intent, "(none given: a windows2text client)");
  });

  it("an element whose app died is stale_element", async () => {
    const extra = await startExtraSwingApp(backend);
    try {
      const reply = await client.request(9, "snapshot", { scope: "hwnd", hwnd: extra.windowId, maxDepth: 2 });
      const panel = reply.result.elements[1];
      extra.kill();
      await new Promise((resolve) => setTimeout(resolve, 500));
      const gone = await client.request(10, "snapshot", { ref: panel.ref });
      assert.equal(gone.ok, false);
      assert.equal(gone.error.code, "stale_element");
    } finally {
      extra.kill();
    }
  });

  it("malformed requests get invalid_request, invalid_params and unknown_method", async () => {
    client.writeRaw("{oops\n");
    assert.equal((await client.next()).error.code, "invalid_request");
    assert.equal((await client.request(11, "teleport")).error.code, "unknown_method");
    const bad = await client.request(12, "snapshot", { scope: "hwnd" });
    assert.equal(bad.error.code, "invalid_params");
    const wrongType = await client.request(13, "snapshot", { maxNodes: "all" });
    assert.equal(wrongType.error.code, "invalid_params");
    assert.match(wrongType.error.message, /maxNodes/);
    // An argument the method does not have is named itself.
    const unknown = await client.request(14, "windows", { bogus: 1 });
    assert.equal(unknown.error.code, "invalid_params");
    assert.deepEqual(unknown.error.fields, ["bogus"], JSON.stringify(unknown.error));
  });

  it("without a desktop, a call is internal_error naming the reason, and the server lives on", async () => {
    // Set empty, they say there is none: deskhand does not look for the desktop its caller runs in.
    const lonely = new NdjsonClient({ ...process.env, DISPLAY: "", DBUS_SESSION_BUS_ADDRESS: "" });
    try {
      const reply = await lonely.request(1, "windows");
      assert.equal(reply.error.code, "internal_error");
      assert.equal(reply.error.reason, "backend_unavailable");
      assert.match(reply.error.next, /doctor/);
      assert.equal((await lonely.request(2, "ping")).ok, true);
      assert.deepEqual(await lonely.request(3, "shutdown"), {
        id: 3,
        ok: true,
        result: { shuttingDown: true },
      });
      assert.equal(await lonely.exited, 0);
    } finally {
      lonely.child.kill();
    }
  });

  it("closing stdin ends the process", async () => {
    const short = new NdjsonClient();
    short.writeRaw('{"id":1,"method":"ping"}\n');
    short.end();
    assert.equal((await short.next()).id, 1);
    assert.equal(await short.exited, 0);
  });

  it("SIGTERM drains: the request in flight is answered and journaled, then the process exits 0", async () => {
    const serving = new NdjsonClient();
    try {
      assert.equal((await serving.request(1, "ping")).ok, true);
      const snapshot = serving.request(2, "snapshot", { scope: "foreground" });
      serving.writeRaw('{"id":3,"method":"windows"}\n');
      await new Promise((resolve) => setTimeout(resolve, 30));
      serving.child.kill("SIGTERM");
      const answer = await snapshot;
      assert.equal(answer.id, 2, "the request in flight got its own answer");
      const next = await serving.next();
      assert.equal(next.id, 3);
      assert.ok(next.ok || /not started and nothing was done/.test(next.error.message), JSON.stringify(next));
      assert.equal(await serving.exited, 0);
    } finally {
      serving.child.kill("SIGKILL");
    }
  });
});
