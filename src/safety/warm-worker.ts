// Run in a worker thread by warmInBackground (warm.ts): builds and caches what the gate's first
// judgement reads, so that judgement does not pay for it.
import { processLanguage } from "../platform/processes.js";
import { systemVocabulary } from "./committing-words.js";
import { systemLabelLexicon } from "./label-reading.js";
import { withoutNamedThings } from "./named-things.js";

// The committing phrases every judgement reads: the catalogs' translations and their forms.
systemVocabulary();
const lexicon = systemLabelLexicon();
// The apps of this desktop most likely show its own language: that language's own words, too.
const language = processLanguage(process.pid);
if (language) lexicon.ownHarmless(language);
// A label that is no English thing's name: its translations are then read (and cached).
withoutNamedThings("-");
