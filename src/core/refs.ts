// Refs like `s3:e12kq`: a snapshot id, an element number and the issuing session's tag. Each records a fingerprint of what was seen
// (role, name, index among siblings, bounds, path from the window) so that a later action can check it
// still points at the same element before doing anything.
import type { Rect } from "../platform/types.js";
import { DeskhandError, releasedRef, unknownRef } from "./errors.js";
import { REF_SNAPSHOTS_KEPT, REFS_KEPT } from "./limits.js";

export interface Fingerprint {
  role: string;
  name: string | undefined;
  /** An unnamed element's label, as the listing showed it beside it (~"Width"). */
  label?: string;
  indexInParent: number;
  bounds: Rect | null | undefined;
  /** The states as seen (what element_info says changed since; no part of what the element is). */
  states?: readonly string[];
  /** The value as seen, where read (element_info says it changed since; no part of what it is). */
  value?: string;
  /** Child indices from the window's root down to the element. */
  path: number[];
  /** false: `path` does not start at the window (found by the app's own search, or under a ref). */
  fromWindow?: boolean;
  windowId: number | null;
}

/** A ref's path from its window, or null when it was not read from the window down. */
export function pathOf(fingerprint: Fingerprint): number[] | null {
  return fingerprint.fromWindow === false ? null : fingerprint.path;
}

export interface RefEntry {
  ref: string;
  snapshotId: string;
  handle: string;
  fingerprint: Fingerprint;
}

/**
 * - `latest-snapshot`: only the newest snapshot's refs are valid (the NDJSON protocol's rule).
 * - `while-verified`: refs outlive later snapshots and are reused for the same element while its role
 *   and name hold, so an agent can read a window in rings (the MCP rule).
 */
export type RefLifetime = "latest-snapshot" | "while-verified";

const REF_PATTERN = /^s(\d+):e(\d+)([a-z]{2})?$/;

/** Letters of a session tag: no i, l, o, which read as digits. */
const TAG_LETTERS = "abcdefghjkmnpqrstuvwxyz";
let lastTag = Math.floor(Math.random() * TAG_LETTERS.length ** 2);

/**
 * A tag for a new session's refs: two letters, from a random start per process, then the next one
 * for each session, so a ref from another process or session of this one is told apart and refused
 * rather than naming whatever that number names here.
 */
export function newSessionTag(): string {
  lastTag = (lastTag + 1) % TAG_LETTERS.length ** 2;
  const n = TAG_LETTERS.length;
  return TAG_LETTERS[Math.floor(lastTag / n)]! + TAG_LETTERS[lastTag % n]!;
}

export class RefStore {
  #snapshotCounter = 0;
  /** Elements numbered in each recent snapshot (REF_SNAPSHOTS_KEPT of them), to tell released from never made. */
  #elementCounters = new Map<string, number>();
  /** Snapshots older than this one have no count left: a ref from one was released. */
  #countedFrom = 0;
  #entries = new Map<string, RefEntry>();
  #byHandle = new Map<string, string>();

  constructor(
    readonly lifetime: RefLifetime,
    /** Refs used longest ago are released past this many; a released ref says so (unknown_ref). */
    readonly capacity = REFS_KEPT,
    /**
     * Snapshot numbers shared with other stores (the sessions of one HTTP server), so that a ref
     * from one session is unknown in another rather than naming some other element there.
     */
    private readonly snapshotNumbers?: () => number,
    /** Ends every ref this store hands out (newSessionTag); a ref without it was not issued here. */
    readonly tag = "",
  ) {}

  get currentSnapshotId(): string | null {
    return this.#snapshotCounter === 0 ? null : `s${this.#snapshotCounter}`;
  }

  get size(): number {
    return this.#entries.size;
  }

  newSnapshot(): string {
    this.#snapshotCounter = this.snapshotNumbers ? this.snapshotNumbers() : this.#snapshotCounter + 1;
    if (this.lifetime === "latest-snapshot") {
      this.#entries.clear();
      this.#byHandle.clear();
      this.#elementCounters.clear();
    }
    return `s${this.#snapshotCounter}`;
  }

