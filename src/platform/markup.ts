// Names a toolkit hands over in rich-text markup, read as a person sees them drawn. Qt takes a
// button's text as HTML where the app draws it so (KCalc's "x<sup>2</sup>"), and strips each "&" as
// a mnemonic marker first, so "&radic;x" arrives as "radic;x": both read "x²" and "√x".
import { decodeHTMLStrict } from "entities";

/** The inline tags such a name holds; any other "<…>" is text, as in "a <b" or "<none>". */
const TAG_SOURCE = "<\\/?(?:b|i|u|s|em|strong|small|big|sup|sub|span|font|br|nobr|tt|code)\\b[^<>]*>";
const TAG = new RegExp(TAG_SOURCE, "giu");
const HAS_TAG = new RegExp(TAG_SOURCE, "iu");
const SUPER: Record<string, string> = Object.fromEntries(
  [..."0123456789+-=()n"].map((c, i) => [c, "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿ"[i]!]),
);
const SUB: Record<string, string> = Object.fromEntries(
  [..."0123456789+-=()"].map((c, i) => [c, "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎"[i]!]),
);

/** Each character as its superscript or subscript form where every one has one, else "^(…)"/"_(…)". */
function raised(text: string, forms: Record<string, string>, mark: string): string {
  const chars = [...text];
  if (chars.every((c) => forms[c])) return chars.map((c) => forms[c]).join("");
  return chars.length === 1 ? `${mark}${text}` : `${mark}(${text})`;
}

/**
 * Entities written whole ("&radic;", "&#8730;"), anywhere; and one whose "&" was taken as a mnemonic
 * marker ("radic;x"), only where it starts a name of one word, as on a key: "Do not; go" keeps its
 * "not;". Anything that names no character is left as written.
 */
function entities(text: string): string {
  const whole = text.replace(/&(?:[a-z][a-z0-9]{1,7}|#\d{1,7}|#x[0-9a-f]{1,6});/giu, (e) =>
    decodeHTMLStrict(e),
  );
  if (/\s/u.test(whole)) return whole;
  return whole.replace(/^([a-z][a-z0-9]{1,7});/iu, (e, name: string) => {
    const decoded = decodeHTMLStrict(`&${name};`);
    return decoded === `&${name};` ? e : decoded;
  });
}

/** A name as drawn: inline tags read (superscripts raised), entities decoded; plain names unchanged. */
export function plainFromMarkup(name: string): string {
  if (!name.includes(";") && !HAS_TAG.test(name)) return name;
  const raisedTags = name
    .replace(/<sup>([^<>]*)<\/sup>/giu, (_, t: string) => raised(entities(t), SUPER, "^"))
    .replace(/<sub>([^<>]*)<\/sub>/giu, (_, t: string) => raised(entities(t), SUB, "_"))
    .replace(/<br\s*\/?>/giu, " ")
    .replace(TAG, "");
  return entities(raisedTags);
}
