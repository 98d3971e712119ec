// The toolkits' own translations of their stock labels (_OK, _Save, _Delete...), read from the gettext
// catalogs installed with them, in every language present: an app started with LANGUAGE=de shows
// "_Löschen" while deskhand itself runs in English, so the gate must know both.
//
// Parsing every catalog takes about 1.4 s (336 files here), so the labels found are kept in a cache
// file keyed by each catalog's path, size and modification time; a changed or new catalog re-reads.
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { mo } from "gettext-parser";

/** A label to look up: its gettext context ("" for none) and msgid. */
export interface StockLabel {
  context: string;
  id: string;
}

export interface CatalogSource {
  /** Roots holding `<lang>/LC_MESSAGES/<domain>.mo`. */
  roots: string[];
  domains: string[];
  /** Where the cache file goes; undefined: no cache. */
  cacheDir?: string | undefined;
}

export const SYSTEM_CATALOGS = (env: NodeJS.ProcessEnv): CatalogSource => ({
  roots: ["/usr/share/locale", "/usr/share/locale-langpack"],
  // GTK 3 and 4 (and GTK 2 for old apps) carry the dialog buttons' stock labels.
  domains: ["gtk30", "gtk40", "gtk20"],
  cacheDir: join(env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "deskhand"),
});

function catalogFiles(source: CatalogSource): { path: string; stamp: string }[] {
  const found: { path: string; stamp: string }[] = [];
  for (const root of source.roots) {
    let languages: string[];
    try {
      languages = readdirSync(root);
    } catch {
      continue;
    }
    for (const language of languages.sort()) {
      for (const domain of source.domains) {
        const path = join(root, language, "LC_MESSAGES", `${domain}.mo`);
        try {
          const stat = statSync(path);
          found.push({ path, stamp: `${path}:${stat.size}:${stat.mtimeMs}` });
        } catch {
          // Not translated into this language.
        }
      }
    }
  }
  return found;
}

type Translations = Record<string, Record<string, { msgstr: string[] }>>;

/**
 * Every translation of each label, across the catalogs found: `context\u0004id` → distinct
 * translations. A catalog that does not parse is skipped (and named in `unreadable`).
 */
export function readStockTranslations(
  labels: StockLabel[],
  source: CatalogSource,
): { translations: Map<string, string[]>; catalogs: number; unreadable: string[] } {
  const files = catalogFiles(source);
  const key = createHash("sha256")
    .update(JSON.stringify({ labels, files: files.map((f) => f.stamp) }))
    .digest("hex")
    .slice(0, 16);
  const cachePath = source.cacheDir ? join(source.cacheDir, `stock-labels-${key}.json`) : undefined;
  if (cachePath) {
    try {
      const cached = JSON.parse(readFileSync(cachePath, "utf8")) as {
        translations: [string, string[]][];
        catalogs: number;
        unreadable: string[];
      };
      return { ...cached, translations: new Map(cached.translations) };
    } catch {
      // No cache yet, or a damaged one: read the catalogs.
    }
  }
  const translations = new Map<string, Set<string>>(
    labels.map((l) => [`${l.context}\u0004${l.id}`, new Set<string>()]),
  );
  const unreadable: string[] = [];
  for (const { path } of files) {
    let parsed: { translations: Translations };
    try {
      parsed = mo.parse(readFileSync(path)) as { translations: Translations };
    } catch {
      unreadable.push(path);
      continue;
    }
    for (const label of labels) {
      const text = parsed.translations[label.context]?.[label.id]?.msgstr[0];
      if (text) translations.get(`${label.context}\u0004${label.id}`)!.add(text);
    }
  }
  const result = {
    translations: new Map([...translations].map(([k, v]) => [k, [...v]])),
    catalogs: files.length,
    unreadable,
  };
  if (cachePath && source.cacheDir) {
    try {
      mkdirSync(source.cacheDir, { recursive: true, mode: 0o700 });
      const temporary = `${cachePath}.${process.pid}`;
      writeFileSync(temporary, JSON.stringify({ ...result, translations: [...result.translations] }), {
        mode: 0o600,
      });
      renameSync(temporary, cachePath);
    } catch {
      // A cache that cannot be written only costs time next start.
    }
  }
  return result;
}
