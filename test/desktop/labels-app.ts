// A plain main window with one button per label (test/fixtures/dialogs/{gtk3,qt}_labels.py), each
// pressed through the gate with no person to ask: what the gate refused, and what the app's own log
// says was pressed. Shared by the gate's desktop tests and bench/gate.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { gatedContext, HANG_MS, startApp, toolCaller } from "./helpers.js";

export type LabelsKit = "gtk3" | "qt";

export interface Pressed {
  label: string;
  /** The gate's refusal, or undefined where the press went through. */
  refused?: string;
  /** Whether the app's log holds the press. */
  pressed: boolean;
}

type Call = ReturnType<typeof toolCaller>;

async function buttonRef(call: Call, title: string, label: string): Promise<string> {
  const deadline = Date.now() + HANG_MS;
  for (;;) {
    const found = await call("find", {
      // A title may have a word before it (TITLE_BEFORE: "Preferenze - …").
      target: { kind: "title", glob: `*${title}` },
      role: "push button",
      name: label,
    });
    const matches = found.ok ? (found.data.matches as { ref: string }[]) : [];
    if (matches.length === 1) return matches[0]!.ref;
    if (Date.now() > deadline)
      throw new Error(`no one button ${JSON.stringify(label)} in ${title}: ${found.text}`);
    await sleep(150);
  }
}

/**
 * Presses each label's button with `act invoke`, then reads the app's log of presses. `env`: the
 * app's environment (its language).
 */
export async function pressEach(
  kit: LabelsKit,
  labels: string[],
  dir: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Pressed[]> {
  const title = `Deskhand labels ${kit} ${process.pid}`;
  const log = join(dir, `${kit}-labels.log`);
  const context = gatedContext(dir);
  const call = toolCaller(context);
  const app = startApp(
    ["/usr/bin/python3", `test/fixtures/dialogs/${kit}_labels.py`, title, log, ...labels],
    env,
  );
  const logged = () => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : []);
  try {
    const results: Pressed[] = [];
    for (const label of labels) {
      const ref = await buttonRef(call, title, label);
      const done = await call("act", { ref, action: { kind: "invoke" }, intent: "Press the button" });
      const refused = done.ok
        ? done.data.status === "refused"
          ? String(done.data.reason)
          : undefined
        : done.error.code === "refused"
          ? String(done.error.message)
          : `error: ${done.error.message}`;
      results.push({ label, pressed: false, ...(refused ? { refused } : {}) });
    }
    // The presses that went through reach the log; then a moment for any that should not have.
    const expected = results.filter((r) => !r.refused).map((r) => r.label);
    const deadline = Date.now() + HANG_MS;
    while (!expected.every((l) => logged().includes(l)) && Date.now() < deadline) await sleep(100);
    await sleep(300);
    const seen = new Set(logged());
    return results.map((r) => ({ ...r, pressed: seen.has(r.label) }));
  } finally {
    app.kill();
    await context.close();
  }
}
