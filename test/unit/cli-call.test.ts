// `deskhand call TOOL JSON`: every registry tool from the CLI, and bad input named with what to do.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { it } from "node:test";

const call = (...args: string[]) =>
  spawnSync(process.execPath, ["--import", "tsx", "src/frontends/cli/main.ts", "call", ...args], {
    encoding: "utf8",
  });

it("runs a registry tool with its input as JSON", () => {
  const ping = call("ping", "{}", "--json");
  assert.equal(ping.status, 0, ping.stderr);
  assert.match(JSON.parse(ping.stdout).version, /^\d+\.\d+\.\d+$/);
});

it("names what was wrong and what to do, exit status 2", () => {
  const unknown = call("teleport");
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /no tool "teleport"; the tools are ping, windows/);
  const notObject = call("ping", "[1]");
  assert.equal(notObject.status, 2);
  assert.match(notObject.stderr, /one JSON object, like/);
  const picture = call("screenshot");
  assert.equal(picture.status, 2);
  assert.match(picture.stderr, /use `deskhand screenshot`/);
});
