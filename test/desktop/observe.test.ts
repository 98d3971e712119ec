// observe on real apps shows the surface the work happens on: a form's fields in reading order with
// the states a person sees, a file chooser's table folded to one line with its rows, a canvas as a
// pixels-only surface with what reads it, icon-only tool bar buttons by their tooltips, never a ""
// name.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createContext, type ToolContext } from "../../src/tools/context.js";
import { findWaiting, type StartedApp, startApp, startSwingFixture, TITLES, toolCaller } from "./helpers.js";

type Rect = { x: number; y: number; width: number; height: number };

describe("observe shows the work surface", () => {
  const dir = mkdtempSync(join(tmpdir(), "deskhand-observe-"));
  const apps: StartedApp[] = [];
  let context: ToolContext;
  let call: ReturnType<typeof toolCaller>;
  before(() => {
    context = createContext({ refLifetime: "while-verified" });
    call = toolCaller(context);
  });
  after(async () => {
    for (const app of apps) app.kill();
    await context.close();
  });

  const observe = async (glob: string, extra: Record<string, unknown> = {}) => {
    const reply = await call("observe", { target: { kind: "title", glob }, includeTree: true, ...extra });
    assert.equal(reply.error, undefined, JSON.stringify(reply.error));
    return reply;
  };

  it("a form: targets in reading order, states on the line, no empty name", async () => {
    const reply = await observe(TITLES.swing);
    const text: string = reply.text ?? "";
    // No element is shown with an empty name (a value may be empty: `= ""`).
    assert.doesNotMatch(text, /^\d+\. [a-z ]+ "" /m, text);
    // Each target is not above the one before it, unless it is on the same row (its centre within
    // the other's height), where it is to the right.
    const bounds = new Map<string, Rect | null>(
      reply.data.tree.elements.map((e: { ref: string; bounds: Rect | null }) => [e.ref, e.bounds]),
    );
    const placed = (reply.data.targets as { ref: string; label: string }[])
      .map((t) => ({ ...t, b: bounds.get(t.ref) }))
      .filter((t): t is { ref: string; label: string; b: Rect } => !!t.b && t.b.height > 0);
    assert.ok(placed.length > 10, text);
    const centre = (b: Rect) => b.y + b.height / 2;
    for (let i = 1; i < placed.length; i++) {
      const [a, b] = [placed[i - 1]!, placed[i]!];
      const sameRow = centre(b.b) >= a.b.y && centre(b.b) <= a.b.y + a.b.height;
      assert.ok(
        sameRow ? b.b.x >= a.b.x : centre(b.b) >= centre(a.b),
        `not in reading order:\n${a.label} ${JSON.stringify(a.b)}\n${b.label} ${JSON.stringify(b.b)}`,
      );
    }
    // One of the size radio buttons is checked, and says so.
    assert.match(text, /radio button "(Small|Medium|Large)" \([^)]*checked[^)]*\)/, text);
  });

  it("icon-only tool bar buttons are named by their tooltips, marked as inferred", async () => {
    const editor = startSwingFixture("DeskhandEditor");
    apps.push(editor);
    await findWaiting(call, "Deskhand Editor", { role: "push button", name: "Redo" }, 30_000);
    const text: string = (await observe("Deskhand Editor")).text ?? "";
    assert.match(text, /push button ~"Find in the document"/, text);
    assert.match(text, /push button ~"Replace in the document"/, text);
    assert.doesNotMatch(text, /^\d+\. [a-z ]+ "" /m, text);
    // The document is a target: its text is where the work happens.
    assert.match(text, /text "Document"[^\n]*\] [^\n]*set_value/, text);
  });

  it("a canvas is listed as a pixels-only surface, with the tools that read it", async () => {
    const canvas = startSwingFixture("DeskhandCanvas", [join(dir, "canvas-report")]);
    apps.push(canvas);
    const title = "Swing Canvas";
    await findWaiting(call, `${title}*`, { role: "frame" }, 30_000).catch(() => undefined);
    let text = "";
    for (let i = 0; i < 20 && !/pixels only/.test(text); i++) {
      text = (await observe(`${title}*`).catch(() => ({ text: "" }))).text ?? "";
      if (!/pixels only/.test(text)) await new Promise((resolve) => setTimeout(resolve, 500));
    }
    assert.match(text, /\(pixels only\) \[ref=[^\]]+\] read_screen_text,find_text,click/, text);
  });

  it("a file chooser's table is one target with its rows, unless its items are asked for", async () => {
    const folder = join(dir, "folders");
    for (let i = 0; i < 14; i++)
      mkdirSync(join(folder, `folder ${String(i).padStart(2, "0")}`), { recursive: true });
    const title = "Deskhand chooser for observe";
    const chooser = startApp(["/usr/bin/python3", "test/fixtures/dialogs/gtk3_chooser.py", title, folder]);
    apps.push(chooser);
    await findWaiting(call, title, { role: "push button", name: "Select" }, 30_000);
    let reply = await observe(title);
    for (let i = 0; i < 20 && !/ rows; items: true/.test(reply.text ?? ""); i++) {
      await new Promise((resolve) => setTimeout(resolve, 300));
      reply = await observe(title);
    }
    const text: string = reply.text ?? "";
    const folded = text.match(
      /table[^\n]*\((\d+) rows; items: true lists them\) \[ref=[^\]]+\] read_table,find/,
    );
    assert.ok(folded, text);
    assert.ok(Number(folded[1]) >= 14, text);
    assert.doesNotMatch(text, /table cell "folder 07"/, "the rows are folded");
    assert.ok(reply.data.left_out.in_tables > 0, JSON.stringify(reply.data.left_out));
    const items = (await observe(title, { items: true, maxTargets: 500 })).text ?? "";
    assert.match(items, /folder 07/, items);
  });

  it("a file manager's icon view, which the tree leaves empty, is a pixels-only surface named by its pane", async () => {
    // Thunar's icon view (ExoIconView) has no accessible children: the files are only pixels.
    const folder = join(dir, "icons");
    mkdirSync(folder, { recursive: true });
    for (const name of ["quarterly.txt", "invoices.txt", "minutes.txt"])
      writeFileSync(join(folder, name), `${name}\n`);
    const thunar = startApp(["thunar", folder]);
    apps.push(thunar);
    const title = "icons - Thunar";
    await findWaiting(call, title, { role: "push button", name: "Home" }, 30_000);
    let reply = await observe(title);
    for (let i = 0; i < 20 && !/pixels only/.test(reply.text ?? ""); i++) {
      await new Promise((resolve) => setTimeout(resolve, 300));
      reply = await observe(title);
    }
    const text: string = reply.text ?? "";
    const surface = text.match(/^\d+\. panel ~"Icon view"[^\n]*\(pixels only\) \[ref=([^\]]+)\]/m);
    assert.ok(surface, text);
    // What it points to reads the files: find_text sees a file's name in the surface's pixels.
    const seen = await call("find_text", {
      text: "quarterly",
      match: "contains",
      of: { kind: "element", ref: surface[1] },
    });
    assert.equal(seen.error, undefined, JSON.stringify(seen.error));
    assert.ok(seen.data.matches.length >= 1, JSON.stringify(seen.data));
    // The side pane's rows are one target each, named by their cell, not an unnamed cell and its twin.
    const listed = text.split("\n# context")[0]!;
    assert.match(listed, /table cell ~"File System"/, text);
    assert.doesNotMatch(listed, /table cell "File System"/, text);
  });
});
