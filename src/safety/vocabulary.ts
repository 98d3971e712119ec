// The words that say what pressing a labelled element does, in every language the toolkits' catalogs
// carry, matched after normalizing what a label can hide behind: compatibility forms (full-width "ＯＫ"),
// mnemonics ("_Save", "&Save", "削除(_D)"), invisible characters (a zero-width space or soft hyphen
// inside "Save") and look-alike letters (UTS #39 skeletons: "Oк" with a Cyrillic к).
import confusables from "unicode-confusables";
import { readStockTranslations, type StockLabel, SYSTEM_CATALOGS } from "../platform/translations.js";

/** commits: presses that commit; closes: close a window; edits: change a document, undoably; cancels. */
export type WordKind = "commits" | "closes" | "edits" | "cancels";

// English, beyond the stock labels: the verbs of commerce, publishing, accounts and systems.
const ENGLISH: Record<WordKind, string[]> = {
  commits: [
    "ok",
    "okay",
    "save",
    "send",
    "delete",
    "submit",
    "apply",
    "confirm",
    "yes",
    "remove",
    "discard",
    "erase",
    "format",
    "pay",
    "buy",
    "purchase",
    "order",
    "publish",
    "post",
    "overwrite",
    "finish",
    "install",
    "uninstall",
    "reset",
    "destroy",
    "drop",
    "empty",
    "sign out",
    "log out",
    "logout",
    "quit",
    "exit",
    "accept",
    "agree",
    "commit",
    "merge",
    "deploy",
    "transfer",
    "shut down",
    "shutdown",
    "restart",
    "reboot",
    "trash",
    "proceed",
    "continue",
    "approve",
    "revoke",
    "print",
    "execute",
    "end process",
    "kill",
    "terminate",
    "wipe",
    "purge",
    "authorize",
    "grant",
    "unsubscribe",
    "archive",
    "restore",
    "revert",
    "forget",
    "leave",
    "decline",
    "reject",
  ],
  closes: ["close"],
  edits: ["replace", "replace all"],
  cancels: ["cancel", "help", "back", "previous", "dismiss"],
};

// The toolkits' stock labels, by kind; their translations come from the installed catalogs.
const stock = (context: string, kind: WordKind, ids: string[]) => ids.map((id) => ({ context, id, kind }));
const STOCK: (StockLabel & { kind: WordKind })[] = [
  ...stock("", "commits", ["_OK", "_Save", "_Delete", "_Apply", "_Yes", "Yes", "_Remove", "_Finish"]),
  ...stock("", "commits", ["_Move to Trash", "_End Process", "_Print"]),
  ...stock("Stock label", "commits", ["_OK", "_Save", "_Delete", "_Apply", "_Yes", "_Remove", "_Discard"]),
  ...stock("Stock label", "commits", ["_Quit", "_Revert", "_Execute", "_Clear"]),
  ...stock("", "closes", ["_Close"]),
  ...stock("Stock label", "closes", ["_Close"]),
  ...stock("", "edits", ["_Replace"]),
  ...stock("", "cancels", ["_Cancel", "_Help", "_Back"]),
  ...stock("Stock label", "cancels", ["_Cancel"]),
];

// Format characters (zero-width space, soft hyphen, joiners, bidi marks) and the grapheme joiner.
const INVISIBLE = /\p{Cf}|\u034f|\u115f|\u1160|\u3164|\uffa0/gu;
// A CJK mnemonic in brackets, "削除(_D)", or as the toolkit shows it, "いいえ(N)"; then the marker
// itself, "_Save", "&Save".
const BRACKET_MNEMONIC = /\s*[(（][_&]?[A-Za-z0-9][)）](?=\s*(\.\.\.)?\s*$)/gu;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** The label as a person reads it: compatibility forms folded, invisibles and mnemonics gone. */
export function normalizeLabel(label: string): string {
  return (
    label
      .normalize("NFKC")
      .replace(INVISIBLE, "")
      .replace(BRACKET_MNEMONIC, "")
      // "&&" is a literal ampersand in Qt; a lone "&" or "_" marks the mnemonic.
      .split("&&")
      .map((part) => part.replace(/[_&]/g, ""))
      .join("&")
      .replace(/\s+/g, " ")
      .trim()
      // GTK 4.8 names a button by its mnemonic text and its label: "_Löschen Löschen".
      .replace(/^(.+) \1$/u, "$1")
  );
}

