// The newcomer's third exercise (docs/architecture.md, "Adding a desktop"), done in a scratch copy of
// src/: a desktop is its own folder (its windows, its hands, its doctor checks) and one line of the
// desktops table. Nothing else is touched, and the backend's window source, connectHands and doctor
// then find it; the layer test still passes, and fails once the folder reaches into another desktop's.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, it } from "node:test";

const scratch = mkdtempSync(join(tmpdir(), "deskhand-desktop-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

// A toy desktop: one window, hands that only record, one doctor check.
const TOY = `import type { DesktopCheck } from "../checks.js";
import { FakeHands } from "../fake/hands.js";
import type { Hands } from "../hands.js";
import type { WindowSource } from "../window-source.js";

const rect = { x: 0, y: 0, width: 640, height: 480 };

export function toyWindowSource(): WindowSource {
  return {
    kind: "toy",
    server: "the toy compositor",
    windowRelativeExtents: false,
    closed: false,
    clientWindows: async () => [{ id: 1, title: "Toy window", pid: 1, rect, csdMargins: null, stackIndex: 0 }],
    activeWindow: async () => 1,
    windowUnderPointer: async () => 1,
    close() {},
  };
}

export async function openToyHands(): Promise<Hands> {
  return new FakeHands({ windows: [{ id: 1, rect }], active: 1 });
}

export async function toyChecks(): Promise<DesktopCheck[]> {
  return [{ name: "toy compositor", status: "ok", value: "answers" }];
}
`;

const LINE = `  {
    kind: "toy",
    name: "Toy",
    session: "wayland",
    claims: (env) => env.XDG_CURRENT_DESKTOP === "Toy",
    windows: async () => toyWindowSource(),
    hands: () => openToyHands(),
    checks: () => toyChecks(),
  },
`;

const PROBE = `import { desktopOf } from "./src/platform/desktops.js";
import { diagnose } from "./src/platform/diagnostics.js";
import { connectHands } from "./src/platform/index.js";

const env = { HOME: "/nonexistent", PATH: process.env.PATH, XDG_CURRENT_DESKTOP: "Toy", WAYLAND_DISPLAY: "toy-0", XDG_SESSION_TYPE: "wayland" };
const found = desktopOf(env);
const windows = "desktop" in found ? await (await found.desktop.windows(env, 1000)).clientWindows() : [];
const hands = await connectHands({ env });
const session = (await diagnose(env)).filter((c) => c.section === "session").map((c) => c.name + ": " + c.value);
console.log(JSON.stringify({ kind: "desktop" in found ? found.desktop.kind : found.none, windows: windows.map((w) => w.title), hands: hands.name, session }));
await hands.close();
`;

function scratchCopy(): void {
  for (const part of ["src", "test/unit/layers.test.ts", "package.json", "tsconfig.json"])
    cpSync(resolve(part), join(scratch, part), { recursive: true });
  for (const shared of ["node_modules", "data"]) symlinkSync(resolve(shared), join(scratch, shared));
}

function layerTest(): { status: number | null; out: string } {
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  const run = spawnSync(process.execPath, ["--import", "tsx", "--test", "test/unit/layers.test.ts"], {
    cwd: scratch,
    encoding: "utf8",
    env,
  });
  return { status: run.status, out: `${run.stdout}${run.stderr}` };
}

it("a desktop is one folder and one line of the table: the backend, the hands and doctor find it", () => {
  scratchCopy();
  mkdirSync(join(scratch, "src/platform/toy"));
  writeFileSync(join(scratch, "src/platform/toy/desktop.ts"), TOY);
  const table = join(scratch, "src/platform/desktops.ts");
  writeFileSync(
    table,
    readFileSync(table, "utf8")
      .replace('import type { DesktopCheck } from "./checks.js";', (l) =>
        [l, 'import { openToyHands, toyChecks, toyWindowSource } from "./toy/desktop.js";'].join("\n"),
      )
      .replace("export const DESKTOPS: readonly Desktop[] = [\n", (l) => l + LINE),
  );
  const changed = spawnSync("diff", ["-rq", resolve("src"), join(scratch, "src")], { encoding: "utf8" });
  assert.deepEqual(changed.stdout.trim().split("\n").sort(), [
    `Files ${resolve("src/platform/desktops.ts")} and ${table} differ`,
    `Only in ${join(scratch, "src/platform")}: toy`,
  ]);
  writeFileSync(join(scratch, "probe.ts"), PROBE);
  const run = spawnSync(process.execPath, ["--import", "tsx", "probe.ts"], {
    cwd: scratch,
    encoding: "utf8",
  });
  assert.equal(run.status, 0, run.stderr);
  const found = JSON.parse(run.stdout.trim().split("\n").at(-1)!);
  assert.equal(found.kind, "toy");
  assert.deepEqual(found.windows, ["Toy window"]);
  assert.equal(found.hands, "fake", "connectHands opened the toy's hands");
  assert.ok(found.session.includes("toy compositor: answers"), JSON.stringify(found.session));
  assert.equal(layerTest().status, 0, "the layer test passes with the new folder");
});

it("the layer test fails once the new desktop reaches into another's folder, naming the import", () => {
  const toy = join(scratch, "src/platform/toy/desktop.ts");
  writeFileSync(
    toy,
    `import { charKeysym } from "../keysyms.js";\nimport { x11WindowSource } from "../x11/windows.js";\nvoid x11WindowSource;\nvoid charKeysym;\n${readFileSync(toy, "utf8")}`,
  );
  const lint = readFileSync(join(scratch, "test/unit/layers.test.ts"), "utf8");
  // The toy's folder is a desktop's like the others: the checklist adds it to the list kept apart.
  writeFileSync(
    join(scratch, "test/unit/layers.test.ts"),
    lint.replace('const APART = ["platform/atspi/",', 'const APART = ["platform/toy/", "platform/atspi/",'),
  );
  const result = layerTest();
  assert.notEqual(result.status, 0);
  assert.match(result.out, /platform\/toy\/desktop\.ts imports \.\.\/x11\/windows\.js/);
  assert.doesNotMatch(result.out, /keysyms/, "what platform/ itself shares is free to use");
});
