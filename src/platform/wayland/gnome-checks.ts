// What `doctor` says on GNOME: whether deskhand's Shell extension is installed and answers, whether it
// is this deskhand's version, whether its token is readable and private, and that pixels come back (a
// 1×1 picture is asked for: it changes nothing). Read-only: nothing is clicked, typed or written.
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DesktopCheck as Check } from "../checks.js";
import { CompositorUnreachable } from "./compositor.js";
import { EXTENSION_UUID, TOKEN_FILE } from "./gnome-extension.js";
import { GnomeShell } from "./gnome-shell.js";

const SETUP =
  "run `deskhand setup gnome`, log out and in once, then `gnome-extensions enable deskhand@deskhand.dev`";

/** Where the extension is installed for this user, if it is. */
function installedExtension(env: NodeJS.ProcessEnv): string | undefined {
  const home = env.XDG_DATA_HOME || join(env.HOME ?? "/root", ".local/share");
  const folder = join(home, "gnome-shell", "extensions", EXTENSION_UUID);
  return existsSync(join(folder, "extension.js")) ? folder : undefined;
}

export async function gnomeChecks(env: NodeJS.ProcessEnv, timeoutMs: number): Promise<Check[]> {
  const folder = installedExtension(env);
  const checks: Check[] = [
    folder
      ? { name: "extension", status: "ok", value: `installed in ${folder}` }
      : {
          name: "extension",
          status: "warn",
          value: `${EXTENSION_UUID} is not in your data folder`,
          hint: SETUP,
        },
  ];
  let shell: GnomeShell;
  try {
    shell = await GnomeShell.open(env, timeoutMs);
  } catch (error) {
    const message = (error as Error).message;
    // This session is GNOME's: deskhand would use the Shell, so its being gone, or its extension's
    // silence, is a failure (doctor exits 1), not a piece that is merely not there.
    checks.push(
      error instanceof CompositorUnreachable
        ? {
            name: "GNOME Shell",
            status: "fail",
            value:
              error.problem === "extension_missing"
                ? "deskhand's extension does not answer on the session bus"
                : message,
            hint: error.problem === "extension_missing" ? SETUP : error.next,
          }
        : { name: "GNOME Shell", status: "unavailable", value: `UNAVAILABLE (${message})`, hint: SETUP },
    );
    return checks;
  }
  try {
    const windows = await shell.windows();
    checks.push({
      name: "GNOME Shell",
      status: shell.current ? "ok" : "warn",
      value: `deskhand's extension answers: ${windows.filter((w) => !w.menu).length} window(s), pointer and keys by Clutter's virtual devices${shell.current ? "" : `; it is version ${shell.version}, older or newer than this deskhand's`}`,
      ...(shell.current ? {} : { hint: SETUP }),
    });
    checks.push(tokenCheck(env));
    checks.push(await pictureCheck(shell, timeoutMs));
    checks.push({
      name: "text outside the keymap",
      status: "ok",
      value:
        "committed to the focused text input (GTK 3 and 4), else pasted through the Shell's clipboard (Qt 5); read back in the field either way",
    });
  } catch (error) {
    checks.push({
      name: "GNOME Shell",
      status: "fail",
      value: `the extension failed: ${(error as Error).message}`,
    });
  } finally {
    shell.close();
  }
  return checks;
}

function tokenCheck(env: NodeJS.ProcessEnv): Check {
  const file = join(env.XDG_RUNTIME_DIR ?? "", TOKEN_FILE);
  const mode = statSync(file).mode & 0o777;
  return mode === 0o600
    ? {
        name: "token",
        status: "ok",
        value: `${file}, readable only by you: the extension answers no one without it`,
      }
    : {
        name: "token",
        status: "warn",
        value: `${file} has mode ${mode.toString(8)}: other users may drive this desktop`,
        hint: "chmod 600 it; the extension writes it 0600 when enabled",
      };
}

async function pictureCheck(shell: GnomeShell, timeoutMs: number): Promise<Check> {
  const folder = mkdtempSync(join(tmpdir(), "deskhand-doctor-"));
  try {
    await shell.call("Capture", "iiiis", [0, 0, 1, 1, join(folder, "probe.png")], timeoutMs);
    return { name: "screenshots", status: "ok", value: "the Shell's screenshots (PNG), one pixel per point" };
  } catch (error) {
    return {
      name: "screenshots",
      status: "fail",
      value: `the Shell gave no picture: ${(error as Error).message}`,
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
