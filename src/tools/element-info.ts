import { z } from "zod";
import { elementState } from "../core/receipt.js";
import { placeholderOf } from "../core/value.js";
import { differences, identity, stateChanges } from "../core/verify.js";
import { LABELLED_FIELD_ROLES } from "../platform/roles.js";
import { refSchema } from "./schemas.js";
import { defineTool, READ_ONLY } from "./tool.js";

/** What the re-read says of the element against the snapshot: the same one, moved, or another. */
function verdict(differences: number, same: boolean, since: string[]): string {
  const said = since.length ? `; ${since.join("; ")}` : "";
  if (differences === 0)
    return `verified: the same element${since.length ? said : ", unchanged since last seen"}`;
  return same ? `verified: the same element, moved since the snapshot${said}` : "CHANGED since the snapshot";
}

/** A value that changed since it was seen, as words ('its value "12 pt" → "20 pt"'), bounded. */
function valueSince(was: string | undefined, now: string | undefined): string | undefined {
  if (was === undefined || now === undefined || was === now) return undefined;
  // A long value seen cut by a snapshot's maxText is not another value.
  const [short, long] = was.length < now.length ? [was, now] : [now, was];
  if (short.length >= 100 && long.startsWith(short)) return undefined;
  const cut = (v: string) => JSON.stringify(v.length > 80 ? `${v.slice(0, 80)}…` : v);
  return `its value ${cut(was)} → ${cut(now)}`;
}

export const elementInfoTool = defineTool({
  name: "element_info",
  group: "read",
  title: "Element info",
  description: "A ref's element re-read in full and verified; a changed one comes with its differences.",
  level: "L1",
  annotations: READ_ONLY,
  input: z.object({ ref: refSchema }),
  async handler(context, input) {
    const backend = await context.backend();
    const entry = context.refs.lookup(input.ref);
    let node: Awaited<ReturnType<typeof backend.describe>>;
    try {
      node = await backend.describe(entry.handle, {
        maxText: 1000,
        ...(entry.fingerprint.windowId === null ? {} : { windowId: entry.fingerprint.windowId }),
      });
    } catch (error) {
      if (error instanceof Error && error.name === "ElementGone") {
        const data = {
          ref: input.ref,
          verified: false,
          gone: true,
          reason: error.message,
          seen: entry.fingerprint,
        };
        return { data, text: `${input.ref} is gone: ${error.message}. Take a new snapshot.` };
      }
      throw error;
    }
    // A field's hint while empty ("DD/MM/YYYY"): its format, where its name does not say it.
    const placeholder = LABELLED_FIELD_ROLES.has(node.role)
      ? placeholderOf(await backend.readAttributes?.(entry.handle).catch(() => undefined))
      : undefined;
    const changed = differences(entry, node);
    // Moved or resized only: still the same element, which acting tools use where it is now.
    const same = identity(changed, node.role).length === 0;
    const states = stateChanges(entry, node);
    const value = valueSince(entry.fingerprint.value, node.value ?? node.text);
    const data = {
      ref: input.ref,
      verified: same,
      differences: changed,
      ...(states.length ? { states_changed: states } : {}),
      ...(value ? { value_changed: { was: entry.fingerprint.value, now: node.value ?? node.text } } : {}),
      ...elementState(node),
      ...(node.range ? { range: node.range } : {}),
      description: node.description ?? null,
      ...(placeholder ? { placeholder } : {}),
      index: node.indexInParent,
      childCount: node.childCount ?? null,
      accessibleId: node.accessibleId ?? null,
      interfaces: node.interfaces ?? null,
      actions: node.actions ?? null,
      window: entry.fingerprint.windowId,
      path: entry.fingerprint.path,
      ...(node.unread.length ? { unread: [...new Set(node.unread)] } : {}),
    };
    const lines = [
      `${node.role}${node.name ? ` ${JSON.stringify(node.name)}` : ""} [ref=${input.ref}] ${verdict(changed.length, same, [...(states.length ? [`its states since: ${states.join(", ")}`] : []), ...(value ? [`${value} since it was seen`] : [])])}`,
      ...changed.map((d) => `  ${d.field}: was ${JSON.stringify(d.was)}, now ${JSON.stringify(d.now)}`),
      `states: ${(node.states ?? ["(unread)"]).join(", ")}`,
      ...(node.range ? [`range: ${node.range.min}–${node.range.max}`] : []),
      `bounds: ${node.bounds ? `${node.bounds.x},${node.bounds.y} ${node.bounds.width}x${node.bounds.height}` : "none (not on screen, or no geometry)"}`,
      `index ${node.indexInParent} · ${node.childCount ?? "?"} children · id ${node.accessibleId ?? "none"}`,
      `interfaces: ${(node.interfaces ?? []).join(", ")}`,
      `actions: ${(node.actions ?? []).join(", ") || "none"}`,
      ...(data.value !== undefined
        ? [
            `value: ${JSON.stringify(data.value)}${data.value_length !== undefined ? ` (first ${data.value.length} of ${data.value_length} characters: read_text reads the rest)` : ""}`,
          ]
        : []),
      ...(node.description ? [`description: ${JSON.stringify(node.description)}`] : []),
      ...(placeholder ? [`placeholder: ${JSON.stringify(placeholder)}`] : []),
    ];
    return { data, text: lines.join("\n") };
  },
});
