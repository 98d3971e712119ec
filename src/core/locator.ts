// An xpath-like locator language, as pyjab writes it: `//push button[@name=contains('Save')]`.
//   path       /step or //step, repeated: child or descendant
//   step       a role ("push button", "*" for any) and predicates
//   predicate  [@name='x'], [@name=contains('x')], [@description=…], [@id='x'], [@value=…],
//              [@states=contains('checked')], [n] (1-based position), joined with `and`
//   union      path | path
// Text comparisons fold case like selectors; @id is exact.

import { isState } from "../platform/roles.js";
import type { RawNode } from "../platform/types.js";
import { fold } from "./selector.js";

type Attribute = "name" | "description" | "id" | "value" | "states" | "role";
type Test =
  | { kind: "position"; n: number }
  | { kind: "attribute"; attribute: Attribute; op: "equals" | "contains"; text: string };

interface Step {
  axis: "child" | "descendant";
  role: string;
  predicates: Test[][];
}

export interface Locator {
  paths: Step[][];
  needsValue: boolean;
  needsId: boolean;
}

export class LocatorSyntaxError extends Error {
  override readonly name = "LocatorSyntaxError";
}

const ATTRIBUTES = new Set<Attribute>(["name", "description", "id", "value", "states", "role"]);

function splitTopLevel(source: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let current = "";
  for (const c of source) {
    if (!quote && depth === 0 && c === separator) {
      parts.push(current);
      current = "";
      continue;
    }
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === "[" || c === "(") depth++;
    else if (c === "]" || c === ")") depth--;
    current += c;
  }
  if (quote || depth !== 0) throw new LocatorSyntaxError("unbalanced quotes or brackets");
  parts.push(current);
  return parts;
}

