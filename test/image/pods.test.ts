// The image and the fleet (issue 58): image/build makes the image from Debian's packages and npm
// alone, and image/desktop.yaml, the manifest docs/remote.md shows, runs twice under `podman kube
// play` (desktop-1 and desktop-2). An MCP client (the official TypeScript SDK's) drives each over
// Streamable HTTP by its Service name, as a client in the cluster would: each sees only its own
// desktop and acts on it, refuses the other's token, and a pod killed and restarted tells the
// client its session is gone, plainly. Run by the image job (.ci/image), never by `npm test`.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Readable } from "node:stream";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const PODS = ["desktop-1", "desktop-2"];
const PORT = 8765;
const env = { ...process.env, CONTAINERS_CONF: resolve("image/containers.conf") };
const podman = (...args: string[]) => execFileSync("podman", args, { env, encoding: "utf8" }).trim();
const dir = mkdtempSync(join(tmpdir(), "deskhand-pods-"));

interface Pod {
  name: string;
  token: string;
  /** The pod's address on podman's network: what the cluster's DNS would give for its Service. */
  ip: string;
}

/** The manifest for one desktop: desktop-1's, renamed, with this image and a token of its own. */
function manifest(
  name: string,
  image: string,
  token: string,
): { secret: Record<string, string>; rest: string } {
  // podman publishes a containerPort on the host's same port (a cluster does not): two pods would
  // both take 8765 there. The pods are reached at their own addresses, as a Service reaches them.
  const text = readFileSync("image/desktop.yaml", "utf8")
    .replaceAll("desktop-1", name)
    .replace("localhost/deskhand-desktop:latest", image)
    .replace(/^\s+ports: \[\{ containerPort: 8765 \}\]\n/m, "");
  assert.doesNotMatch(text, /containerPort/, "the port line is as the manifest writes it");
  const docs = text.split(/^---$/m);
  const secretDoc = docs.find((d) => /^kind: Secret$/m.test(d));
  assert.ok(secretDoc, "the manifest holds the token's Secret");
  const placeholder = /^\s+token: (\S+)$/m.exec(secretDoc)?.[1];
  assert.ok(placeholder, "the Secret's stringData names a token");
  // podman 4.3 reads a Secret's key from a podman secret holding its data as JSON (base64 values);
  // its own kube play of a Secret stores YAML and then cannot read it. So the Secret is made here,
  // from the manifest's document, and the rest is played.
  return {
    secret: { token: Buffer.from(token).toString("base64") },
    rest: docs.filter((d) => d !== secretDoc).join("---"),
  };
}

/** The container of a pod that podman's kube play made from a Deployment. */
const container = (name: string) => `${name}-pod-0-deskhand`;

function start(pod: Pod, image: string): void {
  const { secret, rest } = manifest(pod.name, image, pod.token);
  const secretFile = join(dir, `${pod.name}.json`);
  writeFileSync(secretFile, JSON.stringify(secret));
  const yamlFile = join(dir, `${pod.name}.yaml`);
  writeFileSync(yamlFile, rest);
  try {
    podman("secret", "rm", `${pod.name}-token`);
  } catch {
    // None from an earlier run.
  }
  podman("secret", "create", `${pod.name}-token`, secretFile);
  podman("kube", "play", "--replace", yamlFile);
}

async function healthy(ip: string, within = 60_000): Promise<void> {
  const deadline = Date.now() + within;
  for (;;) {
    const ok = await fetch(`http://${ip}:${PORT}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${ip}:${PORT}/health did not answer ok in ${within} ms`);
    await sleep(500);
  }
}

/**
 * A fetch that reaches a Service name as the cluster's DNS would: the name's pod address, with the
 * name kept as the Host (undici's fetch sends the address instead, which deskhand refuses).
 */
function clusterFetch(addresses: Map<string, string>) {
  return (url: string | URL, init: RequestInit = {}): Promise<Response> =>
    new Promise((done, fail) => {
      const target = new URL(url);
      const address = addresses.get(target.hostname) ?? target.hostname;
      const headers = Object.fromEntries(new Headers(init.headers).entries());
      const req = request(
        {
          host: address,
          port: target.port,
          path: `${target.pathname}${target.search}`,
          method: init.method ?? "GET",
        },
        (res) => {
          const status = res.statusCode ?? 500;
          const body = status === 204 || status === 304 ? null : (Readable.toWeb(res) as ReadableStream);
          const out = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === "string") out.set(k, v);
          done(new Response(body, { status, headers: out }));
        },
      );
      req.setHeader("host", target.host);
      for (const [k, v] of Object.entries(headers)) req.setHeader(k, v);
      req.on("error", fail);
      init.signal?.addEventListener("abort", () => req.destroy(new Error("aborted")));
      req.end(typeof init.body === "string" ? init.body : undefined);
    });
}

