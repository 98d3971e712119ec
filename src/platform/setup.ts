// What a user's own desktop needs once before deskhand's hands work there (`deskhand setup`): on KDE
// Plasma, KWin's grant, a desktop file in the user's applications folder (wayland/kwin-grant.ts).
import { join } from "node:path";
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
