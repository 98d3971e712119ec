// The view: what a person sees once an act is done, so that an agent needs no look after it. An
// acting tool that takes `view` (on unless `view: false`) ends its reply with the window in front and
// what observe lists there: whole where the agent has not seen that window, else what came and went
// since its last look (an observe, or an earlier view). The one home of that rule; call.ts applies it
// to the outermost call only (a run's steps and a form's fields end with one view, the run's).
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import type { WindowInfo } from "../platform/types.js";
import type { CallJournal } from "./call-journal.js";
import type { ToolContext } from "./context.js";
import { observeTool } from "./observe.js";
import { lastView, rememberView, type SeenLines } from "./seen-views.js";

export const viewSchema = z.boolean().default(true).describe("End the reply with the window in front");

export interface View {
  data: Record<string, unknown>;
  text: string;
}

const windowName = (w: Pick<WindowInfo, "id" | "title" | "app">) =>
  `window ${w.id} ${JSON.stringify(w.title)}${w.app ? ` (${w.app})` : ""}`;

const refOf = (label: string) => /\[ref=([^\]]+)\]/.exec(label)?.[1];
/** A target line's role: its words before its name, value, states or ref. */
const roleOf = (label: string) => /^[^"~([=]*?(?= "| ~| \(| \[| =|$)/.exec(label)?.[0] ?? label;

/** Lines in `now` that are not in `before`, each as often as it is missing. */
function missing(now: string[], before: string[]): string[] {
  const left = new Map<string, number>();
  for (const line of before) left.set(line, (left.get(line) ?? 0) + 1);
  return now.filter((line) => {
    const n = left.get(line) ?? 0;
    if (n > 0) left.set(line, n - 1);
    return n === 0;
  });
}

/**
 * Targets new, changed and gone between two listings of a window. A target that came back with other
 * words, under its ref, as the same element (a tab renamed, given a new ref) or at its place in the
 * same role, changed (a box now checked; a display whose app made it anew with the new number): said
 * once, as it is now. `handleOf`: the element a target's ref stands for, where it still resolves.
 */
function sinceLastLook(before: string[], now: string[], handleOf: (label: string) => string | undefined) {
  const came = missing(now, before);
  const went = missing(before, now);
  const place = (label: string, list: string[]) => `${roleOf(label)}\u0000${list.indexOf(label)}`;
  const wentAt = new Map(went.map((label) => [place(label, before), label]));
  const wentBy = new Map(went.map((label) => [refOf(label), label]));
  const wentAs = new Map(went.map((label) => [handleOf(label), label]));
  wentAs.delete(undefined);
  const was = new Set<string>();
  const changed: string[] = [];
  const added: string[] = [];
  for (const label of came) {
    const ref = refOf(label);
    const handle = handleOf(label);
    const old =
      (ref === undefined ? undefined : wentBy.get(ref)) ??
      (handle === undefined ? undefined : wentAs.get(handle)) ??
      wentAt.get(place(label, now));
    if (old !== undefined && !was.has(old)) {
      was.add(old);
      changed.push(label);
    } else added.push(label);
  }
  return { added, changed, gone: went.filter((label) => !was.has(label)) };
}

/**
 * Whether a target line's element is still in a snapshot's read, though not listed: off screen, or
 * folded. An element whose ref no longer resolves is not.
 */
function stillThere(context: ToolContext, snapshotId: string): (label: string) => boolean {
  const handles = context.snapshots.kept(snapshotId)?.handles;
  return (label) => {
    const handle = handleOfTarget(context)(label);
    return !!handles && handle !== undefined && handles.has(handle);
  };
}

/** The element a target line's ref stands for, where the ref still resolves. */
const handleOfTarget =
  (context: ToolContext) =>
  (label: string): string | undefined => {
    const ref = refOf(label);
    if (ref === undefined) return undefined;
    try {
      return context.refs.lookup(ref).handle;
    } catch {
      return undefined;
    }
  };

// The roles a menu's listing holds: off screen after they were seen, their menu closed.
const MENU_LISTED = new Set(["menu item", "check menu item", "radio menu item", "menu", "tearoff menu item"]);

// Gone targets of one role past this many are one line: a menu that closed takes all its items.
const GONE_LISTED = 3;

/** The gone lines: each, or for a role with many gone, one line naming the first few. */
function foldedGone(gone: string[], what = "gone"): string[] {
  const byRole = new Map<string, string[]>();
  for (const label of gone) byRole.set(roleOf(label), [...(byRole.get(roleOf(label)) ?? []), label]);
  const mark = what === "gone" ? "" : ` · ${what}`;
  return [...byRole].flatMap(([role, labels]) => {
    if (labels.length <= GONE_LISTED + 1) return labels.map((label) => `- ${label}${mark}`);
    const names = labels.map((label) => /"(?:[^"\\]|\\.)*"/.exec(label)?.[0]).filter(Boolean);
    return [`- ${labels.length} ${role} targets ${what}: ${names.slice(0, GONE_LISTED).join(", ")}…`];
  });
}

/** The view after an act: the window in front, and what it shows, whole or since the agent's last look. */
export async function viewAfter(
  context: ToolContext,
  acted: Pick<CallJournal, "actedIn" | "frontBefore" | "actedAt"> = {
    actedIn: undefined,
    frontBefore: undefined,
    actedAt: undefined,
  },
): Promise<View> {
  const [view, menus] = await Promise.all([
    frontView(context, acted),
    context
      .backend()
      .then((b) => b.openMenus?.())
      .catch(() => undefined),
  ]);
  if (!menus?.length) return view;
  // A menu left open (Qt's, after an item chosen by its action) takes the next keys: said first.
  const [header, ...rest] = view.text.split("\n");
  const line = `# a menu or popup is open on screen (${menus.length}; a completion list is one): keys and typed text go to it; Escape closes it`;
  return {
    data: { view: { ...(view.data.view as object), menus_open: menus.length } },
    text: [header, line, ...rest].join("\n"),
  };
}

/** How long a window new to the agent that lists nothing yet is read again: its app may still fill it. */
const FILLED_WITHIN_MS = 1500;
const FILL_POLL_MS = 250;

/**
 * Observe of the window in front. One the agent has not seen (a dialog the act opened) that lists no
 * target yet is read again for a while: its app fills it after it maps (Thunar's delete question once
 * read as 0 targets).
 */
async function observeFront(context: ToolContext, id: number, wait: boolean) {
  const input = observeTool.input.parse({ target: { kind: "window", id }, pixels: false });
  const deadline = Date.now() + (wait ? FILLED_WITHIN_MS : 0);
  for (;;) {
    const { data, text } = await observeTool.handler(context, input);
    const targets = (data.targets as { index: number; label: string }[] | undefined) ?? [];
    if (targets.length > 0 || Date.now() >= deadline) return { data, text, targets };
    await sleep(FILL_POLL_MS);
  }
}

/** A window's view: whole where the agent has not seen it, else what came and went since its last look. */
async function windowView(context: ToolContext, window: WindowInfo, named: string): Promise<View> {
  const header = `# view: ${named}`;
  if (!window.accessible)
    return {
      data: { view: { front: { id: window.id, title: window.title } } },
      text: `${header} · it has no accessible tree: read_screen_text reads it`,
    };
  // What the agent saw before: observe, called next, remembers what it lists.
  const before = lastView(context, window.id);
  const { data, text, targets } = await observeFront(context, window.id, !before);
  const seen: SeenLines = {
    targets: targets.map((t) => t.label),
    context: (data.context as string[]) ?? [],
    ...((data.truncated_by as string[] | undefined)?.includes("maxTargets") ? { cut: true } : {}),
  };
  rememberView(context, window.id, seen);
  const snapshotId = String(data.snapshotId);
  const frontData = { id: window.id, title: window.title, app: window.app ?? null };
  if (!before) {
    // Observe's own reply, under the view's header: the same folds and bounds.
    const listing = text.split("\n").slice(1);
    return {
      data: {
        view: { front: frontData, snapshotId, whole: true, targets: seen.targets, context: seen.context },
      },
      text: [`${header} · ${snapshotId}, new to you: ${targets.length} targets`, ...listing].join("\n"),
    };
  }
  const since = sinceLastLook(before.targets, seen.targets, handleOfTarget(context));
  const { added, changed } = since;
  // A listing that stops at maxTargets says nothing of what is past its end: not gone. Nor is a
  // target the read still holds, off screen now (a form scrolled by the field filled below it).
  const stillRead = stillThere(context, snapshotId);
  const offScreen = seen.cut ? [] : since.gone.filter(stillRead);
  // A menu's items off screen now went with their menu, which closed.
  const closed = offScreen.filter((label) => MENU_LISTED.has(roleOf(label)));
  const away = offScreen.filter((label) => !MENU_LISTED.has(roleOf(label)));
  const gone = seen.cut ? [] : since.gone.filter((label) => !stillRead(label));
  const pastEnd = seen.cut ? since.gone.length : 0;
  const shown = missing(seen.context, before.context);
  const hidden = missing(before.context, seen.context);
  const same = seen.targets.length - added.length - changed.length;
  const view = {
    front: frontData,
    snapshotId,
    added,
    changed,
    gone,
    text_shown: shown,
    text_gone: hidden,
    ...(away.length ? { off_screen_now: away } : {}),
    ...(closed.length ? { menu_closed: closed } : {}),
    unchanged: same,
    ...(pastEnd ? { not_listed: pastEnd } : {}),
  };
  if (added.length + changed.length + gone.length + offScreen.length + shown.length + hidden.length === 0)
    return { data: { view }, text: `${header} · ${snapshotId}, as you last saw it (${same} targets)` };
  const indexOf = new Map(targets.map((t) => [t.label, t.index]));
  const lines = [
    `${header} · ${snapshotId}, since your last look: ${added.length} targets new, ${changed.length} changed, ${gone.length} gone, ${same} the same${away.length ? `, ${away.length} off screen now (still there)` : ""}${closed.length ? `, ${closed.length} hidden as their menu closed` : ""}${pastEnd ? `; ${pastEnd} you saw are past this listing's end (maxTargets), not known gone` : ""}`,
    ...added.map((label) => `+ ${indexOf.get(label)}. ${label}`),
    ...changed.map((label) => `~ ${indexOf.get(label)}. ${label}`),
    ...foldedGone(gone),
    ...foldedGone(away, "off screen now"),
    ...foldedGone(closed, "hidden as their menu closed"),
    ...shown.map((line) => `+ text: ${line}`),
    ...hidden.map((line) => `- text: ${line}`),
  ];
  return { data: { view }, text: lines.join("\n") };
}

// An app may show what an input did a moment after it (GTK 3's file chooser enables its Create about
// 100 ms after its name is set, from its main loop): the view is read leastMs after the input at the
// soonest, and while the app's change events keep coming, once they pause for quietMs; mostMs after
// the input at the latest.
const SETTLE = { leastMs: 200, quietMs: 100, mostMs: 1000 };

/** Waits until the window's app has settled after the call's last input (SETTLE). */
async function settled(context: ToolContext, windowId: number, actedAt: number | undefined): Promise<void> {
  if (actedAt === undefined) return;
  const backend = await context.backend();
  for (;;) {
    const last = backend.lastChangeOf?.(windowId) ?? 0;
    const ready = Math.min(
      Math.max(actedAt + SETTLE.leastMs, last + SETTLE.quietMs),
      actedAt + SETTLE.mostMs,
    );
    const wait = ready - Date.now();
    if (wait <= 0) return;
    await sleep(wait);
  }
}

async function frontView(
  context: ToolContext,
  { actedIn, frontBefore, actedAt }: Pick<CallJournal, "actedIn" | "frontBefore" | "actedAt">,
): Promise<View> {
  try {
    const windows = await (await context.backend()).listWindows();
    const front = windows.find((w) => w.focused);
    if (!front) return { data: { view: { front: null } }, text: "# view: no window has the focus" };
    // An input into a window behind the one in front (an accessibility action raises nothing) is
    // viewed where it went, one read, unless the front came forward with the input and is new to
    // the agent (a dialog the input opened): that is what a person looks at next.
    const acted = windows.find((w) => w.id === actedIn && w.id !== front.id && w.accessible);
    const news = front.id !== frontBefore && !lastView(context, front.id);
    await settled(context, acted && !news ? acted.id : front.id, actedAt);
    if (!acted || news) return windowView(context, front, `${windowName(front)} in front`);
    const there = await windowView(
      context,
      acted,
      `${windowName(acted)}, where you acted (${windowName(front)} is in front)`,
    );
    const { front: viewed, ...rest } = there.data.view as Record<string, unknown>;
    const inFront = { id: front.id, title: front.title };
    return { data: { view: { window: viewed, ...rest, in_front: inFront } }, text: there.text };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { data: { view: { unread: reason } }, text: `# view: not read (${reason})` };
  }
}
