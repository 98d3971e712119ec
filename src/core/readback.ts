// One test of whether a value took, for every tool that writes one (act set_value and set_range,
// fill_form's either route): the value re-read from the app is the value asked for.

/**
 * The same text, or the same number written another way ("3" for 3, "3.0" for "3"). An empty value
 * is no number: "" never reads back as "0". Undefined: nothing could be re-read.
 */
export function readsBackAs(got: string | undefined, wanted: string | number): boolean | undefined {
  if (got === undefined) return undefined;
  if (got === String(wanted)) return true;
  const asNumber = (value: string | number) => {
    if (typeof value === "number") return value;
    const trimmed = value.trim();
    return trimmed === "" ? Number.NaN : Number(trimmed);
  };
  const a = asNumber(got);
  const b = asNumber(wanted);
  return Number.isFinite(a) && Number.isFinite(b) && a === b;
}
