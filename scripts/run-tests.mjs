// The test command, as jobs two at a time (the machine has two CPUs): the desktop tests in one
// sandbox with the real apps they drive already registered on the accessibility bus, a file at a
// time (scripts/test-worker.mjs); beside them the typecheck, the unit tests, the desktop tests that
// use none of the shared apps (OWN_DESKTOP), and the toolkit contract suite, one sandbox per app.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SWING_FIXTURE } from "./swing-fixture.mjs";

// In name order: test/toolkits/calc.test.ts must meet LibreOffice before contract.test.ts does.
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

// The tests' input actions go to journals of their own, one per job (a test reads its job's last
// line), under a config nobody wrote: a developer's ceiling or pre-approvals must not change what the
// tests see.
const testRoot = mkdtempSync(join(tmpdir(), "deskhand-tests-"));
const baseEnv = { ...process.env, DESKHAND_CONFIG: join(testRoot, "no-config.json") };
delete baseEnv.DESKHAND_CEILING;

// The gate's label lexicon, learnt from the machine's catalogs once (30 s of CPU after they or its
// rules change, then cached): learnt before any desktop test starts, beside the typecheck, so that
// no test's first judgement waits on it past the 25 s a call waits (two minutes, learnt beside the
// desktops at the start of a run) and no fresh HOME a test makes starts without it. Twice: its cache
// is keyed by the code that learns it, which the CLI runs built and the tests from their source.
const lexiconJobs = () =>
  Promise.all([
    runJob({ name: "gate-lexicon", args: ["dist/safety/warm-worker.js"] }),
    runJob({ name: "gate-lexicon-source", args: ["--import", "tsx", "src/safety/warm-worker.ts"] }),
  ]).then((codes) => Math.max(...codes));

// A job (a sandbox and its tests) that outlives this is stopped and fails, so one stuck sandbox
// never takes the run past CI's limit.
const JOB_TIMEOUT_MS = 40 * 60_000;
const JOBS_AT_ONCE = Number(process.env.DESKHAND_TEST_JOBS ?? 2);

/**
 * One job: a command, its name and its environment. Its output is printed whole when it ends, or,
 * for a desktop worker (`stream`), as it comes: a worker prints each test file's output in one piece.
 */
function runJob({ name, args, env = {}, stream = false }) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, args, {
      env: { ...baseEnv, DESKHAND_AUDIT: join(testRoot, `${name}.jsonl`), ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const chunks = [];
    const take = (c) => (stream ? process.stdout.write(c) : chunks.push(c));
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    const timer = setTimeout(() => child.kill("SIGTERM"), JOB_TIMEOUT_MS);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const seconds = Math.round((Date.now() - started) / 1000);
      const timedOut = seconds * 1000 >= JOB_TIMEOUT_MS ? `, stopped after ${seconds} s` : "";
      process.stdout.write(Buffer.concat(chunks));
      console.log(
        `\n# job ${name}: ${code === 0 ? "passed" : `FAILED (${code ?? signal}${timedOut})`} in ${seconds} s\n`,
      );
      resolve(code ?? 1);
    });
  });
}

/** Runs jobs `atOnce` at a time, in order; the status is the first failure's, else 0. */
async function runJobs(jobs, atOnce = JOBS_AT_ONCE) {
  let status = 0;
  let next = 0;
  const lane = async () => {
    while (next < jobs.length) status = (await runJob(jobs[next++])) || status;
  };
  await Promise.all(Array.from({ length: Math.min(atOnce, jobs.length) }, lane));
  return status;
}

const sandboxRun = (extra, apps, command) => [
  "dist/frontends/cli/main.js",
  "sandbox",
  "run",
  ...extra,
  ...apps.flatMap((app) => ["--app", app]),
  "--",
  process.execPath,
  ...command,
];

// The desktop tests, and beside them the unit tests (they use no desktop), then the toolkits.
const desktopJobs = [];
const jobs = [];
const unit = files("test/unit");

