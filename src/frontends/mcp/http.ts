// MCP over Streamable HTTP, for agents that run somewhere other than the desktop. The SDK's transport
// speaks the protocol; this file decides who may speak at all:
// - a bearer token on every request (never off: from DESKHAND_TOKEN, a file of one a client, or made
//   at start);
// - Host and Origin allow-lists against DNS rebinding, checked first;
// - loopback unless `--allow-remote`;
// - one MCP session a client: its own refs and snapshots, its own elicitation for confirmations, usable
//   only with the token and from the address that opened it (a session id is not a credential);
// - shared by every session: the accessibility connection, the hands (one typist at a time), the
//   gate, the ceiling and the journal (which records the session that acted);
// - SIGTERM lets calls in flight finish (within SHUTDOWN_MS), releases held input, exits 0;
// - GET /health answers "ok" to anyone: it says nothing else.

import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { isIP } from "node:net";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { connectBackend } from "../../platform/index.js";
import type { AccessibilityBackend } from "../../platform/types.js";
import type { SafetyLevel } from "../../safety/levels.js";
import {
  createContext,
  lazily,
  type ServingInfo,
  sharedHands,
  type ToolContext,
} from "../../tools/context.js";
import { prepareGate } from "../../tools/guard.js";
import { attachRecorder } from "../../tools/recorder-slot.js";
import { Recorder } from "../../tools/recording.js";
import type { Profile } from "../profiles/index.js";
import { CallsInFlight, exitBy } from "./calls.js";
import { createMcpServer, elicitationConfirmer } from "./server.js";

/** A request body larger than this is refused, as a stdio line is. */
const MAX_BODY = 1024 * 1024;
/** How long SIGTERM waits for calls in flight before it releases input and exits. */
const SHUTDOWN_MS = 10_000;

export interface HttpOptions {
  host: string;
  port: number;
  /** Needed to bind anything but loopback. */
  allowRemote: boolean;
  tokenFile?: string;
  allowOrigins: string[];
  allowHosts: string[];
  ceiling?: SafetyLevel;
  profile?: Profile;
  /** Each session records its acting calls to this file, its session id before the extension. */
  record?: string;
  env?: NodeJS.ProcessEnv;
  /** Where the token made at start is told, once. */
  log?: (line: string) => void;
}

export class HttpConfigError extends Error {
  override readonly name = "HttpConfigError";
}

/** "8765", "127.0.0.1:8765", "[::1]:8765", "0.0.0.0:8765" → host and port. */
export function parseListen(value: string): { host: string; port: number } {
  const match = /^(?:(\[[^\]]+\]|[^:]+):)?(\d{1,5})$/.exec(value);
  const port = Number(match?.[2]);
  // Port 0 asks the system for a free one; the line on stderr names it.
  if (!match || port > 65_535)
    throw new HttpConfigError(
      `--http takes [HOST:]PORT, like 8765 or 127.0.0.1:8765; got ${JSON.stringify(value)}`,
    );
  const host = match[1] ? match[1].replace(/^\[|\]$/g, "") : "127.0.0.1";
  return { host, port };
}

function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Who may speak: one token a client, so that a session can be tied to the client that opened it. */
export interface HttpClient {
  /** Named in the journal and in refusals: the token file's name for it, or where it came from. */
  name: string;
  digest: Buffer;
}

const digest = (text: string) => createHash("sha256").update(text).digest();

/**
 * A token file holds one token a line, alone or after a client's name (`NAME TOKEN`); blank lines
 * and `#` comments are skipped. Each client's sessions are its own: another token cannot use them.
 */
