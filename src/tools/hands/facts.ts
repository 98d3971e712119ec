// What the gate judges a press by, read from the app just before the input goes: the element's own
// facts, its window's role and modality, whether a dialog holds input, and, for keys, what they will
// activate (the focused element, the default button, the element whose key binding the chord is).
// A read that fails or comes back incomplete is reported as such: the gate then assumes the worst.
import { bindingChords, type Chord, chordText, sameChord } from "../../platform/keys.js";
import type { RawNode } from "../../platform/types.js";
import {
  BUTTON_ROLES,
  DIALOG_ROLES,
  needsInputCheck,
  PRESSABLE_ROLES,
  type TargetFacts,
} from "../../safety/classify.js";
import { normalizeLabel } from "../../safety/vocabulary.js";
import type { ToolContext } from "../context.js";
import type { ResolvedPlace } from "./place.js";

const READ = { maxDepth: 40, tableRows: 0, walkTables: false, nodeCeiling: 3000, timeoutMs: 1500 };
const EDITABLE_ROLES = new Set([
  "text",
  "entry",
  "password text",
  "spin button",
  "document text",
  "paragraph",
]);
/** Fields whose content is what a person typed (a spin button always holds a number). */
const TYPED_ROLES = new Set(["text", "entry", "password text", "document text", "paragraph"]);
type WindowFacts = NonNullable<TargetFacts["window"]>;

interface WindowRead {
  root: RawNode;
  nodes: RawNode[];
  complete: boolean;
}

async function readWhole(context: ToolContext, windowId: number): Promise<WindowRead> {
  const backend = await context.backend();
  const read = await backend.readWindow(windowId, READ);
  const nodes: RawNode[] = [];
  const walk = (node: RawNode) => {
    nodes.push(node);
    for (const child of node.children) walk(child);
  };
  walk(read.root);
  const cut = nodes.some((n) => n.childrenCut && n.childrenCut.reason !== "table");
  return { root: read.root, nodes, complete: !read.timedOut && !read.ceilingHit && !cut };
}

/**
 * Whether any editable field holds text. A password field is never read, so its presence counts as
 * input; a field that does not answer, or a window not read whole, leaves it unknown.
 */
async function holdsInput(
  context: ToolContext,
  read: WindowRead,
  windowId: number,
): Promise<boolean | undefined> {
  const editable = read.nodes.filter(
    (n) => TYPED_ROLES.has(n.role) && n.states?.includes("editable") && n.states.includes("showing"),
  );
  if (editable.some((n) => n.role === "password text")) return true;
  const backend = await context.backend();
  await backend.enrich(editable, {
    maxText: 1,
    actions: false,
    accessibleIds: false,
    timeoutMs: 1000,
    windowId,
  });
  if (editable.some((n) => (n.textLength ?? 0) > 0)) return true;
  if (!read.complete || editable.some((n) => n.unread.includes("text"))) return undefined;
  return false;
}

/** A modal top-level is a dialog, whatever its role (GTK 4.8's file chooser says "filler"). */
function windowFacts(root: RawNode): WindowFacts {
  const modal = root.states?.includes("modal") && !DIALOG_ROLES.has(root.role);
  return { role: modal ? "dialog" : root.role, states: root.states };
}

/**
 * The facts of an element about to be pressed: its window's role and states, and whether the window
 * holds input when the label's rule asks. A window that cannot be read leaves those unknown.
 */
export async function pressFacts(
  context: ToolContext,
  element: {
    role: string;
    name: string | undefined;
    states?: string[] | undefined;
    description?: string | undefined;
  },
  windowId: number | undefined,
): Promise<TargetFacts> {
  const facts: TargetFacts = { ...element };
  if (windowId === undefined) return facts;
  const backend = await context.backend();
  try {
    const top = await backend.readWindow(windowId, { ...READ, maxDepth: 0, nodeCeiling: 1 });
    facts.window = windowFacts(top.root);
    if (needsInputCheck(facts)) {
      const read = await readWhole(context, windowId);
      facts.window.holdsInput = await holdsInput(context, read, windowId);
    }
  } catch {
    // The window could not be read: the rules that need it assume the worst.
  }
  return facts;
}

