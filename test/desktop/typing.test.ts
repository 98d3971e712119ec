// type_text keeps what a field holds (issue 36): quick calls one after another add up in order, the
// text goes in at the end whatever the caret and selection were, two quick clicks stay two clicks, and
// a clear is proven empty before typing. Every field is re-read through AT-SPI.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { ToolContext } from "../../src/tools/context.js";
import { gatedContext, TITLES, toolCaller } from "./helpers.js";
import { call as httpCall, httpClient, startHttpServer } from "./http-load.js";

interface Match {
  ref: string;
  role: string;
  name: string | null;
  value?: string;
  states: string[] | null;
  bounds: { x: number; y: number; width: number; height: number } | null;
}

const intent = "Type into a field";

describe("typing keeps what is there", () => {
  const dir = mkdtempSync(join(tmpdir(), "deskhand-typing-"));
  let context: ToolContext;
  let call: ReturnType<typeof toolCaller>;
  before(() => {
    context = gatedContext(dir);
    call = toolCaller(context);
  });
  after(async () => {
    await context.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const fields = async (title: string, query: Record<string, unknown>): Promise<Match[]> => {
    const found = await call("find", { target: { kind: "title", glob: title }, limit: 100, ...query });
    assert.ok(found.ok, JSON.stringify(found.error));
    return found.data.matches;
  };
  /** The field's whole text and caret, straight from its Text interface. */
  const textOf = async (ref: string) => {
    const backend = await context.backend();
    const handle = context.refs.lookup(ref).handle;
    const read = await backend.readText(handle, 0, 10_000);
    assert.ok(read, `${ref} has a Text interface`);
    return read.text;
  };
  const caretOf = async (ref: string) => {
    const caret = await (await context.backend()).readCaret(context.refs.lookup(ref).handle);
    assert.ok(caret, `${ref} has a Text interface`);
    return caret;
  };
  const setText = async (ref: string, text: string) => {
    const set = await call("act", { ref, action: { kind: "set_value", text } });
    assert.ok(set.ok, JSON.stringify(set.error));
    assert.equal(await textOf(ref), text);
  };

  /** An empty GTK 3 entry: one found so, else one emptied (a test before may have left text in each). */
  const gtk3Entry = async () => {
    const editable = ["editable", "showing", "enabled"];
    const entries = await fields(TITLES.gtk3, { role: "text", states: editable });
    const entry = entries.find((e) => e.value === "") ?? entries[0];
    assert.ok(entry, `a GTK3 entry: ${JSON.stringify(entries.map((e) => e.value))}`);
    if (entry.value !== "") {
      // Said, so that a run shows which test left text behind.
      console.log(`# no empty GTK3 entry: ${JSON.stringify(entries.map((e) => e.value))}`);
      await setText(entry.ref, "");
    }
    return { ...entry, value: "" };
  };
  const gtk4Entry = async () => {
    const entries = await fields(TITLES.gtk4, { role: "text", states: ["editable", "sensitive"] });
    const entry = entries.find((e) => e.value === "entry" && (e.bounds?.width ?? 0) > 0);
    assert.ok(entry, `an enabled GTK4 entry on screen: ${JSON.stringify(entries.map((e) => e.value))}`);
    return entry;
  };
  const swingName = async () => (await fields(TITLES.swing, { role: "text", name: "Name" }))[0]!;

  const toolkits: [string, () => Promise<Match>][] = [
    ["GTK 3", gtk3Entry],
    ["GTK 4", gtk4Entry],
    ["Swing", swingName],
  ];
  for (const [toolkit, pick] of toolkits) {
    it(`${toolkit}: six quick type_text calls of 3 characters end with exactly the old text and all six, in order`, async () => {
      const field = await pick();
      const old = await textOf(field.ref);
      try {
        const parts = ["w0.", "w1.", "w2.", "w3.", "w4.", "w5."];
        for (const [i, text] of parts.entries()) {
          const typed = await call("type_text", { ref: field.ref, text, intent });
          assert.equal(typed.data?.status, "done", typed.text ?? JSON.stringify(typed.error));
          assert.equal(typed.data.result.read_back, "exact", typed.text);
          assert.equal(await textOf(field.ref), old + parts.slice(0, i + 1).join(""), `after call ${i}`);
        }
      } finally {
        await setText(field.ref, old);
      }
    });
  }

  it("GTK 3: text goes in at the end though the caret was put at the start, and a selection is kept", async () => {
    const entry = await gtk3Entry();
    try {
      await setText(entry.ref, "keep this");
      // The test's own caret, at the start: through the accessibility interface, as another tool would.
      const reader = await context.backend();
      const handle = context.refs.lookup(entry.ref).handle;
      const focus = await call("act", { ref: entry.ref, action: { kind: "focus" } });
      assert.ok(focus.ok, JSON.stringify(focus.error));
      const home = await call("key", { key: "Home", ref: entry.ref, intent: "Caret to the start" });
      assert.equal(home.data?.status, "done", home.text);
      assert.equal((await caretOf(entry.ref)).caret, 0, "the caret is at the start");
      const first = await call("type_text", { ref: entry.ref, text: " one", intent });
      assert.equal(first.data.result.read_back, "exact", first.text);
      assert.equal(await textOf(entry.ref), "keep this one");

      // A selection of the whole text, made with keys as a person would: typing would replace it.
      await call("key", { key: "Home", ref: entry.ref, intent: "Caret to the start" });
      await call("key", { key: "shift+End", ref: entry.ref, intent: "Select it all" });
      const selected = await caretOf(entry.ref);
      assert.deepEqual(selected.selections, [{ start: 0, end: 13 }], "the whole text is selected");
      const second = await call("type_text", { ref: entry.ref, text: " two", intent });
      assert.equal(second.data.result.read_back, "exact", second.text);
      assert.equal(await textOf(entry.ref), "keep this one two");
      assert.equal(second.data.result.caret, "Text.SetCaretOffset", second.text);
      const now = await reader.readCaret(handle);
      assert.deepEqual(now?.selections, [], "nothing is selected after typing");
    } finally {
      await setText(entry.ref, "");
    }
  });

  it("two quick single clicks at one point stay two clicks: nothing is selected", async () => {
    const entry = await gtk3Entry();
    try {
      await setText(entry.ref, "one two three");
      for (let i = 0; i < 3; i++) {
        const clicked = await call("click", { ref: entry.ref, intent: "Put the caret in the entry" });
        assert.equal(clicked.data?.status, "done", clicked.text);
      }
      const caret = await caretOf(entry.ref);
      assert.deepEqual(caret.selections, [], "no word or line was selected");
      assert.equal(await textOf(entry.ref), "one two three");
    } finally {
      await setText(entry.ref, "");
    }
  });

  it("a clear is proven empty before typing, also when the new text is the old text", async () => {
    const field = await swingName();
    const old = await textOf(field.ref);
    try {
      for (let i = 0; i < 3; i++) {
        const typed = await call("type_text", { ref: field.ref, text: "same ŧ", clear: true, intent });
        assert.equal(typed.data?.status, "done", typed.text);
        assert.equal(typed.data.result.read_back, "exact", typed.text);
        assert.equal(await textOf(field.ref), "same ŧ");
      }
    } finally {
      await setText(field.ref, old);
    }
  });

  it("two HTTP clients typing into two fields of one window at once: each ends with exactly its parts, in order", async () => {
    const token = "typing-test-token-0123456789";
    const server = await startHttpServer({
      ...process.env,
      DESKHAND_TOKEN: token,
      DESKHAND_AUDIT: join(dir, "http-audit.jsonl"),
      DESKHAND_CONFIG: join(dir, "none.json"),
    });
    const target = { kind: "title", glob: TITLES.gtk3 };
    const editable = ["editable", "showing", "enabled"];
    const entries = await fields(TITLES.gtk3, { role: "text", states: editable });
    assert.ok(entries.length >= 2, `two GTK 3 entries: ${entries.length}`);
    const olds = [await textOf(entries[0]!.ref), await textOf(entries[1]!.ref)];
    const parts = (who: string) => ["-a1", "-b2", "-c3", "-d4", "-e5", "-f6"].map((p) => who + p);
    try {
      // Each client finds the entries in its own session (the same order) and types into its own one.
      const typist = async (index: number, who: string) => {
        const client = await httpClient(server.url, token, { name: who });
        try {
          const found = await httpCall(client, "find", {
            target,
            role: "text",
            states: editable,
            limit: 100,
          });
          const matches: Match[] = found.structuredContent?.matches ?? [];
          const ref = matches[index]?.ref;
          assert.ok(ref, `${who}: ${found.content[0]?.text}`);
          for (const text of parts(who)) {
            const typed = await httpCall(client, "type_text", { ref, text, intent });
            assert.equal(typed.structuredContent?.status, "done", typed.content[0]?.text);
          }
        } finally {
          await client.close();
        }
      };
      await Promise.all([typist(0, "g"), typist(1, "h")]);
      assert.equal(await textOf(entries[0]!.ref), olds[0] + parts("g").join(""));
      assert.equal(await textOf(entries[1]!.ref), olds[1] + parts("h").join(""));
    } finally {
      server.child.kill();
      await server.exited;
      await setText(entries[0]!.ref, olds[0]!);
      await setText(entries[1]!.ref, olds[1]!);
    }
  });

  it("a lone surrogate is refused before anything is sent, naming where it is", async () => {
    const entry = await gtk3Entry();
    const typed = await call("type_text", { ref: entry.ref, text: "ab\uD83Dc", intent });
    assert.equal(typed.ok, false);
    assert.equal(typed.error.code, "invalid_params", JSON.stringify(typed.error));
    assert.match(JSON.stringify(typed.error), /lone UTF-16 surrogate \(\\\\uD83D\) at index 2/);
    assert.equal(await textOf(entry.ref), "", "nothing was typed");
  });
});
