// What the fidelity tests share: a full snapshot of a window, every page of it, and a node-for-node
// comparison with a pyatspi walk of the same window (depth, role, name, child count).
import assert from "node:assert/strict";
import type { CutName } from "../../src/core/limits.js";
import { SNAPSHOT_CEILINGS, SNAPSHOT_DEFAULTS } from "../../src/core/limits.js";
import type {
  SnapshotElement,
  SnapshotPage,
  SnapshotStore,
  SnapshotTarget,
} from "../../src/core/snapshot.js";
import { cleanName } from "../../src/platform/atspi/reader.js";
import { roleNumber } from "../../src/platform/atspi/roles.js";
import type { PeerWalk } from "./helpers.js";

/** Every element of the target's tree, all pages; `allowed` names the only cuts it may have. */
export async function fullSnapshot(
  store: SnapshotStore,
  target: SnapshotTarget,
  allowed: CutName[] = ["maxText"],
): Promise<{ elements: SnapshotElement[]; windows: SnapshotPage["windows"] }> {
  const limits = {
    ...SNAPSHOT_DEFAULTS,
    maxDepth: SNAPSHOT_CEILINGS.maxDepth,
    maxNodes: SNAPSHOT_CEILINGS.maxNodes,
    walkTables: true,
    timeoutMs: 30_000,
  };
  let page = await store.take(target, limits);
  const { windows } = page;
  const elements = [...page.elements];
  while (page.cursor) {
    page = await store.continue(page.cursor);
    elements.push(...page.elements);
  }
  const structural = page.truncatedBy.filter((cut) => !allowed.includes(cut));
  assert.deepEqual(structural, [], "a full snapshot leaves nothing out but what is allowed");
  return { elements, windows };
}

/** The first ten nodes where deskhand and pyatspi disagree; empty when they agree throughout. */
export function treeDifferences(
  ours: SnapshotElement[],
  peer: PeerWalk,
  /** The toolkit is GTK 4, whose doubled names ("Save Save") deskhand says once. */
  options: { gtk4?: boolean } = {},
): string[] {
  const differences: string[] = [];
  const count = Math.max(ours.length, peer.nodes.length);
  for (let i = 0; i < count && differences.length < 10; i++) {
    const mine = ours[i];
    const theirs = peer.nodes[i];
    if (!mine || !theirs) {
      differences.push(`#${i}: only ${mine ? "deskhand" : "pyatspi"} has a node here`);
      continue;
    }
    const [depth, role, name, childCount] = theirs;
    // deskhand trims names (toolkits pad them: "File ", GTK4's " "), says GTK 4.8's doubled names
    // once and drops GTK 4's widget type names (cleanName); pyatspi gives them as they come.
    const expected = JSON.stringify({
      depth,
      role,
      name:
        typeof name === "string"
          ? cleanName(name, { doublesNames: options.gtk4 ?? false, namesByType: options.gtk4 ?? false })
          : name,
      childCount,
    });
    // LibreOffice's unnamed toggle button beside a hidden combo box is read as the combo box it draws
    // (platform/atspi/combo-face.ts): the one role deskhand gives on purpose where the toolkit says another.
    const face = mine.role === "combo box" && role === roleNumber("toggle button") && !mine.name;
    const actual = JSON.stringify({
      depth: mine.depth,
      role: face ? role : roleNumber(mine.role),
      name: mine.name,
      childCount: mine.childCount,
    });
    if (expected !== actual) differences.push(`#${i}: pyatspi ${expected} deskhand ${actual}`);
  }
  return differences;
}
