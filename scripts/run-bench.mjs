// `npm run bench`: the benchmarks inside a sandbox with the apps they measure.
import { spawnSync } from "node:child_process";

const SWING =
  "java -Djavax.accessibility.assistive_technologies=org.GNOME.Accessibility.AtkWrapper " +
  "-cp build/fixtures:/usr/share/java/java-atk-wrapper.jar DeskhandFixture";
const EDITOR = SWING.replace("DeskhandFixture", "DeskhandEditor");
// jEdit from fresh settings each run: its first start opens its Help window beside the main one, and
// -noserver keeps it from handing the start to a jEdit already running.
const JEDIT = "jedit -noserver -settings=$(mktemp -d /tmp/deskhand-bench-jedit-XXXXXX)";
const ALL = ["gtk4-widget-factory", SWING, EDITOR, "soffice --calc --norestore --nologo"];
// Each bench gets the apps it measures; input needs only the Swing fixture.
const APPS = {
  snapshot: [...ALL, JEDIT],
  eventloop: [
    ...ALL,
    "/usr/bin/python3 test/fixtures/dialogs/gtk3_huge.py 'Deskhand huge' /tmp/deskhand-bench-huge.log",
  ],
  input: [SWING],
  http: [SWING],
  run: [SWING],
  soak: [SWING],
  // bench/gate starts its own windows, one per toolkit, with the labels of its table.
  gate: [],
  wayland: ["/usr/bin/python3 test/fixtures/dialogs/gtk3_editor.py 'Wayland Bench'"],
  kde: ["/usr/bin/python3 test/fixtures/dialogs/gtk3_editor.py 'KDE Bench'"],
  gnome: ["/usr/bin/python3 test/fixtures/dialogs/gtk3_editor.py 'GNOME Bench'"],
  pixels: [`${SWING.replace("DeskhandFixture", "DeskhandCanvas")} /tmp/deskhand-bench-pixels-canvas.json`],
  ocr: [
    "/usr/bin/python3 test/fixtures/ocr/gtk3_canvas.py /tmp/deskhand-bench-gtk3-canvas.json",
    `${SWING.replace("DeskhandFixture", "DeskhandCanvas")} /tmp/deskhand-bench-swing-canvas.json`,
    "soffice --calc --norestore --nologo",
  ],
};
const benches = (
  process.argv[2] ??
  "snapshot,act,input,wayland,kde,gnome,eventloop,ocr,pixels,http,run,tokens,vocabulary,gate"
).split(",");
// Benches that need no desktop.
const ALONE = new Set(["vocabulary"]);
// bench/tokens: one sandbox per app of the toolkit contract suite, like the tests.
const TOOLKIT_APPS = {
  gtk3: "gtk3-widget-factory",
  gtk4: "gtk4-widget-factory",
  swing: SWING,
  qt: "/usr/lib/x86_64-linux-gnu/qt5/examples/widgets/widgets/styles/styles",
  firefox: "test/fixtures/web/firefox",
  chromium: "test/fixtures/web/chromium",
  calc: "soffice --calc --norestore --nologo",
};
let status = 0;
for (const bench of benches) {
  if (bench === "tokens") {
    status ||=
      spawnSync(process.execPath, ["--import", "tsx", "bench/catalog.ts"], { stdio: "inherit" }).status ?? 1;
    console.log("\n# bench/tokens · characters an agent reads");
    console.log(
      "| app | default snapshot | format full | OSWorld-style | default ÷ OSWorld (target ≤ 2×) | since, after typing | of full (target ≤ 10%) | since, after a press | observe | act reply, with its view | type_text reply, with its view |",
    );
    console.log("|---|---|---|---|---|---|---|---|---|---|---|");
    for (const [toolkit, app] of Object.entries(TOOLKIT_APPS)) {
      if (process.env.BENCH_ONLY && !toolkit.includes(process.env.BENCH_ONLY)) continue;
      const args = [
        "dist/frontends/cli/main.js",
        "sandbox",
        "run",
        "--app-timeout-ms",
        "90000",
        "--app",
        app,
      ];
      args.push("--", process.execPath, "--import", "tsx", "bench/tokens.ts");
      const env = { ...process.env, DESKHAND_TOOLKIT: toolkit };
      // Every app is measured, whichever failed before it.
      status = (spawnSync(process.execPath, args, { stdio: "inherit", env }).status ?? 1) || status;
    }
    continue;
  }
  if (ALONE.has(bench)) {
    status ||=
      spawnSync(process.execPath, ["--import", "tsx", `bench/${bench}.ts`], { stdio: "inherit" }).status ?? 1;
    continue;
  }
  const args = ["dist/frontends/cli/main.js", "sandbox", "run", "--app-timeout-ms", "60000"];
  // bench/wayland measures the same input on a headless sway.
  if (bench === "wayland") args.push("--wayland");
  // bench/kde the same on a headless KWin.
  if (bench === "kde") args.push("--kde");
  // bench/gnome the same on a headless GNOME Shell.
  if (bench === "gnome") args.push("--gnome");
  // BENCH_ONLY=jedit also starts only the apps whose command names it (all of them when none does).
  const only = process.env.BENCH_ONLY?.toLowerCase();
  const apps = APPS[bench] ?? ALL;
  const named = only ? apps.filter((app) => app.toLowerCase().includes(only)) : [];
  for (const app of named.length > 0 ? named : apps) args.push("--app", app);
  args.push("--", process.execPath, "--import", "tsx", `bench/${bench}.ts`);
  status ||= spawnSync(process.execPath, args, { stdio: "inherit" }).status ?? 1;
}
process.exit(status);