async function connect(pod: Pod, addresses: Map<string, string>, token = pod.token): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`http://${pod.name}:${PORT}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
    fetch: clusterFetch(addresses),
  });
  const client = new Client({ name: "pods-test", version: "0" });
  await client.connect(transport);
  return client;
}

type Text = { type: string; text: string }[];
const textOf = (result: unknown) => ((result as { content: Text }).content[0]?.text ?? "") as string;

describe("two desktops as pods from image/desktop.yaml, each driven by its own MCP client", () => {
  const pods: Pod[] = PODS.map((name) => ({ name, token: randomBytes(24).toString("base64url"), ip: "" }));
  const addresses = new Map<string, string>();
  const clients: Client[] = [];

  before(async () => {
    const image = execFileSync("image/build", { env, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] })
      .trim()
      .split("\n")
      .at(-1)!;
    for (const pod of pods) start(pod, image);
    for (const pod of pods) {
      pod.ip = podman(
        "inspect",
        container(pod.name),
        "--format",
        "{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}",
      );
      addresses.set(pod.name, pod.ip);
      await healthy(pod.ip);
    }
  });

  after(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    for (const pod of pods) {
      try {
        podman("kube", "down", join(dir, `${pod.name}.yaml`));
        podman("secret", "rm", `${pod.name}-token`);
      } catch {
        // Already gone.
      }
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it("each client lists its tools and sees its own desktop's window", async () => {
    for (const pod of pods) {
      const client = await connect(pod, addresses);
      clients.push(client);
      const { tools } = await client.listTools();
      assert.ok(tools.some((t) => t.name === "observe"));
      const windows = textOf(await client.callTool({ name: "windows", arguments: {} }));
      assert.match(windows, /gtk3-widget-factory/, `${pod.name}: ${windows}`);
    }
  });

  it("text set on one desktop is there, and not on the other", async () => {
    const [one, two] = clients as [Client, Client];
    const marker = `pod one ${randomBytes(4).toString("hex")}`;
    const field = { target: { kind: "title", glob: "gtk3-widget-factory" }, role: "text", nth: 0 };
    const set = await one.callTool({
      name: "act",
      arguments: { find: field, action: { kind: "set_value", text: marker }, intent: "Mark this desktop" },
    });
    assert.ok(textOf(set).includes(`= ${JSON.stringify(marker)}`), textOf(set));
    const here = textOf(
      await one.callTool({ name: "find", arguments: { ...field, nth: undefined, value_contains: marker } }),
    );
    assert.match(here, /(^|\s)1 match:/, here);
    const there = textOf(
      await two.callTool({ name: "find", arguments: { ...field, nth: undefined, value_contains: marker } }),
    );
    assert.match(there, /no match/i, there);
  });

  it("one pod's token opens no session on the other", async () => {
    const [first, second] = pods as [Pod, Pod];
    await assert.rejects(connect(first, addresses, second.token), /401|token/i);
  });

  it("a pod killed is restarted, and its client is told its session is gone, then starts a new one", async () => {
    const [first] = pods as [Pod];
    const old = clients[0]!;
    // As a crash kills it (a `podman kill` is a stop by hand, which no restart policy undoes).
    const pid = podman("inspect", container(first.name), "--format", "{{.State.Pid}}");
    process.kill(Number(pid), "SIGKILL");
    await sleep(2000);
    await healthy(first.ip, 90_000);
    const told = await old.callTool({ name: "windows", arguments: {} }).then(
      (r) => textOf(r),
      (error: Error) => error.message,
    );
    assert.match(told, /unknown session.*restart/i, told);
    const fresh = await connect(first, addresses);
    clients[0] = fresh;
    assert.match(textOf(await fresh.callTool({ name: "windows", arguments: {} })), /gtk3-widget-factory/);
  });
});
