// `deskhand setup kde|gnome`: what a user's own desktop needs once before deskhand's hands work
// there. On KDE Plasma, KWin's grant (a desktop file in the user's applications folder, which KWin
// reads by itself); GNOME Shell has no backend yet, and this says so.
import { kdeGrant, writeKdeGrant } from "../../platform/setup.js";
import { UsageError } from "./usage.js";

async function setupKde(args: string[]): Promise<number> {
  const dryRun = args.includes("--dry-run");
  const unknown = args.find((a) => a !== "--dry-run");
  if (unknown) throw new UsageError(`setup kde takes only --dry-run, not ${JSON.stringify(unknown)}`);
  if (dryRun) {
    const { path, text } = kdeGrant(process.env);
    process.stdout.write(`would write ${path}:\n${text}`);
    return 0;
  }
  const { path, executable } = await writeKdeGrant(process.env);
  process.stdout.write(
    [
      `wrote ${path}`,
      `KWin now lets ${executable} click and type (fake input) and take screenshots (ScreenShot2); it reads the file by itself, no restart or new login.`,
      `Every program this Node runs as you gets the same grant: remove the file to take it back.`,
      "Check with: deskhand doctor",
      "",
    ].join("\n"),
  );
  return 0;
}

export async function setupCommand(args: string[]): Promise<number> {
  const [desktop, ...rest] = args;
  if (desktop === "kde") return setupKde(rest);
  if (desktop === "gnome") {
    process.stderr.write(
      "deskhand setup gnome: not built. deskhand has no GNOME Shell backend yet (its Shell extension is planned); on GNOME it reads trees and acts through accessibility, without windows, input or pixels. `deskhand doctor` says what works.\n",
    );
    return 1;
  }
  throw new UsageError(
    desktop ? `setup knows kde and gnome, not ${JSON.stringify(desktop)}` : "setup needs kde or gnome",
  );
}
