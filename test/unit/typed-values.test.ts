// A recording writes typed values as parameters (a password's as a secret) where a tool declares
// them (`typedValues`), not by its name: every string field called text or value of a tool that is
// recorded must be declared, so a new tool that types cannot write what it typed into a recording.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, it } from "node:test";
import { z } from "zod";
import { Recorder } from "../../src/tools/recording.js";
import { TOOLS } from "../../src/tools/registry.js";

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
};

const takesText = (s: Schema) => [s.type].flat().includes("string") || !!s.anyOf?.some(takesText);

/**
 * Where a schema takes a string called text or value: "text", "action.text", "fields[].value". An
 * inline `find` is a query (its `text` is words searched for, never typed into the app).
 */
function typedPaths(node: Schema, at = "", out = new Set<string>()): Set<string> {
  for (const [key, child] of Object.entries(node.properties ?? {})) {
    if (key === "find") continue;
    const path = at ? `${at}.${key}` : key;
    if ((key === "text" || key === "value") && takesText(child)) out.add(path);
    typedPaths(child, path, out);
  }
  for (const branch of [...(node.anyOf ?? []), ...(node.oneOf ?? []), ...(node.allOf ?? [])])
    typedPaths(branch, at, out);
  if (node.items) typedPaths(node.items, `${at}[]`, out);
  return out;
}

const dir = mkdtempSync(join(tmpdir(), "deskhand-typed-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const recorder = new Recorder(join(dir, "recording.json"));

it("every recorded tool that takes typed text declares where", () => {
  const found = TOOLS.filter((t) => recorder.records(t)).map((t) => {
    const schema = z.toJSONSchema(t.input, { io: "input", unrepresentable: "any" }) as Schema;
    return [t.name, [...typedPaths(schema)].join(" ") || undefined, t.typedValues] as const;
  });
  for (const [name, takes, declared] of found) assert.equal(declared, takes, name);
  // The check finds each kind there is.
  assert.deepEqual(
    found.filter(([, takes]) => takes).map(([name, takes]) => `${name}: ${takes}`),
    ["act: action.text", "fill_form: fields[].value", "type_text: text", "clipboard: text"],
  );
});
