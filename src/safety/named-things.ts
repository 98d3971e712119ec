// Labels that hold a committing word but name a thing, not the act: a view ("Print Preview"), a
// setting ("Sort Order"), a place in a drawing's stack ("Send to Back"), a session ("Sign in"), a
// character ("Close Bracket"). In English by these phrases; in every other language by what the
// machine's catalogs translate them as ("Aperçu avant impression", "Anteprima di stampa", "印刷プレビュー"),
// so the exemption is not English only.
import { readInstalledTranslations, SYSTEM_CATALOGS } from "../platform/translations.js";
import { normalizeLabel } from "./committing-words.js";
import { withoutBoundKey } from "./phrases.js";

/** The English phrases of things named with a committing word, as regular expressions. */
const THING_PHRASES = [
  "clos(e|ing) (round |square |curly |angle )?(bracket|brace|paren|parenthesis|quote|quotation mark|tag)s?",
  // A calculator's key that types a bracket: "End Group [)]", German "Block schließen [)]".
  "(start|end) (group|block)",
  "print (preview|layout|view|ranges?|areas?|setup|settings|options|margins|scaling|titles|queue)",
  "send (to back|backwards?|to background)",
  "sort order",
  "order by",
  "sign (in|on|up)",
  "tip of the day",
  "book marks?",
];

/** This module's own file, part of the learnt words' cache key (label-lexicon.ts): its phrases decide what commits. */
export const NAMED_THINGS_MODULE = import.meta.url;

const ENGLISH = new RegExp(THING_PHRASES.map((p) => `\\b${p}\\b`).join("|"), "giu");
const WHOLE_ID = new RegExp(`^(${THING_PHRASES.join("|")})$`, "iu");

/**
 * A catalog's msgid as a label reads: mnemonics, an ellipsis, a trailing colon and the key it types
 * in brackets ("End Group [)]") gone.
 */
const bare = (text: string) =>
  withoutBoundKey(text.replace(/[_&]/g, ""))
    .replace(/(\.\.\.|…|:)\s*$/u, "")
    .trim();

let translated: string[] | undefined;

/**
 * A label as compared here: normalized, lower case, its words apart by single spaces and padded. Not a
 * skeleton: a look-alike letter ("Prіnt Preview", a Cyrillic і) must not pass for the thing it imitates.
 */
const comparable = (text: string) => ` ${normalizeLabel(text).toLowerCase()} `;

/** Every installed catalog's translations of those phrases, as comparable labels. */
function translations(env: NodeJS.ProcessEnv): string[] {
  translated ??= [
    ...new Set(
      readInstalledTranslations(
        SYSTEM_CATALOGS(env),
        `things:3:${THING_PHRASES.join("|")}`,
        (id) => id.length <= 40 && WHOLE_ID.test(bare(id)),
        (_id, text) => {
          const label = bare(text);
          return label && label.length <= 40 ? comparable(label) : undefined;
        },
        // A label's msgid starts with a capital or a mnemonic marker: "Print Pre_view", "_Sort Order".
        {
          maxIdBytes: 40,
          first: (byte) => (byte >= 0x41 && byte <= 0x5a) || byte === 0x5f || byte === 0x26,
          kind: "things",
        },
      ).picked.map((p) => p.value),
    ),
  ].filter((form) => form.trim().length > 0);
  return translated;
}

/** The label without the English phrases of things it names ("Order by Name": "Name"). */
export function withoutEnglishThings(label: string): string {
  return label.replace(ENGLISH, " ").replace(/\s+/g, " ").trim();
}

/**
 * The label without the things it names, or the label itself where it names none: an English
 * phrase anywhere in it, or a catalog's translation of one that is the whole label ("Druckvorschau").
 */
export function withoutNamedThings(label: string, env: NodeJS.ProcessEnv = process.env): string {
  const english = withoutEnglishThings(label);
  if (english !== label.trim()) return english;
  const form = comparable(label);
  const hit = translations(env).find((t) => form.includes(t));
  if (!hit) return label;
  return form.replace(hit, " ").replace(/\s+/g, " ").trim();
}
