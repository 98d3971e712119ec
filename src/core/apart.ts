// Elements that read alike (two "Twin" buttons, three combo boxes labelled "Column") told apart by
// what a person tells them apart by: their place, the group each is in, and its tooltip. One rule
// for every reply that lists them (find's matches, an ambiguous find's candidates, observe).
import type { Rect } from "../platform/types.js";

/** Elements of one set told apart by group and tooltip: beyond these, by their places alone. */
export const TOLD_APART = 10;

/** " at (x, y)": the centre of what shows, or " off screen". */
export function placeText(bounds: Rect | null | undefined): string {
  if (!bounds || bounds.width <= 0 || bounds.height <= 0) return " off screen";
  return ` at (${Math.round(bounds.x + bounds.width / 2)}, ${Math.round(bounds.y + bounds.height / 2)})`;
}

/** " in panel "Left" described "The first twin"": what tells an element from others alike beside its place. */
export function apartText(apart: { group?: string | undefined; description?: string | undefined }): string {
  return `${apart.group ? ` in ${apart.group}` : ""}${apart.description ? ` described ${JSON.stringify(apart.description)}` : ""}`;
}

/** An ancestor as a group shows it: `panel "Sort Key 1"`. */
export function groupName(role: string, name: string): string {
  return `${role} ${JSON.stringify(name)}`;
}

/**
 * For each element of a set that reads alike, given its named ancestors nearest first: the nearest
 * one not every other element is in too (the tool bar "Formatting" against "Standard"), if any.
 */
export function groupsApart(chains: string[][]): (string | undefined)[] {
  return chains.map((chain, i) => {
    const others = chains.filter((_, j) => j !== i);
    return chain.find((group) => !others.every((other) => other.includes(group)));
  });
}

/** Each element's description (a tooltip), where the set's descriptions differ; else none. */
export function descriptionsApart(descriptions: (string | undefined)[]): (string | undefined)[] {
  const differ = new Set(descriptions.map((d) => d ?? "")).size > 1;
  return descriptions.map((d) => (differ && d ? d : undefined));
}

/** The sets of items that share a key (none where the key is undefined), each of 2 to `most` items. */
export function alikeSets<T>(items: readonly T[], key: (item: T) => string | undefined, most: number): T[][] {
  const sets = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    if (k !== undefined) sets.set(k, [...(sets.get(k) ?? []), item]);
  }
  return [...sets.values()].filter((set) => set.length > 1 && set.length <= most);
}
