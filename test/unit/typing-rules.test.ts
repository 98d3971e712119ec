// The rules type_text keeps before a key goes: clicks kept apart so that none joins the last one as
// a double or triple click, and text holding half a character refused, naming where.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ClickSpacing } from "../../src/platform/hands.js";
import { loneSurrogateAt } from "../../src/platform/keys.js";
import { typedTextSchema } from "../../src/tools/schemas.js";

describe("clicks kept apart", () => {
  it("a click at the same place within the double-click time waits out the rest of it", () => {
    const clicks = new ClickSpacing();
    assert.equal(clicks.waitBefore({ x: 10, y: 10 }, "left", 1000), 0, "nothing before it");
    clicks.clicked({ x: 10, y: 10 }, "left", 1000);
    assert.equal(clicks.waitBefore({ x: 12, y: 9 }, "left", 1100), 500);
    assert.equal(clicks.waitBefore({ x: 10, y: 10 }, "left", 1600), 0, "past the double-click time");
    assert.equal(clicks.waitBefore({ x: 200, y: 10 }, "left", 1100), 0, "far away");
    assert.equal(clicks.waitBefore({ x: 10, y: 10 }, "right", 1100), 0, "another button");
  });
});

describe("text holding half a character", () => {
  it("finds the first lone surrogate, and lets pairs through", () => {
    assert.equal(loneSurrogateAt("a😀b"), undefined);
    assert.equal(loneSurrogateAt("ab\uD83Dc"), 2);
    assert.equal(loneSurrogateAt("\uDE00"), 0);
    assert.equal(loneSurrogateAt("😀\uD83D"), 2);
  });
  it("the schema refuses it naming the index, and passes whole text", () => {
    const refused = typedTextSchema.safeParse("ok\uDE00");
    assert.equal(refused.success, false);
    assert.match(refused.error!.issues[0]!.message, /lone UTF-16 surrogate \(\\uDE00\) at index 2/);
    assert.equal(typedTextSchema.safeParse("é 日本 ✓ 😀").success, true);
  });
});
