// Every tool refuses an argument it does not have, names it, and names the one probably meant: a
// misspelled argument is never dropped while the call goes on without it.
import assert from "node:assert/strict";
import { it } from "node:test";
import { callTool } from "../../src/tools/call.js";
import { createContext } from "../../src/tools/context.js";
import { TOOLS } from "../../src/tools/registry.js";

it("every tool refuses a misspelled argument, naming it and its nearest real one", async () => {
  const context = createContext({ refLifetime: "while-verified" });
  try {
    for (const tool of TOOLS) {
      const known = Object.keys(tool.input.shape);
      const real = known.find((k) => k.length > 3) ?? known[0];
      // One letter doubled: close to a real argument, and not one.
      const misspelled = real ? `${real}${real.at(-1)}` : "bogus_argument";
      const result = await callTool(context, tool, { [misspelled]: 1 });
      assert.equal(result.ok, false, `${tool.name} accepted ${misspelled}`);
      if (result.ok) continue;
      assert.equal(result.error.code, "invalid_params");
      assert.match(result.error.message, new RegExp(`${tool.name} has no argument ${misspelled}`));
      if (real)
        assert.match(result.error.message, new RegExp(`did you mean ${real}\\?`), result.error.message);
      assert.deepEqual(result.error.toJSON().fields, [misspelled]);
    }
  } finally {
    await context.close();
  }
});

it("unknown keys inside a target, an action, a wait condition or a find are refused too", async () => {
  const context = createContext({ refLifetime: "while-verified" });
  const byName = (name: string) => TOOLS.find((t) => t.name === name)!;
  try {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ["snapshot", { target: { kind: "title", glob: "x", depth: 2 } }, /target\b.*depth/],
      ["act", { ref: "s1:e1", action: { kind: "invoke", force: true } }, /action\b.*force/],
      ["wait", { condition: { kind: "window", title: "x", within: 5 } }, /condition\b.*within/],
      [
        "act",
        { find: { role: "push button", max_results: 1 }, action: { kind: "invoke" } },
        /find\b.*max_results/,
      ],
      // A state no backend reports would match nothing, silently: refused instead, naming it.
      ["find", { role: "check box", states: "enabled,chekced" }, /no state "chekced"/],
    ];
    for (const [tool, input, named] of cases) {
      const result = await callTool(context, byName(tool), input);
      assert.equal(result.ok, false, `${tool} accepted ${JSON.stringify(input)}`);
      if (!result.ok) {
        assert.equal(result.error.code, "invalid_params");
        assert.match(result.error.message, named);
      }
    }
  } finally {
    await context.close();
  }
});
