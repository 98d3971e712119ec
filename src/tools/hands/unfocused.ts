// Text typed where no element reports the keyboard focus (GTK 4.8's search entries report none): the
// window's text fields are read before the keys, and the one whose text changed to hold what was
// typed is where it went. Only reads, and only where the focus is not reported.
import { TYPED_TEXT_ROLES } from "../../platform/roles.js";
import { PASSWORD_ROLE, type RawNode } from "../../platform/types.js";
import type { ToolContext } from "../context.js";
import { shownIn } from "./facts.js";
import type { WindowRead } from "./window-read.js";

/** Fields read before the keys: a window with more is a form, whose fields report their focus. */
const FIELDS_READ = 20;
const TEXT_READ = 10_000;

/** What each text field of a window held before the keys, by handle. */
export interface FieldTexts {
  windowId: number;
  texts: Map<string, string | undefined>;
}

const shows = (n: RawNode) => n.value ?? n.text;

/** The texts of a window's shown text fields (no password field), read where no focus is reported. */
export async function fieldTextsBefore(
  context: ToolContext,
  read: WindowRead,
  windowId: number,
): Promise<FieldTexts | undefined> {
  const shown = shownIn(read);
  const fields = read.nodes
    .filter((n) => TYPED_TEXT_ROLES.has(n.role) && n.role !== PASSWORD_ROLE && n.states?.includes("editable"))
    .filter(shown)
    .slice(0, FIELDS_READ);
  if (fields.length === 0) return undefined;
  const backend = await context.backend();
  await backend
    .enrich(fields, { maxText: TEXT_READ, actions: false, accessibleIds: false, timeoutMs: 1000, windowId })
    .catch(() => undefined);
  return { windowId, texts: new Map(fields.map((n) => [n.handle, shows(n)])) };
}

/**
 * The one field whose text changed since `before` and now holds `kept`; undefined where none did or
 * several did (then where the keys went is not known).
 */
export async function fieldThatTook(
  context: ToolContext,
  before: FieldTexts,
  kept: string,
): Promise<RawNode | undefined> {
  const backend = await context.backend();
  const now = await Promise.all(
    [...before.texts.keys()].map((handle) =>
      backend.describe(handle, { maxText: TEXT_READ, windowId: before.windowId }).catch(() => undefined),
    ),
  );
  const took = now.filter(
    (n): n is RawNode => !!n && shows(n) !== before.texts.get(n.handle) && !!shows(n)?.includes(kept),
  );
  return took.length === 1 ? took[0] : undefined;
}
