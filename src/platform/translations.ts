// Labels translated by the gettext catalogs installed on this machine, in every language present: an
// app started with LANGUAGE=de shows "_Löschen" while deskhand itself runs in English, so the gate
// must know both. Every catalog is searched (thousands on a desktop), with a reader that decodes only
// short msgids (catalogs.ts); what a caller picks is kept in a cache file keyed by each catalog's
// path, size and modification time, so a changed or new catalog re-reads.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { listCatalogs, readCatalog } from "./catalogs.js";

export interface CatalogSource {
  /** Roots holding `<lang>/LC_MESSAGES/<domain>.mo`. */
  roots: string[];
  /** Where the cache file goes; undefined: no cache. */
  cacheDir?: string | undefined;
}

export const SYSTEM_CATALOGS = (env: NodeJS.ProcessEnv): CatalogSource => ({
  roots: ["/usr/share/locale", "/usr/share/locale-langpack"],
  cacheDir: join(env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "deskhand"),
});

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
  options: { maxIdBytes?: number; first?: (byte: number) => boolean } = {},
): { picked: Picked<T>[]; catalogs: number } {
  const files = listCatalogs(source.roots);
  const key = createHash("sha256")
    .update(JSON.stringify({ version, files: files.map((f) => f.stamp) }))
    .digest("hex")
    .slice(0, 16);
  const cachePath = source.cacheDir ? join(source.cacheDir, `translations-${key}.json`) : undefined;
  if (cachePath) {
    try {
      return JSON.parse(readFileSync(cachePath, "utf8")) as { picked: Picked<T>[]; catalogs: number };
    } catch {
      // No cache yet, or a damaged one: read the catalogs.
    }
  }
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
  if (cachePath && source.cacheDir) {
    try {
      mkdirSync(source.cacheDir, { recursive: true, mode: 0o700 });
      const temporary = `${cachePath}.${process.pid}`;
      writeFileSync(temporary, JSON.stringify(result), { mode: 0o600 });
      renameSync(temporary, cachePath);
    } catch {
      // A cache that cannot be written only costs time next start.
    }
  }
  return result;
}