// Files that use none of the shared desktop's apps: those that start a desktop of their own (a
// nested sandbox, sway, a replaced X server, a restarted bus), and enough of those that start their
// own fixtures to even the two lanes out. They run in a sandbox with no apps, beside the rest.
const OWN_DESKTOP = [
  "sandbox",
  "wayland-hands",
  "wayland",
  "kde",
  "gnome",
  "display-replaced",
  "restart",
  "answers-follow",
  "bounds",
  "gate-keys",
  "gate-meanings",
  "gate-structure",
  "gate-unknowns",
  "modal",
  "observe-complete",
  "ocr",
  "scaled",
  "gtk2",
  "monitors",
  "scaled-apps",
  "two-typists",
  "gate-classes-gtk4",
  "gate-classes-swing",
  "kwrite-keys",
  "xdotool-parity",
  "closing",
  // Files that start their own apps, moved from the shared desktop's lane, the longest. (gate-pointer
  // and typed-readback went back to it, 2026-12-06: the lanes had been 954 s and 901 s.)
  "faults",
  "hover",
  "qt-markup",
  "observe-pixels",
  "receipts",
  "refs-hold",
  "replies",
  "tables-forms",
  "writer",
  "compositor-gone",
].map((name) => `test/desktop/${name}.test.ts`);
// Test files that drive a desktop or a compositor of their own, run where what they test changed
// since a run passed them (its hash in docs/ledger/desktops.json), and always with
// DESKHAND_DESKTOP_LANES=1: CI's 20 minutes no longer hold them in every run. A whole run that passes
// records the hash anew for the groups it ran. Each group's inputs are the code it exercises that the
// rest of the suite does not (the toolkit lanes run under sway in every run).
const GATED = [
  {
    // KDE's and GNOME's own desktop tests: about two minutes.
    name: "desktops",
    files: ["test/desktop/kde.test.ts", "test/desktop/gnome.test.ts"],
    inputs: [
      "src/platform/wayland",
      "src/platform/sandbox",
      "data/gnome-shell",
      "test/desktop/compositor-suite.ts",
    ],
  },
  {
    // sway's own: its IPC, deskhand's virtual keyboard and pointer, screencopy, XWayland: 100 s.
    name: "sway",
    files: ["test/desktop/wayland.test.ts", "test/desktop/wayland-hands.test.ts"],
    inputs: [
      "src/platform/wayland",
      "src/platform/sandbox",
      "src/platform/hands.ts",
      "src/platform/keys.ts",
      "src/platform/keysyms.ts",
      "src/platform/input-turns.ts",
      "src/platform/window-source.ts",
      "src/platform/desktops.ts",
      "src/platform/desktop-discovery.ts",
    ],
  },
  {
    // The sandbox command itself: start, stop, run, its lifetimes and discovery: a minute.
    name: "sandbox",
    files: ["test/desktop/sandbox.test.ts"],
    inputs: [
      "src/platform/sandbox",
      "src/platform/desktops.ts",
      "src/platform/desktop-discovery.ts",
      "src/platform/setup.ts",
      "src/frontends/cli",
      "src/frontends/mcp",
      "src/tools/doctor.ts",
      "data/gnome-shell",
    ],
  },
];
const GATED_RECORD = "docs/ledger/desktops.json";
/** The hash of a group's inputs and files: each file's path and content, in name order. */
function inputsHash({ files, inputs }) {
  const hash = createHash("sha256");
  const every = (path) =>
    path.endsWith(".ts") || path.endsWith(".js") || !existsSync(path)
      ? [path]
      : readdirSync(path, { recursive: true, withFileTypes: true })
          .filter((e) => e.isFile())
          .map((e) => join(e.parentPath ?? e.path, e.name));
  for (const file of [...inputs, ...files].flatMap(every).sort())
    hash.update(file).update(existsSync(file) ? readFileSync(file) : "");
  return hash.digest("hex");
}
const recorded = existsSync(GATED_RECORD) ? JSON.parse(readFileSync(GATED_RECORD, "utf8")) : {};
const ALL_GATED =
  process.env.DESKHAND_DESKTOP_LANES === "1" ||
  process.env.DESKHAND_DESKTOP_BROWSERS === "1" ||
  !!process.env.DESKHAND_TEST_FILTER;
const gatedRuns = GATED.map((group) => {
  const sha256 = inputsHash(group);
  return { ...group, sha256, runs: ALL_GATED || recorded[group.name]?.sha256 !== sha256 };
});
const skipped = new Set(gatedRuns.filter((g) => !g.runs).flatMap((g) => g.files));
const desktop = files("test/desktop").filter((f) => !skipped.has(f));
for (const group of gatedRuns.filter((g) => !g.runs))
  console.log(
    `# ${group.files.map((f) => f.split("/").at(-1)).join(" and ")}: their inputs are as when they passed on ${recorded[group.name].date} (${GATED_RECORD}); DESKHAND_DESKTOP_LANES=1 runs them`,
  );
