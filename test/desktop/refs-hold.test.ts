// Refs that hold (issue 35): a button that moved because its window's layout shifted is pressed where
// it is now, and the reply says it moved; one rebuilt under a new accessible object is found again
// at its place; a renamed or removed one is refused with nothing pressed. click, type_text and key take
// find's arguments, and an ambiguous find is refused before any input. On a real GTK 3 window
// (test/fixtures/dialogs/gtk3_growing.py) whose log file records every press.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createContext, type ToolContext } from "../../src/tools/context.js";
import { findWaiting, type StartedApp, startApp, toolCaller } from "./helpers.js";

const TITLE = "Refs Hold";
const target = { kind: "title", glob: TITLE };
const NOTE = { target, role: "text", name: "Note" };

describe("refs that hold while a window's layout shifts", () => {
  let app: StartedApp;
  let context: ToolContext;
  let call: ReturnType<typeof toolCaller>;
  let log: string;
  const presses = () => readFileSync(log, "utf8").split("\n").filter(Boolean);

  before(async () => {
    log = join(mkdtempSync(join(tmpdir(), "deskhand-refs-")), "presses.log");
    writeFileSync(log, "");
    context = createContext({ refLifetime: "while-verified" });
    call = toolCaller(context);
    app = startApp(["/usr/bin/python3", "test/fixtures/dialogs/gtk3_growing.py", TITLE, log]);
    await findWaiting(call, TITLE, { role: "push button", name: "Bell" }, 30_000);
  });
  after(async () => {
    app.kill();
    await context.close();
  });

  /** Bell's ref, as observe hands it out. */
  const pingRef = async () => {
    const seen = await call("observe", { target });
    const line = (seen.text ?? "").split("\n").find((l: string) => l.includes('push button "Bell"'));
    assert.ok(line, seen.text);
    return /\[ref=(s\d+:e\d+[a-z]{2})\]/.exec(line)![1]!;
  };

  /** Types into Note, found by find, and checks the field shows it; no view, so the agent has not seen the button move. */
  const note = async (text: string) => {
    const typed = await call("type_text", {
      find: NOTE,
      text,
      clear: true,
      intent: "Type a note",
      view: false,
    });
    assert.equal(typed.data?.status, "done", typed.text ?? JSON.stringify(typed.error));
    assert.equal(typed.data.result.read_back, "exact", typed.text);
  };

  it("a button moved by typing is clicked where it is now, by its old ref, and the reply says it moved", async () => {
    const ref = await pingRef();
    await note("a longer note");
    const clicked = await call("click", { ref, intent: "Press Bell after the row grew" });
    assert.equal(clicked.data?.status, "done", clicked.text ?? JSON.stringify(clicked.error));
    assert.match(clicked.text ?? "", /\nmoved: from \d+,\d+ \d+x\d+ to \d+,\d+ \d+x\d+/);
    const { from, to } = clicked.data.since_seen.moved;
    assert.ok(to.x > from.x, `Bell moved right: ${JSON.stringify(clicked.data.since_seen)}`);
    assert.deepEqual(presses(), ["Bell"], "the app ran Bell's handler");
    const info = await call("element_info", { ref });
    assert.equal(info.data.verified, true, info.text);
    assert.match(info.text ?? "", /verified: the same element, moved since the snapshot/);
  });

  it("click {find} presses the one element found; an ambiguous find is refused before any input", async () => {
    const ambiguous = await call("click", {
      find: { target, role: "push button", name: "Twin" },
      intent: "Press a twin",
    });
    assert.equal(ambiguous.ok, false);
    assert.equal(ambiguous.error.code, "ambiguous");
    assert.match(
      ambiguous.error.message,
      /nth 0: .*"Twin" at \(\d+, \d+\) in panel "Left" described "The first twin"\n {2}nth 1: .*"Twin" at \(\d+, \d+\) in panel "Right" described "The second twin"/,
    );
    assert.deepEqual(presses(), ["Bell"], "nothing was pressed");
    // Told apart where they are listed: each twin's line says where it is, and the places differ.
    const twins = await call("find", { target, role: "push button", name: "Twin" });
    const places = [...(twins.text ?? "").matchAll(/"Twin" at (\(\d+, \d+\))/g)].map((m) => m[1]);
    assert.equal(places.length, 2, twins.text);
    assert.notEqual(places[0], places[1]);
    // And by the frame each is in, and its tooltip: what a person reads beside the place.
    assert.deepEqual(
      twins.data.matches.map((m: { group: string; description: string }) => [m.group, m.description]),
      [
        ['panel "Left"', "The first twin"],
        ['panel "Right"', "The second twin"],
      ],
    );
    const observed = await call("observe", { target });
    assert.match(
      observed.text ?? "",
      /push button "Twin" at \(\d+, \d+\) in panel "Left" described "The first twin" \[ref=/,
      observed.text,
    );
    assert.match(observed.text ?? "", /push button "Twin" at \(\d+, \d+\) in panel "Right"/, observed.text);
    assert.doesNotMatch(observed.text ?? "", /"Bell" at/, "what reads alike with nothing is not told apart");
    const second = await call("click", {
      find: { target, role: "push button", name: "Twin", nth: 1 },
      intent: "Press the second twin",
    });
    assert.equal(second.data?.status, "done", second.text ?? JSON.stringify(second.error));
    const ping = await call("click", { find: { target, role: "push button", name: "Bell" }, intent: "Bell" });
    assert.equal(ping.data?.status, "done", ping.text ?? JSON.stringify(ping.error));
    assert.deepEqual(presses(), ["Bell", "Twin 2", "Bell"]);
    const key = await call("key", { find: NOTE, key: "BackSpace", intent: "Take the note's last letter" });
    assert.equal(key.data?.status, "done", key.text ?? JSON.stringify(key.error));
    const now = await call("find", NOTE);
    assert.equal(now.data.matches[0].value, "a longer not", now.text);
  });

  it("a button rebuilt under a new accessible object at its place is re-found, and said so", async () => {
    const ref = await pingRef();
    const before = context.refs.lookup(ref).handle;
    await note("rebuild");
    const clicked = await call("click", { ref, intent: "Press the rebuilt Bell" });
    assert.equal(clicked.data?.status, "done", clicked.text ?? JSON.stringify(clicked.error));
    assert.match(clicked.text ?? "", /\nre-found: /);
    assert.equal(clicked.data.since_seen.refound.was, before);
    assert.notEqual(context.refs.lookup(ref).handle, before, "the ref names the new object now");
    assert.deepEqual(presses().slice(3), ["Bell"]);
  });

  it("a renamed button, and a removed one, are refused by their old refs, with nothing pressed", async () => {
    const ref = await pingRef();
    await note("rename");
    const renamed = await call("click", { ref, intent: "Press Bell, renamed since" });
    assert.equal(renamed.ok, false, renamed.text);
    assert.equal(renamed.error.code, "stale_element");
    assert.match(renamed.error.message, /name was "Bell", now "Gong"/);
    const pong = await pingRefNamed("Gong");
    await note("remove");
    for (const old of [ref, pong]) {
      const gone = await call("click", { ref: old, intent: "Press a removed button" });
      assert.equal(gone.ok, false, gone.text);
      assert.equal(gone.error.code, "stale_element", JSON.stringify(gone.error));
    }
    const typedInto = await call("type_text", { ref: pong, text: "x", intent: "Type into a removed button" });
    assert.equal(typedInto.error?.code, "stale_element", JSON.stringify(typedInto));
    assert.deepEqual(presses().slice(4), [], "nothing was pressed");
  });

  it("typed text whose Tab moves the focus onto a button says the space after it pressed that button", async () => {
    const typed = await call("type_text", {
      find: NOTE,
      text: "ok\t ",
      clear: true,
      intent: "Type, then press",
    });
    assert.equal(typed.data?.status, "done", typed.text ?? JSON.stringify(typed.error));
    for (let i = 0; i < 20 && !presses().includes("Twin 1"); i++)
      await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(presses().slice(4), ["Twin 1"], "the space pressed the first Twin");
    assert.match(
      typed.text ?? "",
      /its keys also pressed what had the focus \(space: push button "Twin"\)/,
      typed.text,
    );
  });

  /** The ref of the push button named `name`, by find. */
  async function pingRefNamed(name: string): Promise<string> {
    const found = await call("find", { target, role: "push button", name });
    assert.equal(found.data?.total, 1, found.text);
    return found.data.matches[0].ref;
  }
});
