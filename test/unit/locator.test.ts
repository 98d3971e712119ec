import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { evaluateLocator, LOCATOR_MAX, LocatorSyntaxError, parseLocator } from "../../src/core/locator.js";
import { fold, matches } from "../../src/core/selector.js";
import type { Role } from "../../src/platform/roles.js";
import type { RawNode } from "../../src/platform/types.js";

function node(role: Role, name: string, children: RawNode[] = [], extra: Partial<RawNode> = {}): RawNode {
  return {
    handle: `${role}:${name}`,
    role,
    name,
    description: "",
    states: ["enabled"],
    interfaces: [],
    childCount: children.length,
    indexInParent: 0,
    children,
    unread: [],
    ...extra,
  };
}

const tree = node("frame", "Main", [
  node("tool bar", "", [node("push button", "Save"), node("push button", "Save As")]),
  node("panel", "", [
    node("push button", "Cancel"),
    node("check box", "Ünïcode Ça", [], { states: ["enabled", "checked"] }),
  ]),
]);

const names = (locator: string) => evaluateLocator(parseLocator(locator), tree).map((n) => n.name);

describe("locators", () => {
  it("descendant, child, contains, equality, position, wildcard and unions", () => {
    assert.deepEqual(names("//push button"), ["Save", "Save As", "Cancel"]);
    assert.deepEqual(names("//push button[@name=contains('save')]"), ["Save", "Save As"]);
    assert.deepEqual(names("//push button[@name='Save']"), ["Save"]);
    assert.deepEqual(names("/frame/tool bar/push button[2]"), ["Save As"]);
    assert.deepEqual(names("/frame/*"), ["", ""]);
    assert.deepEqual(names("//check box | //push button[@name='Cancel']"), ["Cancel", "Ünïcode Ça"]);
    assert.deepEqual(names("//check box[@states=contains('checked')]"), ["Ünïcode Ça"]);
    assert.deepEqual(names("//*[@name='Save'][1]"), ["Save"]);
    assert.deepEqual(names("//push button[@name=contains('Save') and @name=contains('As')]"), ["Save As"]);
  });

  it("refuses what it cannot read, saying what", () => {
    for (const bad of [
      "push button",
      "//push button[@name=",
      "//[@name='x']",
      "//x[@colour='red']",
      "//x[0]",
      "//check box[@states=contains('chekced')]",
      "",
    ]) {
      assert.throws(() => parseLocator(bad), LocatorSyntaxError, bad);
    }
  });
});

describe("selectors", () => {
  it("fold case the Unicode way and AND every field", () => {
    const box = tree.children[1]!.children[1]!;
    assert.equal(matches(box, { role: "CHECK BOX", name: "ünïcode ça" }), "match");
    assert.equal(matches(box, { name_contains: "CODE", states: ["checked", "enabled"] }), "match");
    assert.equal(matches(box, { name_contains: "code", states: ["focused"] }), "no");
    assert.equal(fold("ПРИВЕТ Ｗorld"), "привет world", "Cyrillic folds, and full-width letters normalise");
  });

  it("a field the app did not report makes a candidate unreadable, not a miss", () => {
    const mute = node("push button", "", [], { name: undefined, unread: ["name"] });
    assert.equal(matches(mute, { role: "push button", name: "OK" }), "unreadable");
    assert.equal(
      matches(mute, { role: "check box", name: "OK" }),
      "no",
      "a field that was read and differs is a miss",
    );
    assert.equal(
      matches(node("text", "Id", [], { accessibleId: "field-1" }), { accessible_id: "Field-1" }),
      "no",
      "ids are case-sensitive",
    );
  });
});

describe("hostile locators", () => {
  it("parse in bounded time, and an over-long one is refused without being echoed", () => {
    const many = `//push button${"[@name=contains('a')]".repeat(Math.floor((LOCATOR_MAX - 20) / 21))}`;
    const started = performance.now();
    assert.equal(parseLocator(many).paths[0]![0]!.predicates.length > 150, true);
    // A bound only a runaway parse misses: the suite shares a loaded machine.
    assert.ok(performance.now() - started < 2000, `${performance.now() - started} ms`);
    assert.throws(
      () => parseLocator(`//push button${"[@name=contains('a')]".repeat(20_000)}`),
      (e: Error) => /at most 4096/.test(e.message) && e.message.length < 200,
    );
  });
});
