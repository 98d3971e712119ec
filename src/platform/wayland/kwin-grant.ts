// What KWin must be told before it lets deskhand send input and take pixels: a desktop file, found
// among the session's applications, whose Exec is the program that connects (KWin matches a client
// by its executable's real path, and the first file naming it wins) and that lists the restricted
// Wayland interfaces and D-Bus interfaces it may use. KWin notices a new file by itself.
// Measured on Plasma 5.27: shared/notes/kde-gnome.md §1.2.
import { spawnSync } from "node:child_process";
import { realpathSync } from "node:fs";
import { copyFile, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

const KWIN_BINARY = "/usr/bin/kwin_wayland";
/** The file's name among the applications. */
export const GRANT_FILE = "deskhand.desktop";

/** The Node running deskhand, as KWin sees it (symlinks resolved). */
export function deskhandExecutable(): string {
  return realpathSync(process.execPath);
}

export function grantText(executable: string): string {
  return [
    "[Desktop Entry]",
    "Type=Application",
    "Name=deskhand",
    "Comment=Lets deskhand click, type and take screenshots for an agent (deskhand setup kde)",
    `Exec=${executable}`,
    "NoDisplay=true",
    "X-KDE-Wayland-Interfaces=org_kde_kwin_fake_input",
    "X-KDE-DBUS-Restricted-Interfaces=org.kde.KWin.ScreenShot2",
    "",
  ].join("\n");
}

/** Writes the grant into `dataHome`/applications; its path. */
export async function writeGrant(dataHome: string, executable = deskhandExecutable()): Promise<string> {
  const folder = join(dataHome, "applications");
  await mkdir(folder, { recursive: true });
  const path = join(folder, GRANT_FILE);
  await writeFile(path, grantText(executable));
  return path;
}

/**
 * The KWin to start. Debian's carries the file capability cap_sys_resource, and a container whose
 * bounding set lacks it cannot exec it at all (EPERM); a copy without the capability runs. It must
 * keep its name: KWin finds its own platform plugin by it.
 */
export async function kwinExecutable(spareFolder: string): Promise<string> {
  const probe = spawnSync(KWIN_BINARY, ["--version"], { timeout: 10_000, stdio: "ignore" });
  const code = (probe.error as NodeJS.ErrnoException | undefined)?.code;
  if (code === "ENOENT")
    throw new Error(
      `${KWIN_BINARY} is not installed: a KDE sandbox needs KWin (apt-get install kwin-wayland)`,
    );
  if (code !== "EPERM") return KWIN_BINARY;
  await mkdir(spareFolder, { recursive: true });
  const copy = join(spareFolder, "kwin_wayland");
  await copyFile(KWIN_BINARY, copy);
  return copy;
}
