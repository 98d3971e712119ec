// docs/seeds.md stays true to what is served: every tool of every profile and every method of the
// NDJSON protocol is named in it.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { it } from "node:test";
import { METHODS } from "../../src/frontends/ndjson/protocol.js";
import { PROFILES } from "../../src/frontends/profiles/index.js";

it("docs/seeds.md names every profile's tools and every NDJSON method", () => {
  const doc = readFileSync("docs/seeds.md", "utf8");
  for (const [name, profile] of Object.entries(PROFILES)) {
    assert.match(doc, new RegExp(`--profile ${name}\``), `the ${name} profile has a section`);
    for (const tool of profile.tools) {
      const short = tool.name.replace(/^main_/, "");
      assert.ok(
        doc.includes(`\`${tool.name}\``) || (name === "daimon" && doc.includes("main_*")),
        `${tool.name} (${short})`,
      );
    }
  }
  for (const method of METHODS) assert.ok(doc.includes(`\`${method}\``), `NDJSON method ${method}`);
});
