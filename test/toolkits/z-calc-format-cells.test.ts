// LibreOffice Calc's Format Cells dialog, judged and used with no person to ask. Named to run last in
// the Calc sandbox (files run in name order): once Format Cells has come and gone, LibreOffice 7.4's
// accessibility bridge keeps freed objects in its cache, and any client's Cache.GetItems (pyatspi's,
// in fidelity.test.ts) aborts the app. deskhand never asks LibreOffice for it (`cacheIsSafe`).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { suiteCaller, windowId } from "../desktop/helpers.js";
import { PROFILES } from "./profiles.js";

const toolkit = process.env.DESKHAND_TOOLKIT ?? "";
const profile = PROFILES.calc!;

describe("LibreOffice Calc's Format Cells", {
  skip: toolkit === "calc" ? false : "LibreOffice only: runs in the Calc sandbox",
}, () => {
  const call = suiteCaller();
  const key = (chord: string, intent: string) =>
    call("key", { key: chord, intent, window: { title: profile.title } });

  it("Format Cells' OK applies two decimal places with no person: it formats, as its title says", async () => {
    // In E10, out of the contract suite's way: LibreOffice keeps the keyboard in no part of the sheet
    // once the dialog closed, and its Undo did not take there.
    const target = { kind: "title", glob: profile.title };
    // The Name Box, found by the reference it holds once the cursor is back at A1.
    const goTo = async (place: string) => {
      assert.equal((await key("ctrl+Home", "Back to A1")).data?.status, "done");
      const [box] = (await call("find", { target, role: "text", value_contains: "A1" })).data.matches;
      const went = await call("type_text", {
        ref: box.ref,
        text: `${place}\n`,
        clear: true,
        intent: "Go there",
      });
      assert.equal(went.data?.status, "done", went.text ?? JSON.stringify(went.error));
    };
    const typeNumber = async () => {
      const number = await call("type_text", {
        text: "3.5\n",
        intent: "A number",
        window: { title: profile.title },
      });
      assert.equal(number.data?.status, "done", number.text ?? JSON.stringify(number.error));
      return number.text ?? "";
    };
    await goTo("A10");
    await typeNumber();
    await goTo("E10");
    // Read back where it went, not where the same value stands further left.
    assert.match(await typeNumber(), /which read as typed: E10 3\.5$/m);
    assert.equal((await key("Up", "Back to E10")).data?.status, "done");
    // LibreOffice gives the tree a cell's typed value ("3.5"), not what it shows: its status bar says
    // the selected cell's sum as shown.
    const sum = async () =>
      (await call("find", { target, role: "label", text: "Sum:" })).data.matches[0]?.value as string;
    assert.match(await sum(), /Sum: 3\.5$/);
    const opened = await call("act", {
      find: { target, role: "menu item", name: "Cells..." },
      action: { kind: "invoke" },
      intent: "Open Format Cells",
    });
    assert.ok(opened.ok, JSON.stringify(opened.error));
    const dialog = { kind: "window", id: await windowId(call, "Format Cells") };
    // Its two spin buttons: "Leading zeroes", labelled beside it, and the decimal places, whose label
    // sits in another box, where none is inferred.
    const spins = (await call("find", { target: dialog, role: "spin button" })).data.matches as {
      ref: string;
      inferred_label?: string;
    }[];
    assert.equal(spins.length, 2, JSON.stringify(spins));
    const places = spins.find((spin) => spin.inferred_label !== "Leading zeroes")!;
    const set = await call("act", {
      ref: places.ref,
      action: { kind: "set_value", text: "2" },
      intent: "Two places",
    });
    assert.ok(set.ok, JSON.stringify(set.error));
    // Its texts name fields ("Format" above a list, "Decimal places:"), and "format" acts on cells here,
    // not on a disk: its OK had asked a person.
    const ok = await call("act", {
      find: { target: dialog, role: "push button", name: "OK" },
      action: { kind: "invoke" },
      intent: "Apply the format",
    });
    assert.ok(ok.ok, JSON.stringify(ok.error));
    assert.match(ok.text ?? "", /window disappeared: \d+ "Format Cells"/, ok.text);
    // The status bar catches up on its own time.
    let shown = await sum();
    for (let i = 0; i < 20 && !/Sum: 3\.50$/.test(shown); i++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      shown = await sum();
    }
    assert.match(shown, /Sum: 3\.50$/, `${set.text}\n${ok.text}`);
  });
});
