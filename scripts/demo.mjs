// `npm run demo`: a private headless desktop with gtk3-widget-factory, its window list, and a snapshot.
import { spawnSync } from "node:child_process";

const deskhand = "node dist/frontends/cli/main.js";
const script = [
  `echo "$ deskhand windows"`,
  `${deskhand} windows`,
  `echo`,
  `echo "$ deskhand snapshot --title gtk3-widget-factory --visible-only --max-nodes 60"`,
  `${deskhand} snapshot --title gtk3-widget-factory --visible-only --max-nodes 60`,
].join(" && ");
const result = spawnSync(
  process.execPath,
  ["dist/frontends/cli/main.js", "sandbox", "run", "--app", "gtk3-widget-factory", "--", "sh", "-c", script],
  { stdio: "inherit" },
);
process.exit(result.status ?? 1);
