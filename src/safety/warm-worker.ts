// Run in a worker thread by warmInBackground (warm.ts): builds and caches what the gate's first
// judgement reads, so that judgement does not pay for it.
import { systemLabelLexicon } from "./label-reading.js";
import { withoutNamedThings } from "./named-things.js";

systemLabelLexicon();
withoutNamedThings("Print Preview");
