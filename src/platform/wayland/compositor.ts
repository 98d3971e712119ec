// Which Wayland compositor this session has, from its environment: sway names its IPC socket
// (SWAYSOCK); a Plasma session says KDE in XDG_CURRENT_DESKTOP (and KWin is then on the session bus),
// a GNOME one says GNOME (and deskhand's Shell extension answers there, once installed).
import { CodedError } from "../types.js";

/**
 * How long the hands wait for a compositor's first answer as they open (its socket, its registry,
 * its bus). One that is gone refuses at once; a loaded one answers late, not never: KWin just
 * started at scale 2 beside other desktops took over 2 s (a run's KDE test failed on it). Each call
 * after keeps the hands' own shorter bound.
 */
export const OPEN_MS = 10_000;

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

const COMPOSITOR_NAMES: Record<WaylandCompositor, string> = {
  sway: "sway",
  kwin: "KWin",
  gnome: "GNOME Shell",
};

/**
 * The session's compositor cannot be reached: it is gone (its sockets refuse, its bus name has no
 * owner), or, for GNOME Shell, deskhand's extension does not answer there. Named as such, with what to
 * do, where it used to surface as an internal error or as a keymap's fault.
 */
export class CompositorUnreachable extends CodedError {
  override readonly name = "CompositorUnreachable";
  readonly code = "backend_unavailable";
  override get details() {
    return { compositor: this.compositor, problem: this.problem };
  }
  constructor(
    readonly compositor: WaylandCompositor,
    readonly problem: "compositor_gone" | "extension_missing",
    why: string,
  ) {
    super(
      problem === "compositor_gone"
        ? `${COMPOSITOR_NAMES[compositor]}, this session's Wayland compositor, is gone: ${why}`
        : `GNOME Shell runs, but deskhand's extension does not answer there: ${why}`,
    );
  }

  /** What to do about it, in one sentence. */
  get next(): string {
    if (this.problem === "extension_missing")
      return "Enable deskhand's extension (`gnome-extensions enable deskhand@deskhand.dev`; after `deskhand setup gnome`, log out and in once), or run apps inside `deskhand sandbox run --gnome`; `deskhand doctor` checks it.";
    return `Nothing can be read or sent until the desktop has a compositor again: start the session again (a sandbox: \`deskhand sandbox stop\`, then \`deskhand sandbox start --${this.compositor === "sway" ? "wayland" : this.compositor === "kwin" ? "kde" : "gnome"}\`), then call again; \`deskhand doctor\` fails while it is gone.`;
  }
}

/** Errors of a socket whose other end is not there (any more). */
const GONE_ERRNO = new Set(["ECONNREFUSED", "ENOENT", "ECONNRESET", "EPIPE"]);

/** Whether a socket error says its peer is gone, not slow. */
export function peerGone(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code !== undefined && GONE_ERRNO.has(code);
}

/** libuv's numbers for the same errors (fd-socket.ts reports them so): refused, no such file, reset, broken pipe. */
const GONE_LIBUV = /libuv error -(111|2|104|32)\b/;

/**
 * The error to throw for a failure to reach the compositor's Wayland display or IPC: the compositor
 * named as gone where its socket says so; undefined where the failure says something else.
 */
export function goneFrom(
  error: unknown,
  compositor: WaylandCompositor,
  what: string,
): CompositorUnreachable | undefined {
  if (error instanceof CompositorUnreachable) return error;
  if (!(error instanceof Error) || !(peerGone(error) || GONE_LIBUV.test(error.message))) return undefined;
  return new CompositorUnreachable(compositor, "compositor_gone", `${what} (${error.message})`);
}
