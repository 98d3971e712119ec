import { createContext } from "./src/tools/context.js";
import { keyEffect } from "./src/tools/hands/facts.js";
import { parseChord } from "./src/platform/keys.js";
import { commitReason } from "./src/safety/classify.js";
const c = createContext({ refLifetime: "while-verified" });
const b = await c.backend();
const w = (await b.listWindows()).find(w => w.title === process.argv[2])!;
for (const k of process.argv.slice(3)) {
  const e = await keyEffect(c, { windowId: w.id, chord: parseChord(k) });
  console.log(k, JSON.stringify(e.via), e.presses.map(p => `${p.role}:${p.name}:${commitReason(p)}`));
}
await c.close();
