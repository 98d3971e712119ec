// When a tree is known to be incomplete, say so, with why and how to fix it. An empty tree is never
// presented as complete: a large window whose tree has nothing under its root, or a web document with
// nothing in it, is the mark of an app that did not turn its accessibility on (Chromium and Electron
// without renderer accessibility answer with one bare frame).
import type { RawNode, WindowInfo } from "../platform/types.js";

export interface TreeIncomplete {
  window: number;
  reason: string;
  fix: string;
}

const DOCUMENT_ROLES = new Set(["document web", "document frame", "document text"]);
// Below this a window may honestly hold nothing (a splash, a tooltip).
const LARGE_WINDOW_AREA = 200 * 150;

interface Hint {
  pattern: RegExp;
  fix: string;
}

const FIXES: Hint[] = [
  {
    pattern: /chrom|electron|code|slack|discord|teams|brave|edge|vivaldi|opera/i,
    fix: "start it with --force-renderer-accessibility (Electron apps: ACCESSIBILITY_ENABLED=1 in its environment)",
  },
  { pattern: /firefox|thunderbird|gecko/i, fix: "start it with GNOME_ACCESSIBILITY=1 in its environment" },
  { pattern: /qt|kde/i, fix: "start it with QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1 in its environment" },
  {
    pattern: /java/i,
    fix: "start it with -Djavax.accessibility.assistive_technologies=org.GNOME.Accessibility.AtkWrapper (or that flag in JAVA_TOOL_OPTIONS)",
  },
];

export function fixFor(app: string | null, title: string): string {
  const hint = FIXES.find((h) => h.pattern.test(app ?? "") || h.pattern.test(title));
  return (
    hint?.fix ??
    "turn on the toolkit's accessibility (deskhand doctor lists the switch for each toolkit), then wait for the app to register and read again"
  );
}

function area(window: WindowInfo): number {
  return window.rect ? window.rect.width * window.rect.height : 0;
}

/** Descendants that say anything: Chromium without renderer accessibility hangs one child under its
 * frame that answers nothing at all. */
function readableDescendants(node: RawNode): number {
  let count = 0;
  for (const child of node.children) {
    if (!child.unread.includes("role") || child.name) count++;
    count += readableDescendants(child);
  }
  return count;
}

function emptyDocument(node: RawNode): RawNode | undefined {
  if (DOCUMENT_ROLES.has(node.role) && node.childCount === 0 && !node.childrenCut) return node;
  for (const child of node.children) {
    const found = emptyDocument(child);
    if (found) return found;
  }
  return undefined;
}

/** Why a window's tree as read is known to be incomplete, or undefined when nothing says so. */
export function treeIncomplete(window: WindowInfo, root: RawNode): TreeIncomplete | undefined {
  const fix = fixFor(window.app, window.title);
  if (readableDescendants(root) === 0 && !root.childrenCut && area(window) >= LARGE_WINDOW_AREA) {
    return {
      window: window.id,
      reason: `the ${window.rect?.width}×${window.rect?.height} window exposes nothing under its ${root.role}: the app has not turned its accessibility tree on`,
      fix,
    };
  }
  const document = emptyDocument(root);
  if (document && area(window) >= LARGE_WINDOW_AREA) {
    return {
      window: window.id,
      reason: `its ${document.role}${document.name ? ` "${document.name}"` : ""} has no children: the page's content is not exposed (still loading, or renderer accessibility is off)`,
      fix,
    };
  }
  return undefined;
}