export function parseTokenFile(text: string, from: string): { name: string; token: string }[] {
  const clients: { name: string; token: string }[] = [];
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const parts = line.split(/\s+/);
    const token = parts.at(-1) ?? "";
    const name = parts.length === 2 ? (parts[0] ?? "") : `client ${clients.length + 1}`;
    if (parts.length > 2)
      throw new HttpConfigError(
        `${from} line ${index + 1}: expected TOKEN or NAME TOKEN, got ${parts.length} words`,
      );
    if (token.length < 16)
      throw new HttpConfigError(`${from} line ${index + 1}: the token is shorter than 16 characters`);
    if (clients.some((c) => c.name === name))
      throw new HttpConfigError(`${from} line ${index + 1}: the name ${JSON.stringify(name)} is used twice`);
    if (clients.some((c) => c.token === token))
      throw new HttpConfigError(`${from} line ${index + 1}: the same token is given twice`);
    clients.push({ name, token });
  }
  if (clients.length === 0) throw new HttpConfigError(`${from} holds no token`);
  return clients;
}

/**
 * The clients: the token file's, else DESKHAND_TOKEN's one, else one made for this run (told once,
 * on stderr). The first token is returned too, for the caller that made it.
 */
function resolveClients(options: Pick<HttpOptions, "tokenFile" | "env" | "log">): {
  clients: HttpClient[];
  token: string;
} {
  const env = options.env ?? process.env;
  let given: { name: string; token: string }[];
  if (options.tokenFile) {
    let text: string;
    try {
      text = readFileSync(options.tokenFile, "utf8");
    } catch (error) {
      throw new HttpConfigError(
        `cannot read the token file ${options.tokenFile}: ${(error as Error).message}`,
      );
    }
    given = parseTokenFile(text, options.tokenFile);
  } else if (env.DESKHAND_TOKEN?.trim()) {
    const token = env.DESKHAND_TOKEN.trim();
    if (token.length < 16)
      throw new HttpConfigError("the token from DESKHAND_TOKEN is shorter than 16 characters");
    given = [{ name: "DESKHAND_TOKEN", token }];
  } else {
    const made = randomBytes(32).toString("base64url");
    (options.log ?? ((line) => process.stderr.write(`${line}\n`)))(
      `deskhand mcp: no DESKHAND_TOKEN or --token-file, so this token was made for this run; send it as "Authorization: Bearer ${made}"`,
    );
    given = [{ name: "the token made at start", token: made }];
  }
  return {
    clients: given.map((c) => ({ name: c.name, digest: digest(c.token) })),
    token: given[0]?.token ?? "",
  };
}

/** The client whose token the request bears, compared as digests in constant time (neither length nor prefix leaks). */
function clientOf(header: string | undefined, clients: HttpClient[]): HttpClient | undefined {
  const given = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "")?.[1];
  if (given === undefined) return undefined;
  const presented = digest(given);
  let found: HttpClient | undefined;
  // Every token is compared, so the time taken does not say which one matched.
  for (const client of clients) if (timingSafeEqual(presented, client.digest)) found ??= client;
  return found;
}

/** When this server started: a client whose session it does not know learns that it restarted. */
const STARTED = `${new Date().toISOString().slice(0, 19).replace("T", " ")} UTC`;

function refuse(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32_000, message } }));
}

async function readBody(req: IncomingMessage): Promise<{ body?: unknown; error?: [number, string] }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) return { error: [413, `request body over ${MAX_BODY} bytes`] };
    chunks.push(chunk as Buffer);
  }
  try {
    return { body: JSON.parse(Buffer.concat(chunks).toString("utf8")) };
  } catch {
    return { error: [400, "the body is not JSON"] };
  }
}

interface Session {
  /** Whose it is: the token that opened it and the address it came from; nobody else may use it. */
  client: HttpClient;
  address: string;
  transport: StreamableHTTPServerTransport;
  server: Server;
  context: ToolContext;
  /** When a request last named it: an idle session expires, and with it its refs. */
  lastUsed: number;
  /** Its requests being handled now: a busy session is never expired or evicted. */
  busy: number;
}

/** An idle session lives this long (DESKHAND_SESSION_IDLE_MS), and this many at most (DESKHAND_MAX_SESSIONS). */
const SESSION_IDLE_MS = 30 * 60_000;
const MAX_SESSIONS = 64;

