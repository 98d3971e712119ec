// bench/soak: 1,000 cycles against a `deskhand serve` process (the compiled server, as users run it):
// snapshot the Swing fixture, set its Name field, re-read the field. Prints the server's RSS after
// warm-up and at the end, and the slope of a least-squares line through it.
// Run with `npm run bench -- soak` (BENCH_CYCLES changes the count).
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { connectionPid, getAccessibilityBusAddress, openSessionBus } from "../src/platform/atspi/bus.js";
import { DBusConnection } from "../src/platform/atspi/dbus.js";

/**
 * The server's connections to the accessibility bus and their match rules, from the bus daemon's own
 * statistics (org.freedesktop.DBus.Debug.Stats.GetAllMatchRules): what deskhand holds, not what it says.
 */
async function busFootprint(
  a11y: DBusConnection,
  pid: number,
): Promise<{ connections: number; matchRules: number }> {
  const [all] = await a11y.call(
    {
      destination: "org.freedesktop.DBus",
      path: "/org/freedesktop/DBus",
      iface: "org.freedesktop.DBus.Debug.Stats",
      member: "GetAllMatchRules",
    },
    3000,
  );
  let connections = 0;
  let matchRules = 0;
  for (const [name, rules] of all as [string, string[]][]) {
    if ((await connectionPid(a11y, name, 3000).catch(() => -1)) !== pid) continue;
    connections++;
    matchRules += rules.length;
  }
  return { connections, matchRules };
}

const CYCLES = Number(process.env.BENCH_CYCLES ?? 1000);
/** The node flags in the `deskhand` bin's first line: the server runs as users run it. */
const BIN_FLAGS = readFileSync("src/frontends/cli/main.ts", "utf8")
  .split("\n")[0]!
  .replace(/^#!\/usr\/bin\/env -S node ?/, "");
const WARMUP = Math.min(100, Math.floor(CYCLES / 10));

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

async function main(): Promise<void> {
  const server = spawn(
    process.execPath,
    [
      ...(process.env.SOAK_NODE_FLAGS ?? BIN_FLAGS).split(" ").filter(Boolean),
      "dist/frontends/cli/main.js",
      "serve",
    ],
    {
      stdio: ["pipe", "pipe", "inherit"],
    },
  );
  let buffered = "";
  const waiting: ((line: string) => void)[] = [];
  server.stdout.on("data", (chunk: Buffer) => {
    buffered += chunk.toString();
    let newline = buffered.indexOf("\n");
    while (newline >= 0) {
      waiting.shift()?.(buffered.slice(0, newline));
      buffered = buffered.slice(newline + 1);
      newline = buffered.indexOf("\n");
    }
  });
  let id = 0;
  const request = (method: string, params: unknown) =>
    new Promise<any>((resolve, reject) => {
      waiting.push((line) => {
        const response = JSON.parse(line);
        if (response.ok) resolve(response.result);
        else reject(new Error(`${method}: ${response.error.code} ${response.error.message}`));
      });
      server.stdin.write(`${JSON.stringify({ id: ++id, method, params })}\n`);
    });
  const windows = await request("windows", {});
  const hwnd = windows.windows.find((w: { title: string }) => w.title === "Deskhand Fixture").hwnd;
  const session = await openSessionBus(process.env.DBUS_SESSION_BUS_ADDRESS, 3000);
  const a11y = await DBusConnection.open(await getAccessibilityBusAddress(session, 3000), {
    timeoutMs: 3000,
  });
  session.close();
  let footprintAtWarmup = { connections: 0, matchRules: 0 };
  const rss: number[] = [];
  const started = Date.now();
  for (let cycle = 0; cycle < CYCLES; cycle++) {
    const snap = await request("snapshot", { scope: "hwnd", hwnd, maxDepth: 30 });
    const name = snap.elements.find(
      (e: { role: string; name: string }) => e.role === "text" && e.name === "Name",
    );
    await request("set_value", { ref: name.ref, value: `cycle ${cycle}`, waitMs: 0 });
    const reread = await request("snapshot", { ref: name.ref, maxDepth: 0 });
    if (reread.elements[0].value !== `cycle ${cycle}`)
      throw new Error(`cycle ${cycle}: read back ${reread.elements[0].value}`);
    rss.push(rssOf(server.pid!));
    if (cycle === WARMUP) footprintAtWarmup = await busFootprint(a11y, server.pid!);
  }
  const footprintAtEnd = await busFootprint(a11y, server.pid!);
  a11y.close();
  server.stdin.end();
  const tail = rss.slice(WARMUP);
  const n = tail.length;
  const meanX = (n - 1) / 2;
  const meanY = tail.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  tail.forEach((y, x) => {
    num += (x - meanX) * (y - meanY);
    den += (x - meanX) ** 2;
  });
  const slope = den ? num / den : 0;
  console.log(
    `# bench/soak · ${CYCLES} cycles of snapshot, set_value, re-read through deskhand serve · ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  console.log(
    `server RSS after warm-up (cycle ${WARMUP}): ${tail[0]?.toFixed(1)} MB; at the end: ${rss.at(-1)?.toFixed(1)} MB; max ${Math.max(...rss).toFixed(1)} MB`,
  );
  console.log(
    `slope after warm-up: ${(slope * 1000).toFixed(2)} MB per 1,000 cycles (target: RSS ≤ 100 MB and flat)`,
  );
  console.log(
    `the server on the accessibility bus, by the bus daemon's statistics: at warm-up ${footprintAtWarmup.connections} connection(s), ` +
      `${footprintAtWarmup.matchRules} match rule(s); at the end ${footprintAtEnd.connections}, ${footprintAtEnd.matchRules} ` +
      `(target: no growth)`,
  );
}

await main();