// An acting reply ends with the view (src/tools/view.ts), a read of the window in front: about 0.3 s
// an act here, over four minutes a lane. The desktop and toolkit tests read the effects they assert
// themselves, so their acts leave it out (DESKHAND_VIEW=off); the tests of the view ask for it.
const NO_VIEW = { DESKHAND_VIEW: "off" };
const shared = desktop.filter((f) => !OWN_DESKTOP.includes(f));
const own = desktop.filter((f) => OWN_DESKTOP.includes(f));
const worker = (list) => ["scripts/test-worker.mjs", ...nodeTest([]), "--", ...list];
if (shared.length) {
  const apps = ["gtk3-widget-factory", "gtk4-widget-factory", SWING_FIXTURE];
  // One desktop sandbox for these: two at once on two CPUs took longer in all and failed what one
  // does not (a test's extra app, slow to register beside the other desktop, was left behind).
  desktopJobs.push({
    name: "desktop",
    args: sandboxRun([], apps, worker(shared)),
    stream: true,
    env: {
      ...NO_VIEW,
      // Minimized while a file that does not name them runs (test-worker.mjs): they draw all the while.
      DESKHAND_IDLE_WINDOWS: JSON.stringify([
        {
          title: "GTK Widget Factory",
          named: ["TITLES.gtk4", "(TITLES)", "GTK Widget Factory", "gtk4-widget-factory"],
        },
        { title: "gtk3-widget-factory", named: ["TITLES.gtk3", "(TITLES)", "gtk3-widget-factory"] },
      ]),
    },
  });
}

// The toolkit contract suite: one sandbox per toolkit app, so a heavy browser or office suite never
// shares a desktop with another. DESKHAND_TOOLKITS=qt,firefox picks some.
const TOOLKIT_APPS = {
  gtk3: "gtk3-widget-factory",
  gtk4: "gtk4-widget-factory",
  gtk2: "gtk-demo",
  swing: SWING_FIXTURE,
  qt: "/usr/lib/x86_64-linux-gnu/qt5/examples/widgets/widgets/styles/styles",
  firefox: "test/fixtures/web/firefox",
  chromium: "test/fixtures/web/chromium",
  calc: "soffice --calc --norestore --nologo",
};
const WAYLAND_TOOLKITS = ["gtk3", "gtk4", "qt", "firefox", "chromium"];
const SCALED_TOOLKITS = ["gtk3", "gtk4", "qt"];
/**
 * KDE's and GNOME's contract lanes run with DESKHAND_DESKTOP_LANES=1 (its older name,
 * DESKHAND_DESKTOP_BROWSERS=1, too): CI's 20 minutes no longer hold them, and kde.test.ts and
 * gnome.test.ts drive GTK and Qt apps on both desktops in every run. The ledger keeps their last
 * results, dated (docs/ledger).
 */
const DESKTOP_LANES =
  process.env.DESKHAND_DESKTOP_LANES === "1" || process.env.DESKHAND_DESKTOP_BROWSERS === "1";
const DESKTOP_TOOLKITS = DESKTOP_LANES ? WAYLAND_TOOLKITS : [];
const toolkits = (process.env.DESKHAND_TOOLKITS ?? Object.keys(TOOLKIT_APPS).join(","))
  .split(",")
  .filter(Boolean);
const contract = files("test/toolkits");
const ledgerDir = mkdtempSync(join(tmpdir(), "deskhand-ledger-"));
const APP_WAIT = ["--app-timeout-ms", "90000"];
if (contract.length) {
  for (const toolkit of toolkits) {
    jobs.push({
      name: `toolkit-${toolkit}`,
      args: sandboxRun(APP_WAIT, [TOOLKIT_APPS[toolkit]], nodeTest(contract)),
      env: { ...NO_VIEW, DESKHAND_TOOLKIT: toolkit, DESKHAND_LEDGER_DIR: ledgerDir },
    });
  }
  // The same suite on a screen scaled by 2 (issue 38), for GTK and Qt, which scale themselves while
  // their extents stay in their own points (Java and the browsers: test/desktop/scaled-apps.test.ts).
  for (const toolkit of toolkits.filter((t) => SCALED_TOOLKITS.includes(t))) {
    jobs.push({
      name: `scaled-${toolkit}`,
      args: sandboxRun(
        ["--scale", "2", "--size", "2560x2048", ...APP_WAIT],
        [TOOLKIT_APPS[toolkit]],
        nodeTest(contract.filter((f) => f.endsWith("/contract.test.ts"))),
      ),
      env: {
        ...NO_VIEW,
        DESKHAND_TOOLKIT: toolkit,
        DESKHAND_LEDGER_DIR: ledgerDir,
        DESKHAND_LEDGER_SCALE: "2",
      },
    });
  }
  // The same suite under Wayland (headless sway, no XWayland), for the toolkits that run natively
  // there: Swing needs an X server, and LibreOffice is left to the X11 run.
  const waylandSuite = contract.filter((f) => f.endsWith("/contract.test.ts"));
  for (const toolkit of waylandSuite.length ? toolkits.filter((t) => WAYLAND_TOOLKITS.includes(t)) : []) {
    jobs.push({
      name: `wayland-${toolkit}`,
      args: sandboxRun(["--wayland", ...APP_WAIT], [TOOLKIT_APPS[toolkit]], nodeTest(waylandSuite)),
      env: { ...NO_VIEW, DESKHAND_TOOLKIT: toolkit, DESKHAND_LEDGER_DIR: ledgerDir },
    });
    // And under KDE Plasma's KWin and GNOME Shell, headless (issue 42).
    for (const desk of DESKTOP_TOOLKITS.includes(toolkit) ? ["kde", "gnome"] : [])
      jobs.push({
        name: `${desk}-${toolkit}`,
        args: sandboxRun([`--${desk}`, ...APP_WAIT], [TOOLKIT_APPS[toolkit]], nodeTest(waylandSuite)),
        env: { ...NO_VIEW, DESKHAND_TOOLKIT: toolkit, DESKHAND_LEDGER_DIR: ledgerDir },
      });
  }
}
// The typecheck (tests and test/types/ included; the build checked src/) takes a lane's first
// minute, beside the desktop's start, rather than a minute before everything.
// It and the unit tests use no desktop: they run in a lane of their own beside the pool.
const noDesktop = [];
if (!process.env.DESKHAND_TEST_FILTER)
  noDesktop.push({ name: "typecheck", args: ["node_modules/typescript/bin/tsc", "-p", "tsconfig.json"] });
