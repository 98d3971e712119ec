// A Swing menu item run through its accessible click: the app runs it and leaves its menu open (jEdit's
// Search menu stayed over the dialog its item opened). The reply says so, and Escape closes it.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { suiteCaller } from "../desktop/helpers.js";
import { PROFILES } from "./profiles.js";

const toolkit = process.env.DESKHAND_TOOLKIT ?? "";

describe("a Swing menu left open by its item's accessible click", {
  skip: toolkit === "swing" ? false : "Swing only",
}, () => {
  const profile = PROFILES.swing!;
  const target = { kind: "title", glob: profile.title };
  const call = suiteCaller();

  it("the reply says the menu is still open, and it is; Escape closes it", async () => {
    const menu = await call("act", {
      find: { target, role: "menu", name: "Edit" },
      action: { kind: "invoke" },
      intent: "Open the Edit menu",
    });
    assert.ok(menu.ok, JSON.stringify(menu.error));
    const copied = await call("act", {
      find: { target, role: "menu item", name: "Copy" },
      action: { kind: "invoke" },
      intent: "Copy",
    });
    assert.ok(copied.ok, JSON.stringify(copied.error));
    assert.match(copied.text ?? "", /its menu is still open/, copied.text);
    const shown = () => call("find", { target, role: "menu item", name: "Copy" });
    assert.equal((await shown()).data.total, 1, "the item still shows in its open menu");
    // The item ran: the fixture's status says so in its description (Swing sets it a moment later).
    const [status] = (await call("find", { target, role: "label", name: "Status" })).data.matches;
    let said = "";
    for (let i = 0; i < 25 && !/Copied/.test(said); i++) {
      said = (await call("element_info", { ref: status.ref })).data?.description ?? "";
      if (!/Copied/.test(said)) await sleep(200);
    }
    assert.match(said, /Copied/);
    const closed = await call("key", {
      key: "Escape",
      intent: "Close the menu",
      window: { title: profile.title },
    });
    assert.equal(closed.data?.status, "done", closed.text ?? JSON.stringify(closed.error));
    assert.equal((await shown()).data.total, 0, "closed");
  });
});
