// The toolkit contract suite: the same capabilities, proven on each toolkit's real app, each effect
// re-read from the app. Run once per toolkit by scripts/run-tests.mjs, inside a sandbox with that app,
// with DESKHAND_TOOLKIT naming the profile; each outcome is written for the ledger (docs/toolkits.md).
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { decodePng, distinctColours } from "../../src/core/image.js";
import { sessionKind } from "../../src/platform/desktops.js";
import { waylandCompositor } from "../../src/platform/wayland/compositor.js";
import { callTool } from "../../src/tools/call.js";
import { createContext, type ToolContext } from "../../src/tools/context.js";
import { toolNamed } from "../../src/tools/registry.js";
import { settled, toolCaller, windowId } from "../desktop/helpers.js";
import { tableCells } from "./cells.js";
import { CAPABILITIES, type Capability, PROFILES, type Query, SET_TEXT, TYPED_KEYS } from "./profiles.js";

/** What fill_form writes where set_value does not take. */
const FILLED_TEXT = "Filled by typing";

const name = process.env.DESKHAND_TOOLKIT ?? "";
const profile = PROFILES[name];
if (!profile) throw new Error(`DESKHAND_TOOLKIT=${name} is not one of ${Object.keys(PROFILES).join(", ")}`);

/**
 * The same suite runs in an X11 sandbox and in Wayland ones (`sandbox run --wayland`, sway, and
 * `--kde`, KWin, and `--gnome`, GNOME Shell): the ledger keeps each.
 */
const wayland = sessionKind(process.env) === "wayland";
const kde = wayland && waylandCompositor(process.env) === "kwin";
const gnome = wayland && waylandCompositor(process.env) === "gnome";
/** And in an X11 sandbox at a scale (`sandbox run --scale 2`), whose run says so here. */
const scale = process.env.DESKHAND_LEDGER_SCALE;
const session = kde ? "kde" : gnome ? "gnome" : wayland ? "wayland" : scale ? `x11-scale-${scale}` : "x11";

