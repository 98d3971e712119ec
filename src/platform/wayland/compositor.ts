// Which Wayland compositor this session has, from its environment: sway names its IPC socket
// (SWAYSOCK); a Plasma session says KDE in XDG_CURRENT_DESKTOP (and KWin is then on the session bus).
export type WaylandCompositor = "sway" | "kwin";

export function waylandCompositor(env: NodeJS.ProcessEnv): WaylandCompositor | undefined {
  if (env.SWAYSOCK) return "sway";
  if ((env.XDG_CURRENT_DESKTOP ?? "").split(":").includes("KDE")) return "kwin";
  return undefined;
}

/** What to say where deskhand has no window list for this Wayland session. */
export const NO_COMPOSITOR =
  "this Wayland session is neither sway (SWAYSOCK is not set) nor KDE Plasma (XDG_CURRENT_DESKTOP does not say KDE): deskhand lists windows and sends input on Wayland through sway's IPC or KWin only. Run inside `deskhand sandbox run --wayland` or `--kde`.";
