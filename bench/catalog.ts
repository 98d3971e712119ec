// bench/tokens, first part: what the tool catalog costs every conversation before its first call,
// in characters of tools/list as a client receives it: each tool, the whole default catalog, each
// `--tools` group, and each seed profile (listed as declared). No desktop needed.
import { PROFILES } from "../src/frontends/profiles/index.js";
import { CATALOG_BUDGET, selectTools, TOOL_GROUPS, TOOLS } from "../src/tools/registry.js";
import { listedTools } from "../test/mcp-listing.js";

const listed = listedTools;

const all = await listed({ tools: TOOLS });
console.log("# bench/tokens · the tool catalog (characters of tools/list)");
console.log("| tool | characters |\n|---|---|");
for (const tool of all.tools) console.log(`| ${tool.name} | ${JSON.stringify(tool).length} |`);
console.log(`| **all ${all.tools.length} (budget ${CATALOG_BUDGET})** | **${JSON.stringify(all).length}** |`);
console.log("\n| served | tools | characters |\n|---|---|---|");
for (const group of Object.keys(TOOL_GROUPS)) {
  const result = await listed({ tools: selectTools(group) });
  console.log(`| --tools ${group} | ${result.tools.length} | ${JSON.stringify(result).length} |`);
}
for (const [name, profile] of Object.entries(PROFILES)) {
  const result = await listed(profile);
  console.log(`| --profile ${name} | ${result.tools.length} | ${JSON.stringify(result).length} |`);
}
