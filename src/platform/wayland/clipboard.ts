// The Wayland clipboard's text, through wl-clipboard's wl-copy and wl-paste (the compositor's
// data-control protocol, so no window takes the focus). wl-copy stays in the background serving
// what it was given until the clipboard changes again; clearing it ends that.
import { execFile, spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { join } from "node:path";

const WAIT_MS = 2000;
const EMPTY_WAIT_MS = 400;

/** Whether wl-copy is on the PATH. */
export function hasClipboardTools(env: NodeJS.ProcessEnv): boolean {
  return (env.PATH ?? "").split(":").some((dir) => {
    try {
      accessSync(join(dir, "wl-copy"), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** The kinds of text a clipboard may offer, best first. */
const TEXT_TYPES = ["text/plain;charset=utf-8", "UTF8_STRING", "text/plain", "TEXT", "STRING"];

function paste(args: string[], env: NodeJS.ProcessEnv): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = execFile(
      "wl-paste",
      args,
      { env, timeout: EMPTY_WAIT_MS, encoding: "utf8" },
      (error, stdout) => resolve(error ? undefined : stdout),
    );
    child.stdin?.end();
  });
}

/**
 * The clipboard's text now; undefined where it holds none (only other kinds, or nothing: then
 * wl-paste waits on KWin 5.27 rather than saying so, hence the short wait).
 */
export async function clipboardText(env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const offered = (await paste(["--list-types"], env))?.split("\n") ?? [];
  const type = TEXT_TYPES.find((t) => offered.includes(t));
  return type ? paste(["--no-newline", "--type", type], env) : undefined;
}

/**
 * Puts `text` on the clipboard; undefined clears it. wl-copy's first process exits once the
 * clipboard is set, leaving a child to serve it: that child is given no pipe of ours to hold open.
 */
export function setClipboardText(env: NodeJS.ProcessEnv, text: string | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const args = text === undefined ? ["--clear"] : ["--type", "text/plain;charset=utf-8"];
    const child = spawn("wl-copy", args, { env, stdio: ["pipe", "ignore", "ignore"] });
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`wl-copy did not set the clipboard within ${WAIT_MS} ms`));
    }, WAIT_MS);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`wl-copy could not set the clipboard (exit ${code})`));
    });
    child.stdin.on("error", () => undefined);
    child.stdin.end(text ?? "");
  });
}

/** Whether the clipboard holds `text`, waited for up to a second. */
export async function clipboardHolds(env: NodeJS.ProcessEnv, text: string): Promise<boolean> {
  const deadline = Date.now() + 1000;
  for (;;) {
    if ((await clipboardText(env)) === text) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
