import { accessSync, constants, existsSync } from "node:fs";
import { dirname } from "node:path";
import { z } from "zod";
import { scaledBy } from "../core/render.js";
import { bounded, CHECK_MS, type Check, diagnose, failedCheck, GROUP_MS } from "../platform/diagnostics.js";
import type { WindowInfo } from "../platform/types.js";
import { coveredLanguages } from "../safety/committing-words.js";
import type { ToolContext } from "./context.js";
import { defineTool, READ_ONLY } from "./tool.js";

const MARK: Record<Check["status"], string> = { ok: "ok  ", warn: "warn", fail: "FAIL", unavailable: "n/a " };

/**
 * How each window's extents map onto the screen, and why: an app that scales itself (its frame or
 * content against its window), one whose frame disagrees, and how many are the screen's as reported.
 */
function mappingCheck(windows: WindowInfo[]): Check {
  const named = (w: WindowInfo) => `${JSON.stringify(w.title)} (${w.toolkit ?? w.app ?? "?"})`;
  const scaled = windows
    .filter((w) => w.extentsScale)
    .map((w) => `${named(w)} ×${Number(w.extentsScale!.toFixed(3))} (${scaledBy(w)})`);
  const disagree = windows
    .filter((w) => w.extentsDisagree)
    .map((w) => `${named(w)} none: ${w.extentsDisagree}`);
  const plain = windows.filter((w) => w.accessible && !w.extentsScale && !w.extentsDisagree).length;
  return {
    section: "probe",
    name: "mapping",
    status: disagree.length > 0 ? "warn" : "ok",
    value: `${[...scaled, ...disagree, `${plain} as reported, the screen's`].join("; ")}. Read from each frame, or its content, against the window's rectangle (X11)`,
    ...(disagree.length > 0
      ? {
          hint: "no click goes by ref in a window whose places disagree: click points from a screenshot or find_text",
        }
      : {}),
  };
}

/** The end-to-end read: list windows, then read the first accessible one, bounded. */
async function probe(context: ToolContext): Promise<Check[]> {
  const section = "probe";
  const started = Date.now();
  try {
    const backend = await context.backend();
    const windows = await bounded(backend.listWindows(), CHECK_MS, "listing the windows");
    const checks: Check[] = [
      {
        section,
        name: "windows",
        status: "ok",
        value: `${windows.length} listed, ${windows.filter((w) => w.accessible).length} with an accessible tree`,
      },
    ];
    checks.push(mappingCheck(windows));
    const first = windows.find((w) => w.accessible);
    if (!first) {
      checks.push({
        section,
        name: "read",
        status: "warn",
        value: "no accessible window to read",
        hint: "start an app inside the desktop",
      });
      return checks;
    }
    const read = await backend.readWindow(first.id, {
      maxDepth: 4,
      tableRows: 0,
      walkTables: false,
      nodeCeiling: 200,
      timeoutMs: 3000,
    });
    checks.push({
      section,
      name: "read",
      status: "ok",
      value: `${JSON.stringify(first.title)}: root ${read.root.role}, ${read.method}, ${Date.now() - started} ms`,
    });
    return checks;
  } catch (error) {
    return [
      failedCheck({ section, name: "read" }, error, error instanceof Error ? error.message : String(error)),
    ];
  }
}

const COMMON_LANGUAGES = [
  "ar",
  "de",
  "es",
  "fr",
  "hi",
  "it",
  "ja",
  "ko",
  "pl",
  "pt_BR",
  "ru",
  "th",
  "tr",
  "zh_CN",
];

/** A few well-known codes of the covered languages, and how many more: the whole list is 700 characters. */
function sampleLanguages(languages: string[]): string {
  const shown = COMMON_LANGUAGES.filter((l) => languages.includes(l));
  const more = languages.length - shown.length;
  return `${shown.join(" ")}${more > 0 ? ` and ${more} more, listed in data/vocabulary.json` : ""}`;
}

/** The safety policy in force: where the ceiling came from, the config, the journal. Reads only. */
function safety(context: ToolContext): Check[] {
  const section = "safety";
  let policy: ReturnType<ToolContext["policy"]>;
  try {
    policy = context.policy();
  } catch (error) {
    return [
      {
        section,
        name: "config",
        status: "fail",
        value: error instanceof Error ? error.message : String(error),
        hint: "input tools refuse to run until it is fixed",
      },
    ];
  }
  const journal = journalCheck(policy.auditPath);
  const covered = coveredLanguages();
  const vocabulary: Check = {
    section,
    name: "gate vocabulary",
    status: "ok",
    value:
      `committing words in ${covered.languages.length} languages (${sampleLanguages(covered.languages)})` +
      (covered.catalogs === undefined
        ? ", from the shipped table; this machine's catalogs are added when the gate first judges a label"
        : `, from the shipped table and ${covered.catalogs} catalogs on this machine`),
    hint: "a command labelled in another language counts as committing and needs a person",
  };
  const read = policy.readAt ? `, read ${policy.readAt}; read again when it changes` : "";
  const config: Check = policy.configProblem
    ? {
        section,
        name: "config",
        status: "warn",
        value: policy.configProblem,
        hint: "fix the file: the next call reads it again",
      }
    : {
        section,
        name: "config",
        status: "ok",
        value: `${existsSync(policy.configPath) ? policy.configPath : `${policy.configPath} (none: defaults)`}; ${policy.preapprovals.length} pre-approval(s) in force${read}`,
      };
  return [
    { section, name: "ceiling", status: "ok", value: `${policy.ceiling} (set by ${policy.ceilingSource})` },
    vocabulary,
    config,
    journal,
  ];
}

/** What this process serves over the network: who can reach it, and with what. */
function exposure(context: ToolContext): Check {
  const section = "exposure";
  const serving = context.serving;
  if (!serving)
    return { section, name: "network", status: "ok", value: "nothing: this process serves no network port" };
  const hosts = serving.hosts === "any" ? "any Host header" : `Host ${serving.hosts.join(", ")}`;
  return {
    section,
    name: "mcp over http",
    status: serving.loopbackOnly ? "ok" : "warn",
    value:
      `${serving.address}, ${serving.loopbackOnly ? "this machine only (loopback)" : "reachable from other machines"}; ` +
      `bearer token required; ${hosts}; Origin ${serving.origins.join(", ")} (or none)`,
    ...(serving.loopbackOnly
      ? {}
      : { hint: "bind to 127.0.0.1 unless another machine must drive this desktop" }),
  };
}

/**
 * Input a deskhand that is gone left held (a shift key, a button) or borrowed (keycodes remapped to
 * Greek): opening the hands releases and gives back all of it, as every deskhand does first.
 */
async function leftovers(context: ToolContext): Promise<Check> {
  const section = "input";
  const name = "left by a deskhand that is gone";
  if (!context.env.DISPLAY && context.env.WAYLAND_DISPLAY)
    return {
      section,
      name,
      status: "ok",
      value:
        "nothing kept on Wayland: deskhand's virtual pointer ends with the deskhand that made it (whether the compositor then releases a button it held is not measured)",
    };
  if (!context.env.DISPLAY) return { section, name, status: "ok", value: "UNAVAILABLE (no DISPLAY)" };
  try {
    const hands = await bounded(context.hands(), CHECK_MS, "opening the X display for input");
    return hands.recovered
      ? { section, name, status: "warn", value: hands.recovered }
      : { section, name, status: "ok", value: "nothing held or borrowed" };
  } catch (error) {
    const failed = failedCheck({ section, name }, error, `UNAVAILABLE (${(error as Error).message})`);
    // Input that cannot be opened at all is not this check's failure (display reports it): only "ok".
    return failed.status === "fail" ? { ...failed, status: "ok" } : failed;
  }
}

export const doctorTool = defineTool({
  name: "doctor",
  group: "read",
  title: "Diagnose this machine",
  description: "Can deskhand work here: display, input, buses, toolkits, packages, ceiling, journal.",
  level: "L1",
  annotations: READ_ONLY,
  input: z.object({
    probe: z.boolean().default(false).describe("Also read one window"),
  }),
  async handler(context, input) {
    // Every check at once, each bounded: doctor answers within about GROUP_MS whatever does not answer.
    const [machine, left, probed] = await Promise.all([
      diagnose(context.env),
      leftovers(context),
      input.probe
        ? bounded(probe(context), GROUP_MS, "the probe").catch((error) => [
            failedCheck({ section: "probe", name: "read" }, error, String(error)),
          ])
        : [],
    ]);
    const checks = [...machine, ...safety(context), exposure(context), left, ...probed];
    const failed = checks.filter((c) => c.status === "fail").length;
    const lines = checks.map(
      (c) => `${MARK[c.status]} ${c.section} · ${c.name}: ${c.value}${c.hint ? ` → ${c.hint}` : ""}`,
    );
    lines.push(failed === 0 ? "No failures." : `${failed} failure(s).`);
    return { data: { checks, failures: failed }, text: lines.join("\n") };
  },
});

/**
 * Whether the first action could write its journal line: the file, or the nearest folder that
 * exists on its way, which the first action creates the rest of (a fresh HOME has no
 * ~/.local/state yet). An empty path names no file: every action would be refused.
 */
function journalCheck(path: string): Check {
  const base = { section: "safety", name: "audit journal" } as const;
  if (path.trim() === "")
    return {
      ...base,
      status: "fail",
      value: "the journal's path is empty, so every action is refused",
      hint: 'unset DESKHAND_AUDIT or set it (or "audit_path" in the config) to a writable file',
    };
  let existing = path;
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  try {
    accessSync(existing, constants.W_OK);
    const made =
      existing === path
        ? ""
        : ` (the first action creates ${existing === dirname(path) ? "it" : "its folder"})`;
    return { ...base, status: "ok", value: `${path}${made}` };
  } catch {
    return {
      ...base,
      status: "fail",
      value: `${path} is not writable (${existing} is not writable)`,
      hint: 'set DESKHAND_AUDIT or "audit_path" in the config to a writable file',
    };
  }
}