export interface KeyEffect {
  /** The elements the keys will press, each with its facts; empty when they press nothing. */
  presses: TargetFacts[];
  /** How each press was found: "focused", "default button", "key binding <Control>s". */
  via: string[];
}

/** Space and Enter press whatever has the focus; GTK 4 gives them as every button's "binding". */
function activationKey(chord: Chord): boolean {
  return chord.key?.kind === "named" && (chord.key.name === "Space" || chord.key.name === "Enter");
}

function activates(chord: Chord | undefined, text: string | undefined): { enter: boolean; space: boolean } {
  if (text !== undefined) return { enter: /[\n\r]/.test(text), space: text.includes(" ") };
  const key = chord?.key;
  const named = key?.kind === "named" ? key.name : undefined;
  const plain = chord?.modifiers.every((m) => m === "shift") ?? false;
  return { enter: named === "Enter", space: named === "Space" && plain };
}

/**
 * What a key, chord or typed text will press in the window: Enter and "\n" press the focused
 * pressable element, or else the default button; space presses the focused pressable element; a
 * chord presses whatever element carries it as a key binding (an accelerator or a mnemonic).
 * `focused` is the element the caller is about to focus (a ref), when there is one.
 */
export async function keyEffect(
  context: ToolContext,
  input: { windowId: number | undefined; chord?: Chord; text?: string; focused?: TargetFacts },
): Promise<KeyEffect> {
  const { enter, space } = activates(input.chord, input.text);
  const bindings = input.chord !== undefined;
  const effect: KeyEffect = { presses: [], via: [] };
  if (!enter && !space && !bindings) return effect;
  const unreadable = (why: string): KeyEffect => ({ presses: [{ unreadable: why }], via: ["unknown"] });
  if (input.windowId === undefined)
    return unreadable("no window has the keyboard focus that deskhand can read");
  let read: WindowRead;
  try {
    read = await readWhole(context, input.windowId);
  } catch (error) {
    return unreadable(`the window's tree did not answer: ${(error as Error).message}`);
  }
  const window = windowFacts(read.root);
  const withWindow = (node: RawNode): TargetFacts => ({
    role: node.role,
    name: node.name,
    description: node.description,
    states: node.states,
    window,
  });
  const add = async (facts: TargetFacts, via: string) => {
    if (needsInputCheck(facts))
      facts.window = { ...window, holdsInput: await holdsInput(context, read, input.windowId!) };
    effect.presses.push(facts);
    effect.via.push(via);
  };

  if (enter || space) {
    const focusedNode = read.nodes.filter((n) => n.states?.includes("focused")).at(-1);
    const focused = input.focused
      ? { ...input.focused, window }
      : focusedNode
        ? withWindow(focusedNode)
        : undefined;
    const pressable = focused?.role !== undefined && PRESSABLE_ROLES.has(focused.role);
    const editable = focused?.role !== undefined && EDITABLE_ROLES.has(focused.role);
    if (!focused)
      return unreadable(
        "no element of the window reports the keyboard focus; bring the window to the front (window focus) and try again",
      );
    if (pressable) await add(focused, "the focused element");
    else if (enter && !(editable && focused.states?.includes("multi line"))) {
      const defaults = read.nodes.filter(
        (n) => n.states?.includes("is default") && n.states.includes("showing"),
      );
      for (const node of defaults) await add(withWindow(node), "the default button");
      // GTK 4.8 reports no default button: in a dialog, Enter may press any of its buttons.
      if (defaults.length === 0 && DIALOG_ROLES.has(window.role ?? ""))
        for (const node of read.nodes.filter(
          (n) => BUTTON_ROLES.has(n.role) && n.states?.includes("showing"),
        ))
          await add(withWindow(node), "a possible default button (the toolkit reports none)");
    }
  }

  if (bindings && input.chord) {
    const pressables = read.nodes.filter((n) => PRESSABLE_ROLES.has(n.role));
    const backend = await context.backend();
    await backend.enrich(pressables, {
      maxText: 0,
      actions: true,
      accessibleIds: false,
      timeoutMs: 1500,
      windowId: input.windowId,
    });
    for (const node of pressables) {
      for (const binding of node.keyBindings ?? []) {
        // A bare mnemonic works unmodified while its menu shows (GTK), and with alt (the Java
        // wrapper's "F;;" is alt+f): both count.
        const hit = bindingChords(binding).find(
          (b) =>
            !activationKey(b.chord) &&
            ((sameChord(b.chord, input.chord!) && (!b.bare || node.states?.includes("showing"))) ||
              (b.bare && sameChord({ modifiers: ["alt"], key: b.chord.key }, input.chord!))),
        );
        if (hit) {
          await add(withWindow(node), `the key binding ${binding}`);
          break;
        }
      }
    }
    // The Java wrapper (and GTK4) report no accelerators at all: then a ctrl or alt chord is taken to
    // press each menu item whose label starts with its letter, the usual accelerator (ctrl+s, Save).
    const reportsAccelerators = pressables.some((n) =>
      (n.keyBindings ?? []).some((b) =>
        bindingChords(b).some((c) => !c.bare && c.chord.modifiers.length > 0),
      ),
    );
    const key = input.chord.key;
    const commands = input.chord.modifiers.some((m) => m === "ctrl" || m === "alt");
    if (!reportsAccelerators && commands && key?.kind === "char" && effect.presses.length === 0) {
      for (const node of pressables.filter((n) => n.role.endsWith("menu item"))) {
        const first = normalizeLabel(node.name ?? "")
          .charAt(0)
          .toLowerCase();
        if (first && first === key.char.toLowerCase())
          await add(
            withWindow(node),
            `a guess: the app reports no accelerators, and ${chordText(input.chord)} usually presses "${node.name}"`,
          );
      }
    }
    // GTK 4.8 reports no key bindings at all, mnemonics included: alt+letter is taken to press each
    // element whose label marks that letter ("_Delete"), or, unmarked, contains it.
    const reportsBindings = pressables.some((n) =>
      (n.keyBindings ?? []).some((b) => bindingChords(b).some((c) => c.chord.key?.kind === "char")),
    );
    if (!reportsBindings && input.chord.modifiers.includes("alt") && key?.kind === "char") {
      const letter = key.char.toLowerCase();
      for (const node of pressables) {
        const name = node.name ?? "";
        const marked = /(?:^|[^_&])[_&]([\p{L}\p{N}])/u.exec(name)?.[1]?.toLowerCase();
        const possible = marked ? marked === letter : normalizeLabel(name).toLowerCase().includes(letter);
        if (possible && !effect.presses.some((p) => p.name === node.name && p.role === node.role))
          await add(
            withWindow(node),
            `a possible mnemonic (the app reports no key bindings): ${chordText(input.chord)}`,
          );
      }
    }
    if (!read.complete && effect.presses.length === 0 && input.chord.modifiers.some((m) => m !== "shift"))
      return unreadable("the window was not read whole, so the chord's key binding cannot be ruled out");
    if (pressables.some((n) => n.unread.includes("actions")) && effect.presses.length === 0)
      return unreadable("some elements did not answer for their key bindings");
  }
  return effect;
}

/**
 * What a press at a resolved place would press: the element there and every pressable element
 * holding it (a click on a button's icon presses the button). A point whose element could not be
 * read is judged as unreadable, never as nothing.
 */
export async function placeFacts(context: ToolContext, place: ResolvedPlace): Promise<TargetFacts[]> {
  if (place.how === "unknown")
    return [{ unreadable: place.unknownBecause ?? "the point could not be probed" }];
  if (!place.element) return [];
  const holders = (place.ancestors ?? []).filter((a) => PRESSABLE_ROLES.has(a.role));
  return Promise.all([place.element, ...holders].map((e) => pressFacts(context, e, place.windowId)));
}
