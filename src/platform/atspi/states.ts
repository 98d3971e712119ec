// AT-SPI state numbers (AtspiStateType in at-spi2-core 2.46). GetState returns them as a bitset in two
// uint32 words: bit n of word n/32 is state n.
const atspiStateNames: readonly string[] = [
  "invalid",
  "active",
  "armed",
  "busy",
  "checked",
  "collapsed",
  "defunct",
  "editable",
  "enabled",
  "expandable",
  "expanded",
  "focusable",
  "focused",
  "has tooltip",
  "horizontal",
  "iconified",
  "modal",
  "multi line",
  "multiselectable",
  "opaque",
  "pressed",
  "resizable",
  "selectable",
  "selected",
  "sensitive",
  "showing",
  "single line",
  "stale",
  "transient",
  "vertical",
  "visible",
  "manages descendants",
  "indeterminate",
  "required",
  "truncated",
  "animated",
  "invalid entry",
  "supports autocompletion",
  "selectable text",
  "is default",
  "visited",
  "checkable",
  "has popup",
  "read only",
  "last defined",
];

export function statesFromBitset(words: readonly number[]): string[] {
  const names: string[] = [];
  words.forEach((word, wordIndex) => {
    for (let bit = 0; bit < 32; bit++) {
      if ((word >>> bit) & 1) {
        const name = atspiStateNames[wordIndex * 32 + bit];
        if (name !== undefined && name !== "invalid" && name !== "last defined") names.push(name);
      }
    }
  });
  return names;
}

export function stateNumber(name: string): number | undefined {
  const index = atspiStateNames.indexOf(name);
  return index < 0 ? undefined : index;
}
