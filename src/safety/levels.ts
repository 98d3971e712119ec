// Safety levels, from the Daimon "hands" contract. A tool's level is nominal: a target may raise it,
// never lower it. Every read is L1.
export const SAFETY_LEVELS = ["L1", "L2", "L3", "L4"] as const;
export type SafetyLevel = (typeof SAFETY_LEVELS)[number];

export const LEVEL_NAMES: Record<SafetyLevel, string> = {
  L1: "nondestructive",
  L2: "input",
  L3: "validation",
  L4: "autonomous",
};

export function levelRank(level: SafetyLevel): number {
  return SAFETY_LEVELS.indexOf(level) + 1;
}

/** The higher of two levels: a target can raise a tool's level, never lower it. */
export function raiseLevel(nominal: SafetyLevel, fromTarget: SafetyLevel): SafetyLevel {
  return levelRank(fromTarget) > levelRank(nominal) ? fromTarget : nominal;
}

export function withinCeiling(level: SafetyLevel, ceiling: SafetyLevel): boolean {
  return levelRank(level) <= levelRank(ceiling);
}
