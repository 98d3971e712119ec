// Where a Wayland display's socket is, by libwayland's rule: WAYLAND_DISPLAY as a path, else that name
// in XDG_RUNTIME_DIR (a session without one gets logind's folder for this user, where it would be).
import { join } from "node:path";

export function waylandSocketPath(env: NodeJS.ProcessEnv): string {
  const display = env.WAYLAND_DISPLAY || "wayland-0";
  if (display.startsWith("/")) return display;
  return join(env.XDG_RUNTIME_DIR || `/run/user/${process.getuid?.() ?? 0}`, display);
}
