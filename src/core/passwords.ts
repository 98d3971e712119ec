// Where password fields are on screen, so that text recognition never reads one: each field's area is
// blanked before the engine sees the pixels. A field whose toolkit shows its text (a "show password"
// toggle keeps the role) is blanked all the same. A window whose tree cannot be read may hold one:
// the reply says so, since nothing can be blanked there.
import {
  type AccessibilityReader,
  PASSWORD_ROLE,
  type RawNode,
  type Rect,
  type WindowInfo,
} from "../platform/types.js";
import { READ_CEILING } from "./limits.js";
import { intersection } from "./rects.js";

export interface PasswordAreas {
  /** Password fields with any part in the region, on top. */
  fields: number;
  /** Their visible parts, in global points. */
  areas: Rect[];
  /** Windows in the region whose password fields cannot be known, and why. */
  unknown: { window: number; title: string; reason: string }[];
}

const intersects = (a: Rect, b: Rect): boolean => intersection(a, b) !== undefined;

/** What of `rect` no rect of `covers` hides: up to four pieces per cover. */
export function visibleParts(rect: Rect, covers: Rect[]): Rect[] {
  let parts = [rect];
  for (const c of covers) {
    const next: Rect[] = [];
    for (const p of parts) {
      if (!intersects(p, c)) {
        next.push(p);
        continue;
      }
      const top = c.y - p.y;
      const bottom = p.y + p.height - (c.y + c.height);
      const midY = Math.max(p.y, c.y);
      const midHeight = Math.min(p.y + p.height, c.y + c.height) - midY;
      if (top > 0) next.push({ x: p.x, y: p.y, width: p.width, height: top });
      if (bottom > 0) next.push({ x: p.x, y: c.y + c.height, width: p.width, height: bottom });
      if (c.x > p.x) next.push({ x: p.x, y: midY, width: c.x - p.x, height: midHeight });
      const right = p.x + p.width - (c.x + c.width);
      if (right > 0) next.push({ x: c.x + c.width, y: midY, width: right, height: midHeight });
    }
    parts = next;
  }
  return parts;
}

function passwordNodes(root: RawNode): RawNode[] {
  const found: RawNode[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.role === PASSWORD_ROLE) found.push(node);
    stack.push(...node.children);
  }
  return found;
}

/** The password fields of every window that overlaps `region`, with their areas in global points. */
export async function passwordAreas(
  backend: AccessibilityReader,
  region: Rect,
  timeoutMs: number,
): Promise<PasswordAreas> {
  // Front-most first: a field is blanked only where no window above its own covers it, so that a
  // field behind the window read does not blank that window's text.
  const listed = await backend.listWindows();
  const result: PasswordAreas = { fields: 0, areas: [], unknown: [] };
  await Promise.all(
    listed.map(async (window: WindowInfo, index) => {
      const above = listed.slice(0, index).flatMap((w) => (w.rect ? [w.rect] : []));
      const shown = window.rect
        ? visibleParts(window.rect, above).filter((r) => intersects(r, region))
        : [region];
      if (shown.length === 0) return;
      if (!window.accessible) {
        result.unknown.push({ window: window.id, title: window.title, reason: "it has no accessible tree" });
        return;
      }
      try {
        const { fields, complete } = await fieldsOf(backend, window.id, timeoutMs);
        if (!complete)
          result.unknown.push({
            window: window.id,
            title: window.title,
            reason: "its tree could not be read whole in time",
          });
        await backend.enrich(fields, {
          maxText: 0,
          actions: false,
          accessibleIds: false,
          timeoutMs,
          windowId: window.id,
        });
        for (const field of fields) {
          const parts = field.bounds
            ? visibleParts(field.bounds, above).filter((r) => intersects(r, region))
            : [];
          if (parts.length > 0) {
            result.fields++;
            result.areas.push(...parts);
          } else if (field.bounds === undefined)
            result.unknown.push({
              window: window.id,
              title: window.title,
              reason: "a password field's area could not be read",
            });
        }
      } catch (error) {
        result.unknown.push({
          window: window.id,
          title: window.title,
          reason: `its tree could not be read (${(error as Error).message})`,
        });
      }
    }),
  );
  return result;
}

async function fieldsOf(
  backend: AccessibilityReader,
  windowId: number,
  timeoutMs: number,
): Promise<{ fields: RawNode[]; complete: boolean }> {
  const single = { maxDepth: 0, tableRows: 0, walkTables: false, nodeCeiling: 1, timeoutMs };
  // The app's own search, where it has a safe one: only the fields are read.
  const handles = await backend.matchCandidates?.(
    { windowId },
    { roles: [PASSWORD_ROLE], states: [] },
    timeoutMs,
  );
  if (handles) {
    const fields = await Promise.all(
      handles.map(async (handle) => (await backend.readSubtree(handle, single)).root),
    );
    return { fields, complete: true };
  }
  const read = await backend.readWindow(windowId, {
    maxDepth: 64,
    tableRows: 0,
    walkTables: false,
    nodeCeiling: READ_CEILING,
    timeoutMs,
  });
  return { fields: passwordNodes(read.root), complete: !read.timedOut && !read.ceilingHit };
}
