// A fast reader of gettext catalogs (.mo): it walks the table of original strings and decodes only
// those a caller's filter keeps (short labels), so that the thousands of catalogs a desktop installs
// can be searched in about a second instead of the 25 s that parsing all of them whole takes.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/** One translated message: its context ("" for none), its msgid and its first msgstr. */
export interface CatalogMessage {
  context: string;
  id: string;
  text: string;
}

const decoder = new TextDecoder("utf-8");

/**
 * The messages of one .mo file whose msgid is at most `maxIdBytes` long and passes `keep` (and whose
 * first byte passes `first`, a test that costs no decoding). A file that is not a catalog (bad magic,
 * tables past its end) yields nothing and throws nothing.
 */
function scanCatalog(
  buffer: Buffer,
  keep: (id: string) => boolean,
  maxIdBytes = 64,
  first?: (byte: number) => boolean,
): CatalogMessage[] {
  if (buffer.length < 28) return [];
  const magic = buffer.readUInt32LE(0);
  const little = magic === 0x950412de;
  if (!little && magic !== 0xde120495) return [];
  const u32 = (at: number) => (little ? buffer.readUInt32LE(at) : buffer.readUInt32BE(at));
  const count = u32(8);
  const originals = u32(12);
  const translations = u32(16);
  if (originals + count * 8 > buffer.length || translations + count * 8 > buffer.length) return [];
  // The header (the translation of "") names the catalog's charset; most are UTF-8, a few older
  // ones ISO-8859 or KOI8, which read as UTF-8 would turn letters into U+FFFD.
  let decode = decoder;
  if (count > 0 && u32(originals) === 0) {
    const length = u32(translations);
    const offset = u32(translations + 4);
    if (offset + length <= buffer.length) {
      const header = buffer.subarray(offset, offset + length).toString("latin1");
      const charset = /charset=([\w.-]+)/i.exec(header)?.[1]?.toLowerCase();
      if (charset && charset !== "utf-8" && charset !== "utf8") {
        try {
          decode = new TextDecoder(charset);
        } catch {
          return [];
        }
      }
    }
  }
  const found: CatalogMessage[] = [];
  for (let i = 0; i < count; i++) {
    const length = u32(originals + i * 8);
    const offset = u32(originals + i * 8 + 4);
    if (length === 0 || offset + length > buffer.length) continue;
    // The bounds are the msgid's, not its context's: KDE's "@action:button\u0004Collapse" is a label.
    const eot = buffer.subarray(offset, offset + length).indexOf(4);
    const idAt = offset + eot + 1;
    if (offset + length - idAt > maxIdBytes || (first && !first(buffer[idAt]!))) continue;
    const raw = decode.decode(buffer.subarray(offset, offset + length));
    // "context\u0004id", and "id\u0000plural" for plural forms (the singular is what a label shows).
    const at = raw.indexOf("\u0004");
    const context = at >= 0 ? raw.slice(0, at) : "";
    const id = (at >= 0 ? raw.slice(at + 1) : raw).split("\u0000")[0]!;
    if (!keep(id)) continue;
    const textLength = u32(translations + i * 8);
    const textOffset = u32(translations + i * 8 + 4);
    if (textLength === 0 || textOffset + textLength > buffer.length) continue;
    const text = decode.decode(buffer.subarray(textOffset, textOffset + textLength)).split("\u0000")[0]!;
    if (text) found.push({ context, id, text });
  }
  return found;
}

/** This reader's source: what it reads of a catalog is part of every cache learnt from one. */
export const CATALOG_READER = import.meta.url;

/** A catalog file, its language (the folder name: "de", "pt_BR", "sr@latin") and a change stamp. */
export interface CatalogFile {
  path: string;
  language: string;
  stamp: string;
}

// A listing is kept this long: the vocabulary and the label lexicon of one process's first judgement
// each list the same thousands of catalogs, and stating them is most of what a cached start costs.
const LISTING_KEPT_MS = 10_000;
const listings = new Map<string, { at: number; files: CatalogFile[] }>();

/** Every `<root>/<lang>/LC_MESSAGES/*.mo`, in a stable order. */
export function listCatalogs(roots: string[]): CatalogFile[] {
  const key = JSON.stringify(roots);
  const kept = listings.get(key);
  if (kept && Date.now() - kept.at < LISTING_KEPT_MS) return kept.files;
  const files = listFresh(roots);
  listings.set(key, { at: Date.now(), files });
  return files;
}

function listFresh(roots: string[]): CatalogFile[] {
  const found: CatalogFile[] = [];
  for (const root of roots) {
    let languages: string[];
    try {
      languages = readdirSync(root).sort();
    } catch {
      continue;
    }
    for (const language of languages) {
      const folder = join(root, language, "LC_MESSAGES");
      let names: string[];
      try {
        names = readdirSync(folder).filter((n) => n.endsWith(".mo"));
      } catch {
        continue;
      }
      for (const name of names.sort()) {
        const path = join(folder, name);
        try {
          const stat = statSync(path);
          found.push({ path, language, stamp: `${path}:${stat.size}:${stat.mtimeMs}` });
        } catch {
          // Gone between the listing and the look.
        }
      }
    }
  }
  return found;
}

/** The messages of a catalog file, or none when it cannot be read. */
export function readCatalog(
  path: string,
  keep: (id: string) => boolean,
  maxIdBytes?: number,
  first?: (byte: number) => boolean,
) {
  try {
    return scanCatalog(readFileSync(path), keep, maxIdBytes, first);
  } catch {
    return [];
  }
}
