// What a user's own desktop needs once before deskhand's hands work there (`deskhand setup`): on KDE
// Plasma, KWin's grant, a desktop file in the user's applications folder (wayland/kwin-grant.ts); on
// GNOME, deskhand's Shell extension in the user's extensions folder (wayland/gnome-extension.ts).
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import {
  EXTENSION_UUID,
  type ExtensionForm,
  extensionSource,
  formFor,
  writeExtension,
} from "./wayland/gnome-extension.js";

export { extensionSource };

import { deskhandExecutable, GRANT_FILE, grantText, writeGrant } from "./wayland/kwin-grant.js";

export interface KdeGrant {
  path: string;
  executable: string;
  text: string;
}

function dataHome(env: NodeJS.ProcessEnv): string {
  return env.XDG_DATA_HOME || join(env.HOME ?? "/root", ".local/share");
}

/** The grant for the Node running deskhand, where it goes; nothing is written. */
export function kdeGrant(env: NodeJS.ProcessEnv): KdeGrant {
  const executable = deskhandExecutable();
  return { path: join(dataHome(env), "applications", GRANT_FILE), executable, text: grantText(executable) };
}

/** Writes the grant; what was written. */
export async function writeKdeGrant(env: NodeJS.ProcessEnv): Promise<KdeGrant> {
  const grant = kdeGrant(env);
  await writeGrant(dataHome(env), grant.executable);
  return grant;
}

export interface GnomeExtensionPlan {
  folder: string;
  form: ExtensionForm;
  /** The GNOME Shell found, "GNOME Shell 43.9"; undefined where none is installed. */
  shell: string | undefined;
  /** Whether this form has run on a real GNOME Shell (only 43's has, on Debian 12). */
  tested: boolean;
}

/** Where the extension goes and in which form: the given one, else the installed Shell's. */
export function gnomeExtensionPlan(env: NodeJS.ProcessEnv, form?: ExtensionForm): GnomeExtensionPlan {
  const probe = spawnSync("gnome-shell", ["--version"], { encoding: "utf8", timeout: 10_000 });
  const shell = probe.status === 0 ? probe.stdout.trim() : undefined;
  const major = Number(/(\d+)/.exec(shell ?? "")?.[1]);
  const chosen = form ?? (shell ? formFor(major) : undefined);
  if (!chosen)
    throw new Error(
      "no gnome-shell here to tell which form it loads: give --form gnome43 (43, 44) or --form esm (45 on)",
    );
  return {
    folder: join(dataHome(env), "gnome-shell", "extensions", EXTENSION_UUID),
    form: chosen,
    shell,
    tested: chosen === "gnome43",
  };
}

export async function writeGnomeExtension(
  env: NodeJS.ProcessEnv,
  form?: ExtensionForm,
): Promise<GnomeExtensionPlan> {
  const plan = gnomeExtensionPlan(env, form);
  await writeExtension(dataHome(env), plan.form);
  return plan;
}
