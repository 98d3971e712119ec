// A drag between two verified cells in LibreOffice Calc. LibreOffice shows its menu bar when the
// pointer first enters its window, moving the sheet 25 px between the pointer's arrival and the
// press: the drag must re-read both cells once the pointer is at the start and press at their new
// centres, or it would select the block one row up. This file sorts before contract.test.ts, so it
// runs on a window the pointer has not yet entered; it runs in the Calc sandbox only.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createContext, type ToolContext } from "../../src/tools/context.js";
import { toolCaller } from "../desktop/helpers.js";
import { tableCells } from "./cells.js";
import { PROFILES } from "./profiles.js";

const toolkit = process.env.DESKHAND_TOOLKIT ?? "";
const profile = PROFILES.calc!;

describe("a drag across LibreOffice Calc cells", {
  skip: toolkit === "calc" ? false : "LibreOffice only: runs in the Calc sandbox",
}, () => {
  let context: ToolContext;
  let call: ReturnType<typeof toolCaller>;
  before(async () => {
    context = createContext({ refLifetime: "while-verified" });
    call = toolCaller(context);
    await new Promise((resolve) => setTimeout(resolve, profile.settleMs ?? 0));
  });
  after(() => context.close());

  const cells = () => tableCells(call, profile.title);

  it("selects exactly B2:D4, pressing where the cells are once the pointer is there", async () => {
    const before = await cells();
    const from = before.find((c) => c.name === "B2")!;
    const to = before.find((c) => c.name === "D4")!;
    const dragged = await call("drag", {
      from: { ref: from.ref },
      to: { ref: to.ref },
      intent: "Select B2 to D4 by dragging",
    });
    assert.equal(dragged.data?.status, "done", dragged.text ?? JSON.stringify(dragged.error));
    // The menu bar appeared as the pointer arrived: both ends were re-read and moved down.
    assert.ok(dragged.data.start_moved, `the start moved when the pointer reached it: ${dragged.text}`);
    assert.ok(dragged.data.moved, "the drop moved with it");
    assert.equal(dragged.data.start_moved.to.y - dragged.data.start_moved.from.y, 25);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const selected = (await cells())
      .filter((c) => c.states?.includes("selected"))
      .map((c) => c.name)
      .sort();
    assert.deepEqual(selected, ["B2", "B3", "B4", "C2", "C3", "C4", "D2", "D3", "D4"]);
    // Back to one current cell, A1, for the contract suite's own selection test.
    const home = await call("key", {
      key: "ctrl+Home",
      window: { title: profile.title },
      intent: "Drop the selection",
    });
    assert.equal(home.data?.status, "done");
  });
});
