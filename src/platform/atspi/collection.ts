// Collection.GetMatches: the app walks its own tree and answers with references only. It is used where
// it was measured faster than reading the tree (GTK3 answers in milliseconds) and never where it is
// dangerous: LibreOffice walks its whole 1,048,576 × 16,384 sheet for it and froze a machine.
import { type AtspiApp, isGtk3, namesLibreOffice } from "./app.js";
import { IFACE, NULL_PATH } from "./names.js";
import { roleNumber } from "./roles.js";
import { stateNumber } from "./states.js";

const MATCH_ALL = 1;
const MATCH_ANY = 2;
/** AtspiCollectionSortOrder CANONICAL: document order. */
const SORT_CANONICAL = 1;

function bitset(indices: number[]): number[] {
  const words = Array.from({ length: Math.max(2, Math.ceil((Math.max(-1, ...indices) + 1) / 32)) }, () => 0);
  for (const index of indices) words[index >> 5] = (words[index >> 5]! | (1 << (index & 31))) >>> 0;
  // D-Bus `ai` is signed: keep the top bit as a negative number.
  return words.map((w) => w | 0);
}

/** Whether GetMatches is both safe and faster for this app. */
export function collectionWorthwhile(app: AtspiApp): boolean {
  if (namesLibreOffice(app.name)) return false;
  return isGtk3(app.toolkit) || app.toolkit.name?.toLowerCase() === "gecko";
}

/** Paths of the elements below `rootPath` with any of the roles and all of the states. */
export async function collectionMatches(
  app: AtspiApp,
  rootPath: string,
  filter: { roles: string[]; states: string[] },
  timeoutMs: number,
): Promise<string[] | undefined> {
  const roles = filter.roles.map(roleNumber);
  const states = filter.states.map(stateNumber);
  if (roles.some((r) => r === undefined) || states.some((s) => s === undefined)) return undefined;
  const rule = [
    bitset(states as number[]),
    MATCH_ALL,
    [],
    MATCH_ALL,
    bitset(roles as number[]),
    roles.length > 0 ? MATCH_ANY : MATCH_ALL,
    [],
    MATCH_ALL,
    false,
  ];
  const [refs] = await app.call(
    rootPath,
    IFACE.collection,
    "GetMatches",
    timeoutMs,
    "(aiia{ss}iaiiasib)uib",
    [rule, SORT_CANONICAL, 0, true],
  );
  return (refs as [string, string][])
    .map(([, path]) => path)
    .filter((p) => p !== NULL_PATH && p !== rootPath);
}