// The unit tests in one process: loading TypeScript anew for each of 70 files took most of their
// two minutes. They share no desktop, and none may depend on another's leftovers. Imported
// statically, so every file's tests are declared before any runs (dynamic imports one after
// another raced the runner on a loaded machine: it ran the first file's and ended).
if (unit.length) {
  mkdirSync("build", { recursive: true });
  writeFileSync(
    "build/unit-tests.test.mjs",
    unit.map((file) => `import ${JSON.stringify(`../${file}`)};`).join("\n"),
  );
  noDesktop.push({ name: "unit", args: nodeTest(["build/unit-tests.test.mjs"]) });
}
if (own.length)
  desktopJobs.push({ name: "desktop-own", args: sandboxRun([], [], worker(own)), env: NO_VIEW });
// Chromium without renderer accessibility: the tree is known to be incomplete, and must say so.
const incomplete = files("test/incomplete");
if (toolkits.includes("chromium") && incomplete.length) {
  const app = `${TOOLKIT_APPS.chromium} --no-renderer-accessibility`;
  jobs.push({ name: "incomplete-chromium", args: sandboxRun(APP_WAIT, [app], nodeTest(incomplete)) });
}

// The longest toolkit suites first (LibreOffice, then the browsers: 50–110 s each, the rest 10–50 s),
// so that the lanes end together: one of them last left the other lane idle for its length.
const HEAVY = ["toolkit-calc", "toolkit-firefox", "toolkit-chromium"];
const heavyFirst = (job) => (HEAVY.includes(job.name) ? HEAVY.indexOf(job.name) : HEAVY.length);
jobs.sort((a, b) => heavyFirst(a) - heavyFirst(b));
// One pool: the shared desktop's long job holds one lane; the other takes the own-desktop files and
// the toolkits in turn, and the first lane free takes what is left. Beside it, the typecheck and the
// unit tests, one after the other: they wait on no app, and fill the time the desktops wait on theirs.
// Letting that lane take toolkits once the unit tests end (three jobs at once all the way) took the
// whole run from 18:20 to 19:35 here: the desktop files ran a quarter slower, a CPU short.
const lexicon = lexiconJobs();
const noDesktopDone = runJobs(noDesktop, 1);
const learnt = await lexicon;
let status = Math.max(learnt, ...(await Promise.all([noDesktopDone, runJobs([...desktopJobs, ...jobs])])));
if (contract.length && toolkits.length) {
  // The ledger is regenerated from what the suite just saw. Only a whole run (every toolkit, no
  // filter) rewrites the doc; a run of some toolkits writes its ledger beside the build.
  const everyToolkit =
    toolkits.length === Object.keys(TOOLKIT_APPS).length && !process.env.DESKHAND_TEST_FILTER;
  const ledger = everyToolkit ? "docs/toolkits.md" : "build/toolkits.partial.md";
  status =
    (await runJob({
      name: "ledger",
      args: ["scripts/toolkit-ledger.mjs", ledgerDir, ledger, ...(everyToolkit ? ["docs/ledger"] : [])],
    })) || status;
}
// A whole run that passed records what the gated groups it ran passed on.
if (status === 0 && !process.env.DESKHAND_TEST_FILTER && !process.env.DESKHAND_TOOLKITS) {
  const today = new Date().toISOString().slice(0, 10);
  const record = Object.fromEntries(
    gatedRuns.map((g) => [g.name, g.runs ? { sha256: g.sha256, date: today } : recorded[g.name]]),
  );
  writeFileSync(GATED_RECORD, `${JSON.stringify(record, null, 1)}\n`);
}
process.exit(status);
