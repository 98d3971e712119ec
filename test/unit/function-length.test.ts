// Rooms a person can hold: no function in src/ runs over 80 lines, but for any named below with
// the reason it cannot be split and its length, so none may grow and no new one join.
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { it } from "node:test";
import ts from "typescript";

const MAX_LINES = 80;

/**
 * Functions over the bound, each with the reason it cannot be split beside it and its length: none
 * may grow. Empty since the last eight of issue 57 were split.
 */
const LEFT_TO_SPLIT: Record<string, number> = {};

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith(".ts") ? [path] : [];
  });
}

/** Every function over the bound in a file: "path name" and its length in lines. */
function longFunctions(path: string, source: string): [string, number][] {
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, true);
  const found: [string, number][] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const line = (at: number) => file.getLineAndCharacterOfPosition(at).line;
      const length = line(node.getEnd()) - line(node.getStart()) + 1;
      const parent = node.parent;
      const name =
        node.name?.getText() ||
        (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)
          ? parent.name.getText()
          : "(anonymous)");
      if (length > MAX_LINES) found.push([`${path} ${name}`, length]);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

it(`no function runs over ${MAX_LINES} lines but those left to split, and none of those grows`, () => {
  const over = files("src").flatMap((path) => longFunctions(path, readFileSync(path, "utf8")));
  const grown = over.filter(([name, length]) => length > (LEFT_TO_SPLIT[name] ?? MAX_LINES));
  assert.deepEqual(grown, [], "split these, or say in the list why they cannot be");
  // The list stays true: a function split or shortened leaves it, or is listed at its new length.
  const now = new Map(over);
  const stale = Object.entries(LEFT_TO_SPLIT).filter(([name, length]) => now.get(name) !== length);
  assert.deepEqual(
    stale,
    [],
    `list these at their length now (${JSON.stringify(Object.fromEntries(stale.map(([n]) => [n, now.get(n) ?? "split"])))})`,
  );
});

it("the check finds a long function and names it", () => {
  const body = Array.from({ length: MAX_LINES }, (_, i) => `  const a${i} = ${i};`).join("\n");
  const found = longFunctions("src/x.ts", `export function long() {\n${body}\n}\nconst short = () => 1;\n`);
  assert.deepEqual(found, [["src/x.ts long", MAX_LINES + 2]]);
});
