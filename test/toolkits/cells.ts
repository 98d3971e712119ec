// Table cells are not searched by find (read_table pages them): both suites take them from a snapshot.
import assert from "node:assert/strict";
import type { toolCaller } from "../desktop/helpers.js";

export interface SnapshotCell {
  ref: string;
  name: string;
  states: string[] | null;
}

export async function tableCells(
  call: ReturnType<typeof toolCaller>,
  title: string,
): Promise<SnapshotCell[]> {
  const snap = await call("snapshot", {
    target: { kind: "title", glob: title },
    maxDepth: 60,
    maxNodes: 2000,
    tableRows: 10,
    format: "json",
  });
  assert.ok(snap.ok, JSON.stringify(snap.error));
  return snap.data.elements.filter((e: { role: string }) => e.role === "table cell");
}
