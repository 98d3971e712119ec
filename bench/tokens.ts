// bench/tokens: what an agent pays, in characters, to see one window of each toolkit app: deskhand's
// default snapshot (every page), `format: "full"`, and an OSWorld-style linearization of the same
// window (test/peers/osworld_linearize.py, under Debian's own python3); then the `since` reply after
// typing into a field and after pressing something, and `observe` (the targets a model acts on); and the
// acting replies themselves, which end with the view (src/tools/view.ts): what a person now sees, so
// that no look need follow. Run by
// `npm run bench`, one sandbox per app, with DESKHAND_TOOLKIT naming the profile
// (test/toolkits/profiles.ts). DESKHAND_BASELINE_CLI, a path to another build's `dist/frontends/cli/main.js`,
// measures that build's observe of the same window beside ours.
import { execFile } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { callTool } from "../src/tools/call.js";
import { createContext } from "../src/tools/context.js";
import { findTool } from "../src/tools/registry.js";
import { PROFILES, type Query } from "../test/toolkits/profiles.js";

const run = promisify(execFile);
const name = process.env.DESKHAND_TOOLKIT ?? "";
const chosen = PROFILES[name];
if (!chosen) throw new Error(`DESKHAND_TOOLKIT=${name} is not one of ${Object.keys(PROFILES).join(", ")}`);
const profile = chosen;

const context = createContext({ refLifetime: "while-verified" });
const target = { kind: "title", glob: profile.title };

/** The characters of the last acting reply of each kind, view included. */
const replies: Record<string, number> = {};

async function call(tool: string, input: Record<string, unknown>) {
  const result = await callTool(context, findTool(tool)!, input);
  if (!result.ok) throw new Error(`${tool}: ${result.error.message}`);
  if (tool === "act" || tool === "type_text") replies[tool] ??= result.output.text.length;
  return { data: result.output.data as Record<string, any>, text: result.output.text };
}

/** Every page of a snapshot, as the agent would read them. */
async function pages(format: "text" | "full"): Promise<{ chars: number; id: string; frameIndex: number }> {
  let reply = await call("snapshot", { target, format });
  const id = String(reply.data.snapshotId);
  const frameIndex = Number(reply.data.elements?.[0]?.index ?? 0);
  let chars = reply.text.length;
  while (typeof reply.data.cursor === "string") {
    reply = await call("snapshot", { target: { kind: "cursor", cursor: reply.data.cursor } });
    chars += reply.text.length + 1;
  }
  return { chars, id, frameIndex };
}

async function first(query: Query): Promise<string | undefined> {
  const { pick, ...selector } = query;
  const found = await call("find", { target, ...selector, limit: 50 });
  const match = (found.data.matches as any[]).find((m) => !pick || pick(m));
  return match?.ref;
}

/** The characters of a `since` reply after an action; undefined where the profile has no such action. */
async function since(act: () => Promise<boolean>): Promise<number | undefined> {
  const before = await call("snapshot", { target });
  if (!(await act())) return undefined;
  await sleep(300);
  return (await call("snapshot", { target, since: before.data.snapshotId })).text.length;
}

/** A failed action is reported in the row, and the other figures still stand. */
async function measured(act: () => Promise<boolean>): Promise<number | string | undefined> {
  try {
    return await since(act);
  } catch (error) {
    return `error: ${error instanceof Error ? error.message : String(error)}`;
  }
}

async function main(): Promise<void> {
  if (profile.settleMs) await sleep(profile.settleMs);
  const windows = (await call("windows", {})).data.windows as { title: string; pid: number }[];
  const pattern = new RegExp(`^${profile.title.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`);
  const window = windows.find((w) => pattern.test(w.title));
  if (!window) throw new Error(`no window titled ${profile.title}`);
  const screen = await pages("text");
  const full = await pages("full");
  const { stdout } = await run(
    "/usr/bin/python3",
    [
      "test/peers/osworld_linearize.py",
      "--pid",
      String(window.pid),
      "--frame-index",
      String(screen.frameIndex),
    ],
    { maxBuffer: 64 << 20, timeout: 120_000 },
  );
  const osworld = (JSON.parse(stdout) as { chars: number }).chars;
  // observe before any action, as a model's first look; the baseline build reads the same window.
  const observe = (await call("observe", { target })).text.length;
  const baselineCli = process.env.DESKHAND_BASELINE_CLI;
  const baseline = baselineCli
    ? await run(process.execPath, [baselineCli, "observe", "--title", profile.title], {
        maxBuffer: 16 << 20,
        timeout: 120_000,
      }).then(
        (r) => r.stdout.trimEnd().length,
        (error: Error) => `error: ${error.message.split("\n")[0]}`,
      )
    : undefined;
  // The press first: in Qt it puts the text field's tab on screen, as in the contract suite.
  const pressing = await measured(async () => {
    if ("skip" in profile.invoke) return false;
    const button = await first(profile.invoke.target);
    if (!button) return false;
    await call("act", { ref: button, action: { kind: "invoke" } });
    if (profile.invoke.undo) {
      await sleep(300);
      await call("act", { ref: button, action: { kind: "invoke" } });
    }
    return true;
  });
  const typing = await measured(async () => {
    if ("skip" in profile.text) return false;
    if (profile.beforeTyping) {
      const tab = await first(profile.beforeTyping);
      if (tab) await call("click", { ref: tab, intent: "Show the text field for the bench" });
    }
    const field = await first(profile.text);
    if (!field) return false;
    await call("type_text", {
      ref: field,
      text: "tokens",
      clear: true,
      intent: "Type into a field for the bench",
    });
    return true;
  });
  const ratio = screen.chars / osworld;
  const fmt = (n: number | string | undefined) => (n === undefined ? "–" : String(n));
  const share = typeof typing === "number" ? `${((100 * typing) / full.chars).toFixed(1)}%` : "–";
  console.log(
    `| ${profile.label} | ${screen.chars} | ${full.chars} | ${osworld} | ${ratio.toFixed(2)}× ${ratio <= 2 ? "(met)" : "(NOT met)"} | ${fmt(typing)} | ${share} ${typeof typing !== "number" ? "" : typing <= full.chars / 10 ? "(met)" : "(NOT met)"} | ${fmt(pressing)} | ${observe}${baseline === undefined ? "" : ` (baseline ${baseline})`} | ${fmt(replies.act)} | ${fmt(replies.type_text)} |`,
  );
  await context.close();
}

await main();
