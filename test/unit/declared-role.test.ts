// A role a caller declares may only raise the level: other systems' spellings are read in the
// vocabulary's words, and one deskhand cannot place, with a label, is judged by that label.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { commitReason, declaredRole } from "../../src/safety/classify.js";

describe("declaredRole", () => {
  it("reads the vocabulary's own names and other systems' spellings", () => {
    assert.equal(declaredRole("push button", true), "push button");
    assert.equal(declaredRole("AXButton", true), "push button");
    assert.equal(declaredRole("button", false), "push button");
    assert.equal(declaredRole("default button", true), "push button");
    assert.equal(declaredRole("AXCheckBox", true), "check box");
    assert.equal(declaredRole("switch", true), "toggle button");
    assert.equal(declaredRole("AXMenuItem", true), "menu item");
  });
  it("a role it cannot place is a command when labelled, unknown when not", () => {
    assert.equal(declaredRole("AXWhatever", true), "push button");
    assert.equal(declaredRole("AXWhatever", false), "unknown");
  });
  it("the seed's AXButton labelled Delete commits, as push button Delete does", () => {
    for (const role of ["AXButton", "button", "push button", "AXSomethingNew"])
      assert.ok(commitReason({ role: declaredRole(role, true), name: "Delete" }), role);
    assert.equal(commitReason({ role: declaredRole("AXButton", true), name: "Cancel" }), undefined);
  });
});
