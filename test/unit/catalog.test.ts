// What every conversation pays before its first call: the default catalog is pinned at its budget
// (CATALOG_BUDGET), measured as a client receives it. Nothing is dropped to get there: every argument a
// tool takes is in its schema or named, with its default, in its description; `--tools` serves a
// subset; a seed profile's tools are listed as declared.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { z } from "zod";
import { PROFILES } from "../../src/frontends/profiles/index.js";
import { CATALOG_BUDGET, selectTools, TOOL_GROUPS, TOOLS } from "../../src/tools/registry.js";
import { listedTools } from "../mcp-listing.js";

const listed = listedTools;

const CATALOG_CHARS = CATALOG_BUDGET;

describe("the tool catalog", () => {
  it(`the default catalog is at most ${CATALOG_CHARS} characters`, async () => {
    const result = await listed({ tools: TOOLS });
    const chars = JSON.stringify(result).length;
    assert.ok(chars <= CATALOG_CHARS, `${chars} characters`);
    assert.equal(result.tools.length, TOOLS.length);
    assert.doesNotMatch(JSON.stringify(result), /9007199254740991/);
  });

  it("every argument of every tool is listed: in the schema, or by name in the description", async () => {
    const { tools } = await listed({ tools: TOOLS });
    for (const tool of TOOLS) {
      const shown = tools.find((t) => t.name === tool.name)!;
      const properties = Object.keys(shown.inputSchema.properties ?? {});
      for (const argument of Object.keys(tool.input.shape)) {
        const named = new RegExp(`\\b${argument}\\b`).test(shown.description ?? "");
        assert.ok(
          properties.includes(argument) || named,
          `${tool.name}.${argument} is neither in the schema nor named`,
        );
      }
      for (const required of z.toJSONSchema(tool.input, { io: "input" }).required ?? [])
        assert.ok(shown.inputSchema.required?.includes(required), `${tool.name}.${required} stays required`);
    }
  });

  it("a union told apart by a constant field is one object that names each kind's fields", async () => {
    const { tools } = await listed({ tools: TOOLS });
    const snapshot = tools.find((t) => t.name === "snapshot")!;
    const target = (
      snapshot.inputSchema.properties as Record<string, { properties: object; description: string }>
    ).target!;
    assert.deepEqual(Object.keys(target.properties), ["kind"]);
    assert.match(target.description, /window \{id\}.*title \{glob\}.*element \{ref\}/);
  });

  it("--tools serves groups or tools, and refuses what it does not know", async () => {
    const { tools } = await listed({ tools: selectTools("read,raw_input") });
    assert.deepEqual(
      tools.map((t) => t.name),
      TOOLS.filter((t) => TOOL_GROUPS.read!.includes(t.name) || t.name === "raw_input").map((t) => t.name),
    );
    assert.deepEqual(Object.values(TOOL_GROUPS).flat().sort(), TOOLS.map((t) => t.name).sort());
    assert.throws(
      () => selectTools("read,clik"),
      /unknown in --tools: clik; groups: read, act, hands, pixels, raw/,
    );
    assert.throws(() => selectTools(","), /names nothing/);
  });

  for (const [name, profile] of Object.entries(PROFILES))
    it(`the ${name} profile lists its seed's schemas as declared`, async () => {
      const { tools } = await listed(profile);
      for (const tool of profile.tools) {
        const shown = tools.find((t) => t.name === tool.name)!;
        const declared = z.toJSONSchema(tool.input, { io: "input" }) as Record<string, unknown>;
        assert.deepEqual(shown.inputSchema, declared, tool.name);
      }
    });

  it("deskhand mcp --tools serves the subset over stdio, and refuses a name it does not know", async () => {
    const cli = ["--import", "tsx", "src/frontends/cli/main.ts", "mcp"];
    const bad = spawnSync(process.execPath, [...cli, "--tools", "read,clik"], { encoding: "utf8" });
    assert.equal(bad.status, 2, bad.stderr);
    assert.match(bad.stderr, /unknown in --tools: clik/);
    const client = new Client({ name: "catalog", version: "0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [...cli, "--tools", "pixels"],
        stderr: "ignore",
      }),
    );
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(
        tools.map((t) => t.name),
        ["screenshot", "read_screen_text", "find_text"],
      );
    } finally {
      await client.close();
    }
  });
});
