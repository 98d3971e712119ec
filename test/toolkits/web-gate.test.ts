// The gate on a web page, in Firefox and Chromium: a button whose accessible name ("Show details")
// differs from the text it shows ("Buy now") is judged by both, the strictest winning, so no route
// presses it without a person; the page's status line shows nothing was bought.
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import type { ToolContext } from "../../src/tools/context.js";
import { gatedContext, toolCaller } from "../desktop/helpers.js";
import { PROFILES, webStatus } from "./profiles.js";

const toolkit = process.env.DESKHAND_TOOLKIT ?? "";
const web = toolkit === "firefox" || toolkit === "chromium";

describe("web pages the gate reads: a button named one thing and showing another; a listbox that runs its choice", {
  skip: web ? false : "web engines only",
}, () => {
  const profile = PROFILES[toolkit]!;
  const target = { kind: "title", glob: profile?.title ?? "" };
  const dir = mkdtempSync(join(tmpdir(), "deskhand-web-gate-"));
  let context: ToolContext;
  let call: ReturnType<typeof toolCaller>;
  before(async () => {
    context = gatedContext(dir);
    call = toolCaller(context);
    await sleep(profile.settleMs ?? 0);
  });
  after(() => context.close());

  const status = () => webStatus(call, target);

  it("is judged by the text it shows: act and click are refused, and nothing is bought", async () => {
    const found = await call("find", { target, role: "push button", name: "Show details" });
    assert.equal(found.data?.total, 1, found.text);
    const ref = found.data.matches[0].ref;
    const acted = await call("act", { ref, action: { kind: "invoke" }, intent: "Show the details" });
    assert.equal(acted.error?.code, "refused", JSON.stringify(acted));
    assert.match(acted.error.message, /Buy now/, "the refusal names what the button shows");
    const clicked = await call("click", { ref, intent: "Show the details" });
    assert.equal(clicked.data?.status, "refused", clicked.text);
    await sleep(300);
    assert.doesNotMatch(await status(), /Bought/);
  });

  it("a button the page names after it was seen, a line shown above it, is the same element: acted on", async () => {
    const buttons = await call("find", { target, role: "push button", limit: 50 });
    const unnamed = buttons.data.matches.filter((m: { name: string | null }) => !m.name);
    const nameIt = buttons.data.matches.find((m: { name: string | null }) => m.name === "Name it");
    assert.ok(nameIt, buttons.text);
    // The unnamed one that comes right after "Name it" in the page.
    const later = unnamed.find(
      (m: { bounds: { y: number } | null }) => (m.bounds?.y ?? -1) >= nameIt.bounds.y,
    );
    assert.ok(later, buttons.text);
    const named = await call("act", {
      ref: nameIt.ref,
      action: { kind: "invoke" },
      intent: "Name the button",
    });
    assert.equal(named.error, undefined, JSON.stringify(named));
    const shown = await call("find", { target, role: "push button", name: "Show more", timeout_ms: 5000 });
    assert.equal(shown.data.total, 1, shown.text);
    // A line shown above it meanwhile moved it among its siblings: still the same button.
    const info = await call("element_info", { ref: later.ref });
    assert.match(info.text ?? "", /index: was \d+, now \d+/, info.text);
    const acted = await call("act", { ref: later.ref, action: { kind: "invoke" }, intent: "Show more" });
    assert.equal(acted.error, undefined, JSON.stringify(acted.error));
    assert.equal(acted.data.after?.name, "Show more");
    for (const deadline = Date.now() + 3000; Date.now() < deadline && !/More shown/.test(await status()); )
      await sleep(100);
    assert.match(await status(), /More shown/);
  });

  it("act select is judged as a press of the option: Delete account is refused, Plain is chosen", async () => {
    const found = await call("find", { target, role: "list box", name: "Actions" });
    assert.equal(found.data?.total, 1, found.text);
    const ref = found.data.matches[0].ref;
    const intent = "Choose an action";
    const refused = await call("act", { ref, action: { kind: "select", option: "Delete account" }, intent });
    assert.equal(refused.error?.code, "refused", JSON.stringify(refused));
    assert.match(refused.error.message, /Delete account/);
    await sleep(300);
    assert.doesNotMatch(await status(), /Account deleted/);
    const chosen = await call("act", { ref, action: { kind: "select", option: "Plain" }, intent });
    assert.equal(chosen.error, undefined, JSON.stringify(chosen.error));
    // The page got its change event from the option chosen (Chromium's page reads its value empty then).
    for (const deadline = Date.now() + 3000; Date.now() < deadline && !/Chose/.test(await status()); )
      await sleep(100);
    assert.match(await status(), toolkit === "firefox" ? /Chose Plain/ : /Chose/);
    assert.doesNotMatch(await status(), /Account deleted/);
  });

  it("a chord into the page, whose scripts bind keys no tree shows, asks; bold and copying pass", async () => {
    const notes = await call("find", { target, name: "Notes", states: ["editable"] });
    assert.equal(notes.data?.total, 1, notes.text);
    const ref = notes.data.matches[0].ref;
    const refused = await call("key", { ref, key: "ctrl+shift+F7", intent: "Press the shortcut" });
    assert.equal(refused.data?.status, "refused", refused.text);
    assert.match(refused.data.reason, /web page's own key handlers/);
    for (const key of ["ctrl+b", "ctrl+c"]) {
      const passed = await call("key", { ref, key, intent: "Format or copy the notes" });
      assert.equal(passed.data?.status, "done", `${key}: ${passed.text}`);
    }
    await sleep(300);
    assert.doesNotMatch(await status(), /Ordered by key/, "the page's shortcut did not run");
  });

  it("Enter in a <textarea> of a form is judged by the form's buttons: refused, and nothing typed", async () => {
    const notes = await call("find", { target, name: "Notes", states: ["editable"] });
    const ref = notes.data.matches[0].ref;
    const read = async () => (await call("read_text", { ref })).data?.text as string;
    const was = await read();
    const typed = await call("type_text", { ref, text: "Send it\n", intent: "Add a line" });
    assert.equal(typed.data?.status, "refused", typed.text);
    assert.match(typed.data.reason, /push button "(Show details|Buy now)"/, "judged by a button of the form");
    assert.equal(await read(), was, "nothing was typed");
    assert.doesNotMatch(await status(), /Bought/);
  });
});
