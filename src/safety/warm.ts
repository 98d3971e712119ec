// The gate's first judgement on a machine reads every translation catalog to learn its label
// lexicon (about 30 s of CPU; then cached, keyed by the catalogs and the rules). A server starts that
// build in a worker thread as it starts; a call that may judge waits for what is left of it
// (gateWarm), rather than building it again on the main thread, which stalled every other call of
// the server (a ping took 38 s on a loaded machine), and its other calls never wait.
import { extname } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";

/**
 * Starts the build with this environment (its cache folder); it never keeps the process alive, and
 * a failure shows at the first judgement, which then builds it. The worker, for a test to wait on.
 */
let warming: Promise<void> | undefined;

/**
 * Whether the background build has ended (at once where none runs), waiting at most `ms` for it.
 * After it, the judgement reads the lexicon from its cache.
 */
export async function gateWarm(ms: number): Promise<boolean> {
  if (!warming) return true;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([warming.then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}

export function warmInBackground(env: NodeJS.ProcessEnv = process.env): Worker | undefined {
  const own = fileURLToPath(import.meta.url);
  const entry = new URL(`./warm-worker${extname(own)}`, import.meta.url);
  // Run from its TypeScript source (the tests), the worker registers tsx first, as its thread did.
  const fromSource = `import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); })`;
  try {
    const worker =
      extname(own) === ".ts" ? new Worker(fromSource, { eval: true, env }) : new Worker(entry, { env });
    worker.on("error", () => undefined);
    worker.unref();
    warming = new Promise((resolve) => worker.once("exit", () => resolve()));
    return worker;
  } catch {
    // No worker threads here: the first judgement builds it, as before.
    return undefined;
  }
}
