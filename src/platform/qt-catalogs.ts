// Qt's own translations (.qm files): the words a Qt app's standard buttons show in its language.
// A Qt dialog's Save is labelled by Qt's catalog, not by gettext's: Polish Qt writes "Zachowaj",
// which gettext's catalogs hold only as Keep. The format is QTranslator's (qtranslator.cpp): a magic
// number, then blocks of a tag byte and a length; the messages block holds records of tagged fields
// ending in Tag_End. Read bounded: a damaged file gives what was read before the damage.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

const MAGIC = Buffer.from("3cb86418caef9c95cd211cbf60a1bddd", "hex");
const MESSAGES_BLOCK = 0x69;
const TAG = { end: 1, translation: 3, obsolete1: 5, source: 6, context: 7, comment: 8, obsolete2: 9 };
/** Larger than any catalog Qt or KDE ships (qtbase's are under 300 KB). */
const MOST_BYTES = 8 * 1024 * 1024;

export interface QtMessage {
  context: string;
  source: string;
  /** Its translations: one, or one per plural form. */
  translations: string[];
}

/** The messages of a .qm file that carry their source text; none for a file that is not one. */
export function readQtCatalog(path: string): QtMessage[] {
  let bytes: Buffer;
  try {
    if (statSync(path).size > MOST_BYTES) return [];
    bytes = readFileSync(path);
  } catch {
    return [];
  }
  if (bytes.length < MAGIC.length || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) return [];
  const messages: QtMessage[] = [];
  for (let at = MAGIC.length; at + 5 <= bytes.length; ) {
    const tag = bytes[at]!;
    const end = Math.min(bytes.length, at + 5 + bytes.readUInt32BE(at + 1));
    if (tag === MESSAGES_BLOCK) readMessages(bytes, at + 5, end, messages);
    at = end;
  }
  return messages;
}

function readMessages(bytes: Buffer, start: number, end: number, into: QtMessage[]): void {
  let message = { context: "", source: "", translations: [] as string[] };
  for (let at = start; at < end; ) {
    const tag = bytes[at++]!;
    if (tag === TAG.end) {
      if (message.source && message.translations.length) into.push(message);
      message = { context: "", source: "", translations: [] };
      continue;
    }
    if (tag === TAG.obsolete1 || tag === TAG.obsolete2) {
      at += 4;
      continue;
    }
    if (![TAG.translation, TAG.source, TAG.context, TAG.comment].includes(tag) || at + 4 > end) return;
    const length = bytes.readUInt32BE(at);
    at += 4;
    // A null translation is written with the length 0xffffffff and no bytes.
    if (length === 0xffffffff) continue;
    if (at + length > end) return;
    const field = bytes.subarray(at, at + length);
    at += length;
    if (tag === TAG.translation) message.translations.push(utf16be(field));
    else if (tag === TAG.source) message.source = field.toString("utf8");
    else if (tag === TAG.context) message.context = field.toString("utf8");
  }
}

/** UTF-16 big-endian text, as Qt writes translations. */
function utf16be(field: Buffer): string {
  const swapped = Buffer.from(field.subarray(0, field.length - (field.length % 2)));
  return swapped.swap16().toString("utf16le");
}

/** Where Qt's and KDE's catalogs are: Qt's own folders, and gettext's, where KDE puts its `_qt.qm`. */
const QT_FOLDERS = ["/usr/share/qt5/translations", "/usr/share/qt6/translations"];
const KDE_FOLDER = "/usr/share/locale";
/** KDE Frameworks' standard buttons (KStandardGuiItem), in each major version. */
const KDE_CATALOGS = ["kwidgetsaddons5_qt.qm", "kwidgetsaddons6_qt.qm"];

/**
 * The catalogs of Qt's standard buttons in a language ("pl_PL": qtbase_pl_PL.qm, else qtbase_pl.qm),
 * and of KDE's; the most specific name that exists, in each folder.
 */
export function qtButtonCatalogs(language: string, folders = { qt: QT_FOLDERS, kde: KDE_FOLDER }): string[] {
  const names = [...new Set([language.replace(/[.@].*$/, ""), language.split(/[_.@]/)[0]!])];
  const found: string[] = [];
  for (const folder of folders.qt) {
    const file = names.map((name) => join(folder, `qtbase_${name}.qm`)).find(existsSync);
    if (file) found.push(file);
  }
  for (const catalog of KDE_CATALOGS) {
    const file = names.map((name) => join(folders.kde, name, "LC_MESSAGES", catalog)).find(existsSync);
    if (file) found.push(file);
  }
  return found;
}

/** The languages Qt's own folders have a catalog of standard buttons in. */
export function qtButtonLanguages(folders = QT_FOLDERS): string[] {
  const languages = new Set<string>();
  for (const folder of folders) {
    let files: string[] = [];
    try {
      files = readdirSync(folder);
    } catch {
      continue;
    }
    for (const file of files) {
      const language = /^qtbase_(.+)\.qm$/.exec(file)?.[1];
      if (language) languages.add(language);
    }
  }
  return [...languages].sort();
}
