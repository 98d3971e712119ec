// A Qt combo box implements no Selection, and its list items' own action selects in the closed list
// only: act select opens its list by its own action and clicks the option with the real mouse
// through the gate, and the combo reads back the option (the Styles example's style changes).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { createContext, type ToolContext } from "../../src/tools/context.js";
import { toolCaller } from "../desktop/helpers.js";
import { PROFILES } from "./profiles.js";

const toolkit = process.env.DESKHAND_TOOLKIT ?? "";

describe("a Qt combo box, selected by its option", { skip: toolkit === "qt" ? false : "Qt only" }, () => {
  const target = { kind: "title", glob: PROFILES.qt?.title ?? "" };
  let context: ToolContext;
  let call: ReturnType<typeof toolCaller>;
  before(async () => {
    context = createContext({ refLifetime: "while-verified" });
    call = toolCaller(context);
    await sleep(PROFILES.qt?.settleMs ?? 0);
  });
  after(() => context.close());

  const choose = async (option: string) => {
    const combo = await call("find", { target, role: "combo box", label: "Style" });
    assert.equal(combo.data?.total, 1, combo.text);
    const was = combo.data.matches[0].name;
    const chosen = await call("act", { ref: combo.data.matches[0].ref, action: { kind: "select", option } });
    assert.ok(chosen.ok, JSON.stringify(chosen.error));
    return { was, chosen };
  };

  it("opens its list and clicks the option; the combo reads it back; and back again", async () => {
    const { was, chosen } = await choose("Fusion");
    assert.match(chosen.data.route, /then a real click on "Fusion"/, chosen.text);
    assert.equal(chosen.data.effect, "seen", chosen.text);
    assert.equal(chosen.data.after.name, "Fusion");
    const back = await choose(was);
    assert.equal(back.chosen.data.after.name, was, back.chosen.text);
  });
});
