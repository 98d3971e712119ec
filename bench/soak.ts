// bench/soak: 1,000 cycles against a `deskhand serve` process (the compiled server, as users run it):
// snapshot the Swing fixture, set its Name field, re-read the field. Prints the server's RSS and open
// descriptors after warm-up and at the end, and the slope of a least-squares line through the RSS.
// Run with `npm run bench -- soak` (BENCH_CYCLES changes the count; SOAK_FRONTEND=mcp drives
// `deskhand mcp` over stdio instead, one session whose refs outlive snapshots, three calls a cycle;
// SOAK_EVERY=100 prints the RSS and descriptors every 100 cycles).
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { getAccessibilityBusAddress, openSessionBus } from "../src/platform/atspi/bus.js";
import { connectionPid, DBusConnection } from "../src/platform/dbus.js";

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

/** Print RSS and descriptors every this many cycles (SOAK_EVERY; 0: only the summary). */
const EVERY = Number(process.env.SOAK_EVERY ?? 0);

const FRONTEND = process.env.SOAK_FRONTEND === "mcp" ? "mcp" : "serve";

/** The server's open file descriptors. */
const descriptorsOf = (pid: number) => readdirSync(`/proc/${pid}/fd`).length;

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** A server under soak: its process id, one cycle of calls, and how it ends. */
interface Driver {
  pid: number;
  cycle(n: number): Promise<void>;
  close(): Promise<void>;
}

const serverArgs = (frontend: string) => [
  ...(process.env.SOAK_NODE_FLAGS ?? BIN_FLAGS).split(" ").filter(Boolean),
  "dist/frontends/cli/main.js",
  frontend,
];

async function serveDriver(): Promise<Driver> {
  const server = spawn(process.execPath, serverArgs("serve"), { stdio: ["pipe", "pipe", "inherit"] });
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
  return {
    pid: server.pid!,
    async cycle(cycle) {
      const snap = await request("snapshot", { scope: "hwnd", hwnd, maxDepth: 30 });
      const name = snap.elements.find(
        (e: { role: string; name: string }) => e.role === "text" && e.name === "Name",
      );
      await request("set_value", { ref: name.ref, value: `cycle ${cycle}`, waitMs: 0 });
      const reread = await request("snapshot", { ref: name.ref, maxDepth: 0 });
      if (reread.elements[0].value !== `cycle ${cycle}`)
        throw new Error(`cycle ${cycle}: read back ${reread.elements[0].value}`);
    },
    async close() {
      server.stdin.end();
    },
  };
}

async function mcpDriver(): Promise<Driver> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: serverArgs("mcp"),
    env: Object.fromEntries(
      Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined),
    ),
  });
  const client = new Client({ name: "soak", version: "0" });
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown>) => {
    // An app that did not answer in time on a loaded machine is asked again, twice at most.
    for (let attempt = 0; ; attempt++) {
      const result = (await client.callTool({ name, arguments: args })) as {
        isError?: boolean;
        content: { text: string }[];
        structuredContent: any;
      };
      if (!result.isError) return result.structuredContent;
      if (attempt === 2 || !/^timeout:/.test(result.content[0]?.text ?? ""))
        throw new Error(`${name}: ${result.content[0]?.text}`);
    }
  };
  const target = { kind: "title", glob: "Deskhand Fixture" };
  return {
    pid: transport.pid!,
    async cycle(cycle) {
      // A read cut short by its time bound on a loaded machine may miss the field: read again.
      let name: { ref: string } | undefined;
      for (let attempt = 0; !name && attempt < 3; attempt++) {
        const snap = await call("snapshot", { target, maxDepth: 30, format: "full" });
        name = snap.elements.find(
          (e: { role: string; name: string }) => e.role === "text" && e.name === "Name",
        );
      }
      if (!name) throw new Error(`cycle ${cycle}: the Name field was not read in three snapshots`);
      await call("act", { ref: name.ref, action: { kind: "set_value", text: `cycle ${cycle}` } });
      const reread = await call("snapshot", { target: { kind: "element", ref: name.ref }, maxDepth: 0 });
      if (reread.elements[0].value !== `cycle ${cycle}`)
        throw new Error(`cycle ${cycle}: read back ${reread.elements[0].value}`);
    },
    close: () => client.close(),
  };
}

async function main(): Promise<void> {
  const driver = FRONTEND === "mcp" ? await mcpDriver() : await serveDriver();
  const session = await openSessionBus(process.env.DBUS_SESSION_BUS_ADDRESS, 3000);
  const a11y = await DBusConnection.open(await getAccessibilityBusAddress(session, 3000), {
    timeoutMs: 3000,
  });
  session.close();
  let footprintAtWarmup = { connections: 0, matchRules: 0 };
  let descriptorsAtWarmup = 0;
  const rss: number[] = [];
  const started = Date.now();
  for (let cycle = 0; cycle < CYCLES; cycle++) {
    await driver.cycle(cycle);
    rss.push(rssOf(driver.pid));
    // The shape, not just the ends: a leak climbs steadily, a heap that settles steps and stops.
    if (EVERY && cycle % EVERY === 0)
      console.log(
        `cycle ${cycle}: RSS ${rss.at(-1)!.toFixed(1)} MB, ${descriptorsOf(driver.pid)} descriptors`,
      );
    if (cycle === WARMUP) {
      footprintAtWarmup = await busFootprint(a11y, driver.pid);
      descriptorsAtWarmup = descriptorsOf(driver.pid);
    }
  }
  const footprintAtEnd = await busFootprint(a11y, driver.pid);
  const descriptorsAtEnd = descriptorsOf(driver.pid);
  a11y.close();
  await driver.close();
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
    `# bench/soak · ${CYCLES} cycles (${CYCLES * 3} calls) of snapshot, set_value, re-read through deskhand ${FRONTEND} · ${((Date.now() - started) / 1000).toFixed(0)} s`,
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
  console.log(
    `open descriptors: at warm-up ${descriptorsAtWarmup}; at the end ${descriptorsAtEnd} (target: no growth)`,
  );
}

await main();
