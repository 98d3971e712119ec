// The screen view loses nothing, on each toolkit app of the contract suite: every element an
// OSWorld-style linearization keeps (on screen, with a name or text) is a line of the default
// snapshot, or a label merged into the line of the control whose name it repeats, or below a named cut;
// every element of the full tree is a line, inside a fold, or merged or dropped by a stated rule.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import { WRAPPER_ROLES } from "../../src/core/flatten.js";
import { createContext, type ToolContext } from "../../src/tools/context.js";
import { toolCaller } from "../desktop/helpers.js";
import { PROFILES } from "./profiles.js";

const run = promisify(execFile);
const name = process.env.DESKHAND_TOOLKIT ?? "";
const profile = PROFILES[name];
if (!profile) throw new Error(`DESKHAND_TOOLKIT=${name} is not one of ${Object.keys(PROFILES).join(", ")}`);

type Element = {
  ref: string;
  role: string;
  name: string | null;
  value?: string;
  depth: number;
  index: number;
  childCount: number | null;
  fold?: { self: boolean; elements: number; why?: string; selected?: string; group?: { refs: string[] } };
  cut?: unknown;
  rows?: number;
  bounds?: { width: number; height: number } | null;
};

describe(`the screen view loses nothing: ${profile.label}`, () => {
  let context: ToolContext;
  let call: ReturnType<typeof toolCaller>;
  before(async () => {
    context = createContext({ refLifetime: "while-verified" });
    call = toolCaller(context);
  });
  after(() => context.close());

  it("every element OSWorld's filter keeps is shown; every element of the full tree is shown, folded or merged", async () => {
    const target = { kind: "title", glob: profile.title };
    const limits = { maxDepth: 60, maxNodes: 5000 };
    // Full reads on either side of the screen read: an element in only one of them (a popup that
    // came or went meanwhile, as Firefox's do) is not held against the screen read.
    const before = await call("snapshot", { target, ...limits, format: "full" });
    const screen = await call("snapshot", { target, ...limits });
    const full = await call("snapshot", { target, ...limits, format: "full" });
    assert.ok(before.ok && screen.ok && full.ok, JSON.stringify(screen.error ?? full.error));
    const steady = new Set((before.data.elements as Element[]).map((e) => e.ref));
    const path = (ref: string) => context.refs.lookup(ref).fingerprint.path.join("/");
    const lines = new Map((screen.data.elements as Element[]).map((e) => [path(e.ref), e]));
    const all = new Map((full.data.elements as Element[]).map((e) => [path(e.ref), e]));
    const ancestors = (p: string) => {
      const parts = p === "" ? [] : p.split("/");
      return parts.map((_, i) => parts.slice(0, i).join("/")).reverse();
    };
    // Several hidden siblings, or a run of empty cells, are one line that holds each one's ref.
    const grouped = new Set(
      (screen.data.elements as Element[]).flatMap((e) => e.fold?.group?.refs ?? []).map(path),
    );
    const folded = (p: string) =>
      grouped.has(p) || ancestors(p).some((a) => lines.get(a)?.fold || grouped.has(a));
    // Under a table read through its Table interface (cut or whole), cells stand by row and column,
    // not by OSWorld's paths through rows.
    const cutAbove = (p: string) =>
      ancestors(p).some((a) => all.get(a)?.cut !== undefined || all.get(a)?.rows !== undefined);
    /** A label merged into the nearest line above it, whose name it repeats. */
    const echoes = (p: string, element: Element) => {
      const parent = ancestors(p)
        .map((a) => lines.get(a))
        .find((line) => line !== undefined);
      const said = `${parent?.name ?? ""} ${parent?.value ?? ""}`.trim();
      return !!element.name && !!said && ` ${said} `.includes(` ${element.name.trim()} `);
    };
    const layout = (element: Element) => !element.name && WRAPPER_ROLES.has(element.role);
    const nearestLine = (p: string) =>
      ancestors(p)
        .map((a) => lines.get(a))
        .find((line) => line !== undefined);
    /** The selected item of a closed combo box, shown as the combo box's own value or name. */
    const shownByFold = (p: string, keptName: string) => {
      const line = nearestLine(p);
      const shown = `${line?.name ?? ""} ${line?.value ?? ""} ${line?.fold?.selected ?? ""}`;
      return !!line?.fold && !!keptName && shown.includes(keptName);
    };

    const lost: string[] = [];
    for (const [p, element] of all) {
      if (!steady.has(element.ref)) continue;
      if (lines.has(p) || folded(p)) continue;
      if (element.role === "separator" || layout(element) || echoes(p, element)) continue;
      lost.push(`${element.role} ${JSON.stringify(element.name)} at ${p}`);
    }
    assert.deepEqual(
      lost.slice(0, 10),
      [],
      `${lost.length} elements of the full tree are neither shown nor folded`,
    );

    const window = (await call("windows", {})).data.windows.find((w: { title: string }) =>
      new RegExp(`^${profile.title.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`).test(
        w.title,
      ),
    );
    const frameIndex = (screen.data.elements as Element[])[0]!.index;
    const { stdout } = await run(
      "/usr/bin/python3",
      ["test/peers/osworld_linearize.py", "--pid", String(window.pid), "--frame-index", String(frameIndex)],
      { maxBuffer: 64 << 20, timeout: 120_000 },
    );
    const kept = (JSON.parse(stdout) as { kept: [number[], string, string, string][] }).kept;
    const missing: string[] = [];
    for (const [indices, role, keptName] of kept) {
      const p = indices.join("/");
      const element = all.get(p);
      if (lines.has(p) || grouped.has(p) || cutAbove(p)) continue;
      if (element && (echoes(p, element) || layout(element))) continue;
      if (shownByFold(p, keptName)) continue;
      // A closed popup's items (Qt keeps a closed combo box's list at 0×0, its items `showing` at the
      // screen's corner, and OSWorld keeps them): the line says "closed, N items", its ref reads them.
      if (nearestLine(p)?.fold?.why === "closed menu") continue;
      const line = nearestLine(p);
      // A menu bar of no height (LibreOffice keeps a copy of the bar it shows): its menus report
      // `showing`, and OSWorld keeps them; the line says it is hidden, its ref reads them.
      if (line?.role === "menu bar" && line.fold?.self && line.bounds?.height === 0) continue;
      missing.push(
        `${role} ${JSON.stringify(keptName)} at ${p}${element ? "" : " (not in the full tree)"}, under ${line ? `${line.role} ${JSON.stringify(line.name)} = ${JSON.stringify(line.value)}` : "no line"}`,
      );
    }
    assert.deepEqual(
      missing.slice(0, 10),
      [],
      `${missing.length} of ${kept.length} elements OSWorld keeps are not in the default snapshot`,
    );
  });
});
