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

/** Every relative import under `root`: the importing file, what it wrote, and the path it names. */
function imports(root: string): { file: string; spec: string; target: string }[] {
  return files(root).flatMap((file) =>
    [...readFileSync(file, "utf8").matchAll(/(?:from|import)\s*\(?\s*["'](\.[^"']+)["']/g)].map((m) => ({
      file,
      spec: m[1]!,
      target: resolve(dirname(file), m[1]!),
    })),
  );
}

function layerViolations(root = SRC): string[] {
  return imports(root)
    .filter(({ file, target }) => layerOf(target, root) > layerOf(file, root))
    .map(
      ({ file, spec, target }) =>
        `${relative(root, file)} imports ${spec} (${LAYERS[layerOf(file, root)]} → ${LAYERS[layerOf(target, root)]})`,
    );
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
  return imports(root)
    .filter(
      ({ file, target }) =>
        layerOf(file, root) > 0 && BACKENDS.some((b) => relative(root, target).startsWith(b)),
    )
    .map(({ file, spec }) => `${relative(root, file)} imports ${spec} (a backend's own module)`);
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

// A desktop's folder (x11/, wayland/) and the accessibility backend's (atspi/) import nothing from
// each other: what they share sits in platform/ itself (window-source.ts, keysyms.ts, checks.ts), and
// the desktops table (desktops.ts) puts a desktop's pieces together, XWayland's X11 hands included.
// Only the table and the sandbox, which starts each desktop, reach into more than one.
const APART = ["platform/atspi/", "platform/x11/", "platform/wayland/"];

function crossedFolders(root = SRC): string[] {
  const folderOf = (path: string) => APART.find((f) => relative(root, path).startsWith(f));
  return imports(root)
    .filter(({ file, target }) => folderOf(file) && folderOf(target) && folderOf(file) !== folderOf(target))
    .map(({ file, spec }) => `${relative(root, file)} imports ${spec}`);
}

it("no desktop's folder imports another's, nor the accessibility backend's", () => {
  assert.deepEqual(crossedFolders(), []);
});

it("the check catches a desktop reaching into another", () => {
  const root = mkdtempSync(join(tmpdir(), "layers-"));
  mkdirSync(join(root, "platform", "x11"), { recursive: true });
  mkdirSync(join(root, "platform", "wayland"), { recursive: true });
  writeFileSync(join(root, "platform", "x11", "keymap.ts"), "export const k = 1;\n");
  writeFileSync(join(root, "platform", "wayland", "hands.ts"), 'import { k } from "../x11/keymap.js";\n');
  writeFileSync(join(root, "platform", "desktops.ts"), 'import { k } from "./x11/keymap.js";\n');
  assert.deepEqual(crossedFolders(root), ["platform/wayland/hands.ts imports ../x11/keymap.js"]);
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

// The real mouse and keyboard are connected in one place above the platform: the context, which
// hands them out only through the gate (ACTING above). A tool that imported connectHands would hold
// hands the gate never saw.
const MAY_CONNECT_HANDS = ["tools/context.ts"];

function handsConnections(root = SRC): string[] {
  return files(root)
    .filter((file) => layerOf(file, root) > 0 && !MAY_CONNECT_HANDS.includes(relative(root, file)))
    .filter((file) => /\bimport\s*\{[^}]*\bconnectHands\b[^}]*\}\s*from/.test(readFileSync(file, "utf8")))
    .map((file) => `${relative(root, file)} imports connectHands`);
}

it("above platform/, only the context connects the hands", () => {
  assert.deepEqual(handsConnections(), []);
});

it("the check catches a tool that connects them itself", () => {
  const root = mkdtempSync(join(tmpdir(), "layers-"));
  mkdirSync(join(root, "tools"));
  writeFileSync(join(root, "tools", "grab.ts"), 'import { connectHands } from "../platform/index.js";\n');
  assert.deepEqual(handsConnections(root), ["tools/grab.ts imports connectHands"]);
  rmSync(root, { recursive: true });
});

// Input goes out through an input tool's declaration (tools/input-tool.ts), which names it after
// the tool: a tool that ran the chain itself could name its input after another tool.
const MAY_ATTEMPT_INPUT = ["tools/input-tool.ts", "tools/hands/attempt.ts"];

function inputAttempts(root = SRC): string[] {
  return files(root)
    .filter((file) => !MAY_ATTEMPT_INPUT.includes(relative(root, file)))
    .filter((file) => /\battemptInput\b/.test(readFileSync(file, "utf8").replace(/\/\/.*$/gm, "")))
    .map((file) => `${relative(root, file)} runs attemptInput`);
}

it("only an input tool's declaration runs the input chain", () => {
  assert.deepEqual(inputAttempts(), []);
});

it("the check catches a tool that runs it itself", () => {
  const root = mkdtempSync(join(tmpdir(), "layers-"));
  mkdirSync(join(root, "tools"));
  writeFileSync(join(root, "tools", "poke.ts"), 'import { attemptInput } from "./hands/attempt.js";\n');
  assert.deepEqual(inputAttempts(root), ["tools/poke.ts runs attemptInput"]);
  rmSync(root, { recursive: true });
});

/**
 * Cycles of imports among the files under `dir`, imports of types only included: each as its files,
 * sorted. A type-only cycle orders nothing at run time, but two modules that each need the other
 * cannot be read, moved or tested one without the other.
 */
function importCycles(dir: string): string[][] {
  const graph = new Map<string, string[]>();
  for (const file of files(dir)) {
    const deps: string[] = [];
    for (const m of readFileSync(file, "utf8").matchAll(
      /^(?:import|export)\s+(type\s+)?([^;]*?)from\s+"(\.[^"]+)"/gms,
    ))
      deps.push(resolve(dirname(file), m[3]!.replace(/\.js$/, ".ts")));
    graph.set(
      file,
      deps.filter((d) => d.startsWith(dir)),
    );
  }
  // Tarjan's strongly connected components.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = stack.pop(); w !== undefined; w = w === v ? undefined : stack.pop()) component.push(w);
    if (component.length > 1) cycles.push(component.map((f) => relative(dir, f)).sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

it("no cycle of imports anywhere in src/, of types only included", () => {
  assert.deepEqual(importCycles(SRC), []);
});

it("the check catches a cycle, of values or of types only", () => {
  const root = mkdtempSync(join(tmpdir(), "layers-"));
  writeFileSync(join(root, "a.ts"), 'import { b } from "./b.js";\nexport const a = 1;\n');
  writeFileSync(join(root, "b.ts"), 'import { a } from "./a.js";\nexport const b = 2;\n');
  writeFileSync(join(root, "c.ts"), 'import type { D } from "./d.js";\nexport type C = 1;\n');
  writeFileSync(join(root, "d.ts"), 'import { type C } from "./c.js";\nexport type D = 2;\n');
  assert.deepEqual(
    importCycles(root).sort((x, y) => x[0]!.localeCompare(y[0]!)),
    [
      ["a.ts", "b.ts"],
      ["c.ts", "d.ts"],
    ],
  );
  rmSync(root, { recursive: true });
});
