// Labels translated by the gettext catalogs installed on this machine, in every language present: an
// app started with LANGUAGE=de shows "_Löschen" while deskhand itself runs in English, so the gate
// must know both. Every catalog is searched (thousands on a desktop), with a reader that decodes only
// short msgids (catalogs.ts); what a caller picks is kept in a cache file keyed by each catalog's
// path, size and modification time, so a changed or new catalog re-reads.
import { createHash } from "node:crypto";
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { CATALOG_READER, listCatalogs, readCatalog } from "./catalogs.js";
import { writeWholeSync } from "./files.js";

export interface CatalogSource {
  /** Roots holding `<lang>/LC_MESSAGES/<domain>.mo`. */
  roots: string[];
  /** Where the cache file goes; undefined: no cache. */
  cacheDir?: string | undefined;
}

/**
 * The machine's catalogs: `/usr/share/locale` and `/usr/share/locale-langpack`, or the roots
 * `DESKHAND_CATALOGS` lists (colon-separated), such as an app's own locale folder beside them.
 */
export const SYSTEM_CATALOGS = (env: NodeJS.ProcessEnv): CatalogSource => ({
  roots: env.DESKHAND_CATALOGS?.split(":").filter(Boolean) ?? [
    "/usr/share/locale",
    "/usr/share/locale-langpack",
  ],
  cacheDir: deskhandCacheDir(env),
});

/**
 * deskhand's own cache: `DESKHAND_CACHE_DIR`, else `$XDG_CACHE_HOME/deskhand`. A sandbox gives its
 * commands the cache of the deskhand that started it (its apps get a private XDG_CACHE_HOME).
 */
export function deskhandCacheDir(env: NodeJS.ProcessEnv): string {
  return env.DESKHAND_CACHE_DIR || join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), "deskhand");
}

/** A cache file's JSON; undefined when there is none, or it is damaged. */
export function readCached<T>(cacheDir: string | undefined, name: string): T | undefined {
  if (!cacheDir) return undefined;
  try {
    return JSON.parse(readFileSync(join(cacheDir, name), "utf8")) as T;
  } catch {
    return undefined;
  }
}

/** How many files of one kind ("phrases-", "translations-") the cache keeps: the newest. */
const CACHE_KEEPS = 3;

/**
 * Writes a cache file whole (a temporary renamed over it); one that cannot be written only costs
 * time. Older files of its kind (the name up to its key) beyond the newest CACHE_KEEPS are removed:
 * every new version or catalog set makes a new key, and each file is a megabyte or more.
 */
export function writeCached(cacheDir: string | undefined, name: string, value: unknown): void {
  if (!cacheDir) return;
  try {
    mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
    writeWholeSync(join(cacheDir, name), JSON.stringify(value));
    const kind = name.slice(0, name.indexOf("-") + 1);
    if (!kind) return;
    const older = readdirSync(cacheDir)
      .filter((f) => f.startsWith(kind) && f.endsWith(".json") && f !== name)
      .map((f) => ({ f, time: statSync(join(cacheDir, f)).mtimeMs }))
      .sort((a, b) => b.time - a.time)
      .slice(CACHE_KEEPS - 1);
    for (const { f } of older) rmSync(join(cacheDir, f), { force: true });
  } catch {
    // A cache that cannot be written only costs time next start.
  }
}

// How long a process waits for another that is building the same cache file, and how old a lock
// may grow before it counts as left by a process that died.
const BUILD_WAIT_MS = 180_000;
const BUILD_POLL_MS = 250;

/**
 * A cache file's value, built once across processes: the first to need it builds it under a lock
 * file; the others wait for its result instead of building it too (tests start many processes at
 * once, each of which would otherwise spend the build's CPU).
 */
export function cachedOnce<T>(
  cacheDir: string | undefined,
  name: string,
  valid: (value: T | undefined) => value is T,
  build: () => T,
): T {
  const found = readCached<T>(cacheDir, name);
  if (valid(found) || !cacheDir) return valid(found) ? found : build();
  const lock = join(cacheDir, `${name}.lock`);
  const deadline = Date.now() + BUILD_WAIT_MS;
  while (!takeLock(cacheDir, lock) && Date.now() < deadline) {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, BUILD_POLL_MS);
    const built = readCached<T>(cacheDir, name);
    if (valid(built)) return built;
  }
  try {
    const value = build();
    writeCached(cacheDir, name, value);
    return value;
  } finally {
    rmSync(lock, { force: true });
  }
}

/** Takes the lock file; false while another process holds it (a stale one is removed for the next try). */
function takeLock(cacheDir: string, lock: string): boolean {
  try {
    mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
    closeSync(openSync(lock, "wx"));
    return true;
  } catch {
    try {
      if (Date.now() - statSync(lock).mtimeMs > BUILD_WAIT_MS) rmSync(lock, { force: true });
    } catch {
      // Gone meanwhile: the next try takes it.
    }
    return false;
  }
}

/** A picked translation: what the caller makes of one message, and the catalog's language. */
export interface Picked<T> {
  language: string;
  value: T;
}

/**
 * What `pick` makes of every message whose msgid passes `keep`, across the installed catalogs.
 * `version` names the caller's rules, so that a change of them is not answered from an old cache.
 */
export function readInstalledTranslations<T>(
  source: CatalogSource,
  version: string,
  keep: (id: string) => boolean,
  pick: (id: string, text: string) => T | undefined,
  /** `kind`: the cache file's prefix, one per caller, so that each keeps its own newest files. */
  options: { maxIdBytes?: number; first?: (byte: number) => boolean; kind?: string } = {},
): { picked: Picked<T>[]; catalogs: number } {
  const files = listCatalogs(source.roots);
  const key = createHash("sha256")
    .update(JSON.stringify({ version, files: files.map((f) => f.stamp) }))
    .update(readFileSync(new URL(CATALOG_READER)))
    .digest("hex")
    .slice(0, 16);
  const name = `${options.kind ?? "translations"}-${key}.json`;
  const cached = readCached<{ picked: Picked<T>[]; catalogs: number }>(source.cacheDir, name);
  if (cached) return cached;
  const seen = new Set<string>();
  const picked: Picked<T>[] = [];
  for (const file of files) {
    for (const message of readCatalog(file.path, keep, options.maxIdBytes, options.first)) {
      const value = pick(message.id, message.text);
      if (value === undefined) continue;
      const id = JSON.stringify([file.language, value]);
      if (seen.has(id)) continue;
      seen.add(id);
      picked.push({ language: file.language, value });
    }
  }
  const result = { picked, catalogs: files.length };
  writeCached(source.cacheDir, name, result);
  return result;
}
