// AT-SPI role numbers (AtspiRole in at-spi2-core 2.46) mapped to the names pyatspi and Orca use.
// Index = the number GetRole returns (the Atspi.Role value nicks, "-" read as " ").
import { ROLES, type Role } from "../roles.js";

// The vocabulary lists AT-SPI's names in AT-SPI's order, so its index is the role number.
const atspiRoleNames: readonly Role[] = ROLES;

/** A number past the vocabulary (a newer at-spi2-core) is "unknown", as AT-SPI's own fallback. */
export function roleName(role: number): Role {
  return atspiRoleNames[role] ?? "unknown";
}

export function roleNumber(name: string): number | undefined {
  const index = (atspiRoleNames as readonly string[]).indexOf(name);
  return index < 0 ? undefined : index;
}
