// What a tool call can reach: the backend (connected on first use, so `ping` and `doctor` work where
// there is no desktop), the ref store and the snapshots it serves.
import { type RefLifetime, RefStore } from "../core/refs.js";
import { SnapshotStore } from "../core/snapshot.js";
import { connectBackend } from "../platform/index.js";
import type { AccessibilityBackend } from "../platform/types.js";

export const DESKHAND_VERSION = "0.1.0";

export interface ToolContext {
  backend(): Promise<AccessibilityBackend>;
  readonly refs: RefStore;
  readonly snapshots: SnapshotStore;
  readonly env: NodeJS.ProcessEnv;
  readonly version: string;
  /** Aborted when the caller cancels the request in flight (MCP cancellation). */
  readonly signal?: AbortSignal;
  close(): Promise<void>;
}

export interface ContextOptions {
  refLifetime: RefLifetime;
  env?: NodeJS.ProcessEnv;
  /** Injected for tests and other backends; defaults to this platform's. */
  connect?: () => Promise<AccessibilityBackend>;
}

export function createContext(options: ContextOptions): ToolContext {
  const env = options.env ?? process.env;
  const connect = options.connect ?? (() => connectBackend({ env }));
  let pending: Promise<AccessibilityBackend> | undefined;
  const backend = () => {
    if (!pending) {
      pending = connect();
      // A failed connection is not cached: the next call tries again (the desktop may have come up).
      pending.catch(() => {
        pending = undefined;
      });
    }
    return pending;
  };
  const refs = new RefStore(options.refLifetime);
  return {
    backend,
    refs,
    snapshots: new SnapshotStore(backend, refs),
    env,
    version: DESKHAND_VERSION,
    async close() {
      if (pending) await (await pending.catch(() => undefined))?.close();
    },
  };
}
