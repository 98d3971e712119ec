// Typing where the hands can send only the keys of the compositor's own keymap (KWin's fake input):
// a run of characters outside it goes into the focused text by the clipboard and ctrl+v where the
// hands can paste, else through the text itself (EditableText), at the caret and over a selection
// as typing would. Either way it is checked to have arrived before the next keys go, since an app
// reads a paste on its own time and a key sent meanwhile would land before it. Only a focused text
// that can be edited takes it: a paste elsewhere (a file manager's view) could do anything.
import { setTimeout as sleep } from "node:timers/promises";
import { type Hands, HandsUnavailable } from "../../platform/hands.js";
import type { ActingSurfaces } from "../acting.js";
import type { ToolContext } from "../context.js";

/** How long a run written outside the keymap is given to show in the field. */
const ARRIVES_WITHIN_MS = 3000;
const POLL_MS = 30;

/** The text cut where keyable characters meet others. */
export function runsBy(text: string, keyable: (char: string) => boolean): { text: string; keys: boolean }[] {
  const runs: { text: string; keys: boolean }[] = [];
  for (const char of text) {
    const keys = keyable(char);
    const last = runs.at(-1);
    if (last && last.keys === keys) last.text += char;
    else runs.push({ text: char, keys });
  }
  return runs;
}

/**
 * Types one piece: keyed where the hands key every character, else cut into runs, each outside
 * run written into the focused text. Counts the characters on remapped keys and those written.
 */
export async function typePiece(
  context: ToolContext,
  hands: Hands,
  acting: ActingSurfaces,
  piece: string,
  focused: () => Promise<string[] | undefined>,
): Promise<{ remapped: number; written: number }> {
  const keyable = hands.keyable;
  if (!keyable) return { remapped: (await hands.type(piece)).remapped, written: 0 };
  let written = 0;
  const runs = runsBy(piece, keyable);
  for (const [i, run] of runs.entries()) {
    if (run.keys) {
      // Keys reach the app on its own time: a run written after them is placed by the caret they
      // leave, so they must have arrived first.
      const field = i + 1 < runs.length ? await focusedText(context, "", focused) : undefined;
      await hands.type(run.text);
      if (field) await keysArrived(context, field, run.text);
    } else {
      await writeOutside(context, hands, acting, run.text, focused);
      written += [...run.text].length;
    }
  }
  return { remapped: 0, written };
}

/** Waits (bounded) until the field's text has grown by the keys typed into it. */
async function keysArrived(context: ToolContext, field: FocusedText, keys: string): Promise<void> {
  const backend = await context.backend();
  const grown = [...field.expected].length + [...keys].length;
  await until(
    async () => ((await backend.readCaret(field.handle).catch(() => null))?.length ?? grown) >= grown,
  );
}

interface FocusedText {
  handle: string;
  /** The text as it should read once the run is in. */
  expected: string;
  /** Where the caret goes after it. */
  caretAfter: number;
}

/** The innermost focused text that can be edited (Qt leaves the focus on a viewport and a tab too). */
async function focusedText(
  context: ToolContext,
  run: string,
  focused: () => Promise<string[] | undefined>,
): Promise<FocusedText | undefined> {
  const backend = await context.backend();
  for (const handle of [...((await focused()) ?? [])].reverse()) {
    const node = await backend.describe(handle, { maxText: 0 }).catch(() => undefined);
    if (!node?.states?.includes("editable")) continue;
    const caret = await backend.readCaret(handle).catch(() => null);
    const whole = caret && (await backend.readText(handle, 0, caret.length).catch(() => null));
    if (!caret || !whole) continue;
    // Offsets count characters; a selection is replaced, as typing would.
    const chars = [...whole.text];
    const from = caret.selections[0]?.start ?? caret.caret;
    const to = caret.selections[0]?.end ?? caret.caret;
    return {
      handle,
      expected: [...chars.slice(0, from), run, ...chars.slice(to)].join(""),
      caretAfter: from + [...run].length,
    };
  }
  return undefined;
}

async function writeOutside(
  context: ToolContext,
  hands: Hands,
  acting: ActingSurfaces,
  run: string,
  focused: () => Promise<string[] | undefined>,
): Promise<void> {
  const nothing = `${JSON.stringify(run)} is outside the keymap these hands type with`;
  const field = await focusedText(context, run, focused);
  if (!field)
    throw new HandsUnavailable(
      `${nothing}, and the keyboard focus is on no text that can be edited to put it in; nothing more was typed`,
    );
  const backend = await context.backend();
  const arrived = async () => {
    const now = await backend.readText(field.handle, 0, [...field.expected].length + 1).catch(() => null);
    return now?.text === field.expected;
  };
  if (hands.paste) {
    if (!(await hands.paste(run, () => until(arrived))))
      throw new HandsUnavailable(
        `${nothing}; it was pasted, but the field did not show it within ${ARRIVES_WITHIN_MS / 1000} s: nothing more was typed`,
      );
    return;
  }
  const actor = await acting.backend();
  await actor
    .perform(field.handle, { kind: "set_value", text: field.expected }, { timeoutMs: 5000 })
    .catch((error: Error) => {
      throw new HandsUnavailable(
        `${nothing}, and the focused text did not take it (${error.message}); nothing more was typed`,
      );
    });
  if (!(await until(arrived)))
    throw new HandsUnavailable(
      `${nothing}; the focused text was set, but did not read back with it: nothing more was typed`,
    );
  await actor.placeCaret(field.handle, field.caretAfter, { timeoutMs: 5000 }).catch(() => false);
}

async function until(check: () => Promise<boolean>): Promise<boolean> {
  const deadline = Date.now() + ARRIVES_WITHIN_MS;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await sleep(POLL_MS);
  }
}
