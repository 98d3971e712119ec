// The test command: unit tests first (no desktop), then the desktop tests inside a sandbox with the
// real apps they drive already registered on the accessibility bus.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// In name order: test/toolkits/calc-drag.test.ts must meet LibreOffice before contract.test.ts does.
const files = (dir) =>
  readdirSync(dir)
    .filter((f) => f.endsWith(".test.ts"))
    .sort()
    .map((f) => `${dir}/${f}`)
    .filter((f) => !process.env.DESKHAND_TEST_FILTER || f.includes(process.env.DESKHAND_TEST_FILTER));

// A file whose tests are over exits even if one left a handle open (a failed test's X connection
// once held CI until its 90 minutes ran out); a file that hangs fails on its own after this long,
// named. The slowest file takes under 3 minutes on a loaded machine.
const FILE_TIMEOUT_MS = 8 * 60_000;
const nodeTest = (list) => [
  "--import",
  "tsx",
  "--test",
  "--test-concurrency=1",
  "--test-force-exit",
  `--test-timeout=${FILE_TIMEOUT_MS}`,
  ...list,
];

export const SWING_FIXTURE =
  "java -Djavax.accessibility.assistive_technologies=org.GNOME.Accessibility.AtkWrapper " +
  "-cp build/fixtures:/usr/share/java/java-atk-wrapper.jar DeskhandFixture";

// The tests' input actions go to a journal of their own, under a config nobody wrote: a developer's
// ceiling or pre-approvals must not change what the tests see.
const testRoot = mkdtempSync(join(tmpdir(), "deskhand-tests-"));
const testEnv = {
  ...process.env,
  DESKHAND_AUDIT: join(testRoot, "audit.jsonl"),
  DESKHAND_CONFIG: join(testRoot, "no-config.json"),
};
delete testEnv.DESKHAND_CEILING;

// A whole phase (a sandbox and its suite) that outlives this is stopped and fails, so one stuck
// sandbox never takes the run past CI's limit.
const PHASE_TIMEOUT_MS = 25 * 60_000;

function run(command, args) {
  const started = Date.now();
  const result = spawnSync(command, args, {
    stdio: "inherit",
    env: testEnv,
    timeout: PHASE_TIMEOUT_MS,
    killSignal: "SIGTERM",
  });
  if (result.error?.code === "ETIMEDOUT")
    console.error(
      `run-tests: stopped after ${Math.round((Date.now() - started) / 1000)} s: ${args.join(" ")}`,
    );
  return result.status ?? 1;
}

const unit = files("test/unit");
let status = unit.length ? run(process.execPath, nodeTest(unit)) : 0;
const desktop = files("test/desktop");
if (desktop.length) {
  const sandbox = [
    "dist/frontends/cli/main.js",
    "sandbox",
    "run",
    "--app",
    "gtk3-widget-factory",
    "--app",
    "gtk4-widget-factory",
    "--app",
    SWING_FIXTURE,
    "--",
    process.execPath,
    ...nodeTest(desktop),
  ];
  status = run(process.execPath, sandbox) || status;
}

// The toolkit contract suite: one sandbox per toolkit app, so a heavy browser or office suite never
// shares a desktop (or a CPU budget) with another. DESKHAND_TOOLKITS=qt,firefox picks some.
const TOOLKIT_APPS = {
  gtk3: "gtk3-widget-factory",
  gtk4: "gtk4-widget-factory",
  swing: SWING_FIXTURE,
  qt: "/usr/lib/x86_64-linux-gnu/qt5/examples/widgets/widgets/styles/styles",
  firefox: "test/fixtures/web/firefox",
  chromium: "test/fixtures/web/chromium",
  calc: "soffice --calc --norestore --nologo",
};
const WAYLAND_TOOLKITS = ["gtk3", "gtk4", "qt", "firefox", "chromium"];
const toolkits = (process.env.DESKHAND_TOOLKITS ?? Object.keys(TOOLKIT_APPS).join(","))
  .split(",")
  .filter(Boolean);
const contract = files("test/toolkits");
if (contract.length && toolkits.length) {
  const ledgerDir = mkdtempSync(join(tmpdir(), "deskhand-ledger-"));
  for (const toolkit of toolkits) {
    const args = ["dist/frontends/cli/main.js", "sandbox", "run", "--app-timeout-ms", "90000"];
    args.push("--app", TOOLKIT_APPS[toolkit], "--", process.execPath, ...nodeTest(contract));
    testEnv.DESKHAND_TOOLKIT = toolkit;
    testEnv.DESKHAND_LEDGER_DIR = ledgerDir;
    status = run(process.execPath, args) || status;
  }
  // The same suite under Wayland (headless sway, no XWayland), for the toolkits that run natively
  // there: Swing needs an X server, and LibreOffice is left to the X11 run.
  const waylandSuite = contract.filter((f) => f.endsWith("/contract.test.ts"));
  for (const toolkit of waylandSuite.length ? toolkits.filter((t) => WAYLAND_TOOLKITS.includes(t)) : []) {
    const args = ["dist/frontends/cli/main.js", "sandbox", "run", "--wayland", "--app-timeout-ms", "90000"];
    args.push("--app", TOOLKIT_APPS[toolkit], "--", process.execPath, ...nodeTest(waylandSuite));
    testEnv.DESKHAND_TOOLKIT = toolkit;
    testEnv.DESKHAND_LEDGER_DIR = ledgerDir;
    status = run(process.execPath, args) || status;
  }
  // The ledger is regenerated from what the suite just saw.
  // A run of some toolkits only (DESKHAND_TOOLKITS) writes its ledger beside the build, not over the doc.
  // Only a whole run (every toolkit, no filter) rewrites the doc; a filtered one had emptied it.
  const everyToolkit =
    toolkits.length === Object.keys(TOOLKIT_APPS).length && !process.env.DESKHAND_TEST_FILTER;
  const ledger = everyToolkit ? "docs/toolkits.md" : "build/toolkits.partial.md";
  status = run(process.execPath, ["scripts/toolkit-ledger.mjs", ledgerDir, ledger]) || status;
}
// Chromium without renderer accessibility: the tree is known to be incomplete, and must say so.
const incomplete = files("test/incomplete");
if (toolkits.includes("chromium") && incomplete.length) {
  const args = ["dist/frontends/cli/main.js", "sandbox", "run", "--app-timeout-ms", "90000"];
  args.push(
    "--app",
    `${TOOLKIT_APPS.chromium} --no-renderer-accessibility`,
    "--",
    process.execPath,
    ...nodeTest(incomplete),
  );
  status = run(process.execPath, args) || status;
}
process.exit(status);