/** Whether the label promises a further step: "Save As…" opens a dialog, it saves nothing yet. */
export function endsInEllipsis(label: string): boolean {
  return /(\.\.\.|…)$/.test(normalizeLabel(label));
}

/** Two comparable spellings: upper- and lower-case UTS #39 skeletons, as space-joined words. */
function forms(text: string): string[] {
  const normal = normalizeLabel(text);
  return [normal.toUpperCase(), normal.toLowerCase()].map((cased) => {
    const skeleton = confusables.rectifyConfusion(cased.normalize("NFD")).normalize("NFD");
    const words = skeleton.match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];
    return CJK.test(normal) ? words.join("") : ` ${words.join(" ")} `;
  });
}

interface Phrase {
  text: string;
  kind: WordKind;
  forms: string[];
  cjk: boolean;
  /** Matches only the whole label: a catalog's word of one or two letters ("In", "是") is too common. */
  wholeOnly: boolean;
}

export interface Vocabulary {
  phrases: Phrase[];
  /** How many catalogs the translations came from, for doctor and the docs. */
  catalogs: number;
}

export function buildVocabulary(translations: Map<string, string[]>, catalogs: number): Vocabulary {
  const seen = new Set<string>();
  const phrases: Phrase[] = [];
  const add = (text: string, kind: WordKind, translated: boolean) => {
    const f = forms(text);
    const key = `${kind}:${f[1]}`;
    if (!f[1]?.trim() || seen.has(key)) return;
    seen.add(key);
    const normal = normalizeLabel(text);
    const letters = [...normal.replace(/[^\p{L}\p{N}]/gu, "")].length;
    phrases.push({
      text: normal,
      kind,
      forms: f,
      cjk: CJK.test(normal),
      wholeOnly: CJK.test(normal) ? letters < 2 : translated && letters < 3,
    });
  };
  for (const [kind, words] of Object.entries(ENGLISH) as [WordKind, string[]][])
    for (const word of words) add(word, kind, false);
  for (const label of STOCK) {
    add(label.id, label.kind, false);
    for (const text of translations.get(`${label.context}\u0004${label.id}`) ?? [])
      add(text, label.kind, true);
  }
  return { phrases, catalogs };
}

let system: Vocabulary | undefined;

/** The vocabulary of this system's catalogs, read once (and cached on disk between processes). */
export function systemVocabulary(env: NodeJS.ProcessEnv = process.env): Vocabulary {
  if (!system) {
    const read = readStockTranslations(STOCK, SYSTEM_CATALOGS(env));
    system = buildVocabulary(read.translations, read.catalogs);
  }
  return system;
}

/** The first phrase of each kind the label contains (as whole words; CJK as a substring). */
export function matchLabel(
  label: string,
  vocabulary: Vocabulary = systemVocabulary(),
): Partial<Record<WordKind, string>> {
  const labelForms = forms(label);
  const found: Partial<Record<WordKind, string>> = {};
  for (const phrase of vocabulary.phrases) {
    if (found[phrase.kind]) continue;
    const hit = phrase.forms.some((form, i) => {
      const whole = labelForms[i]!;
      if (phrase.wholeOnly) return whole.trim() === form.trim();
      return whole.includes(form);
    });
    if (hit) found[phrase.kind] = phrase.text;
  }
  return found;
}

/** Whether the whole label is one phrase of the kind ("Cancel", "_Abbrechen"), not just contains it. */
export function labelIs(label: string, kind: WordKind, vocabulary: Vocabulary = systemVocabulary()): boolean {
  const labelForms = forms(label);
  return vocabulary.phrases.some(
    (p) => p.kind === kind && p.forms.some((form, i) => labelForms[i]!.trim() === form.trim()),
  );
}
