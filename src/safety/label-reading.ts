// What a label's words say to the gate, read once: a word or phrase that commits, the words no
// lexicon deskhand has can read, and whether every word was read and none commits. The judge
// (classify.ts) decides by structure first and asks this only where words decide: a control that
// can commit commits unless its label reads as harmless.
import { committingMeaning } from "./meanings.js";
import { labelWords } from "./phrases.js";
import { knownWord, matchLabel, normalizeLabel, type Vocabulary } from "./vocabulary.js";

export interface LabelReading {
  /** What commits in it: a committing phrase ("Delete") or a verb by its meaning ("Paying"). */
  commits?: { word: string; what?: string | undefined } | undefined;
  /** Its words of two letters or more (a CJK run of one) that no lexicon reads. */
  unknown: string[];
  /** Every word read, and none commits: the label says what it does, and that commits nothing. */
  harmless: boolean;
}

/** Reads a label (normalized or not) for the words that decide what pressing it does. */
export function readLabel(label: string, vocabulary?: Vocabulary): LabelReading {
  const normal = normalizeLabel(label);
  const phrase = matchLabel(normal, vocabulary).commits;
  const meaning = phrase ? undefined : committingMeaning(normal);
  const commits = phrase
    ? { word: phrase }
    : meaning
      ? { word: meaning.word, what: meaning.what }
      : undefined;
  // "SaveButton", "GtkToggleButton": words run together in camel case are read one by one.
  const spaced = normal.replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2");
  const unknown = labelWords(spaced).filter((word) => !knownWord(word, vocabulary));
  return { commits, unknown, harmless: !commits && unknown.length === 0 };
}
