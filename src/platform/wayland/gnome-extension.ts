// deskhand's GNOME Shell extension, built in the two forms GNOME loads: 43 and 44 take a script
// whose init() returns the extension; 45 and later take only an ES module whose default export is
// an Extension (gjs.guide, "Port Extensions to GNOME Shell 45"). Both wrap the one service in
// data/gnome-shell/service.js. Only the 43 form has run here (Debian 12); the other is built and
// syntax-checked, and `deskhand setup gnome` says it is untested.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

export const EXTENSION_UUID = "deskhand@deskhand.dev";
export const SHELL_NAME = "org.deskhand.Shell";
export const SHELL_PATH = "/org/deskhand/Shell";
/** Where the extension writes the token its callers must give (0600, the user's runtime folder). */
export const TOKEN_FILE = "deskhand-gnome-token";

export type ExtensionForm = "gnome43" | "esm";

const SERVICE = new URL("../../../data/gnome-shell/service.js", import.meta.url);
const LIBRARIES = ["Gio", "GLib", "Clutter", "Meta", "Shell", "St"];

function service(): string {
  return readFileSync(SERVICE, "utf8");
}

/** The service's version: its own text's hash, so an extension older than this deskhand is told apart. */
export function extensionVersion(): string {
  return createHash("sha256").update(service()).digest("hex").slice(0, 12);
}

const call = `deskhandService({ ${LIBRARIES.join(", ")}, Main }, ${JSON.stringify("@VERSION@")})`;

/** extension.js in the given form. */
export function extensionSource(form: ExtensionForm): string {
  const body = service();
  const made = call.replace("@VERSION@", extensionVersion());
  if (form === "gnome43")
    return [
      `const { ${LIBRARIES.join(", ")} } = imports.gi;`,
      "const Main = imports.ui.main;",
      body,
      `function init() {\n  return ${made};\n}`,
      "",
    ].join("\n");
  return [
    ...LIBRARIES.map((name) => `import ${name} from "gi://${name}";`),
    'import * as Main from "resource:///org/gnome/shell/ui/main.js";',
    'import { Extension } from "resource:///org/gnome/shell/extensions/extension.js";',
    body,
    "export default class DeskhandExtension extends Extension {",
    `  enable() {\n    this._service = ${made};\n    this._service.enable();\n  }`,
    "  disable() {\n    this._service?.disable();\n    this._service = null;\n  }",
    "}",
    "",
  ].join("\n");
}

export function extensionMetadata(form: ExtensionForm): string {
  return `${JSON.stringify(
    {
      uuid: EXTENSION_UUID,
      name: "deskhand",
      description:
        "Lets deskhand list windows, click, type and take screenshots for an agent, through its safety gate. Answers only callers holding the token it writes to a 0600 file in your runtime folder.",
      "shell-version": form === "gnome43" ? ["43", "44"] : ["45", "46", "47", "48", "49"],
      url: "https://github.com/deskhand/deskhand",
      version: 1,
    },
    null,
    2,
  )}\n`;
}

/** Which form a GNOME Shell of this major version loads. */
export function formFor(shellMajor: number): ExtensionForm {
  return shellMajor >= 45 ? "esm" : "gnome43";
}

/** Writes the extension into `dataHome`/gnome-shell/extensions; its folder. */
export async function writeExtension(dataHome: string, form: ExtensionForm): Promise<string> {
  const folder = join(dataHome, "gnome-shell", "extensions", EXTENSION_UUID);
  await mkdir(folder, { recursive: true });
  await writeFile(join(folder, "extension.js"), extensionSource(form));
  await writeFile(join(folder, "metadata.json"), extensionMetadata(form));
  return folder;
}
