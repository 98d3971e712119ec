// What `doctor` says on KDE Plasma: that KWin was found and answers its scripts, whether deskhand is
// granted fake input (the Wayland global is offered only then) and ScreenShot2 (a 1×1 picture is
// asked for: it changes nothing), which desktop file grants them, and how text outside KWin's keymap
// goes in. Read-only: nothing is clicked, typed or written.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DesktopCheck } from "../checks.js";
import { hasClipboardTools } from "../clipboard.js";
import { DBusFdConnection } from "./dbus-fd.js";
import { KWinScripting } from "./kwin.js";
import { deskhandExecutable, GRANT_FILE } from "./kwin-grant.js";
import { WaylandConnection } from "./wire.js";

const SETUP = "run `deskhand setup kde`, then check again (KWin reads the grant by itself)";

/** The desktop files KWin would read for the grant, in its order: the user's data folder first. */
function grantFiles(env: NodeJS.ProcessEnv): string[] {
  const home = env.XDG_DATA_HOME || join(env.HOME ?? "/root", ".local/share");
  const dirs = [home, ...(env.XDG_DATA_DIRS || "/usr/local/share:/usr/share").split(":")];
  return dirs.map((dir) => join(dir, "applications", GRANT_FILE)).filter((file) => existsSync(file));
}

export async function kwinChecks(env: NodeJS.ProcessEnv, timeoutMs: number): Promise<DesktopCheck[]> {
  const checks: DesktopCheck[] = [];
  let kwin: KWinScripting | undefined;
  try {
    kwin = await KWinScripting.open(env, timeoutMs);
    const windows = await kwin.windows();
    checks.push({
      name: "KWin",
      status: "ok",
      value: `KDE Plasma's KWin answers deskhand's scripts: ${windows.filter((w) => !w.menu).length} window(s)`,
    });
  } catch (error) {
    checks.push({ name: "KWin", status: "fail", value: `KWin cannot be asked: ${(error as Error).message}` });
  } finally {
    kwin?.close();
  }
  const executable = deskhandExecutable();
  const granted = grantFiles(env).find((file) => readFileSync(file, "utf8").includes(`Exec=${executable}`));
  checks.push(
    granted
      ? { name: "grant", status: "ok", value: `${granted} grants ${executable}` }
      : { name: "grant", status: "warn", value: `no ${GRANT_FILE} grants ${executable}`, hint: SETUP },
  );
  let wl: WaylandConnection | undefined;
  try {
    wl = await WaylandConnection.open(env, timeoutMs);
    const fake = wl.globals.has("org_kde_kwin_fake_input");
    checks.push(
      fake
        ? {
            name: "pointer and keys",
            status: "ok",
            value: "KWin's fake input (org_kde_kwin_fake_input), us keymap",
          }
        : {
            name: "pointer and keys",
            status: "unavailable",
            value: "UNAVAILABLE (KWin offers deskhand no org_kde_kwin_fake_input: it is not granted)",
            hint: SETUP,
          },
    );
  } catch (error) {
    checks.push({
      name: "pointer and keys",
      status: "fail",
      value: `cannot reach the Wayland display: ${(error as Error).message}`,
    });
  } finally {
    wl?.close();
  }
  checks.push(await screenshotCheck(env, timeoutMs));
  checks.push(
    hasClipboardTools(env)
      ? {
          name: "text outside the keymap",
          status: "ok",
          value: "pasted into the focused text with wl-copy and ctrl+v",
        }
      : {
          name: "text outside the keymap",
          status: "warn",
          value: "written through the focused text's EditableText only (wl-copy is not installed)",
          hint: "apt-get install wl-clipboard",
        },
  );
  return checks;
}

async function screenshotCheck(env: NodeJS.ProcessEnv, timeoutMs: number): Promise<DesktopCheck> {
  const folder = mkdtempSync(join(tmpdir(), "deskhand-doctor-"));
  let bus: DBusFdConnection | undefined;
  try {
    const file = join(folder, "pixel");
    writeFileSync(file, "");
    bus = await DBusFdConnection.open(env.DBUS_SESSION_BUS_ADDRESS ?? "", timeoutMs);
    await bus.call(
      {
        destination: "org.kde.KWin",
        path: "/org/kde/KWin/ScreenShot2",
        iface: "org.kde.KWin.ScreenShot2",
        member: "CaptureArea",
        signature: "iiuua{sv}h",
        body: [0, 0, 1, 1, [], 0],
        file,
      },
      timeoutMs,
    );
    return {
      name: "screenshots",
      status: "ok",
      value: "KWin's ScreenShot2, through a file passed over D-Bus",
    };
  } catch (error) {
    const why = (error as Error).message;
    return {
      name: "screenshots",
      status: "unavailable",
      value: `UNAVAILABLE (${why})`,
      ...(/NoAuthorized/.test(why) ? { hint: SETUP } : {}),
    };
  } finally {
    bus?.close();
    rmSync(folder, { recursive: true, force: true });
  }
}
