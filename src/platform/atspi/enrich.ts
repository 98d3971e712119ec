// The fields the bulk cache does not carry: bounds, accessible id, action names, value and text. Read
// only for the nodes a reply will show, all calls of a page in flight together.
import { PASSWORD_ROLE, type RawNode, type Rect } from "../types.js";
import { type AtspiApp, isNotImplemented } from "./app.js";
import { COORD_SCREEN, IFACE } from "./names.js";
import { parseHandle } from "./reader.js";

const INT_MIN = -2147483648;
/** Roles whose text is the document itself: too big to be "cheap", read with read_text instead. */
const DOCUMENT_ROLES = new Set(["document frame", "document web", "document text", "document spreadsheet"]);

export { PASSWORD_ROLE };

/** Roles whose Value is a real quantity. Java puts Value on every button (0 or 1): noise, and a call each. */
const VALUE_ROLES = new Set([
  "slider",
  "spin button",
  "scroll bar",
  "progress bar",
  "dial",
  "level bar",
  "split pane",
]);
/** After this many empty AccessibleId answers from one app, it is taken not to set ids at all. */
const ACCESSIBLE_ID_PROBES = 64;

export interface EnrichContext {
  app: AtspiApp;
  maxText: number;
  actions: boolean;
  accessibleIds: boolean;
  deadline: number;
  /** Added to extents for toolkits that report window-relative coordinates (GTK 4.8). */
  boundsOffset: { x: number; y: number } | undefined;
}

function remaining(context: EnrichContext): number {
  return Math.max(1, context.deadline - Date.now());
}

function toRect(raw: unknown, offset: { x: number; y: number } | undefined): Rect | null {
  const [x, y, width, height] = raw as [number, number, number, number];
  // Off-screen GTK3 cells claim `showing` with INT_MIN extents: that is "no geometry", not a place.
  if (x === INT_MIN || y === INT_MIN || width < 0 || height < 0) return null;
  return { x: x + (offset?.x ?? 0), y: y + (offset?.y ?? 0), width, height };
}

/** Roles whose text is their content. A named label's text is its name: reading it again is waste. */
const TEXT_ROLES = new Set([
  "text",
  "entry",
  "paragraph",
  "terminal",
  "spin button",
  "editbar",
  "caption",
  "static",
]);

function carriesText(node: RawNode): boolean {
  if (DOCUMENT_ROLES.has(node.role)) return false;
  if ((node.interfaces ?? []).includes("EditableText") || TEXT_ROLES.has(node.role)) return true;
  return !node.name;
}

/**
 * Whether an element is on screen, so that its extents mean something. An element that is not showing
 * (a hidden page, a closed menu) has no place on screen: toolkits answer with its last allocation,
 * which may overlap what is shown, so it gets no bounds rather than misleading ones. GTK 4.8 never
 * reports `showing` below the window; there `visible` stands in.
 */
function onScreen(app: AtspiApp, node: RawNode): boolean {
  const states = node.states;
  if (states === undefined || states.includes("showing")) return true;
  return app.reportsShowing === false && states.includes("visible");
}

async function readActions(context: EnrichContext, path: string): Promise<string[]> {
  const { app } = context;
  const [actions] = await app.call(path, IFACE.action, "GetActions", remaining(context));
  const names = (actions as [string, string, string][]).map(([name]) => name);
  // Firefox answers GetActions with empty names, or with ";;" (name, description and key binding run
  // together, all empty); GetName per index has the real names.
  const blank = (name: string) => /^;*$/.test(name);
  if (names.length === 0 || names.some((name) => !blank(name))) return names;
  const named = await Promise.all(
    names.map((_, index) => app.call(path, IFACE.action, "GetName", remaining(context), "i", [index])),
  );
  return named.map(([name]) => String(name));
}

async function readText(context: EnrichContext, node: RawNode, path: string): Promise<void> {
  const { app } = context;
  const length = Number(await app.property(path, IFACE.text, "CharacterCount", remaining(context)));
  const end = Math.min(length, context.maxText);
  const [text] =
    end > 0 ? await app.call(path, IFACE.text, "GetText", remaining(context), "ii", [0, end]) : [""];
  node.text = String(text);
  node.textLength = length;
}

type Field = "bounds" | "accessibleId" | "actions" | "value" | "text";

async function attempt(node: RawNode, field: Field, read: () => Promise<void>): Promise<void> {
  try {
    await read();
  } catch (error) {
    // "The toolkit does not have it" leaves the field absent; "it did not answer" names it unread.
    if (!isNotImplemented(error)) node.unread.push(field);
  }
}

export async function enrichNode(context: EnrichContext, node: RawNode): Promise<void> {
  if (node.enriched) return;
  node.enriched = true;
  const { app } = context;
  const { path } = parseHandle(node.handle);
  const interfaces = node.interfaces ?? [];
  const reads: Promise<void>[] = [];
  if (
    context.accessibleIds &&
    (app.accessibleIds.seen > 0 || app.accessibleIds.empty < ACCESSIBLE_ID_PROBES)
  ) {
    reads.push(
      attempt(node, "accessibleId", async () => {
        const id = String(await app.property(path, IFACE.accessible, "AccessibleId", remaining(context)));
        node.accessibleId = id === "" ? undefined : id;
        if (id === "") app.accessibleIds.empty++;
        else app.accessibleIds.seen++;
      }),
    );
  }
  if (interfaces.includes("Component") && onScreen(app, node)) {
    reads.push(
      attempt(node, "bounds", async () => {
        const [extents] = await app.call(path, IFACE.component, "GetExtents", remaining(context), "u", [
          COORD_SCREEN,
        ]);
        node.bounds = toRect(extents, context.boundsOffset);
      }),
    );
  } else {
    node.bounds = null;
  }
  if (!interfaces.includes("Action")) node.actions = [];
  else if (context.actions) {
    reads.push(
      attempt(node, "actions", async () => {
        node.actions = await readActions(context, path);
      }),
    );
  }
  // The content of a password field never leaves deskhand, so it is never read.
  const secret = node.role === PASSWORD_ROLE;
  if (interfaces.includes("Value") && !secret && VALUE_ROLES.has(node.role)) {
    reads.push(
      attempt(node, "value", async () => {
        const value = await app.property(path, IFACE.value, "CurrentValue", remaining(context));
        node.value = String(value);
      }),
    );
  }
  if (interfaces.includes("Text") && !secret && carriesText(node)) {
    reads.push(attempt(node, "text", () => readText(context, node, path)));
  }
  await Promise.all(reads);
}
