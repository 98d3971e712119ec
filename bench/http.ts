// bench/http: `deskhand mcp --http` under load on loopback: 8 SDK clients making 200 mixed calls each
// (snapshot, find, act, type_text) against the Swing fixture, as test/desktop/http.test.ts does, with
// the time, each kind's median and the server's memory. Figures go into docs/benchmarks.md by hand.
import { call, httpClient, rssMb, runLoad, startHttpServer } from "../test/desktop/http-load.js";

const TOKEN = "bench-token-0123456789abcdef";
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 8);
const CALLS = Number(process.env.BENCH_CALLS ?? 200);

const server = await startHttpServer({
  ...process.env,
  DESKHAND_TOKEN: TOKEN,
  DESKHAND_AUDIT: "/tmp/deskhand-bench-http-audit.jsonl",
});
const warm = await httpClient(server.url, TOKEN);
await call(warm, "snapshot", { target: { kind: "title", glob: "Deskhand Fixture" } });
await warm.close();
const before = rssMb(server.child.pid!);
const load = await runLoad(server.url, TOKEN, "Deskhand Fixture", CLIENTS, CALLS);
const after = rssMb(server.child.pid!);
console.log(`# bench/http · ${CLIENTS} clients × ${CALLS} calls on loopback`);
console.log(
  "| calls | failures | wall time | calls/s | snapshot | find | act | type_text | characters typed (read back exact) | RSS before → after |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|");
const m = (k: string) => `${load.kinds[k]!.median.toFixed(0)} ms`;
console.log(
  `| ${load.calls} | ${load.failures.length} | ${(load.ms / 1000).toFixed(1)} s | ${(load.calls / (load.ms / 1000)).toFixed(1)} | ${m("snapshot")} | ${m("find")} | ${m("act")} | ${m("type_text")} | ${load.typed} of ${load.attemptedTyping} | ${before.toFixed(0)} → ${after.toFixed(0)} MB |`,
);
for (const failure of load.failures.slice(0, 5)) console.log(`failure: ${failure}`);
server.child.kill("SIGTERM");
console.log(`exit status after SIGTERM: ${await server.exited}`);
process.exit(load.failures.length > 0 ? 1 : 0);
