// Snapshots as changes: what an agent needs after an action is what the action changed, not the whole
// window again. A `since` reply reads the earlier snapshot's scope afresh, matches elements by handle,
// and lists what was added, removed and changed, in the same compact text; it falls back to the whole
// snapshot, and says why, when the earlier one is gone or the changes would not be shorter.
import { yieldIfDue } from "../platform/slice.js";
import { type Changes, diffEntries } from "./diff.js";
import { renderElement, renderSnapshot } from "./render.js";
import type {
  Reading,
  SnapshotElement,
  SnapshotPage,
  SnapshotStore,
  SnapshotTarget,
  StoredSnapshot,
} from "./snapshot.js";

export interface ChangeReport {
  snapshotId: string;
  since: string;
  windows: SnapshotPage["windows"];
  added: SnapshotElement[];
  removed: { ref: string | null; role: string; name: string | null }[];
  changed: { ref: string; role: string; name: string | null; fields: Changes["changed"][number]["fields"] }[];
  unchanged: number;
  text: string;
}

export type SinceReply =
  | { kind: "changes"; report: ChangeReport }
  | { kind: "snapshot"; page: SnapshotPage; fallback: string };

function quote(text: string): string {
  const line = text.replace(/\s+/g, " ");
  return JSON.stringify(line.length > 80 ? `${line.slice(0, 80)}…` : line);
}

function describe(fields: ChangeReport["changed"][number]["fields"]): string {
  return fields
    .map((f) => {
      if (f.field === "states") {
        const parts = [
          ...(f.after ? f.after.split(", ").map((s) => `+${s}`) : []),
          ...(f.before ? f.before.split(", ").map((s) => `-${s}`) : []),
        ];
        return `states ${parts.join(" ")}`;
      }
      return `${f.field} ${quote(f.before)} → ${quote(f.after)}`;
    })
    .join("; ");
}

function render(report: Omit<ChangeReport, "text">, positions: number[], label: string): string {
  const where =
    report.windows.length === 1
      ? `window ${report.windows[0]!.id} ${JSON.stringify(report.windows[0]!.title)}`
      : `${report.windows.length || "a subtree of"} windows`;
  const header = `# changes ${report.snapshotId} since ${report.since} · ${where} · ${report.added.length} added, ${report.removed.length} removed, ${report.changed.length} changed; ${report.unchanged} unchanged, their refs stand`;
  const lines = [header];
  if (report.added.length + report.removed.length + report.changed.length === 0)
    lines.push(`nothing changed ${label}`);
  // Added elements keep their nesting, relative to the first of each run.
  let base = 0;
  let previous = -2;
  report.added.forEach((element, i) => {
    const at = positions[i]!;
    if (at !== previous + 1 || element.depth < base) base = element.depth;
    previous = at;
    const line = renderElement({ ...element, depth: element.depth - base }, { indent: 1 });
    lines.push(`+ ${line.replace(/^(\s*)- /, "$1").replace(/\n/g, "\n  ")}`);
  });
  for (const gone of report.removed) {
    const name = gone.name ? ` ${quote(gone.name)}` : "";
    lines.push(`- ${gone.role}${name}${gone.ref ? ` [ref=${gone.ref}]` : ""}`);
  }
  for (const change of report.changed) {
    const name = change.name ? ` ${quote(change.name)}` : "";
    lines.push(`~ ${change.role}${name} [ref=${change.ref}] ${describe(change.fields)}`);
  }
  return lines.join("\n");
}

/**
 * The changes from a read taken earlier (a kept snapshot, or a baseline read before an action) to a
 * fresh read of the same scope, published as a new snapshot.
 */
export async function changesFrom(
  store: SnapshotStore,
  earlier: Reading,
  earlierId: string,
  earlierRefs: Map<string, string>,
  label: string,
): Promise<{ report: ChangeReport; stored: StoredSnapshot; page: SnapshotPage }> {
  const reading = await store.read(earlier.target, earlier.limits, earlier.view);
  // Values are compared only where both reads have them: read them all in the new one.
  await store.enrichAll(reading, Math.max(100, earlier.limits.timeoutMs - (Date.now() - reading.started)));
  const changes = await diffEntries(earlier.entries, reading.entries, reading.handles);
  // A re-issued element keeps its ref: the report says its ref stands, and it does.
  for (const [was, now] of changes.reissued) store.refs.rebind(was.node.handle, now.node.handle);
  const { stored, page } = await store.publish(reading);
  // Positions in the new read, so that runs of added elements keep their nesting.
  const position = new Map(reading.entries.map((e, i) => [e, i]));
  const added: SnapshotElement[] = [];
  for (const entry of changes.added) {
    const turn = yieldIfDue();
    if (turn) await turn;
    added.push(store.elementOf(stored, entry));
  }
  const positions = changes.added.map((entry) => position.get(entry) ?? 0);
  const report: Omit<ChangeReport, "text"> = {
    snapshotId: stored.id,
    since: earlierId,
    windows: stored.windows,
    added,
    removed: changes.removed.map(({ node }) => ({
      ref: earlierRefs.get(node.handle) ?? store.refs.refOf(node.handle) ?? null,
      role: node.role,
      name: node.name ?? null,
    })),
    changed: changes.changed.map(({ entry, fields }) => {
      const element = store.elementOf(stored, entry);
      return { ref: element.ref, role: element.role, name: element.name, fields };
    }),
    unchanged: reading.entries.length - changes.added.length - changes.changed.length,
  };
  return { report: { ...report, text: render(report, positions, label) }, stored, page };
}

/** `snapshot {since}`: the changes since a kept snapshot, or the whole snapshot with the reason. */
export async function snapshotSince(
  store: SnapshotStore,
  since: string,
  fallback: () => Promise<SnapshotPage>,
): Promise<SinceReply> {
  const earlier = store.kept(since);
  if (store.refs.lifetime === "latest-snapshot") {
    return {
      kind: "snapshot",
      page: await fallback(),
      fallback: `only the newest snapshot's refs are valid here, so the whole snapshot follows instead of the changes since ${since}`,
    };
  }
  if (!earlier) {
    return {
      kind: "snapshot",
      page: await fallback(),
      fallback: `snapshot ${since} is not kept (only the last few are), so the whole snapshot follows`,
    };
  }
  const { report, page } = await changesFrom(store, earlier, earlier.id, earlier.refs, `since ${since}`);
  const whole = await renderSnapshot(page);
  if (report.text.length >= whole.length) {
    return {
      kind: "snapshot",
      page,
      fallback: `the changes since ${since} (${report.text.length} characters) would not be shorter than the snapshot`,
    };
  }
  return { kind: "changes", report };
}

/** A baseline for `include_changes`: the scope as it is before an action, with no id or refs. */
export async function baseline(
  store: SnapshotStore,
  target: SnapshotTarget,
  limits: Reading["limits"],
): Promise<Reading> {
  const reading = await store.read(target, limits, "screen");
  await store.enrichAll(reading, limits.timeoutMs);
  return reading;
}