function parseTest(source: string): Test {
  const text = source.trim();
  if (/^\d+$/.test(text)) {
    const n = Number(text);
    if (n < 1) throw new LocatorSyntaxError("positions start at 1");
    return { kind: "position", n };
  }
  const match = /^@([a-z]+)\s*=\s*(?:contains\(\s*(['"])(.*)\2\s*\)|(['"])(.*)\4)$/s.exec(text);
  if (!match)
    throw new LocatorSyntaxError(
      `cannot read the predicate [${text.length > 60 ? `${text.slice(0, 60)}…` : text}]`,
    );
  const attribute = match[1] as Attribute;
  if (!ATTRIBUTES.has(attribute)) throw new LocatorSyntaxError(`unknown attribute @${attribute}`);
  const unknownState =
    attribute !== "states"
      ? undefined
      : (match[3] ?? match[5] ?? "")
          .split(",")
          .map((s) => s.trim())
          .find((s) => !isState(s));
  if (unknownState !== undefined)
    throw new LocatorSyntaxError(
      `no state ${JSON.stringify(unknownState)} (AT-SPI's names: enabled, showing, focused…)`,
    );
  return match[3] !== undefined
    ? { kind: "attribute", attribute, op: "contains", text: match[3] }
    : { kind: "attribute", attribute, op: "equals", text: match[5] ?? "" };
}

/** `[…][…]` from `start`, in one pass: each predicate's text is cut out once, never re-scanned. */
function parsePredicates(source: string, start: number): Test[][] {
  const predicates: Test[][] = [];
  let i = start;
  while (i < source.length) {
    while (i < source.length && /\s/.test(source[i]!)) i++;
    if (i >= source.length) break;
    if (source[i] !== "[") {
      const shown = source.slice(i, i + 30);
      throw new LocatorSyntaxError(`unexpected ${JSON.stringify(shown)} at position ${i}`);
    }
    let quote: string | null = null;
    let depth = 0;
    let end = i + 1;
    for (; end < source.length; end++) {
      const c = source[end]!;
      if (quote) {
        if (c === quote) quote = null;
      } else if (c === "'" || c === '"') quote = c;
      else if (c === "[" || c === "(") depth++;
      else if (c === ")") depth--;
      else if (c === "]") {
        if (depth === 0) break;
        depth--;
      }
    }
    if (end >= source.length) throw new LocatorSyntaxError(`unclosed [ at position ${i}`);
    predicates.push(
      source
        .slice(i + 1, end)
        .split(/\s+and\s+/)
        .map(parseTest),
    );
    i = end + 1;
  }
  return predicates;
}

function parsePath(source: string): Step[] {
  const steps: Step[] = [];
  let rest = source.trim();
  if (!rest.startsWith("/")) throw new LocatorSyntaxError("a path starts with / or //");
  while (rest.length > 0) {
    const axis = rest.startsWith("//") ? "descendant" : "child";
    rest = rest.slice(axis === "descendant" ? 2 : 1);
    let end = 0;
    let depth = 0;
    let quote: string | null = null;
    for (; end < rest.length; end++) {
      const c = rest[end]!;
      if (quote) {
        if (c === quote) quote = null;
      } else if (c === "'" || c === '"') quote = c;
      else if (c === "[") depth++;
      else if (c === "]") depth--;
      else if (c === "/" && depth === 0) break;
    }
    const stepSource = rest.slice(0, end);
    rest = rest.slice(end);
    const bracket = stepSource.indexOf("[");
    const role = (bracket < 0 ? stepSource : stepSource.slice(0, bracket)).trim();
    if (role === "") throw new LocatorSyntaxError("a step needs a role, or * for any");
    const predicates = bracket < 0 ? [] : parsePredicates(stepSource, bracket);
    steps.push({ axis, role, predicates });
  }
  return steps;
}

/** Locators longer than this are refused: parsing and matching stay bounded whatever the text. */
export const LOCATOR_MAX = 4096;

export function parseLocator(source: string): Locator {
  if (source.trim() === "") throw new LocatorSyntaxError("the locator is empty");
  if (source.length > LOCATOR_MAX)
    throw new LocatorSyntaxError(`it is ${source.length} characters long; at most ${LOCATOR_MAX} are read`);
  const paths = splitTopLevel(source, "|").map(parsePath);
  const attributes = paths
    .flat()
    .flatMap((s) => s.predicates.flat())
    .filter((t) => t.kind === "attribute");
  return {
    paths,
    needsValue: attributes.some((t) => t.attribute === "value"),
    needsId: attributes.some((t) => t.attribute === "id"),
  };
}

function attributeHolds(node: RawNode, test: Extract<Test, { kind: "attribute" }>): boolean {
  if (test.attribute === "states") {
    const wanted = test.text.split(",").map((s) => s.trim());
    return wanted.every((s) => isState(s) && node.states?.includes(s));
  }
  if (test.attribute === "id") {
    const id = node.accessibleId ?? "";
    return test.op === "equals" ? id === test.text : id.includes(test.text);
  }
  const raw =
    test.attribute === "name"
      ? node.name
      : test.attribute === "description"
        ? node.description
        : test.attribute === "role"
          ? node.role
          : (node.value ?? node.text);
  if (raw === undefined) return false;
  return test.op === "equals" ? fold(raw) === fold(test.text) : fold(raw).includes(fold(test.text));
}

function applyStep(context: RawNode[], step: Step): RawNode[] {
  const out: RawNode[] = [];
  const seen = new Set<RawNode>();
  // Without a position, a descendant step may share one walk between all its origins: every node is
  // visited once per step, however many origins contain it (`//*//*//*` stays linear in the tree).
  const positional = step.predicates.some((p) => p.some((t) => t.kind === "position"));
  const walked = new Set<RawNode>();
  for (const origin of context) {
    const pool: RawNode[] = [];
    const collect = (node: RawNode) => {
      for (const child of node.children) {
        if (!positional && step.axis === "descendant") {
          if (walked.has(child)) continue;
          walked.add(child);
        }
        pool.push(child);
        if (step.axis === "descendant") collect(child);
      }
    };
    collect(origin);
    let selected = pool.filter((n) => step.role === "*" || fold(n.role) === fold(step.role));
    for (const predicate of step.predicates) {
      selected = selected.filter((node, i) =>
        predicate.every((test) => (test.kind === "position" ? i + 1 === test.n : attributeHolds(node, test))),
      );
    }
    for (const node of selected) {
      if (seen.has(node)) continue;
      seen.add(node);
      out.push(node);
    }
  }
  return out;
}

/** Evaluates against a tree whose root is the window; results in document order, without repeats. */
export function evaluateLocator(locator: Locator, root: RawNode): RawNode[] {
  const documentNode: RawNode = { ...root, children: [root] };
  const found = new Set<RawNode>();
  for (const path of locator.paths) {
    let context = [documentNode];
    for (const step of path) context = applyStep(context, step);
    for (const node of context) found.add(node);
  }
  const order: RawNode[] = [];
  const walk = (node: RawNode) => {
    if (found.has(node)) order.push(node);
    for (const child of node.children) walk(child);
  };
  walk(root);
  return order;
}
