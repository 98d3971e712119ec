// A GTK app's shortcuts window: by GTK's convention a GtkApplication's resources hold
// `…/help-overlay.ui`, the window its "Keyboard Shortcuts" shows, which lists each chord the app
// binds beside the title a person reads for it ("<control>s": "Save"). It is read from the program's
// own file with glib's `gresource` tool: the app is not asked, and shows nothing.
import { execFile } from "node:child_process";
import { readlink, stat } from "node:fs/promises";
import { promisify } from "node:util";
import { XMLParser } from "fast-xml-parser";
import type { ListedShortcut } from "./types.js";

const run = promisify(execFile);

/** The resource GTK shows as the shortcuts window, wherever the app's base path puts it. */
const HELP_OVERLAY = /\/help-overlay\.ui$/;
/** An overlay is a few kilobytes; a file this large is no shortcuts window. */
const MOST_BYTES = 1 << 20;

type XmlNode = Record<string, unknown>;
const asList = (value: unknown): XmlNode[] =>
  value === undefined ? [] : (Array.isArray(value) ? value : [value]).filter((v) => typeof v === "object");

/** The text of a `<property name="…">` among an object's properties. */
function property(object: XmlNode, name: string): string | undefined {
  const found = asList(object.property).find((p) => p["@_name"] === name);
  const text = found?.["#text"];
  return typeof text === "string" || typeof text === "number" ? String(text).trim() : undefined;
}

/**
 * The chords and titles of a GtkBuilder file's GtkShortcutsShortcut objects: those with an
 * accelerator (a gesture's shortcut has none; one given only an action name shows the app's own
 * accelerators for it, which the file does not hold).
 */
export function listedShortcuts(xml: string): ListedShortcut[] {
  const parser = new XMLParser({ ignoreAttributes: false, parseTagValue: false, processEntities: true });
  const found: ListedShortcut[] = [];
  const walk = (node: unknown) => {
    for (const object of asList((node as XmlNode | undefined)?.object)) {
      const accel = property(object, "accelerator");
      const title = property(object, "title");
      if (object["@_class"] === "GtkShortcutsShortcut" && accel && title) found.push({ accel, title });
      for (const child of asList(object.child)) walk(child);
    }
  };
  const document = parser.parse(xml) as XmlNode;
  walk(document.interface);
  return found;
}

/**
 * The shortcuts a program's shortcuts window lists, read from its file; none where it holds no
 * such window or glib's tool is missing. Cached by the file and its time of change.
 */
export async function programShortcuts(program: string, timeoutMs: number): Promise<ListedShortcut[]> {
  const changed = (await stat(program)).mtimeMs;
  const key = `${program}\u0000${changed}`;
  let read = cache.get(key);
  if (!read) {
    read = readShortcuts(program, timeoutMs);
    cache.set(key, read);
    // A failed read is tried again next time.
    read.catch(() => cache.delete(key));
  }
  return read;
}

const cache = new Map<string, Promise<ListedShortcut[]>>();

async function readShortcuts(program: string, timeoutMs: number): Promise<ListedShortcut[]> {
  const options = { timeout: timeoutMs, maxBuffer: MOST_BYTES };
  const listed = await run("gresource", ["list", program], options).catch((error: NodeJS.ErrnoException) => {
    // No tool, or a file with no resources: nothing is listed.
    if (error.code === "ENOENT" || typeof error.code === "number") return { stdout: "" };
    throw error;
  });
  const overlays = listed.stdout.split("\n").filter((path) => HELP_OVERLAY.test(path));
  const files = await Promise.all(
    overlays.map((path) => run("gresource", ["extract", program, path], options)),
  );
  return files.flatMap((file) => listedShortcuts(file.stdout));
}

/** The program a process runs, where /proc says ("/usr/bin/gnome-text-editor"). */
export async function programOf(pid: number): Promise<string | undefined> {
  return readlink(`/proc/${pid}/exe`).catch(() => undefined);
}
