// fnmatch-style title globs: `*` any run, `?` one character, `[abc]`, `[a-z]` and `[!abc]` classes.
// Matching is on the whole title, case-sensitive, as pyjab's window binding does. The matcher never
// backtracks more than to the last `*` (two pointers): time is bounded by the glob's length times the
// title's, whatever the pattern, where a regular expression built from `***…*Z` took seconds.
import { DeskhandError } from "./errors.js";

/** Globs longer than this are refused: no title needs more, and the bound keeps matching cheap. */
export const GLOB_MAX = 1024;

type Token =
  | { kind: "char"; char: string }
  | { kind: "any" }
  | { kind: "star" }
  | { kind: "class"; negated: boolean; chars: Set<string>; ranges: [number, number][] };

const compiled = new Map<string, Token[]>();

function invalid(glob: string, problem: string, position: number): DeskhandError {
  const shown = glob.length > 40 ? `${glob.slice(0, 40)}…` : glob;
  return new DeskhandError(
    "invalid_params",
    `title glob ${JSON.stringify(shown)}: ${problem} at position ${position}`,
    "Write it like fnmatch: * any run, ? one character, [a-z] a class (its range low to high).",
    { position },
  );
}

/** Parses a glob into tokens; a bad class or an over-long glob is `invalid_params` naming where. */
function parseGlob(glob: string): Token[] {
  const known = compiled.get(glob);
  if (known) return known;
  if (glob.length > GLOB_MAX) throw invalid(glob, `longer than ${GLOB_MAX} characters`, GLOB_MAX);
  const chars = [...glob];
  const tokens: Token[] = [];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === "*") {
      // Runs of stars match what one does.
      if (tokens.at(-1)?.kind !== "star") tokens.push({ kind: "star" });
    } else if (c === "?") tokens.push({ kind: "any" });
    else if (c === "[") {
      // As in fnmatch, `]` right after `[` or `[!` belongs to the class; with no closing `]`, `[` is itself.
      let j = i + 1;
      const negated = chars[j] === "!";
      if (negated) j++;
      const start = j;
      let end = -1;
      for (let k = start; k < chars.length; k++) {
        if (chars[k] === "]" && k > start) {
          end = k;
          break;
        }
      }
      if (end < 0) {
        tokens.push({ kind: "char", char: c });
        continue;
      }
      const set = new Set<string>();
      const ranges: [number, number][] = [];
      for (let k = start; k < end; k++) {
        if (chars[k + 1] === "-" && k + 2 < end) {
          const low = chars[k]!.codePointAt(0)!;
          const high = chars[k + 2]!.codePointAt(0)!;
          if (low > high) throw invalid(glob, `range ${chars[k]}-${chars[k + 2]} runs backwards`, k);
          ranges.push([low, high]);
          k += 2;
        } else set.add(chars[k]!);
      }
      tokens.push({ kind: "class", negated, chars: set, ranges });
      i = end;
    } else tokens.push({ kind: "char", char: c });
  }
  if (compiled.size > 256) compiled.clear();
  compiled.set(glob, tokens);
  return tokens;
}

function matchesOne(token: Token, char: string): boolean {
  switch (token.kind) {
    case "char":
      return token.char === char;
    case "any":
      return true;
    case "class": {
      const code = char.codePointAt(0)!;
      const inside = token.chars.has(char) || token.ranges.some(([low, high]) => code >= low && code <= high);
      return inside !== token.negated;
    }
    case "star":
      return false;
  }
}

export function globMatch(glob: string, text: string): boolean {
  const tokens = parseGlob(glob);
  const chars = [...text];
  let t = 0;
  let c = 0;
  // The last star seen, and where in the text its run would resume: the only backtracking point.
  let star = -1;
  let resume = 0;
  while (c < chars.length) {
    const token = tokens[t];
    if (token && token.kind !== "star" && matchesOne(token, chars[c]!)) {
      t++;
      c++;
    } else if (token?.kind === "star") {
      star = t++;
      resume = c;
    } else if (star >= 0) {
      t = star + 1;
      c = ++resume;
    } else return false;
  }
  while (tokens[t]?.kind === "star") t++;
  return t === tokens.length;
}

/** A glob that matches exactly this title: `*`, `?` and `[` each stand in a class of their own. */
export function globEscape(title: string): string {
  return title.replace(/[*?[]/g, (c) => `[${c}]`);
}

/** Whether a title matches the glob but for case ("*Rechner*" and "Taschenrechner"). */
export const matchesIgnoringCase =
  (glob: string) =>
  (title: string): boolean =>
    globMatch(glob.toLowerCase(), title.toLowerCase());