type Outcome = { outcome: "works" | "refused" | "not supported"; detail: string };
const results: Partial<Record<Capability, Outcome>> = {};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe(`toolkit contract: ${profile.label}${kde ? " on KDE Plasma" : gnome ? " on GNOME" : wayland ? " on Wayland" : scale ? ` at scale ${scale}` : ""}`, () => {
  let context: ToolContext;
  let call: ReturnType<typeof toolCaller>;
  before(async () => {
    context = createContext({ refLifetime: "while-verified" });
    call = toolCaller(context);
    if (profile.settleMs) await sleep(profile.settleMs);
  });
  after(async () => {
    await context.close();
    const dir = process.env.DESKHAND_LEDGER_DIR ?? "build/ledger";
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, `${name}${session === "x11" ? "" : `-${session}`}.json`),
      `${JSON.stringify({ toolkit: name, label: profile.label, session, date: new Date().toISOString().slice(0, 10), results }, null, 2)}\n`,
    );
  });

  const all = async (query: Query) => {
    const { pick, ...selector } = query;
    const found = await call("find", {
      target: { kind: "title", glob: profile.title },
      ...selector,
      limit: 200,
      include_off_screen: true,
      timeout_ms: 5000,
    });
    assert.ok(found.ok, JSON.stringify(found.error));
    return (
      found.data.matches as {
        ref: string;
        name: string | null;
        value?: string;
        states: string[] | null;
        bounds: any;
      }[]
    ).filter((m) => !pick || pick(m));
  };
  /** Table cells are not searched by find (read_table pages them): they come from a snapshot. */
  const cell = async (name: string) => {
    const found = (await tableCells(call, profile.title)).find((e) => e.name === name);
    assert.ok(found, `cell ${name} is in the snapshot`);
    return found;
  };

  const one = async (query: Query) => {
    if (query.role === "table cell" && query.name)
      return { ...(await cell(query.name)), name: query.name, bounds: null };
    const [match] = await all(query);
    assert.ok(match, `${JSON.stringify(query)} is in ${profile.title}`);
    return match;
  };
  /** The whole window as JSON, every element. */
  const windowJson = (maxNodes: number) =>
    call("snapshot", {
      target: { kind: "title", glob: profile.title },
      maxDepth: 60,
      maxNodes,
      format: "json",
    });
  const record = (capability: Capability, outcome: Outcome["outcome"], detail: string) => {
    results[capability] = { outcome, detail };
  };
  const skip = (capability: Capability, why: string, t: { skip(message: string): void }) => {
    record(capability, "not supported", why);
    t.skip(why);
  };

  const checks: Partial<Record<Capability, (t: { skip(message: string): void }) => Promise<void>>> = {
    async snapshot() {
      const snap = await windowJson(500);
      assert.ok(snap.ok, JSON.stringify(snap.error));
      assert.equal(snap.data.tree_incomplete, undefined, JSON.stringify(snap.data.tree_incomplete));
      assert.ok(snap.data.elements.length >= 10, `${snap.data.elements.length} elements`);
      record("snapshot", "works", `${snap.data.counts.read} elements read (${snap.data.method})`);
    },
    async find() {
      const matches = await all(profile.find);
      assert.ok(matches.length >= 1);
      const { pick: _pick, ...selector } = profile.find;
      record("find", "works", `${matches.length} match(es) for ${JSON.stringify(selector)}`);
    },
    async read_text(t) {
      if ("skip" in profile.readText) return skip("read_text", profile.readText.skip, t);
      const target = await one(profile.readText.target);
      const read = await call("read_text", { ref: target.ref });
      assert.ok(read.ok, JSON.stringify(read.error));
      assert.ok(
        String(read.data.text).includes(profile.readText.contains),
        `read ${JSON.stringify(read.data.text)}`,
      );
      record("read_text", "works", `${read.data.length} characters`);
    },
    async invoke(t) {
      if ("skip" in profile.invoke) return skip("invoke", profile.invoke.skip, t);
      const target = await one(profile.invoke.target);
      const acted = await call("act", {
        ref: target.ref,
        action: { kind: "invoke" },
        intent: "Contract suite: invoke",
      });
      assert.ok(acted.ok, JSON.stringify(acted.error));
      const effect = profile.invoke.effect;
      // A window it opens is read back from the window list (and the app's window brought back).
      if ("opens" in effect) {
        assert.ok((await windowId(call, effect.opens)) > 0);
        await call("window", { action: "focus", window: { title: profile.title }, intent: "Contract suite" });
        record("invoke", "works", `${acted.data.route}; window "${effect.opens}" opened, read back`);
        return;
      }
      let seen = false;
      for (let i = 0; i < 20 && !seen; i++) {
        seen = (await all(effect)).length > 0;
        if (!seen) await sleep(100);
      }
      assert.ok(seen, `after invoke, ${JSON.stringify(effect)} holds`);
      if (profile.invoke.undo) {
        await call("act", {
          ref: target.ref,
          action: { kind: "invoke" },
          intent: "Contract suite: undo the invoke",
        });
        await sleep(300);
      }
      record("invoke", "works", `${acted.data.route}; the effect was re-read`);
    },
    async set_value(t) {
      if ("skip" in profile.text) return skip("set_value", profile.text.skip, t);
      const field = await one(profile.text);
      const set = await call("act", {
        ref: field.ref,
        action: { kind: "set_value", text: SET_TEXT },
        intent: "Contract suite: set a value",
      });
      // Where the accessibility route does not take, fill_form types the value instead, and counts
      // the field as set only once it reads back.
      const fillTakes = async () => {
        const filled = await call("fill_form", {
          fields: [{ ref: field.ref, value: FILLED_TEXT }],
          intent: "Contract suite: fill the field",
        });
        assert.ok(filled.ok, JSON.stringify(filled.error));
        assert.equal(filled.data.set, 1, filled.text);
        assert.equal(filled.data.fields[0].route, "typed");
        assert.equal((await call("element_info", { ref: field.ref })).data.value, FILLED_TEXT);
        return "; fill_form types it instead and it reads back";
      };
      if (profile.setValueRefused) {
        assert.equal(set.ok, false);
        assert.equal(set.error.code, "unsupported_pattern", JSON.stringify(set.error));
        record("set_value", "refused", `${profile.setValueRefused}${await fillTakes()}`);
        return;
      }
      assert.ok(set.ok, JSON.stringify(set.error));
      if (set.data.effect === "not_seen") {
        // deskhand must say so itself: the receipt names the silent no-op and the route that works.
        assert.notEqual(set.data.after.value, SET_TEXT);
        record(
          "set_value",
          "not supported",
          `${set.data.route} returns ${JSON.stringify(set.data.returned)} and changes nothing; the receipt says effect "not_seen" and points to type_text${await fillTakes()}`,
        );
        return;
      }
      assert.equal(set.data.effect, "seen");
      const reread = await call("element_info", { ref: field.ref });
      assert.equal(reread.data.value, SET_TEXT);
      record("set_value", "works", `${set.data.route}; read back`);
    },
    async toggle_select() {
      const toggle = profile.toggle;
      if (toggle.kind === "refused") {
        const target = await one(toggle.target);
        const refused = await call("act", { ref: target.ref, action: { kind: "toggle" } });
        assert.equal(refused.ok, false);
        assert.equal(refused.error.code, "unsupported_pattern", JSON.stringify(refused.error));
        // The route the refusal points to, proven: a real click flips it.
        const was = target.states?.includes("checked") ?? false;
        const clicked = await call("click", {
          ref: target.ref,
          intent: "Contract suite: toggle by clicking",
        });
        assert.equal(clicked.data?.status, "done", clicked.text ?? JSON.stringify(clicked.error));
        // Seen flipped within 10 s: a loaded machine's compositor and GTK 4 took over 3 s once.
        const now = await settled(
          async () =>
            ((await call("element_info", { ref: target.ref })).data.states?.includes("checked") ??
              false) as boolean,
          (checked) => checked !== was,
          10_000,
        );
        assert.notEqual(now, was, `the click flipped it: ${clicked.text}`);
        record("toggle_select", "refused", `${toggle.why} (proven: checked ${was} → ${now} by click)`);
        return;
      }
      if (toggle.kind === "select_option") {
        const target = await one(toggle.target);
        const selected = await call("act", {
          ref: target.ref,
          action: { kind: "select", option: toggle.option },
        });
        assert.ok(selected.ok, JSON.stringify(selected.error));
        let seen = false;
        for (let i = 0; i < 20 && !seen; i++) {
          seen = (await all(toggle.effect)).length > 0;
          if (!seen) await sleep(100);
        }
        assert.ok(seen, `${toggle.option} is selected`);
        record(
          "toggle_select",
          "works",
          `select ${JSON.stringify(toggle.option)}: ${selected.data.route}; re-read as selected`,
        );
        return;
      }
      if (toggle.kind === "select_cell") {
        const table = await one(toggle.target);
        const selected = await call("act", {
          ref: table.ref,
          action: { kind: "select", row: toggle.row, column: toggle.column },
        });
        assert.ok(selected.ok, JSON.stringify(selected.error));
        const selectedCell = await cell(toggle.cell);
        assert.ok(
          selectedCell.states?.includes("selected"),
          `${toggle.cell} is selected: ${selectedCell.states}`,
        );
        record("toggle_select", "works", `select a cell: ${selected.data.route}; re-read as selected`);
        return;
      }
      const target = await one(toggle.target);
      const was = target.states?.includes("checked") ?? false;
      const toggled = await call("act", {
        ref: target.ref,
        action: { kind: "toggle" },
        intent: "Contract suite: toggle",
      });
      assert.ok(toggled.ok, JSON.stringify(toggled.error));
      let now = was;
      for (let i = 0; i < 20 && now === was; i++) {
        await sleep(100);
        now = (await call("element_info", { ref: target.ref })).data.states?.includes("checked") ?? false;
      }
      assert.notEqual(now, was, "the checked state flipped");
      record("toggle_select", "works", `${toggled.data.route}; checked ${was} → ${now}`);
    },
    async typing(t) {
      if (profile.typingCell) {
        const { table, cell: cellQuery, row, column } = profile.typingCell;
        const cellText = async (r: number, c: number) => {
          const sheet = await one(table);
          const read = await call("read_table", { ref: sheet.ref, row_start: r, row_count: 1 });
          assert.ok(read.ok, JSON.stringify(read.error));
          return (read.data.cells as { values: string[] }[])[0]?.values[c];
        };
        // By ref: the click must make the cell current before a key is sent, or nothing is typed.
        // LibreOffice shows its menu bar when the pointer first enters its window, moving the sheet
        // 25 px: the cell is re-read once the pointer is there and clicked at its new centre.
        const target = await one(cellQuery);
        const byRef = await call("type_text", {
          ref: target.ref,
          text: TYPED_KEYS,
          intent: "Contract suite: type into a cell",
        });
        assert.equal(byRef.data?.status, "done", byRef.text ?? JSON.stringify(byRef.error));
        const moved = byRef.data.moved as { when: string } | undefined;
        const enter = await call("key", { key: "Enter", intent: "Contract suite: commit the cell" });
        assert.equal(enter.data?.status, "done");
        await sleep(300);
        assert.equal(
          await cellText(row, column),
          TYPED_KEYS,
          "the cell reads back through the Table interface",
        );
        record(
          "typing",
          "works",
          `type_text by ref clicks the cell, checks it is current, types; Enter; read back with read_table${moved ? ` (the cell moved when ${moved.when}: clicked at its new centre)` : ""}`,
        );
        return;
      }
      if ("skip" in profile.text) return skip("typing", profile.text.skip, t);
      if (profile.beforeTyping) {
        const tab = await one(profile.beforeTyping);
        const clicked = await call("click", { ref: tab.ref, intent: "Contract suite: show the field" });
        assert.equal(clicked.data?.status, "done", clicked.text ?? JSON.stringify(clicked.error));
        await sleep(300);
      }
      const field = await one(profile.text);
      const typed = await call("type_text", {
        ref: field.ref,
        text: TYPED_KEYS,
        clear: true,
        intent: "Contract suite: type",
      });
      assert.equal(typed.data?.status, "done", typed.text ?? JSON.stringify(typed.error));
      await sleep(200);
      const reread = await call("element_info", { ref: field.ref });
      assert.equal(reread.data.value, TYPED_KEYS);
      // Quick calls one after another add at the end, in order: none lands where a focus click put
      // the caret, or over a selection two quick clicks made (issue 36).
      const parts = [" a1", " b2", " c3"];
      for (const part of parts) {
        const more = await call("type_text", { ref: field.ref, text: part, intent: "Contract suite: add" });
        assert.equal(more.data?.result?.read_back, "exact", more.text ?? JSON.stringify(more.error));
      }
      const whole = await call("element_info", { ref: field.ref });
      assert.equal(whole.data.value, TYPED_KEYS + parts.join(""));
      record(
        "typing",
        "works",
        `${kde || gnome ? `${kde ? "KWin's fake input" : "GNOME Shell's virtual keyboard"} keys, ${typed.data.result.written_as_text ?? 0} outside its keymap written into the text` : `${wayland ? "virtual keyboard keys" : "XTEST keys"}, ${typed.data.result.remapped_keys} remapped`}; read back; three quick calls more add at the end`,
      );
    },
    async screenshot() {
      const shot = await callTool(context, toolNamed("screenshot"), {
        of: { kind: "window", window: { title: profile.title } },
      });
      assert.ok(shot.ok, shot.ok ? "" : JSON.stringify(shot.error.toJSON()));
      const image = decodePng(shot.output.image!.data);
      assert.ok(image.width > 100 && image.height > 100);
      assert.ok(distinctColours(image) > 8, "the window is drawn");
      record("screenshot", "works", `${image.width}×${image.height}`);
    },
  };

  Object.assign(checks, {
    async table_cells(t: { skip(message: string): void }) {
      if (!profile.table)
        return skip(
          "table_cells",
          "no table in this app; GTK 3's icon + text cells: test/desktop/tables-forms.test.ts",
          t,
        );
      const table = await one(profile.table);
      const read = await call("read_table", { ref: table.ref, row_count: 3, max_cells: 60 });
      assert.ok(read.ok, JSON.stringify(read.error));
      assert.ok(!JSON.stringify(read.data).includes("\uFFFC"), "no U+FFFC");
      const fromChildren = (read.data.from_children ?? []) as { column: number }[];
      const headers = (read.data.headers as (string | null)[]).filter(Boolean).length;
      const source =
        fromChildren.length > 0
          ? `cells of column ${fromChildren.map((c) => c.column).join(", ")} from the elements inside them`
          : "each cell's own text or name";
      const headerSource =
        (read.data.headers_from_children ?? []).length > 0 ? " (some from their buttons)" : "";
      record(
        "table_cells",
        "works",
        `${read.data.rows} × ${read.data.columns}; ${source}; ${headers} column headers${headerSource}`,
      );
    },
    async field_labels() {
      const snap = await windowJson(2000);
      assert.ok(snap.ok, JSON.stringify(snap.error));
      const FIELDS = new Set(["text", "entry", "password text", "combo box", "spin button", "slider"]);
      const fields = (
        snap.data.elements as { role: string; name: string | null; inferredLabel?: string }[]
      ).filter((e) => FIELDS.has(e.role));
      const named = fields.filter((f) => f.name).length;
      const inferred = fields.filter((f) => !f.name && f.inferredLabel).length;
      record(
        "field_labels",
        "works",
        `${fields.length} fields: ${named} named by the app, ${inferred} by the label beside them (inferred), ${fields.length - named - inferred} with neither`,
      );
    },
  });

  for (const capability of CAPABILITIES) {
    it(capability, async (t) => {
      try {
        await checks[capability]!(t);
      } catch (error) {
        results[capability] = {
          outcome: "not supported",
          detail: `FAILED: ${(error as Error).message.split("\n")[0]}`,
        };
        throw error;
      }
    });
  }
});
