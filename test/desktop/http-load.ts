// A `deskhand mcp --http` process and its clients, for the HTTP tests and bench/http: start the server
// on a free loopback port, connect SDK clients with the token, and drive a mixed load of calls from
// several clients at once, checking every answer.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

export const CLI = ["dist/frontends/cli/main.js"];

export interface HttpServerProcess {
  url: URL;
  child: ChildProcess;
  exited: Promise<number | null>;
  stderr: () => string;
}

export async function startHttpServer(
  env: NodeJS.ProcessEnv,
  args: string[] = ["--http", "127.0.0.1:0"],
): Promise<HttpServerProcess> {
  const child = spawn(process.execPath, [...CLI, "mcp", ...args], {
    stdio: ["ignore", "ignore", "pipe"],
    env,
  });
  let log = "";
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const url = await new Promise<URL>((resolve, reject) => {
    // A minute, as every wait for a condition in the tests: a loaded machine starts node slowly.
    const timer = setTimeout(() => reject(new Error(`no address in 60 s: ${log}`)), 60_000);
    child.stderr!.on("data", (chunk: Buffer) => {
      log += chunk.toString();
      const found = /serving MCP at (http:\/\/\S+\/mcp)/.exec(log);
      if (found) {
        clearTimeout(timer);
        resolve(new URL(found[1]!));
      }
    });
    void exited.then((code) => reject(new Error(`the server exited with ${code}: ${log}`)));
  });
  return { url, child, exited, stderr: () => log };
}

export async function httpClient(
  url: URL,
  token: string,
  /** sessionId: join that session as a client that reconnects does, without initialize or a stream of its own. */
  options: { name?: string; elicitation?: boolean; sessionId?: string } = {},
): Promise<Client> {
  const client = new Client(
    { name: options.name ?? "deskhand-http-test", version: "0" },
    options.elicitation ? { capabilities: { elicitation: {} } } : {},
  );
  await client.connect(
    new StreamableHTTPClientTransport(url, {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
      ...(options.sessionId ? { sessionId: options.sessionId } : {}),
    }),
  );
  return client;
}

export type ToolResult = {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: any;
};

export const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as ToolResult;

export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

export interface LoadResult {
  calls: number;
  failures: string[];
  ms: number;
  /** Per kind of call: count and median ms. */
  kinds: Record<string, { count: number; median: number }>;
  /** Characters read back exactly, and characters sent: equal when none was lost. */
  typed: number;
  attemptedTyping: number;
  /** Typing calls the gate stopped after their first word, the field slow to show it under load. */
  late: string[];
}

/**
 * `clients` sessions at once, each making `calls` calls in turn: snapshots, finds, `act` invokes and
 * typing into the Swing fixture's Name field (cleared first; the reply must read back exactly what
 * this client typed: one typist at a time, no character lost).
 */
export async function runLoad(
  url: URL,
  token: string,
  window: string,
  clients: number,
  calls: number,
): Promise<LoadResult> {
  const sessions = await Promise.all(
    Array.from({ length: clients }, (_, i) => httpClient(url, token, { name: `load-${i}` })),
  );
  const failures: string[] = [];
  const times: Record<string, number[]> = { snapshot: [], find: [], act: [], type_text: [] };
  let typed = 0;
  let attemptedTyping = 0;
  const late: string[] = [];
  const started = performance.now();
  await Promise.all(
    sessions.map(async (client, c) => {
      const target = { kind: "title", glob: window };
      const field = await call(client, "find", { target, role: "text", name: "Name" });
      const alpha = await call(client, "find", { target, role: "push button", name_contains: "Alpha" });
      const fieldRef = field.structuredContent?.matches?.[0]?.ref;
      const alphaRef = alpha.structuredContent?.matches?.[0]?.ref;
      if (!fieldRef || !alphaRef) {
        failures.push(`client ${c}: the fixture's Name field or Alpha button was not found`);
        return;
      }
      for (let i = 0; i < calls; i++) {
        const kind = i % 10 < 4 ? "snapshot" : i % 10 < 6 ? "find" : i % 10 < 8 ? "act" : "type_text";
        const t = performance.now();
        try {
          if (kind === "snapshot") {
            const r = await call(client, "snapshot", { target, maxDepth: 8, maxNodes: 60 });
            if (r.isError || !/frame "Deskhand Fixture"/.test(r.content[0]?.text ?? ""))
              failures.push(`client ${c} call ${i}: snapshot: ${r.content[0]?.text?.slice(0, 200)}`);
          } else if (kind === "find") {
            const r = await call(client, "find", { target, role: "push button", name_contains: "Beta" });
            if (r.isError || r.structuredContent?.total !== 1)
              failures.push(`client ${c} call ${i}: find: ${r.content[0]?.text?.slice(0, 200)}`);
          } else if (kind === "act") {
            const r = await call(client, "act", { ref: alphaRef, action: { kind: "invoke" } });
            if (r.isError) failures.push(`client ${c} call ${i}: act: ${r.content[0]?.text?.slice(0, 200)}`);
          } else {
            const text = `c${c}-${i} çé✓`;
            attemptedTyping += [...text].length;
            const r = await call(client, "type_text", {
              ref: fieldRef,
              text,
              clear: true,
              intent: "Type a load-test line into the Name field",
            });
            const status = r.structuredContent?.status;
            const readBack = r.structuredContent?.result?.read_back;
            // The gate's honest stop on a loaded machine: the field did not show the first word within
            // its bound, so the rest was not typed blind. Said, counted, never a lost character.
            if (
              status === "refused" &&
              /neither moved nor took it as text within \d+ s/.test(r.content[0]?.text ?? "")
            ) {
              late.push(`client ${c} call ${i}`);
              attemptedTyping -= [...text].length;
            } else if (status !== "done" || readBack !== "exact")
              failures.push(
                `client ${c} call ${i}: type_text ${status}, read back ${readBack}: ${r.content[0]?.text}`,
              );
            else typed += [...text].length;
          }
        } catch (error) {
          failures.push(`client ${c} call ${i}: ${kind} threw ${(error as Error).message}`);
        }
        times[kind]!.push(performance.now() - t);
      }
    }),
  );
  const ms = performance.now() - started;
  await Promise.all(sessions.map((s) => s.close()));
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  return {
    calls: clients * calls,
    failures,
    ms,
    kinds: Object.fromEntries(
      Object.entries(times).map(([k, v]) => [k, { count: v.length, median: median(v) }]),
    ),
    typed,
    attemptedTyping,
    late,
  };
}
