// `npm run bench`: the benchmarks inside a sandbox with the apps they measure.
import { spawnSync } from "node:child_process";

const SWING =
  "java -Djavax.accessibility.assistive_technologies=org.GNOME.Accessibility.AtkWrapper " +
  "-cp build/fixtures:/usr/share/java/java-atk-wrapper.jar DeskhandFixture";
const EDITOR = SWING.replace("DeskhandFixture", "DeskhandEditor");
const ALL = ["gtk4-widget-factory", SWING, EDITOR, "soffice --calc --norestore --nologo"];
// Each bench gets the apps it measures; input needs only the Swing fixture.
const APPS = { input: [SWING] };
const benches = (process.argv[2] ?? "snapshot,act,input").split(",");
let status = 0;
for (const bench of benches) {
  const args = ["dist/frontends/cli/main.js", "sandbox", "run", "--app-timeout-ms", "60000"];
  for (const app of APPS[bench] ?? ALL) args.push("--app", app);
  args.push("--", process.execPath, "--import", "tsx", `bench/${bench}.ts`);
  status ||= spawnSync(process.execPath, args, { stdio: "inherit" }).status ?? 1;
}
process.exit(status);
