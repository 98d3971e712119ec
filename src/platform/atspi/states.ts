// AT-SPI state numbers (AtspiStateType in at-spi2-core 2.46). GetState returns them as a bitset in two
// uint32 words: bit n of word n/32 is state n.

// The vocabulary lists AT-SPI's states in AT-SPI's order, so its index is the state's bit.
import { STATES, type State } from "../roles.js";

const atspiStateNames: readonly State[] = STATES;

export function statesFromBitset(words: readonly number[]): State[] {
  const names: State[] = [];
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
  const index = (atspiStateNames as readonly string[]).indexOf(name);
  return index < 0 ? undefined : index;
}
