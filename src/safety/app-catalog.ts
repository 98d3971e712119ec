// A label read by its app's own catalog: where the app's process has its gettext catalog mapped
// (platform/processes.ts ownCatalogs), a label that is a translation there is the English msgid the
// app's authors wrote. GNOME Calculator's ")" key is described "Block schließen [)]", a reading of
// "End Group [)]"; its clear key "Die Anzeige löschen [Escape]", of "Clear Display [Escape]".
import { statSync } from "node:fs";
import { readCatalog } from "../platform/catalogs.js";
import { normalizeLabel } from "./committing-words.js";
import { withoutBoundKey } from "./phrases.js";

// A msgid longer than a label is no label; its bytes are not read.
const LABEL_ID_BYTES = 120;
// Catalogs indexed at most, by path: an agent's apps, not every catalog on the machine.
const INDEXED = 16;

/** A label as compared: normalized (mnemonics out, NFKC), lower case. */
const comparable = (text: string) => normalizeLabel(text).toLowerCase();

/**
 * What `build` makes of a catalog, kept per file (INDEXED files at most) and made again when the
 * file changes; undefined where it cannot be read.
 */
function perCatalog<T>(build: (catalog: string) => T): (catalog: string) => T | undefined {
  const kept = new Map<string, { stamp: string; value: T }>();
  return (catalog) => {
    let stamp: string;
    try {
      const stat = statSync(catalog);
      stamp = `${stat.size}:${stat.mtimeMs}`;
    } catch {
      return undefined;
    }
    const known = kept.get(catalog);
    if (known?.stamp === stamp) return known.value;
    const value = build(catalog);
    if (kept.size >= INDEXED) kept.delete(kept.keys().next().value!);
    kept.set(catalog, { stamp, value });
    return value;
  };
}

/** The catalog's labels, by their translation as compared. */
const indexOf = perCatalog((catalog) => {
  const english = new Map<string, string[]>();
  for (const { id, text } of readCatalog(catalog, (m) => !/[\n<%{$]/u.test(m), LABEL_ID_BYTES)) {
    const key = comparable(text);
    if (!key) continue;
    english.set(key, [...(english.get(key) ?? []), id]);
  }
  return english;
});

/**
 * The English msgids a label translates in the app's own catalogs (its language's and those it
 * falls back to), each as a label reads (its mnemonic out, the key it is bound to in brackets at its
 * end gone: "Clear Display"), or undefined where no catalog has such a translation.
 */
export function englishOf(catalogs: string[], label: string): string[] | undefined {
  const ids = catalogs.flatMap((catalog) => indexOf(catalog)?.get(comparable(label)) ?? []);
  if (ids.length === 0) return undefined;
  return [...new Set(ids.map((id) => withoutBoundKey(normalizeLabel(id))))];
}

/** A catalog's short messages with one number or string in them, as patterns over their translation. */
interface Formatted {
  pattern: RegExp;
  /** The msgid without its directive: "Unsaved Document". */
  english: string;
}

// A printf directive ("%d", "%s", "%Id", "%1$s"): the one a formatted title holds.
const DIRECTIVE = /%(?:\d+\$)?I?[-+ #0]*\d*(?:\.\d+)?(?:l|ll|h|z)?[dsiu]/gu;
const literal = (part = "") => part.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&");
/** The catalog's messages holding one directive and letters, each a pattern of its translation. */
const formattedOf = perCatalog((catalog) => {
  const formatted: Formatted[] = [];
  const one = (text: string) => (text.match(DIRECTIVE) ?? []).length === 1 && /\p{L}/u.test(text);
  for (const { id, text } of readCatalog(catalog, (m) => !/[\n<{$]/u.test(m) && one(m), LABEL_ID_BYTES)) {
    if (!one(text)) continue;
    const [before, after] = comparable(text).split(new RegExp(DIRECTIVE.source, "u"));
    const english = normalizeLabel(id.replace(DIRECTIVE, "")).trim();
    formatted.push({ pattern: new RegExp(`^${literal(before)}.+${literal(after)}$`, "u"), english });
  }
  return formatted;
});

/**
 * The English msgids, their number or name left out, that a text made from one of the app's own
 * formatted messages says: Pluma's title "Documento não-salvo 1" is its "Unsaved Document %d".
 */
export function englishOfFormatted(catalogs: string[], text: string): string[] {
  const compared = comparable(text);
  return catalogs.flatMap((catalog) =>
    (formattedOf(catalog) ?? []).filter((f) => f.pattern.test(compared)).map((f) => f.english),
  );
}
