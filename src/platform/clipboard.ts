// The clipboard's text through the desktop's own clipboard programs: wl-clipboard's wl-copy and
// wl-paste on Wayland (the compositor's data-control protocol, so no window takes the focus), xclip
// on X11. Each copy leaves a process in the background serving the text until the clipboard changes
// again (X and Wayland keep no text themselves); clearing the Wayland one ends it.
import { execFile, spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { HandsUnavailable } from "./hands.js";

const WAIT_MS = 2000;

/** How each display's clipboard programs are run. */
const PROGRAMS = {
  wayland: {
    package: "wl-clipboard",
    copy: "wl-copy",
    paste: "wl-paste",
    types: ["--list-types"],
    read: (type: string) => ["--no-newline", "--type", type],
    write: ["--type", "text/plain;charset=utf-8"],
    clear: ["--clear"],
    // An empty clipboard: wl-paste waits on KWin 5.27 rather than saying so, hence the short wait.
    readWaitMs: 400,
  },
  x11: {
    package: "xclip",
    copy: "xclip",
    paste: "xclip",
    types: ["-selection", "clipboard", "-o", "-t", "TARGETS"],
    read: (type: string) => ["-selection", "clipboard", "-o", "-t", type],
    write: ["-selection", "clipboard", "-i", "-t", "UTF8_STRING"],
    clear: undefined,
    readWaitMs: WAIT_MS,
  },
} as const;

export type ClipboardKind = keyof typeof PROGRAMS;

/** The kinds of text a clipboard may offer, best first. */
const TEXT_TYPES = ["text/plain;charset=utf-8", "UTF8_STRING", "text/plain", "TEXT", "STRING"];

/** Whether the display's clipboard programs are on the PATH. */
export function hasClipboardTools(env: NodeJS.ProcessEnv, kind: ClipboardKind = "wayland"): boolean {
  return (env.PATH ?? "").split(":").some((dir) => {
    try {
      accessSync(join(dir, PROGRAMS[kind].copy), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** HandsUnavailable where the programs are missing, before anything is run. */
function programsOf(env: NodeJS.ProcessEnv, kind: ClipboardKind) {
  const programs = PROGRAMS[kind];
  if (!hasClipboardTools(env, kind))
    throw new HandsUnavailable(
      `the clipboard on ${kind === "x11" ? "X11" : "Wayland"} is read and written with ${programs.package}, which is not installed (apt-get install ${programs.package})`,
    );
  return programs;
}

function paste(
  kind: ClipboardKind,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<string | undefined> {
  const programs = PROGRAMS[kind];
  return new Promise((resolve) => {
    const child = execFile(
      programs.paste,
      [...args],
      { env, timeout: programs.readWaitMs, encoding: "utf8" },
      (error, stdout) => resolve(error ? undefined : stdout),
    );
    child.stdin?.end();
  });
}

/** The clipboard's text now; undefined where it holds none (nothing, or only other kinds: an image). */
export async function clipboardText(
  env: NodeJS.ProcessEnv,
  kind: ClipboardKind = "wayland",
): Promise<string | undefined> {
  const programs = programsOf(env, kind);
  const offered = (await paste(kind, programs.types, env))?.split("\n").map((t) => t.trim()) ?? [];
  const type = TEXT_TYPES.find((t) => offered.includes(t));
  return type ? paste(kind, programs.read(type), env) : undefined;
}

/**
 * Puts `text` on the clipboard; undefined clears it (on Wayland). The copying program's first
 * process exits once the clipboard is set, leaving a child to serve it: that child is given no pipe
 * of ours to hold open.
 */
export function setClipboardText(
  env: NodeJS.ProcessEnv,
  text: string | undefined,
  kind: ClipboardKind = "wayland",
): Promise<void> {
  const programs = programsOf(env, kind);
  const args = text === undefined ? programs.clear : programs.write;
  if (!args) return Promise.reject(new HandsUnavailable(`${programs.copy} cannot clear the clipboard`));
  return new Promise((resolve, reject) => {
    const child = spawn(programs.copy, [...args], { env, stdio: ["pipe", "ignore", "ignore"] });
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`${programs.copy} did not set the clipboard within ${WAIT_MS} ms`));
    }, WAIT_MS);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`${programs.copy} could not set the clipboard (exit ${code})`));
    });
    child.stdin.on("error", () => undefined);
    child.stdin.end(text ?? "");
  });
}

/** Whether the clipboard holds `text`, waited for up to a second. */
export async function clipboardHolds(
  env: NodeJS.ProcessEnv,
  text: string,
  kind: ClipboardKind = "wayland",
): Promise<boolean> {
  const deadline = Date.now() + 1000;
  for (;;) {
    if ((await clipboardText(env, kind)) === text) return true;
    if (Date.now() > deadline) return false;
    await sleep(20);
  }
}
