// MCP over stdio, with the line discipline of `serve`: a line longer than the limit is dropped as it
// streams in (never held) and answered with a JSON-RPC error, and the server keeps serving. The SDK's
// own stdio transport held every byte of a line, and past 10 MiB closed the transport, which ended
// the server with status 0 and no word.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { type JSONRPCMessage, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import { type LineEvent, LineSplitter } from "../lines.js";

/** Requests are at most this long, as over `serve`: no tool's input comes near it. */
const MCP_MAX_LINE_BYTES = 1 << 20;

const INVALID_REQUEST = -32600;
const PARSE_ERROR = -32700;

/** The id of a request too long to read, from its first or last bytes (`{"jsonrpc":"2.0","id":7,…` or `…,"id":7}`). */
export function idOf(head: string, tail: string): string | number | null {
  const found =
    /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d+|"[^"\\]{0,100}")/.exec(head) ??
    /"id"\s*:\s*(-?\d+|"[^"\\]{0,100}")\s*\}\s*$/.exec(tail);
  if (!found) return null;
  return found[1]!.startsWith('"') ? found[1]!.slice(1, -1) : Number(found[1]);
}

export class GuardedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #splitter: LineSplitter;
  #closed = false;

  constructor(
    private readonly stdin: NodeJS.ReadableStream = process.stdin,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
    maxLineBytes = MCP_MAX_LINE_BYTES,
  ) {
    this.#splitter = new LineSplitter(maxLineBytes);
  }

  readonly #ondata = (chunk: Buffer | string) => {
    for (const event of this.#splitter.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk))) {
      this.#handle(event);
    }
  };

  readonly #onend = () => {
    for (const event of this.#splitter.end()) this.#handle(event);
    void this.close();
  };

  readonly #onerror = (error: Error) => this.onerror?.(error);

  async start(): Promise<void> {
    this.stdin.on("data", this.#ondata);
    this.stdin.on("end", this.#onend);
    this.stdin.on("error", this.#onerror);
  }

  #handle(event: LineEvent): void {
    if (event.kind === "oversized") {
      void this.#refuse(
        idOf(event.head, event.tail),
        INVALID_REQUEST,
        `the request line is ${event.length} bytes; requests are at most ${this.#splitter.maxLineBytes} bytes. It was dropped; the server goes on`,
      );
      return;
    }
    const text = event.bytes.toString("utf8").replace(/\r$/, "");
    if (text.trim() === "") return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      void this.#refuse(null, PARSE_ERROR, "the line is not JSON");
      return;
    }
    const message = JSONRPCMessageSchema.safeParse(parsed);
    if (!message.success) {
      const id = (parsed as { id?: unknown } | null)?.id;
      void this.#refuse(
        typeof id === "string" || typeof id === "number" ? id : null,
        INVALID_REQUEST,
        "the line is JSON but not a JSON-RPC 2.0 message",
      );
      return;
    }
    this.onmessage?.(message.data);
  }

  #refuse(id: string | number | null, code: number, message: string): Promise<void> {
    // A request's error with no id of its own (JSON-RPC 2.0, section 5): not a JSONRPCMessage to the SDK.
    return this.#write(`${JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } })}\n`);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.#write(`${JSON.stringify(message)}\n`);
  }

  #write(line: string): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(line)) resolve();
      else this.stdout.once("drain", resolve);
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.stdin.off("data", this.#ondata);
    this.stdin.off("end", this.#onend);
    this.stdin.off("error", this.#onerror);
    this.onclose?.();
  }
}
