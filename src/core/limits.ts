// Snapshot limits: the defaults an agent gets without asking, and the ceilings nobody can exceed. Both
// come back in every snapshot reply, so a caller always knows what bounded the answer it got.

export interface SnapshotLimits {
  maxDepth: number;
  maxNodes: number;
  maxText: number;
  tableRows: number;
  timeoutMs: number;
  visibleOnly: boolean;
  onlyInteractive: boolean;
  walkTables: boolean;
  /** Read each element's action names (observe needs them; a plain snapshot does not). */
  actions: boolean;
  /** Read each element's accessible id (most toolkits leave it empty; it costs a call each). */
  accessibleIds: boolean;
}

export const SNAPSHOT_DEFAULTS: SnapshotLimits = {
  maxDepth: 12,
  maxNodes: 250,
  maxText: 200,
  tableRows: 5,
  timeoutMs: 5000,
  visibleOnly: false,
  onlyInteractive: false,
  walkTables: false,
  actions: false,
  accessibleIds: false,
};

export const SNAPSHOT_CEILINGS = {
  maxDepth: 256,
  maxNodes: 5000,
  maxText: 10_000,
  tableRows: 1000,
  timeoutMs: 60_000,
} as const;

/** Nodes read from one window at most, whatever the page size: bounds memory on runaway trees. */
export const READ_CEILING = 20_000;

export const WINDOWS_DEFAULT_LIMIT = 100;
export const WINDOWS_CEILING = 500;

/** The reason names used in `truncated_by`. */
export type CutName =
  | "maxDepth"
  | "maxNodes"
  | "maxText"
  | "tableRows"
  | "hugeChildCount"
  | "timeout"
  | "readCeiling"
  | "unreadable";
