// `deskhand setup kde|gnome`: what a user's own desktop needs once before deskhand's hands work
// there. On KDE Plasma, KWin's grant (a desktop file in the user's applications folder, which KWin
// reads by itself); on GNOME, deskhand's Shell extension, which the Shell finds at the next login.
import { parseArgs } from "node:util";
import {
  extensionSource,
  gnomeExtensionPlan,
  kdeGrant,
  writeGnomeExtension,
  writeKdeGrant,
} from "../../platform/setup.js";
import { UsageError } from "./usage-error.js";

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

async function setupGnome(args: string[]): Promise<number> {
  let values: { "dry-run"?: boolean; form?: string };
  try {
    ({ values } = parseArgs({
      args,
      options: { "dry-run": { type: "boolean" }, form: { type: "string" } },
      strict: true,
    }));
  } catch (error) {
    throw new UsageError(`setup gnome: ${(error as Error).message}`);
  }
  const form = values.form;
  if (form !== undefined && form !== "gnome43" && form !== "esm")
    throw new UsageError(
      `--form takes gnome43 (GNOME 43, 44) or esm (45 and later), not ${JSON.stringify(form)}`,
    );
  let plan: ReturnType<typeof gnomeExtensionPlan>;
  try {
    plan = values["dry-run"]
      ? gnomeExtensionPlan(process.env, form)
      : await writeGnomeExtension(process.env, form);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const untested = plan.tested
    ? []
    : [
        "This form (an ES module, for GNOME 45 and later) is built and syntax-checked, but it has not run on a real GNOME Shell: `deskhand doctor` says whether it answers.",
      ];
  if (values["dry-run"]) {
    process.stdout.write(
      [
        `would write ${plan.folder}/extension.js and metadata.json (${plan.form} form${plan.shell ? `, for ${plan.shell}` : ""}):`,
        extensionSource(plan.form),
        ...untested,
        "",
      ].join("\n"),
    );
    return 0;
  }
  process.stdout.write(
    [
      `wrote ${plan.folder} (${plan.form} form${plan.shell ? `, for ${plan.shell}` : ""})`,
      "Once, by you: log out and back in (on Wayland GNOME Shell finds a new extension only at login), then run",
      "  gnome-extensions enable deskhand@deskhand.dev",
      "When enabled, the extension writes a token to $XDG_RUNTIME_DIR/deskhand-gnome-token, readable only by you, and answers only callers that give it: any program you run can read that file, no other user's can.",
      "To take it back: gnome-extensions disable deskhand@deskhand.dev, and remove the folder.",
      ...untested,
      "Check with: deskhand doctor",
      "",
    ].join("\n"),
  );
  return 0;
}

export async function setupCommand(args: string[]): Promise<number> {
  const [desktop, ...rest] = args;
  if (desktop === "kde") return setupKde(rest);
  if (desktop === "gnome") return setupGnome(rest);
  throw new UsageError(
    desktop ? `setup knows kde and gnome, not ${JSON.stringify(desktop)}` : "setup needs kde or gnome",
  );
}
