// What the agent has seen of each window, as observe listed it: the next view (view.ts) is said
// against it. Kept per session, for a bounded number of windows.
import type { ToolContext } from "./context.js";

/** What the agent last saw of each window: its observe lines, by window id. */
const LAST_VIEWS = Symbol("deskhand.lastViews");
/** Windows remembered at most: a session's memory stays bounded. */
const VIEWS_KEPT = 20;

/** A window's lines as observe listed them: targets without their index, then its visible text. */
export interface SeenLines {
  targets: string[];
  context: string[];
  /** The listing stopped at maxTargets: a target missing from it may be past the end, not gone. */
  cut?: boolean;
}

function lastViews(context: ToolContext): Map<number, SeenLines> {
  let views = context.sessionState.get(LAST_VIEWS) as Map<number, SeenLines> | undefined;
  if (!views) {
    views = new Map();
    context.sessionState.set(LAST_VIEWS, views);
  }
  return views;
}

/** Observe, or a view, showed the agent this window so: the next view is said against it. */
export function rememberView(context: ToolContext, windowId: number, seen: SeenLines): void {
  const views = lastViews(context);
  views.delete(windowId);
  views.set(windowId, seen);
  while (views.size > VIEWS_KEPT) views.delete(views.keys().next().value!);
}

/** What the agent last saw of a window, if anything. */
export function lastView(context: ToolContext, windowId: number): SeenLines | undefined {
  return lastViews(context).get(windowId);
}
