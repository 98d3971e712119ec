// A Qt app's standard buttons, read by Qt's own catalogs: the toolkit labels them, so its catalog
// says what they are, whatever another catalog's same word means. Polish Qt's Save is "Zachowaj",
// which gettext's catalogs hold only as Keep. Only a label that is a standard button whole, and only
// where every button it may be commits: this can make a label commit, never make one harmless.
import { qtButtonCatalogs, readQtCatalog } from "../platform/qt-catalogs.js";

// The catalog contexts of the buttons a Qt or KDE dialog shows: QDialogButtonBox's standard buttons
// (QPlatformTheme; QDialogButtonBox before Qt 5), the file dialog's own, and KDE's standard items.
const BUTTON_CONTEXTS = new Set([
  "QPlatformTheme",
  "QDialogButtonBox",
  "QFileDialog",
  "QGnomeTheme",
  "KStandardGuiItem",
]);
// Qt's buttons of the reject role (QDialogButtonBox::RejectRole): they close a dialog with nothing done.
const REJECTS = new Set(["cancel", "close", "abort"]);
// A button's text: four words at most, no sentence or placeholder ("%1\nFile not found…", a tooltip's
// "Close the current window.").
const BUTTON_TEXT = /^[^\s%:?!.]+(?: [^\s%:?!.]+){0,3}$/u;

/** A button's text as shown: no mnemonic, no ellipsis ("Yes to &All": "Yes to All"). */
const shownText = (text: string): string =>
  text
    .replace(/&(&?)/g, "$1")
    .replace(/(\.\.\.|…)$/u, "")
    .trim();

/**
 * A label as its accessible name says it, folded: a bracketed mnemonic after it ("모두 예(&A)", whose
 * name keeps "(A)") out too.
 */
const buttonKey = (text: string): string =>
  shownText(text.replace(/\s*\(&?\p{L}\)$/u, ""))
    .replace(/\s+/g, " ")
    .toLocaleLowerCase();

const byLanguage = new Map<string, Map<string, Set<string>>>();

/** Qt's standard buttons in a language: each text (buttonKey) and the English sources it translates. */
export function qtButtons(language: string): ReadonlyMap<string, ReadonlySet<string>> {
  let buttons = byLanguage.get(language);
  if (buttons) return buttons;
  buttons = new Map();
  for (const file of qtButtonCatalogs(language)) {
    for (const message of readQtCatalog(file)) {
      const source = shownText(message.source);
      if (!BUTTON_CONTEXTS.has(message.context) || !BUTTON_TEXT.test(source)) continue;
      const key = buttonKey(message.translations[0] ?? "");
      if (!key) continue;
      const sources = buttons.get(key) ?? new Set<string>();
      sources.add(source);
      buttons.set(key, sources);
    }
  }
  byLanguage.set(language, buttons);
  return buttons;
}

/**
 * The English standard button a label is in its Qt app's language ("Zachowaj": "Save"), where
 * every button it may be commits by `commits` (its English reading) and none is a reject button;
 * undefined otherwise, and for any other toolkit.
 */
export function committingToolkitButton(
  label: string,
  where: { toolkit?: string | undefined; language?: string | undefined },
  commits: (english: string) => boolean,
): string | undefined {
  if (where.toolkit?.toLowerCase() !== "qt" || !where.language) return undefined;
  const sources = qtButtons(where.language).get(buttonKey(label));
  if (!sources) return undefined;
  const all = [...sources];
  return all.every((source) => !REJECTS.has(source.toLowerCase()) && commits(source)) ? all[0] : undefined;
}
