// A line of `doctor` as each desktop's own checks give it (the section is doctor's), and how a
// check that threw is said: slow is not broken.
import { waitedFor } from "./types.js";

export type CheckStatus = "ok" | "warn" | "fail" | "unavailable";

export interface DesktopCheck {
  name: string;
  status: CheckStatus;
  value: string;
  hint?: string;
}

export const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * A check that threw: UNAVAILABLE with the time it waited when only the answer did not come in time
 * (the peer may be slow, not broken), else FAIL with `value`.
 */
export function failedCheck(name: string, error: unknown, value: string): DesktopCheck {
  const waited = waitedFor(error);
  return waited === undefined
    ? { name, status: "fail", value }
    : {
        name,
        status: "unavailable",
        value: `UNAVAILABLE (no answer within ${waited} ms: slow or hung, not known to be broken; ${message(error)})`,
      };
}
