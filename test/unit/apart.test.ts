// Elements that read alike, told apart by the group each is in and its tooltip (core/apart.ts).
import assert from "node:assert/strict";
import { it } from "node:test";
import { alikeSets, descriptionsApart, groupsApart } from "../../src/core/apart.js";

it("each takes the nearest group not every other one is in", () => {
  const formatting = ['tool bar "Formatting"', 'panel "Top"'];
  const standard = ['tool bar "Standard"', 'panel "Top"'];
  assert.deepEqual(groupsApart([formatting, standard]), ['tool bar "Formatting"', 'tool bar "Standard"']);
  // A group they all share tells nothing; one only some share tells those from the rest.
  assert.deepEqual(groupsApart([['panel "Top"'], ['panel "Top"']]), [undefined, undefined]);
  assert.deepEqual(groupsApart([['panel "A"', 'panel "Top"'], ['panel "Top"'], ['panel "Top"']]), [
    'panel "A"',
    undefined,
    undefined,
  ]);
});

it("descriptions are said only where they differ", () => {
  assert.deepEqual(descriptionsApart(["Bold", "Bold"]), [undefined, undefined]);
  assert.deepEqual(descriptionsApart(["Bold", undefined]), ["Bold", undefined]);
});

it("sets are items sharing a key, of two up to the most; an undefined key is in none", () => {
  const items = ["a1", "a2", "b1", "c1", "c2", "c3", "x"];
  const key = (s: string) => (s === "x" ? undefined : s[0]);
  assert.deepEqual(alikeSets(items, key, 2), [["a1", "a2"]]);
  assert.deepEqual(alikeSets(items, key, 3), [
    ["a1", "a2"],
    ["c1", "c2", "c3"],
  ]);
});
