// `snapshot {since}` and `include_changes` on real apps: elements added, removed, renamed and changed
// in the Swing fixture and gtk3-widget-factory, each reply checked against a full re-read of the app.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { suiteCaller, TITLES } from "./helpers.js";

type Element = { ref: string; role: string; name: string | null; states: string[] | null; value?: string };
type Report = {
  snapshotId: string;
  added: Element[];
  removed: { ref: string | null; role: string; name: string | null }[];
  changed: {
    ref: string;
    role: string;
    name: string | null;
    fields: { field: string; before: string; after: string }[];
  }[];
};

describe("changes since a snapshot, on real apps", () => {
  const call = suiteCaller();

  const swing = { kind: "title", glob: TITLES.swing };
  const gtk3 = { kind: "title", glob: TITLES.gtk3 };
  const one = async (target: object, query: Record<string, unknown>) => {
    const found = await call("find", { target, ...query });
    assert.ok(
      found.ok && found.data.matches.length > 0,
      `${JSON.stringify(query)}: ${JSON.stringify(found)}`,
    );
    return found.data.matches[0] as Element;
  };
  /** Every element of the window as it is now: the full tree, every page. */
  const fullRead = async (target: object): Promise<Element[]> => {
    const read = await call("snapshot", { target, format: "json", maxNodes: 5000, maxDepth: 60 });
    assert.ok(read.ok, JSON.stringify(read.error));
    return read.data.elements;
  };
  const since = async (target: object, id: string): Promise<Report & { text: string }> => {
    const reply = await call("snapshot", { target, since: id });
    assert.ok(reply.ok, JSON.stringify(reply.error));
    assert.equal(reply.data.since_fallback, undefined, reply.text);
    return { ...reply.data, text: reply.text };
  };
  /** The Swing fixture's own record of the last thing it saw. */
  const swingStatus = async () => {
    const status = (await fullRead(swing)).find((e) => e.name === "Status") as { description?: string };
    return status?.description;
  };
  const press = async (name: string) => {
    const button = await one(swing, { role: "push button", name });
    assert.ok((await call("act", { ref: button.ref, action: { kind: "invoke" } })).ok);
  };

  it("Swing: a check box toggled and a label added, then the label removed and buttons renamed", async () => {
    const first = await call("snapshot", { target: swing });
    assert.ok(first.ok);
    const subscribe = await one(swing, { role: "check box", name: "Subscribe" });
    const wasChecked = !!subscribe.states?.includes("checked");
    assert.ok((await call("act", { ref: subscribe.ref, action: { kind: "toggle" } })).ok);
    await press("Note");
    await sleep(300);
    const report = await since(swing, first.data.snapshotId);
    assert.deepEqual(
      report.added.map((e) => `${e.role} ${e.name}`),
      ["label A note"],
      report.text,
    );
    const toggled = report.changed.find((c) => c.name === "Subscribe");
    assert.ok(toggled, report.text);
    const states = toggled.fields.find((f) => f.field === "states")!;
    assert.equal(wasChecked ? states.before : states.after, "checked", report.text);
    // The reply agrees with a full re-read: the added label is there under its ref, the state holds.
    const now = await fullRead(swing);
    const label = now.find((e) => e.ref === report.added[0]!.ref);
    assert.equal(label?.name, "A note");
    assert.equal(!!now.find((e) => e.ref === toggled.ref)?.states?.includes("checked"), !wasChecked);

    const names = now.filter((e) => e.role === "push button").map((e) => e.name);
    await press("Reorder");
    await press("Note");
    await sleep(300);
    const later = await since(swing, report.snapshotId);
    assert.deepEqual(
      later.removed.map((e) => `${e.role} ${e.name}`),
      ["label A note"],
      later.text,
    );
    const renamed = later.changed.filter((c) => c.fields.some((f) => f.field === "name"));
    assert.equal(renamed.length, 2, later.text);
    const after = await fullRead(swing);
    assert.ok(!after.some((e) => e.name === "A note"), "the label is gone from the app");
    for (const change of renamed) {
      const field = change.fields.find((f) => f.field === "name")!;
      assert.ok(names.includes(field.before), `${field.before} was a button's name`);
      assert.equal(after.find((e) => e.ref === change.ref)?.name, field.after, "the new name is the app's");
    }
    assert.match(later.text, /^- label "A note" \[ref=s\d+:e\d+[a-z]{2}\]$/m);
    assert.match(later.text, /^~ push button ".*\(moved\)" \[ref=s\d+:e\d+[a-z]{2}\] name ".*" → ".*"$/m);
    assert.equal(await swingStatus(), "Note removed");
  });

  it("GTK3: include_changes on act reports the toggled check box; a menu opened adds its items", async () => {
    const check = await one(gtk3, { role: "check box", states: ["showing", "sensitive"] });
    const toggled = await call("act", { ref: check.ref, action: { kind: "toggle" }, include_changes: true });
    assert.ok(toggled.ok, JSON.stringify(toggled.error));
    const change = (toggled.data.changes as Report).changed.find((c) => c.ref === check.ref);
    assert.ok(change, toggled.text);
    assert.ok(change.fields.some((f) => f.field === "states" && /checked/.test(f.before + f.after)));
    assert.match(toggled.text, /# changes s\d+ since the action/);

    const menu = await one(gtk3, { role: "toggle button", name: "Menu" });
    const opened = await call("act", { ref: menu.ref, action: { kind: "invoke" }, include_changes: true });
    assert.ok(opened.ok, JSON.stringify(opened.error));
    const added = (opened.data.changes as Report).added.map((e) => e.name);
    try {
      assert.ok(added.includes("Get Busy"), opened.text);
      const now = await fullRead(gtk3);
      for (const element of (opened.data.changes as Report).added)
        assert.ok(
          now.some((e) => e.ref === element.ref && e.name === element.name),
          `${element.ref} is in the app`,
        );
    } finally {
      await call("act", { ref: menu.ref, action: { kind: "invoke" } });
    }
  });
});
