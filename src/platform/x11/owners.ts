// What each deskhand holds on a display, kept on the display itself so that it outlives its owner: the
// buttons and keys it holds down (and the keys of a chunk being typed), and the keycodes it borrowed
// for characters outside the keymap. A deskhand killed mid-call (SIGKILL leaves no time to release
// anything) leaves its record behind; the next deskhand to touch the display finds the owner gone,
// releases what it held and gives back what it borrowed, before sending anything of its own.
//
// The record is one CARDINAL list on the root window, read and written under the input lock:
// per owner [host, pid, start, buttons, keys…count-prefixed, borrowed…count-prefixed]. `start` is the
// process's start time in clock ticks, so a reused pid is not taken for the owner.
import { hostname } from "node:os";
import { statOf } from "../processes.js";

export const OWNERS_PROPERTY = "_DESKHAND_INPUT_OWNERS";

export interface OwnerRecord {
  host: number;
  pid: number;
  start: number;
  /** Buttons 1–3 held down, as a bit mask (1 left, 2 middle, 4 right). */
  buttons: number;
  /** Keycodes held down (a held chord, a chunk being typed). */
  keys: number[];
  /** Keycodes remapped to characters outside the keymap. */
  borrowed: number[];
}

/** A 32-bit digest of the host name: pids mean something only on the host that owns them. */
function hostDigest(name: string): number {
  let hash = 2166136261;
  for (const char of name) hash = Math.imul(hash ^ char.codePointAt(0)!, 16777619) >>> 0;
  return hash >>> 0;
}

/** A process's start time in clock ticks (field 22 of /proc/PID/stat), or undefined when it is gone. */
function processStart(pid: number): number | undefined {
  return statOf(pid)?.start;
}

const THIS_HOST = hostDigest(hostname());

export function selfRecord(): Pick<OwnerRecord, "host" | "pid" | "start"> {
  return { host: THIS_HOST, pid: process.pid, start: processStart(process.pid) ?? 0 };
}

/** Whether the record's owner is known to be gone: on this host, no process with its pid and start. */
export function ownerGone(record: OwnerRecord): boolean {
  if (record.host !== THIS_HOST) return false;
  const start = processStart(record.pid);
  return start === undefined || start !== record.start;
}

export function parseOwners(values: number[]): OwnerRecord[] {
  const records: OwnerRecord[] = [];
  let at = 0;
  const take = () => values[at++];
  while (at < values.length) {
    const host = take();
    const pid = take();
    const start = take();
    const buttons = take();
    const keyCount = take();
    if (host === undefined || pid === undefined || start === undefined || buttons === undefined) break;
    if (keyCount === undefined || at + keyCount > values.length) break;
    const keys = values.slice(at, at + keyCount);
    at += keyCount;
    const borrowedCount = take();
    if (borrowedCount === undefined || at + borrowedCount > values.length) break;
    const borrowed = values.slice(at, at + borrowedCount);
    at += borrowedCount;
    records.push({ host, pid, start, buttons, keys, borrowed });
  }
  return records;
}

export function formatOwners(records: OwnerRecord[]): number[] {
  return records.flatMap((r) => [
    r.host,
    r.pid,
    r.start,
    r.buttons,
    r.keys.length,
    ...r.keys,
    r.borrowed.length,
    ...r.borrowed,
  ]);
}

/** What was found held or borrowed by owners that are gone, and given back. */
export interface Recovered {
  owners: number[];
  buttons: number;
  keys: number[];
  keycodes: number[];
}

export function describeRecovered(recovered: Recovered): string {
  const buttons = ["left", "middle", "right"].filter((_, i) => recovered.buttons & (1 << i));
  const parts = [
    buttons.length ? `released the ${buttons.join(" and ")} button${buttons.length > 1 ? "s" : ""}` : "",
    recovered.keys.length ? `released ${recovered.keys.length} held key(s)` : "",
    recovered.keycodes.length ? `gave back ${recovered.keycodes.length} borrowed keycode(s)` : "",
  ].filter(Boolean);
  return `${parts.join(", ")}, left by deskhand process ${recovered.owners.join(", ")}, which is gone`;
}
