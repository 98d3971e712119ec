// fnmatch-style title globs: `*` any run, `?` one character, `[abc]` a class. Matching is on the whole
// title, case-sensitive, as pyjab's window binding does.
export function globToRegExp(glob: string): RegExp {
  let source = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*") source += ".*";
    else if (c === "?") source += ".";
    else if (c === "[") {
      const end = glob.indexOf("]", i + 2);
      if (end < 0) source += "\\[";
      else {
        const body = glob.slice(i + 1, end).replace(/\\/g, "\\\\");
        source += body.startsWith("!") ? `[^${body.slice(1)}]` : `[${body}]`;
        i = end;
      }
    } else source += c.replace(/[.+^${}()|\\\]]/g, "\\$&");
  }
  return new RegExp(`^${source}$`, "su");
}

export function globMatch(glob: string, text: string): boolean {
  return globToRegExp(glob).test(text);
}