  /** The element behind a ref has a new handle (the app re-issued it): the ref follows it. */
  rebind(oldHandle: string, newHandle: string): void {
    const ref = this.#byHandle.get(oldHandle);
    const entry = ref ? this.#entries.get(ref) : undefined;
    if (!ref || !entry || this.#byHandle.has(newHandle)) return;
    entry.handle = newHandle;
    this.#byHandle.delete(oldHandle);
    this.#byHandle.set(newHandle, ref);
  }

  assign(snapshotId: string, handle: string, fingerprint: Fingerprint): string {
    if (this.lifetime === "while-verified") {
      const existing = this.#byHandle.get(handle);
      const entry = existing ? this.#entries.get(existing) : undefined;
      if (
        entry &&
        entry.fingerprint.role === fingerprint.role &&
        entry.fingerprint.name === fingerprint.name
      ) {
        // Same element, same role and name: keep its ref, remember where it is now.
        entry.fingerprint = fingerprint;
        this.#entries.delete(entry.ref);
        this.#entries.set(entry.ref, entry);
        return entry.ref;
      }
    }
    const next = (this.#elementCounters.get(snapshotId) ?? 0) + 1;
    this.#elementCounters.set(snapshotId, next);
    // A session's memory stays bounded however many snapshots it takes.
    while (this.#elementCounters.size > REF_SNAPSHOTS_KEPT) {
      const oldest = this.#elementCounters.keys().next().value!;
      this.#elementCounters.delete(oldest);
      this.#countedFrom = Number(oldest.slice(1)) + 1;
    }
    const ref = `${snapshotId}:e${next}${this.tag}`;
    this.#entries.set(ref, { ref, snapshotId, handle, fingerprint });
    this.#byHandle.set(handle, ref);
    while (this.#entries.size > this.capacity) {
      const oldest = this.#entries.keys().next().value as string;
      const evicted = this.#entries.get(oldest)!;
      this.#entries.delete(oldest);
      if (this.#byHandle.get(evicted.handle) === oldest) this.#byHandle.delete(evicted.handle);
    }
    return ref;
  }

  /** The ref now names `handle`: its element was re-found there after its old handle went. */
  rehandle(ref: string, handle: string): void {
    const entry = this.lookup(ref);
    if (this.#byHandle.get(entry.handle) === ref) this.#byHandle.delete(entry.handle);
    entry.handle = handle;
    this.#byHandle.set(handle, ref);
  }

  /** The ref last handed out for an element, if it is still held. */
  refOf(handle: string): string | undefined {
    const ref = this.#byHandle.get(handle);
    return ref !== undefined && this.#entries.has(ref) ? ref : undefined;
  }

  lookup(ref: string): RefEntry {
    const match = REF_PATTERN.exec(ref);
    if (!match) throw unknownRef(ref, `refs look like s3:e12${this.tag}`);
    const entry = this.#entries.get(ref);
    if (entry) return entry;
    if ((match[3] ?? "") !== this.tag) throw foreignRef(ref, this.tag);
    const snapshot = Number(match[1]);
    if (snapshot > this.#snapshotCounter) throw unknownRef(ref, "no snapshot with that id was taken yet");
    if (this.lifetime === "latest-snapshot" && snapshot < this.#snapshotCounter) {
      throw unknownRef(ref, `it belongs to snapshot s${snapshot}, and s${this.#snapshotCounter} replaced it`);
    }
    const numbered = this.#elementCounters.get(`s${snapshot}`) ?? 0;
    if (snapshot < this.#countedFrom || Number(match[2]) <= numbered) throw releasedRef(ref, this.capacity);
    throw unknownRef(ref, "no element with that number was handed out");
  }
}

/** A ref another session issued: nothing is sent, and the agent reads this session's own. */
function foreignRef(ref: string, tag: string): DeskhandError {
  return new DeskhandError(
    "unknown_ref",
    `ref ${ref} was not issued by this session (this session's refs end in "${tag}"): it comes from another deskhand process or session, or from before a restart; nothing was done`,
    "Observe or find again in this session and use its refs.",
    { ref, foreign: true },
  );
}
