// Run in a worker thread by warmInBackground (warm.ts): builds and caches what the gate's first
// judgement reads, so that judgement does not pay for it.
import { systemLabelLexicon } from "./label-reading.js";
import { withoutNamedThings } from "./named-things.js";

systemLabelLexicon();
// A label that is no English thing's name: its translations are then read (and cached).
withoutNamedThings("-");