function positive(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

export interface RunningHttpServer {
  address: string;
  port: number;
  token: string;
  /** Stops as SIGTERM does: calls in flight finish, held input is released. */
  shutdown(): Promise<void>;
}

/**
 * Who may reach the server, against DNS rebinding and foreign pages: the Host names (loopback names,
 * the bound address, those allowed; "any" for a server bound to every address with none named) and
 * the Origins (loopback pages, those allowed).
 */
function allowedPeers(options: HttpOptions, port: number) {
  const shownHost = isIP(options.host) === 6 ? `[${options.host}]` : options.host;
  const loopbackNames = ["127.0.0.1", "localhost", "[::1]"];
  const anyAddress = options.host === "0.0.0.0" || options.host === "::";
  const hosts: string[] | "any" =
    anyAddress && options.allowHosts.length === 0
      ? "any"
      : [...new Set([...loopbackNames, shownHost, ...options.allowHosts])].map((h) =>
          h.includes(":") && !h.startsWith("[") ? h : `${h}:${port}`,
        );
  const origins = [...new Set([...loopbackNames.map((h) => `http://${h}:${port}`), ...options.allowOrigins])];
  return { shownHost, hosts, origins };
}

/**
 * Refuses a Host or Origin not allowed, names an allowed origin on every answer (a browser client's
 * page may read it) and answers its preflight, which carries no token. True when it answered.
 */
function answeredByPeerRules(
  req: IncomingMessage,
  res: ServerResponse,
  hosts: string[] | "any",
  origins: string[],
): boolean {
  const host = (req.headers.host ?? "").toLowerCase();
  if (hosts !== "any" && !hosts.includes(host)) {
    refuse(res, 403, `Host ${JSON.stringify(host)} is not allowed`);
    return true;
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !origins.includes(origin)) {
    refuse(res, 403, `Origin ${JSON.stringify(origin)} is not allowed`);
    return true;
  }
  if (origin !== undefined) {
    res.setHeader("access-control-allow-origin", origin);
    res.setHeader("access-control-expose-headers", "mcp-session-id, www-authenticate");
    res.setHeader("vary", "Origin");
  }
  if (req.method !== "OPTIONS") return false;
  res.writeHead(204, {
    "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
    "access-control-allow-headers":
      "authorization, content-type, accept, mcp-session-id, mcp-protocol-version, last-event-id",
    "access-control-max-age": "600",
  });
  res.end();
  return true;
}

/**
 * The open sessions: opened on initialize, closed by DELETE, once idle (a client that never said
 * DELETE; refs and all), or to make room for a new one. A busy session is never closed for either.
 */
class SessionTable {
  readonly #sessions = new Map<string, Session>();
  readonly #sweeper: NodeJS.Timeout;

  constructor(
    readonly idleMs: number,
    readonly max: number,
  ) {
    this.#sweeper = setInterval(
      () => this.#sweep(),
      Math.min(60_000, Math.max(250, Math.floor(idleMs / 4))),
    ).unref();
  }

  get(id: string | string[] | undefined): Session | undefined {
    return typeof id === "string" ? this.#sessions.get(id) : undefined;
  }

  add(id: string, session: Session): void {
    this.#sessions.set(id, session);
  }

  remove(id: string): void {
    this.#sessions.delete(id);
  }

  /** Room for one more, closing the idlest if full; false when every session is busy. */
  makeRoom(): boolean {
    if (this.#sessions.size < this.max) return true;
    const idlest = [...this.#sessions]
      .filter(([, s]) => s.busy === 0)
      .sort(([, a], [, b]) => a.lastUsed - b.lastUsed)[0];
    if (idlest) this.#close(...idlest);
    return idlest !== undefined;
  }

  async closeAll(): Promise<void> {
    clearInterval(this.#sweeper);
    for (const session of this.#sessions.values()) await session.transport.close().catch(() => undefined);
  }

  #sweep(): void {
    const now = Date.now();
    for (const [id, session] of this.#sessions)
      if (session.busy === 0 && now - session.lastUsed > this.idleMs) this.#close(id, session);
  }

  #close(id: string, session: Session): void {
    this.#sessions.delete(id);
    void session.transport.close().catch(() => undefined);
    void session.context.close().catch(() => undefined);
  }
}

/** Requests being answered (POSTs: a call or its reply), so that shutdown waits for their replies. */
class Replies {
  #open = 0;
  #idle: (() => void) | undefined;

  async track(work: Promise<void>): Promise<void> {
    this.#open++;
    try {
      await work;
    } finally {
      this.#open--;
      if (this.#open === 0) this.#idle?.();
    }
  }

  /** Resolves once none is open, or after `ms`. */
  async settled(ms: number): Promise<void> {
    if (this.#open === 0) return;
    await Promise.race([
      new Promise<void>((resolve) => {
        this.#idle = resolve;
      }),
      new Promise((resolve) => setTimeout(resolve, ms)),
    ]);
  }
}

/** What every session shares, and what a request is checked against. */
interface Shared {
  options: HttpOptions;
  env: NodeJS.ProcessEnv;
  clients: HttpClient[];
  backend: ReturnType<typeof lazily<AccessibilityBackend>>;
  hands: ReturnType<typeof sharedHands>;
  sessions: SessionTable;
  replies: Replies;
  /** Every session's tool calls: SIGTERM answers each, finished or not, before the sessions close. */
  calls: CallsInFlight;
  snapshotNumbers: () => number;
  stopping: boolean;
  serving?: ServingInfo;
}

async function startMcpHttpServer(options: HttpOptions): Promise<RunningHttpServer> {
  const env = options.env ?? process.env;
  if (!isLoopback(options.host) && !options.allowRemote)
    throw new HttpConfigError(
      `binding to ${options.host} would let other machines reach this desktop; pass --allow-remote to mean it, or bind 127.0.0.1`,
    );
  prepareGate();
  const { clients, token } = resolveClients(options);
  let snapshots = 0;
  // One connection of each for every session, made on first use, made again once closed.
  const shared: Shared = {
    options,
    env,
    clients,
    backend: lazily<AccessibilityBackend>(() => connectBackend({ env })),
    hands: sharedHands(env),
    sessions: new SessionTable(
      positive(env.DESKHAND_SESSION_IDLE_MS, SESSION_IDLE_MS),
      positive(env.DESKHAND_MAX_SESSIONS, MAX_SESSIONS),
    ),
    replies: new Replies(),
    calls: new CallsInFlight(),
    snapshotNumbers: () => ++snapshots,
    stopping: false,
  };
  const http = createServer((req, res) => {
    void handle(shared, req, res).catch((error: Error) => {
      if (!res.headersSent) refuse(res, 500, `internal error: ${error.message}`);
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port, options.host, () => resolve());
  });
  const bound = http.address();
  const port = typeof bound === "object" && bound ? bound.port : options.port;
  const { shownHost, hosts, origins } = allowedPeers(options, port);
  shared.serving = {
    transport: "http",
    address: `${shownHost}:${port}`,
    loopbackOnly: isLoopback(options.host),
    origins,
    hosts,
  };
  return { address: shared.serving.address, port, token, shutdown: () => shutdown(shared, http) };
}

/** One request: the path, the peer rules, the token, then the session it names or opens. */
async function handle(shared: Shared, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = (req.url ?? "/").split("?")[0];
  if (path === "/health" && req.method === "GET") {
    res.writeHead(200, { "content-type": "text/plain" });
    res.end("ok");
    return;
  }
  if (path !== "/mcp") return refuse(res, 404, "not found: MCP is served at /mcp, health at /health");
  const { hosts, origins } = shared.serving!;
  if (answeredByPeerRules(req, res, hosts, origins)) return;
  const client = clientOf(req.headers.authorization, shared.clients);
  if (!client)
    return refuse(res, 401, "a valid bearer token is required", {
      "www-authenticate": 'Bearer realm="deskhand"',
    });
  if (shared.stopping) return refuse(res, 503, "deskhand is shutting down", { connection: "close" });
  let body: unknown;
  if (req.method === "POST") {
    const read = await readBody(req);
    if (read.error) return refuse(res, read.error[0], read.error[1]);
    body = read.body;
  }
  return inSession(shared, client, { req, res, body });
}

type Request = { req: IncomingMessage; res: ServerResponse; body: unknown };

/** The request in its session: the caller's own, or a new one when it initializes. */
async function inSession(shared: Shared, client: HttpClient, request: Request): Promise<void> {
  const { req, res, body } = request;
  const remote = req.socket.remoteAddress ?? "";
  const sessionId = req.headers["mcp-session-id"];
  const known = shared.sessions.get(sessionId);
  if (known && (known.client !== client || known.address !== remote))
    return refuse(
      res,
      403,
      "this session was opened by another client (another token, or another address); initialize a session of your own",
    );
  // A POST is a call (or a reply to one): shutdown waits for it. A GET is a stream left open.
  if (known)
    return req.method === "POST" ? shared.replies.track(handled(known, request)) : handled(known, request);
  if (sessionId !== undefined)
    return refuse(
      res,
      404,
      `unknown session: this server, up since ${STARTED}, holds no such session (it restarted, or the session ended); initialize a new one`,
    );
  if (req.method !== "POST" || !isInitializeRequest(body))
    return refuse(res, 400, "no session: the first request must be initialize");
  if (!shared.sessions.makeRoom())
    return refuse(
      res,
      503,
      `${shared.sessions.max} sessions are open and busy (DESKHAND_MAX_SESSIONS); try again shortly`,
    );
  const session = openSession(shared, client, remote);
  await session.server.connect(session.transport);
  return shared.replies.track(handled(session, request));
}

async function handled(session: Session, { req, res, body }: Request): Promise<void> {
  session.lastUsed = Date.now();
  session.busy++;
  try {
    await session.transport.handleRequest(req, res, body);
  } finally {
    session.busy--;
    session.lastUsed = Date.now();
  }
}

/** A session of its own for a client: its context (refs, snapshots, confirmations) and MCP server. */
function openSession(shared: Shared, client: HttpClient, address: string): Session {
  const { options, sessions } = shared;
  let server: Server | undefined;
  const id = randomUUID();
  const context = createContext({
    refLifetime: "while-verified",
    env: shared.env,
    connect: shared.backend.get,
    connectHands: shared.hands.get,
    ownsConnections: false,
    confirm: elicitationConfirmer(() => server),
    session: id,
    client: client.name,
    ...(shared.serving ? { serving: shared.serving } : {}),
    snapshotNumbers: shared.snapshotNumbers,
    stopping: shared.calls.halted,
    ...(options.ceiling ? { ceiling: options.ceiling } : {}),
  });
  if (options.record)
    attachRecorder(context, new Recorder(options.record.replace(/(\.json)?$/, `.${id.slice(0, 8)}$1`)));
  server = createMcpServer(context, options.profile, shared.calls);
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => id,
    onsessioninitialized: () => sessions.add(id, session),
  });
  transport.onclose = () => sessions.remove(id);
  const session: Session = { client, address, transport, server, context, lastUsed: Date.now(), busy: 0 };
  return session;
}

/** As SIGTERM: no new request, calls in flight answered, sessions closed, held input released. */
async function shutdown(shared: Shared, http: ReturnType<typeof createServer>): Promise<void> {
  if (shared.stopping) return;
  shared.stopping = true;
  http.close();
  await shared.calls.drain(SHUTDOWN_MS);
  // The calls are answered by now; what is left is their replies on the wire.
  await shared.replies.settled(1000);
  await shared.sessions.closeAll();
  // Closing the hands releases whatever is still held.
  const [b, h] = await Promise.all(
    [shared.backend.current(), shared.hands.current()].map((made) => made?.catch(() => undefined)),
  );
  await h?.close().catch(() => undefined);
  await b?.close().catch(() => undefined);
  http.closeAllConnections();
}

export async function runMcpHttpServer(options: HttpOptions): Promise<void> {
  const running = await startMcpHttpServer(options);
  process.stderr.write(`deskhand mcp: serving MCP at http://${running.address}/mcp (health: /health)\n`);
  const stop = () => {
    exitBy(0);
    void running.shutdown().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
