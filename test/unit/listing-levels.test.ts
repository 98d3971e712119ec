// The MCP listing of every tool, the registry's and each profile's, says the levels it can run at and
// marks it destructive exactly when it can reach L3 (where a person must confirm): `window` is L1 to
// focus and L3 to close, and says so.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PROFILES, type Profile } from "../../src/frontends/profiles/index.js";
import { TOOLS } from "../../src/tools/registry.js";
import { listedTools } from "../mcp-listing.js";

const listing = async (profile: Profile) => (await listedTools(profile)).tools;

const RANK = { L1: 1, L2: 2, L3: 3, L4: 4 } as const;

describe("the listing's levels and annotations follow each tool's one declaration", () => {
  for (const [name, profile] of [["deskhand", { tools: TOOLS }] as const, ...Object.entries(PROFILES)]) {
    it(`${name}: every tool lists its levels; destructive exactly when it can reach L3`, async () => {
      const listed = await listing(profile);
      assert.equal(listed.length, profile.tools.length);
      for (const tool of profile.tools) {
        const shown = listed.find((t) => t.name === tool.name)!;
        const highest = tool.highest ?? tool.level;
        const range = highest === tool.level ? tool.level : `${tool.level}–${highest}`;
        assert.ok(shown.description?.endsWith(`(level ${range})`), `${tool.name}: ${shown.description}`);
        // MCP reads destructiveHint only where a tool does not just read; there it is always said.
        if (shown.annotations?.readOnlyHint) assert.equal(highest, "L1", `${tool.name} reads only`);
        else
          assert.equal(
            shown.annotations?.destructiveHint,
            RANK[highest] >= 3,
            `${tool.name} destructiveHint`,
          );
        // What presses or types can meet a committing target, so the gate can take it to L3; bringing
        // a window forward, a hover, a wheel turn and the clipboard press nothing and stay where they are.
        if (
          !tool.annotations.readOnlyHint &&
          !/focus_window|activate|window_(minimize|hide|show)|^app_|^(main_)?(hover|wheel|navigate)$|^clipboard$/.test(
            tool.name,
          )
        )
          assert.ok(RANK[highest] >= 3, `${tool.name} changes things but lists no level above ${highest}`);
      }
    });
  }
  it("window: L1 to focus, L3 to close", async () => {
    const window = (await listing({ tools: TOOLS })).find((t) => t.name === "window")!;
    assert.match(window.description ?? "", /\(level L1–L3\)$/);
    assert.equal(window.annotations?.destructiveHint, true);
  });
});
