// The layers import in one direction only: platform → core → safety → tools → frontends. A lower layer
// importing a higher one fails here, naming the file and the import.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { it } from "node:test";

const LAYERS = ["platform", "core", "safety", "tools", "frontends"] as const;
const SRC = resolve("src");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith(".ts") ? [path] : [];
  });
}

function layerOf(path: string, root = SRC): number {
  const top = relative(root, path).split("/")[0] as (typeof LAYERS)[number];
  return LAYERS.indexOf(top);
}

function layerViolations(root = SRC): string[] {
  const violations: string[] = [];
  for (const file of files(root)) {
    const source = readFileSync(file, "utf8");
    const from = layerOf(file, root);
    for (const match of source.matchAll(/(?:from|import)\s*\(?\s*["'](\.[^"']+)["']/g)) {
      const target = resolve(dirname(file), match[1]!);
      const to = layerOf(target, root);
      if (to > from)
        violations.push(`${relative(root, file)} imports ${match[1]} (${LAYERS[from]} → ${LAYERS[to]})`);
    }
  }
  return violations;
}

// A backend's own folder is its business: above platform/ only the platform's public modules are
// imported (its interfaces, vocabulary and index), so a new backend changes nothing above it.
const BACKENDS = [
  "platform/atspi/",
  "platform/x11/",
  "platform/fake/",
  "platform/wayland/",
  "platform/ocr/tesseract",
];

function backendImports(root = SRC): string[] {
  const found: string[] = [];
  for (const file of files(root)) {
    if (layerOf(file, root) <= 0) continue;
    const source = readFileSync(file, "utf8");
    for (const match of source.matchAll(/(?:from|import)\s*\(?\s*["'](\.[^"']+)["']/g)) {
      const target = relative(root, resolve(dirname(file), match[1]!));
      if (BACKENDS.some((b) => target.startsWith(b)))
        found.push(`${relative(root, file)} imports ${match[1]} (a backend's own module)`);
    }
  }
  return found;
}

it("above platform/, only the platform's public modules are imported, never a backend's own", () => {
  assert.deepEqual(backendImports(), []);
});

it("the check catches an import of a backend's own module", () => {
  const root = mkdtempSync(join(tmpdir(), "layers-"));
  mkdirSync(join(root, "platform", "x11"), { recursive: true });
  mkdirSync(join(root, "tools"));
  writeFileSync(join(root, "platform", "x11", "input.ts"), "export const x = 1;\n");
  writeFileSync(join(root, "tools", "click.ts"), 'import { x } from "../platform/x11/input.js";\n');
  assert.deepEqual(backendImports(root), [
    "tools/click.ts imports ../platform/x11/input.js (a backend's own module)",
  ]);
  rmSync(root, { recursive: true });
});

// The acting backend and hands sit behind one key (tools/acting.ts): the context that holds them and
// the gate that gives them out are the only code that may name it, so acting without the gate does
// not compile (the context's own backend() and hands() read only) and cannot be reached around it.
const MAY_NAME_ACTING = ["tools/acting.ts", "tools/context.ts", "tools/guard.ts"];

function actingKeyUses(root = SRC): string[] {
  return files(root)
    .filter((file) => !MAY_NAME_ACTING.includes(relative(root, file)))
    .filter((file) => /\bACTING\b/.test(readFileSync(file, "utf8")))
    .map((file) => `${relative(root, file)} names ACTING`);
}

it("only the context and the gate reach the acting surfaces", () => {
  assert.deepEqual(actingKeyUses(), []);
});

it("the check catches a tool that reaches for them", () => {
  const root = mkdtempSync(join(tmpdir(), "layers-"));
  mkdirSync(join(root, "tools"));
  writeFileSync(join(root, "tools", "acting.ts"), "export const ACTING = Symbol();\n");
  writeFileSync(join(root, "tools", "sneak.ts"), 'import { ACTING } from "./acting.js";\nvoid ACTING;\n');
  assert.deepEqual(actingKeyUses(root), ["tools/sneak.ts names ACTING"]);
  rmSync(root, { recursive: true });
});

it("every source file is in a known layer", () => {
  const stray = files(SRC).filter((f) => layerOf(f) < 0);
  assert.deepEqual(stray, []);
});

it("no lower layer imports a higher one", () => {
  assert.deepEqual(layerViolations(), []);
});

it("the check catches an upward import", () => {
  const root = mkdtempSync(join(tmpdir(), "layers-"));
  mkdirSync(join(root, "core"));
  mkdirSync(join(root, "tools"));
  writeFileSync(join(root, "core", "model.ts"), 'import { TOOLS } from "../tools/registry.js";\n');
  writeFileSync(join(root, "tools", "registry.ts"), 'import { model } from "../core/model.js";\n');
  assert.deepEqual(layerViolations(root), ["core/model.ts imports ../tools/registry.js (core → tools)"]);
  rmSync(root, { recursive: true });
});
