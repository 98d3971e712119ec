// The gate's first judgement on a machine reads every translation catalog to learn its label
// lexicon (about 20 s of CPU; then cached, keyed by the catalogs and the rules). A server starts that
// build in a worker thread as it starts, so the first press it judges waits for what is left of it,
// not for all of it, and its other calls never wait.
import { extname } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";

/**
 * Starts the build with this environment (its cache folder); it never keeps the process alive, and
 * a failure shows at the first judgement, which then builds it. The worker, for a test to wait on.
 */
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
    return worker;
  } catch {
    // No worker threads here: the first judgement builds it, as before.
    return undefined;
  }
}
