// Which Wayland compositor this session has, from its environment: sway names its IPC socket
// (SWAYSOCK); a Plasma session says KDE in XDG_CURRENT_DESKTOP (and KWin is then on the session bus),
// a GNOME one says GNOME (and deskhand's Shell extension answers there, once installed).
export type WaylandCompositor = "sway" | "kwin" | "gnome";

export function waylandCompositor(env: NodeJS.ProcessEnv): WaylandCompositor | undefined {
  if (env.SWAYSOCK) return "sway";
  const desktops = (env.XDG_CURRENT_DESKTOP ?? "").split(":");
  if (desktops.includes("KDE")) return "kwin";
  if (desktops.includes("GNOME")) return "gnome";
  return undefined;
}

/** What to say where deskhand has no window list for this Wayland session. */
export const NO_COMPOSITOR =
  "this Wayland session is not sway (SWAYSOCK is not set), KDE Plasma or GNOME (XDG_CURRENT_DESKTOP says neither KDE nor GNOME): deskhand lists windows and sends input on Wayland through sway's IPC, KWin or GNOME Shell only. Run inside `deskhand sandbox run --wayland`, `--kde` or `--gnome`.";
