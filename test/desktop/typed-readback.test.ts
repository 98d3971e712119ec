// What typing claims is what the app took (issue 55): typed text that reads back whole is "done";
// typed characters the field dropped are an error naming them; where nothing can read the text back
// (a drawing area with no text, a window with no accessible tree, as a terminal's), the reply says
// "typed, not verified" and never "done". Each checked against what the app itself holds.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import type { ToolContext } from "../../src/tools/context.js";
import { findWaiting, gatedContext, type StartedApp, startApp, toolCaller, within } from "./helpers.js";

const TITLE = "Deskhand typed";
const TK_TITLE = "Deskhand Tk keys";

describe("typed text read back from the app", () => {
  const dir = mkdtempSync(join(tmpdir(), "deskhand-typed-"));
  const tkFile = join(dir, "tk-keys.txt");
  let gtk: StartedApp;
  let tk: StartedApp;
  let context: ToolContext;
  let call: ReturnType<typeof toolCaller>;
  /** What the GTK app says each of its fields holds: "Full=…|Short=…|Canvas=…|Secret=N|Sum=…". */
  const holds = async () => {
    const status = (await findWaiting(call, TITLE, { role: "label", name: "Status" }, 5000)) as {
      ref: string;
    };
    return String((await call("element_info", { ref: status.ref })).data?.description);
  };
  const ref = async (name: string) =>
    ((await findWaiting(call, TITLE, { name }, 20_000)) as { ref: string }).ref;
  /** What the Tk window wrote, once it has written `length` characters (or 10 s passed). */
  const tkWrote = async (length: number) => {
    const read = () => (existsSync(tkFile) ? readFileSync(tkFile, "utf8") : "");
    for (const deadline = Date.now() + within(10_000); read().length < length && Date.now() < deadline; )
      await sleep(100);
    return read();
  };

  before(() => {
    context = gatedContext(dir);
    call = toolCaller(context);
    gtk = startApp(["/usr/bin/python3", "test/fixtures/dialogs/gtk3_typed.py", TITLE]);
    tk = startApp(["wish", "test/fixtures/dialogs/tk_keys.tcl", tkFile, TK_TITLE]);
  });
  after(async () => {
    gtk.kill();
    tk.kill();
    await context.close();
  });

  it("an entry that holds every character typed: done, read back exactly", async () => {
    const typed = await call("type_text", { ref: await ref("Full"), text: "hello", intent: "Fill a field" });
    assert.equal(typed.data?.status, "done", JSON.stringify(typed));
    assert.match(typed.text ?? "", /^done: typed 5 character\(s\).*reads back exactly/, typed.text);
    assert.match(await holds(), /^Full=hello\|/);
  });

  it("an entry that drops the keys past its tenth character: an error naming the five lost", async () => {
    const typed = await call("type_text", {
      ref: await ref("Short"),
      text: "abcdefghijklmno",
      intent: "Fill a short field",
    });
    assert.equal(typed.data?.status, "error", JSON.stringify(typed));
    assert.match(
      typed.text ?? "",
      /^error: typed 15 character\(s\).*; but 5 of 15 typed character\(s\) did not arrive: "klmno" \(typed at 11–15\)$/m,
      typed.text,
    );
    assert.doesNotMatch(typed.text ?? "", /^done|exact/m, typed.text);
    assert.deepEqual(typed.data.result.lost, { characters: 5, text: "klmno", typed_at: "11–15" });
    assert.match(await holds(), /\|Short=abcdefghij\|/);
    // The journal says the attempt failed, with the count and none of the text.
    const lines = readFileSync(join(dir, "audit.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const end = lines.findLast((l) => l.tool === "type_text" && l.decision !== undefined);
    assert.equal(end?.decision, "error", JSON.stringify(end));
    assert.match(String(end.reason), /5 of 15 typed character\(s\) did not arrive/);
    assert.doesNotMatch(JSON.stringify(end), /klmno/);
  });

  it("an entry that writes typed characters its own way (a calculator's × for *): done, and what it wrote said", async () => {
    const typed = await call("type_text", { ref: await ref("Sum"), text: "12*8-3", intent: "Compute" });
    assert.equal(typed.data?.status, "done", JSON.stringify(typed));
    assert.match(
      typed.text ?? "",
      /^done: typed 6 character\(s\).*reads back as typed, some characters written its own way: the app wrote "×" for "\*", "−" for "-"/,
      typed.text,
    );
    assert.doesNotMatch(typed.text ?? "", /did not arrive/, typed.text);
    assert.match(await holds(), /\|Sum=12×8−3$/);
  });

  it("a password entry: its length read back, never its text", async () => {
    const typed = await call("type_text", {
      ref: await ref("Secret"),
      text: "pw-1234",
      intent: "Type the password",
    });
    assert.equal(typed.data?.status, "done", JSON.stringify(typed));
    assert.equal(typed.data.result.read_back, "same length", typed.text);
    assert.match(typed.text ?? "", /holds as many characters as it should/, typed.text);
    assert.doesNotMatch(typed.text ?? "", /pw-1234/);
    assert.match(await holds(), /\|Secret=7\|/);
  });

  it("a drawing area with no text: typed, not verified, and the app has the keys", async () => {
    const typed = await call("type_text", {
      ref: await ref("Canvas"),
      text: "xyz",
      intent: "Type into the canvas",
    });
    assert.equal(typed.data?.status, "unverified", JSON.stringify(typed));
    assert.equal(typed.ok, true);
    assert.match(
      typed.text ?? "",
      /^typed, not verified: 3 character\(s\) sent as keys on drawing area "Canvas"; the drawing area has no text to read back; its pixels did not change$/m,
      typed.text,
    );
    assert.doesNotMatch(typed.text ?? "", /^done|exact/m, typed.text);
    assert.match(await holds(), /\|Canvas=xyz\|/);
  });

  it("a drawing area that draws what it took: read back from its pixels, done", async () => {
    const typed = await call("type_text", {
      ref: await ref("Sketch"),
      text: "quartz",
      intent: "Draw a word",
    });
    assert.equal(typed.data?.status, "done", JSON.stringify(typed));
    assert.match(
      typed.text ?? "",
      /^done: typed 6 character\(s\) on drawing area "Sketch"; its pixels show it now, read by OCR/m,
      typed.text,
    );
    assert.match(await holds(), /\|Sketch=quartz\|/);
    // Typed again, the word it already showed must show once more: twice now, once before.
    const again = await call("type_text", {
      ref: await ref("Sketch"),
      text: " quartz",
      intent: "Draw it again",
    });
    assert.equal(again.data?.status, "done", JSON.stringify(again));
    assert.match(await holds(), /\|Sketch=quartz quartz\|/);
  });

  it("a window with no accessible tree (Tk, as a terminal): typed, not verified, and the app has the keys", async () => {
    await findWaiting(call, TITLE, { name: "Status" }, 20_000);
    for (const deadline = Date.now() + within(20_000); ; await sleep(200)) {
      const listed = await call("windows", {});
      if (JSON.stringify(listed.data).includes(TK_TITLE)) break;
      assert.ok(Date.now() < deadline, `no window titled ${TK_TITLE}: ${listed.text}`);
    }
    const typed = await call("type_text", {
      window: { title: TK_TITLE },
      text: "plain",
      intent: "Type into Tk",
    });
    assert.equal(typed.data?.status, "unverified", JSON.stringify(typed));
    assert.match(typed.text ?? "", /^typed, not verified: 5 character\(s\) sent as keys; /m, typed.text);
    assert.doesNotMatch(typed.text ?? "", /^done|exact/m, typed.text);
    assert.equal(await tkWrote(5), "plain");
  });
});
